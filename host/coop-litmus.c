/* coop-litmus: message-passing (MP), store-buffering (SB) and load-buffering (LB) litmus tests
 * between co-resident workgroups (kernels/litmus.cl), each with relaxed accesses only and with
 * coop_device/atomics.h's fences, and how often each weak outcome was seen. With the fences there must be
 * none: that is what the exit status says. */
#include "buffers.h"
#include "cli.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char coop_litmus_source[];

/* Words between two test locations: each gets its own 128-byte line (a GPU's L1/L2 line). */
enum { LINE_WORDS = 32 };

typedef struct litmus_spec {
    const char *name;          /* "MP" */
    const char *kernel;
    unsigned weak;             /* the outcome (a << 1 | b) the fences forbid */
    unsigned interleaved;      /* the outcome only overlapping sides can give */
    const char *weak_meaning;
} litmus_spec;

static const litmus_spec SPECS[] = {
    {"MP", "litmus_mp", 2, 1, "flag seen but data not"},
    {"SB", "litmus_sb", 0, 3, "both loads read 0"},
    {"LB", "litmus_lb", 3, 0, "both loads read 1"},
};
enum { TEST_COUNT = sizeof SPECS / sizeof SPECS[0] };

typedef struct config {
    unsigned iterations;
    size_t local_size;
    unsigned tests;            /* bit i: run SPECS[i] */
    int json;
} config;

/* Buffers sized for the most groups a run may use. */
typedef struct buffers {
    unsigned max_groups;
    size_t instances;          /* max_groups / 2 pairs times local size */
    cl_mem locations;          /* 2 * instances lines */
    cl_mem seen;               /* 2 words per instance */
    cl_mem outcomes;           /* 4 counters per instance */
} buffers;

typedef struct litmus_result {
    const litmus_spec *spec;
    int fenced;
    unsigned groups;
    uint64_t instances;        /* tests run: pairs * local size * iterations */
    uint64_t outcomes[4];
    double run_ms;
} litmus_result;

static const cli coop_litmus_cli = {
    "coop-litmus",
    "Usage: coop-litmus [--test mp|sb|lb|all] [--iterations N] [--local-size L] [--json]\n"
    "Runs memory-model litmus tests between co-resident workgroups.\n"
    "\n"
    "The workgroups are paired (2k, 2k+1), each work-item on its own locations, for N iterations\n"
    "separated by global barriers, first with relaxed accesses only (plain), then with libcoop's\n"
    "fences (fenced), and it prints how often each weak outcome was seen:\n"
    "  MP  message passing: weak if the flag is seen but the data is not\n"
    "  SB  store buffering: weak if both loads read 0\n"
    "  LB  load buffering:  weak if both loads read 1\n"
    "\n"
    "Options:\n"
    "  --test T          mp, sb, lb or all (default all)\n"
    "  --iterations N    iterations per pair, 1 to 10000000 (default 2000)\n"
    "  --local-size L    work-items per group, 1 to 65536 and at most what the device allows\n"
    "                    (default 64)\n"
    "  --json            write JSON instead of a table\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  no fenced test showed a weak outcome\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a fenced test showed a weak outcome (a memory-model bug)\n",
};

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, config *cfg)
{
    static const char *const tests[] = {"mp", "sb", "lb", "all"};
    const cli *c = &coop_litmus_cli;
    *cfg = (config){.iterations = 2000, .local_size = 64, .tests = (1u << TEST_COUNT) - 1};
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        if (cli_info_option(c, arg))
            return CLI_EXIT_OK;
        if (!strcmp(arg, "--json")) {
            cfg->json = 1;
            continue;
        }
        if (strcmp(arg, "--iterations") && strcmp(arg, "--local-size") && strcmp(arg, "--test")) {
            cli_fail(c, "unknown option '%s'", arg);
            return CLI_EXIT_ERROR;
        }
        if (!(value = cli_value(c, argc, argv, &i, &seen)))
            return CLI_EXIT_ERROR;
        unsigned number = 0;
        size_t test = 0;
        if (!strcmp(arg, "--iterations")) {
            if (cli_unsigned(c, arg, value, 1, 10000000, &cfg->iterations) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--local-size")) {
            if (cli_unsigned(c, arg, value, 1, CLI_MAX_LOCAL_SIZE, &number) != 0)
                return CLI_EXIT_ERROR;
            cfg->local_size = number;
        } else {
            if (cli_choice(c, arg, value, tests, 4, &test) != 0)
                return CLI_EXIT_ERROR;
            cfg->tests = test < TEST_COUNT ? 1u << test : (1u << TEST_COUNT) - 1;
        }
    }
    return -1;
}

