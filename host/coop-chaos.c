/* coop-chaos: runs the example megakernel (kernels/generated/rounds_mega.cl, what coop-merge makes
 * of kernels/examples/rounds.cl and fill.cl) under chaos mode for a range of seeds, with a periodic task, and checks every result against the CPU reference. A
 * memory-model or scheduler bug shows up as a wrong element, a wrong task output or a watchdog
 * report; exit status 2 then. Options: coop_chaos_cli's help. */
#include "buffers.h"
#include "cli.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "output.h"
#include "rounds_mega.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char coop_rounds_source[];

static const cli coop_chaos_cli = {
    "coop-chaos",
    "Usage: coop-chaos [--seeds N] [--first S] [--rounds R] [--elements E] [--local-size L] [--tasks T]\n"
    "Checks the example megakernel against the CPU under many chaos seeds.\n"
    "\n"
    "Each seed runs kernels/examples/rounds.cl (R rounds adding one to E elements, resizing\n"
    "barriers between rounds) in chaos mode, which accepts kills and forks at random within the\n"
    "semantics, with a task of 37 workgroups taking a quarter of the groups every millisecond, T\n"
    "times; then every element and every task output is compared with the CPU's.\n"
    "\n"
    "Options:\n"
    "  --seeds N         seeds to run, 1 to 1000000 (default 20)\n"
    "  --first S         the first seed, 1 to 4294967295 (default 1); seeds S .. S+N-1\n"
    "  --rounds R        rounds per run, 1 to 1000000 (default 50)\n"
    "  --elements E      elements of the data array, 1 to 67108864 (default 65536)\n"
    "  --local-size L    work-items per group, 3 to 65536 and at most what the device allows\n"
    "                    (default 64); PoCL's compiler aborts on megakernels below 3\n"
    "  --tasks T         task submissions per run, 0 to 1000000 (default 3; 0: no task)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every seed's results equal the CPU's\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a seed gave a wrong value, or its run failed (the watchdog found no progress)\n",
};

typedef struct options {
    unsigned seeds, first, rounds, elements, tasks, task_groups, local_size;
} options;

/* -1 to go on, else the exit status. */
static int parse(int argc, char **argv, options *o)
{
    static const char *const names[] = {"--seeds", "--first", "--rounds", "--elements", "--local-size", "--tasks"};
    const cli *c = &coop_chaos_cli;
    *o = (options){.seeds = 20, .first = 1, .rounds = 50, .elements = 1 << 16, .tasks = 3, .task_groups = 37,
                   .local_size = 64};
    unsigned *fields[] = {&o->seeds, &o->first, &o->rounds, &o->elements, &o->local_size, &o->tasks};
    /* local sizes from 3: PoCL's compiler aborts on megakernels below (libcoop/src/launch.c) */
    const unsigned least[] = {1, 1, 1, 1, 3, 0};
    const unsigned most[] = {1000000, UINT32_MAX, 1000000, 1u << 26, CLI_MAX_LOCAL_SIZE, 1000000};
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_info_option(c, argv[i]))
            return CLI_EXIT_OK;
        size_t f = 0;
        while (f < 6 && strcmp(argv[i], names[f]))
            f++;
        if (f == 6) {
            cli_fail(c, "unknown option '%s'", argv[i]);
            return CLI_EXIT_ERROR;
        }
        const char *value = cli_value(c, argc, argv, &i, &seen);
        if (!value || cli_unsigned(c, names[f], value, least[f], most[f], fields[f]) != 0)
            return CLI_EXIT_ERROR;
    }
    if (o->seeds - 1 > UINT32_MAX - o->first) {
        cli_fail(c, "--first %u with --seeds %u goes past seed 4294967295", o->first, o->seeds);
        return CLI_EXIT_ERROR;
    }
    return -1;
}