static size_t buffer_words(const buffers *b, unsigned which)
{
    const size_t per_instance[] = {2 * LINE_WORDS, 2, 4};
    return b->instances * per_instance[which];
}

static int create_buffers(coop_context *ctx, size_t local_size, buffers *b)
{
    b->max_groups = coop_launch_groups(ctx, local_size);
    if (b->max_groups < 2)
        return error_report(coop_litmus_cli.name, "'%s' runs one group at a time: a test needs 2 (on PoCL, raise "
                            "POCL_MAX_PTHREAD_COUNT)", coop_context_device(ctx)->name);
    b->instances = (size_t)(b->max_groups / 2) * local_size;
    cl_mem *targets[] = {&b->locations, &b->seen, &b->outcomes};
    cl_int err = CL_SUCCESS;
    for (unsigned i = 0; i < 3; i++)
        *targets[i] = buffer_create(ctx, buffer_words(b, i) * sizeof(cl_uint), NULL, &err);
    return err == CL_SUCCESS ? 0 : error_cl(coop_litmus_cli.name, err, "clCreateBuffer");
}

static void release_buffers(buffers *b)
{
    const cl_mem all[] = {b->locations, b->seen, b->outcomes};
    buffers_release(all, 3);
}

/* Runs one test variant and adds up its outcomes: 0, or CLI_EXIT_ERROR after saying why. */
static int run_test(coop_context *ctx, coop_kernel *kernel, const config *cfg, const buffers *b, litmus_result *out)
{
    /* Zero locations: tags start at 1 again. */
    const cl_mem args[] = {b->locations, b->seen, b->outcomes};
    for (unsigned i = 0; i < 3; i++) {
        cl_int err = buffer_fill_words(coop_context_queue(ctx), args[i], 0, buffer_words(b, i));
        if (err != CL_SUCCESS)
            return error_cl(coop_litmus_cli.name, err, "clEnqueueFillBuffer");
    }
    cl_uint iterations = cfg->iterations;
    coop_status status = coop_kernel_set_arg(kernel, 0, sizeof iterations, &iterations);
    for (unsigned i = 0; i < 3 && status == COOP_OK; i++)
        status = coop_kernel_set_buffer(kernel, i + 1, args[i]);
    coop_launch launch = {.local_size = cfg->local_size, .max_groups = b->max_groups};
    coop_run_stats stats = {0};
    if (status == COOP_OK)
        status = coop_kernel_run(kernel, &launch, &stats);
    if (status != COOP_OK)
        return error_coop(coop_litmus_cli.name, ctx, status, NULL);
    if (stats.groups < 2)
        return error_report(coop_litmus_cli.name, "only %u co-resident group found: a test needs 2", stats.groups);
    size_t count = 4 * (size_t)(stats.groups / 2) * cfg->local_size;
    cl_uint *counts = malloc(count * sizeof *counts);
    if (!counts)
        return error_report(coop_litmus_cli.name, "out of memory");
    cl_int err = clEnqueueReadBuffer(coop_context_queue(ctx), b->outcomes, CL_TRUE, 0, count * sizeof *counts,
                                     counts, 0, NULL, NULL);
    for (size_t i = 0; i < count && err == CL_SUCCESS; i++)
        out->outcomes[i % 4] += counts[i];
    free(counts);
    if (err != CL_SUCCESS)
        return error_cl(coop_litmus_cli.name, err, "clEnqueueReadBuffer");
    out->groups = stats.groups;
    out->instances = (uint64_t)(count / 4) * cfg->iterations;
    out->run_ms = stats.run_ms;
    uint64_t total = out->outcomes[0] + out->outcomes[1] + out->outcomes[2] + out->outcomes[3];
    if (total != out->instances)
        return error_report(coop_litmus_cli.name, "%s: %llu outcomes recorded for %llu tests", out->spec->kernel,
                            (unsigned long long)total, (unsigned long long)out->instances);
    return 0;
}

static void print_json(const coop_device_info *info, const config *cfg, const litmus_result *results, size_t count)
{
    printf("{\"device\": ");
    json_string(stdout, info->name);
    printf(", \"platform\": ");
    json_string(stdout, info->platform);
    printf(", \"local_size\": %zu, \"tests\": [", cfg->local_size);
    for (size_t i = 0; i < count; i++) {
        const litmus_result *r = &results[i];
        printf("%s\n    {\"test\": \"%s\", \"fenced\": %s, \"iterations\": %u, \"instances\": %llu, "
               "\"weak\": %llu, \"interleaved\": %llu, \"groups\": %u, \"run_ms\": %.1f}",
               i ? "," : "", r->spec->name, r->fenced ? "true" : "false", cfg->iterations,
               (unsigned long long)r->instances, (unsigned long long)r->outcomes[r->spec->weak],
               (unsigned long long)r->outcomes[r->spec->interleaved], r->groups, r->run_ms);
    }
    printf("\n]}\n");
}