/* Runs one seed; returns the number of wrong values, or -1 on a run error. */
static long run_seed(coop_context *ctx, coop_kernel *kernel, const options *o, unsigned seed, cl_mem data,
                     cl_mem out, coop_mega_report *report, coop_status *status_out)
{
    cl_command_queue queue = coop_context_queue(ctx);
    size_t out_words = (size_t)o->task_groups * o->local_size;
    buffer_fill_words(queue, data, 0, o->elements);
    buffer_fill_words(queue, out, 0, out_words);
    coop_mega_params params = {.launch = {.local_size = o->local_size}, .chaos_seed = seed, .watchdog_s = 10};
    coop_task_plan plan = {.task = ROUNDS_MEGA_TASK_fill, .workgroups = o->task_groups, .take = COOP_TAKE_QUARTER, .period_ms = 1,
                           .repeats = o->tasks, .args = {seed}};
    coop_status status = coop_mega_run(kernel, &params, &plan, o->tasks ? 1 : 0, report);
    *status_out = status;
    if (status != COOP_OK) {
        char what[32];
        snprintf(what, sizeof what, "seed %u", seed);
        error_coop(coop_chaos_cli.name, ctx, status, what);
        return -1;
    }
    cl_uint *values = malloc((o->elements > out_words ? o->elements : out_words) * sizeof *values);
    long wrong = 0;
    clEnqueueReadBuffer(queue, data, CL_TRUE, 0, o->elements * sizeof(cl_uint), values, 0, NULL, NULL);
    for (unsigned i = 0; i < o->elements; i++)
        wrong += values[i] != o->rounds;
    if (report->record_count) {
        clEnqueueReadBuffer(queue, out, CL_TRUE, 0, out_words * sizeof(cl_uint), values, 0, NULL, NULL);
        for (unsigned g = 0; g < o->task_groups; g++)
            for (size_t l = 0; l < o->local_size; l++)
                wrong += values[g * o->local_size + l] != g * 7u + l + seed;
    }
    free(values);
    return wrong;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    output_catch_signals(); /* a trace (COOP_TRACE_FILE) being written */
    coop_context *ctx = NULL;
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    if (device_open(coop_chaos_cli.name, NULL, &ctx) != 0)
        return CLI_EXIT_ERROR;
    coop_status status = coop_program_create(ctx, coop_rounds_source, NULL, &program);
    if (status == COOP_OK)
        status = coop_kernel_create(program, ROUNDS_MEGA_NAME, &kernel);
    if (status == COOP_OK && device_check_local_size(coop_chaos_cli.name, coop_context_device(ctx), o.local_size)) {
        coop_kernel_release(kernel);
        coop_program_release(program);
        coop_context_release(ctx);
        return CLI_EXIT_ERROR;
    }
    cl_int err = CL_SUCCESS;
    cl_mem data = NULL, out = NULL;
    if (status == COOP_OK) {
        data = buffer_create(ctx, o.elements * sizeof(cl_uint), NULL, &err);
        out = buffer_create(ctx, (size_t)o.task_groups * o.local_size * 4, NULL, &err);
        coop_kernel_set_buffer(kernel, ROUNDS_MEGA_ARG_rounds_data, data);
        coop_kernel_set_arg(kernel, ROUNDS_MEGA_ARG_rounds_n, sizeof o.elements, &o.elements);
        coop_kernel_set_arg(kernel, ROUNDS_MEGA_ARG_rounds_count, sizeof o.rounds, &o.rounds);
        coop_kernel_set_buffer(kernel, ROUNDS_MEGA_ARG_fill_out, out);
    }
    if (status != COOP_OK || err != CL_SUCCESS) {
        error_coop(coop_chaos_cli.name, ctx, status, NULL);
        coop_context_release(ctx);
        return CLI_EXIT_ERROR;
    }
    printf("coop-chaos on %s: %u seeds from %u, %u rounds over %u elements, %u tasks of %u workgroups each\n",
           coop_context_device(ctx)->name, o.seeds, o.first, o.rounds, o.elements, o.tasks, o.task_groups);
    unsigned failed = 0, kills = 0, forks = 0, resizes = 0, tasks = 0;
    for (unsigned n = 0; n < o.seeds; n++) {
        unsigned seed = o.first + n;
        coop_mega_report report;
        coop_status run_status = COOP_OK;
        long wrong = run_seed(ctx, kernel, &o, seed, data, out, &report, &run_status);
        if (wrong < 0) /* the kernel may still run after a watchdog report: exit */
            return run_status == COOP_ERR_INVALID_ARGUMENT ? CLI_EXIT_ERROR : CLI_EXIT_CHECK;
        if (wrong)
            printf("seed %u: %ld wrong values\n", seed, wrong);
        failed += wrong != 0;
        kills += report.kills;
        forks += report.forks;
        resizes += report.resizes;
        tasks += report.tasks;
        coop_mega_report_free(&report);
    }
    printf("%u of %u seeds wrong; %u kills, %u forks, %u resizes, %u tasks in all\n", failed, o.seeds, kills, forks,
           resizes, tasks);
    const cl_mem buffers[] = {data, out};
    buffers_release(buffers, 2);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
    return failed ? CLI_EXIT_CHECK : CLI_EXIT_OK;
}