static void print_table(const coop_device_info *info, const config *cfg, const litmus_result *results, size_t count)
{
    printf("device: %s (%s), local size %zu, %u iterations per pair\n", info->name, info->platform,
           cfg->local_size, cfg->iterations);
    printf("%-4s  %-7s  %6s  %12s  %12s  %10s  %s\n", "test", "variant", "groups", "instances", "interleaved",
           "weak", "weak outcome");
    double total_ms = 0.0;
    for (size_t i = 0; i < count; i++) {
        const litmus_result *r = &results[i];
        printf("%-4s  %-7s  %6u  %12llu  %12llu  %10llu  %s\n", r->spec->name, r->fenced ? "fenced" : "plain",
               r->groups, (unsigned long long)r->instances, (unsigned long long)r->outcomes[r->spec->interleaved],
               (unsigned long long)r->outcomes[r->spec->weak], r->spec->weak_meaning);
        total_ms += r->run_ms;
    }
    printf("interleaved: outcomes only possible when the two sides overlapped in time\n"
           "(MP: data seen, flag not; SB: both loads read 1; LB: both loads read 0).\n");
    printf("%zu runs, %.1f ms of kernel time\n", count, total_ms);
}

/* Builds the plain (0) and fenced (1) programs, then runs each selected test in both variants.
 * Returns the number of results, or -1 after printing why it failed. */
static int run_tests(coop_context *ctx, const config *cfg, const buffers *b, litmus_result *results)
{
    coop_program *programs[2] = {NULL, NULL};
    int count = 0;
    for (int fenced = 0; fenced <= 1 && count == 0; fenced++) {
        char options[64];
        snprintf(options, sizeof options, "-DLITMUS_FENCED=%d -DLITMUS_LINE_WORDS=%d", fenced, LINE_WORDS);
        coop_status status = coop_program_create(ctx, coop_litmus_source, options, &programs[fenced]);
        if (status != COOP_OK) {
            error_coop(coop_litmus_cli.name, ctx, status, NULL);
            count = -1;
        }
    }
    for (unsigned test = 0; test < TEST_COUNT && count >= 0; test++) {
        for (int fenced = 0; fenced <= 1 && count >= 0 && (cfg->tests & (1u << test)); fenced++) {
            coop_kernel *kernel = NULL;
            coop_status status = coop_kernel_create(programs[fenced], SPECS[test].kernel, &kernel);
            litmus_result *r = &results[count];
            *r = (litmus_result){.spec = &SPECS[test], .fenced = fenced};
            if (status != COOP_OK) {
                error_coop(coop_litmus_cli.name, ctx, status, NULL);
                count = -1;
            } else if (run_test(ctx, kernel, cfg, b, r) != 0) {
                count = -1;
            } else {
                count++;
            }
            coop_kernel_release(kernel);
        }
    }
    coop_program_release(programs[0]);
    coop_program_release(programs[1]);
    return count;
}

int main(int argc, char **argv)
{
    config cfg;
    int rc = parse_args(argc, argv, &cfg);
    if (rc >= 0)
        return rc;
    coop_context *ctx = NULL;
    if (device_open(coop_litmus_cli.name, NULL, &ctx) != 0)
        return CLI_EXIT_ERROR;
    if (device_check_local_size(coop_litmus_cli.name, coop_context_device(ctx), cfg.local_size) != 0) {
        coop_context_release(ctx);
        return CLI_EXIT_ERROR;
    }
    buffers b = {0};
    litmus_result results[2 * TEST_COUNT];
    int count = create_buffers(ctx, cfg.local_size, &b) == 0 ? run_tests(ctx, &cfg, &b, results) : -1;
    release_buffers(&b);
    if (count < 0) {
        coop_context_release(ctx);
        return CLI_EXIT_ERROR;
    }
    const coop_device_info *info = coop_context_device(ctx);
    if (cfg.json)
        print_json(info, &cfg, results, (size_t)count);
    else
        print_table(info, &cfg, results, (size_t)count);
    rc = CLI_EXIT_OK;
    for (int i = 0; i < count; i++)
        if (results[i].fenced && results[i].outcomes[results[i].spec->weak])
            rc = CLI_EXIT_CHECK;
    coop_context_release(ctx);
    return rc;
}
