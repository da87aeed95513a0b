/* coop-qsort: a quicksort whose recursion is tasks spawned on the device (apps/qsort/), Whippletree's
 * procedures that spawn procedures: the cooperative kernel qsort partitions the keys with every
 * group and spawns a task per range; sort_part partitions a range and spawns its sides again;
 * small_sort sorts a short range in local memory. Every result is checked word for word against
 * the C library's qsort of the same keys, which is also the baseline that spawns nothing.
 *   standalone   the megakernel of the quicksort's procedures alone;
 *   cooperative  the same beside a periodic matmult task (kernels/tasks/matmult.cl), with kills
 *                and forks at the kernel's resizing barriers (--chaos);
 *   radix        the baseline on the device that spawns nothing: an LSD radix sort in one
 *                persistent kernel (apps/qsort/radix.cl, on the LBVH build's radix passes).
 *
 *   coop-qsort [--n N] [--dist D] [--seed S] [--mode all|standalone|cooperative|radix] [--chaos SEED]
 *              [--repeat R] [--levels L] [--cutoff C] [--max-depth D] [--task-groups G]
 *              [--local-size L] [--json FILE]
 *
 * Times: from the end of discovery until the host saw the kernel finished and every spawned run
 * done (coop_mega_report.run_ms - discovery_ms; radix: coop_run_stats' the same). Exit status: 0, 1 for an error, 2 for keys that
 * differ from the CPU's sort (or a wrong matmult product). */
#include "buffers.h"
#include "cli.h"
#include "clock.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "json.h"
#include "matmult_task.h"
#include "output.h"
#include "qsort_matmult_mega.h"
#include "qsort_mega.h"
#include "qsort_radix_standalone.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char qsort_mega_source[], qsort_matmult_mega_source[], qsort_radix_standalone_source[];

/* apps/qsort/qsort.h's limits and its stats words. */
enum { QS_MAX_LOCAL = 256, QS_LOCAL_KEYS = 2048, QS_MAX_LEVELS = 8, QS_SEG_WORDS = 4, QS_NODE_WORDS = 4,
       QS_DEPTH_MAX = 8 };
/* apps/lbvh/lbvh.h's digits a radix pass, for the radix form's histogram. */
enum { RADIX_DIGITS = 16 };
enum { STAT_SORT_PART, STAT_SMALL_SORT, STAT_FULL, STAT_TOO_DEEP, STAT_DEPTH_CUT, STAT_NO_NODE, STAT_INLINE,
       STAT_NODES, STATS };

/* The periodic task: matmult.cl's c = a x b of order MATMULT_TASK_ORDER on TASK_GROUPS workgroups. */
enum { TASK_GROUPS = 8 };
#define TASK_PERIOD_MS 2.0

/* PoCL's work-group compiler aborts on a megakernel of 1 or 2 work-items a group (docs/PROGRAMS.md). */
enum { N_MAX = 1u << 26, SHOWN_FAULTS = 10, MEGA_MIN_LOCAL = 3 };

typedef enum mode { MODE_STANDALONE, MODE_COOPERATIVE, MODE_RADIX, MODES } mode;
static const char *const mode_names[] = {"standalone", "cooperative", "radix"};

typedef enum dist { DIST_UNIFORM, DIST_SORTED, DIST_REVERSED, DIST_FEW_UNIQUE, DIST_EQUAL, DISTS } dist;
static const char *const dist_names[] = {"uniform", "sorted", "reversed", "few-unique", "equal"};

typedef struct options {
    unsigned n, seed, chaos, repeat, levels, cutoff, max_depth, task_groups;
    dist distribution;
    int modes[MODES];
    size_t local_size;       /* 0: the device's default, at most QS_MAX_LOCAL */
    const char *json;
} options;

/* One sort's figures, for the table and --json. */
typedef struct sort_record {
    mode form;
    unsigned seed, groups, kills, forks, task_runs, max_depth;
    unsigned stats[STATS];
    unsigned sort_part_runs, small_sort_runs; /* as the runtime's records count them */
    double ms;
    int status;              /* 0 right, 2 wrong */
} sort_record;

static const cli coop_qsort_cli = {
    "coop-qsort",
    "Usage: coop-qsort [--n N] [--dist D] [--seed S] [--mode all|standalone|cooperative|radix]\n"
    "                  [--chaos SEED] [--repeat R] [--levels L] [--cutoff C] [--max-depth D]\n"
    "                  [--task-groups G] [--local-size L] [--json FILE]\n"
    "Sorts 32-bit keys on the device with a quicksort whose recursion is tasks spawned on the device,\n"
    "and checks them against the C library's qsort.\n"
    "\n"
    "The cooperative kernel partitions the keys with every group, L levels deep, and spawns a task per\n"
    "range: sort_part (its workgroups partition the range together; the last one spawns a task for\n"
    "each side, one level deeper) or, for a range of at most C keys, small_sort (one workgroup sorts it\n"
    "in local memory). A spawn the runtime refuses (its queue full, or the chain of spawns 8 deep) or\n"
    "one past --max-depth is not lost: the group that would have spawned sorts that range itself.\n"
    "Forms: standalone (the quicksort alone), cooperative (beside a 64 x 64 matmult task every 2 ms on a\n"
    "quarter of the groups, checked too; groups killed and forked at the kernel's resizing barriers),\n"
    "radix (the baseline on the device that spawns nothing: an LSD radix sort, 4 bits a pass, in one\n"
    "persistent kernel). The CPU's qsort is timed too.\n"
    "\n"
    "Options:\n"
    "  --n N             keys, 1 to 67108864 (default 65536)\n"
    "  --dist D          uniform (default: random words), sorted, reversed, few-unique (16 values) or\n"
    "                    equal (every key the same: the ties' stress)\n"
    "  --seed S          the keys' random seed, 1 to 1073741824 (default 1)\n"
    "  --mode M          all (default: every form), standalone, cooperative or radix\n"
    "  --chaos SEED      cooperative: chaos mode from SEED, 1 to 1073741824 (kills and forks at random)\n"
    "  --repeat R        sorts of each form, 1 to 1000 (default 1); with --chaos the cooperative ones take\n"
    "                    seeds SEED .. SEED+R-1; after several, the table gives each form's median\n"
    "  --levels L        levels the cooperative kernel partitions, 0 to 8 (default 1: two ranges); it\n"
    "                    spawns a task per range, 2^L of them\n"
    "  --cutoff C        ranges of at most C keys go to small_sort, 1 to 2048 (default 1024)\n"
    "  --max-depth D     spawn no run deeper than D, 1 to 8; 0 (default): the runtime's limit, 8\n"
    "  --task-groups G   workgroups of a sort_part run at most, 1 to 1024 (default 8); it takes one per\n"
    "                    4096 keys\n"
    "  --local-size L    work-items per group, 3 to 256 (default: the device's, at most 256)\n"
    "  --json FILE       write every sort's figures and each form's median to FILE\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every sort equals the CPU's\n"
    "  1  a bad option, or a device or OpenCL error\n"
    "  2  a sort (or the matmult task's product) differs from the CPU's\n",
};

static int parse(int argc, char **argv, options *o)
{
    static const char *const modes[] = {"all", "standalone", "cooperative", "radix"};
    const cli *c = &coop_qsort_cli;
    *o = (options){.n = 65536, .seed = 1, .repeat = 1, .levels = 1, .cutoff = 1024, .task_groups = 8};
    unsigned local_size = 0;
    const cli_option known[] = {
        {"--n", &o->n, 1, N_MAX},
        {.name = "--dist"},
        {"--seed", &o->seed, 1, 1u << 30},
        {.name = "--mode"},
        {"--chaos", &o->chaos, 1, 1u << 30},
        {"--repeat", &o->repeat, 1, 1000},
        {"--levels", &o->levels, 0, QS_MAX_LEVELS},
        {"--cutoff", &o->cutoff, 1, QS_LOCAL_KEYS},
        {"--max-depth", &o->max_depth, 0, QS_DEPTH_MAX},
        {"--task-groups", &o->task_groups, 1, 1024},
        {"--local-size", &local_size, MEGA_MIN_LOCAL, QS_MAX_LOCAL},
        {.name = "--json"},
    };
    cli_seen seen = {0};
    int mode_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int k = cli_read_option(c, known, sizeof known / sizeof known[0], argc, argv, &i, &seen, &value);
        if (k < 0)
            return -1;
        const char *option = known[k].name;
        size_t choice = 0;
        int bad = 0;
        if (!strcmp(option, "--dist")) {
            bad = cli_choice(c, option, value, dist_names, DISTS, &choice);
            o->distribution = (dist)choice;
        } else if (!strcmp(option, "--mode")) {
            bad = cli_forms(c, option, value, modes, sizeof modes / sizeof modes[0], o->modes, NULL);
            mode_given = 1;
        } else if (!strcmp(option, "--json")) {
            o->json = value;
        }
        if (bad)
            return -1;
    }
    o->local_size = local_size;
    if (!mode_given)
        for (int m = 0; m < MODES; m++)
            o->modes[m] = 1;
    if (!o->modes[MODE_COOPERATIVE] && o->chaos)
        return cli_fail(c, "--chaos needs --mode cooperative or all");
    return 0;
}

/* The keys of distribution d from `seed` (xorshift32). */
static void make_keys(uint32_t *keys, unsigned n, dist d, unsigned seed)
{
    uint32_t x = seed * 2654435761u | 1u;
    for (unsigned i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        switch (d) {
        case DIST_UNIFORM: keys[i] = x; break;
        case DIST_SORTED: keys[i] = i; break;
        case DIST_REVERSED: keys[i] = n - 1 - i; break;
        case DIST_FEW_UNIQUE: keys[i] = (x >> 28) * 0x10000001u; break;
        default: keys[i] = 0x5a5a5a5au; break;
        }
    }
}

static int compare_keys(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* ---- The device's sort -------------------------------------------------------------------- */

typedef struct qsort_env {
    coop_context *ctx;
    unsigned n, node_cap, max_groups;
    size_t local_size;
    const uint32_t *input;
    cl_mem buffers[11];
    unsigned buffer_count;
    cl_mem keys, tmp, seg, nodes, stats, ids, ids_tmp, hist;
    matmult_task task;
} qsort_env;

static const char *const name = "coop-qsort";

/* Counter blocks for sort_part runs: one per range it is spawned for, and at each depth (1 .. 8)
 * those ranges are disjoint and longer than the cut-off. */
static unsigned node_cap_of(unsigned n, unsigned cutoff)
{
    return QS_DEPTH_MAX * (n / (cutoff + 1) + 1);
}

static int open_buffers(qsort_env *env)
{
    size_t n = env->n;
    buffer_spec made[] = {
        {&env->keys, n * 4, NULL},
        {&env->tmp, n * 4, NULL},
        {&env->seg, (2u << QS_MAX_LEVELS) * QS_SEG_WORDS * 4, NULL},
        {&env->nodes, (size_t)env->node_cap * QS_NODE_WORDS * 4, NULL},
        {&env->stats, STATS * 4, NULL},
        {&env->ids, n * 4, NULL},
        {&env->ids_tmp, n * 4, NULL},
        {&env->hist, (size_t)env->max_groups * RADIX_DIGITS * 4, NULL},
        {&env->task.a, sizeof env->task.a_host, env->task.a_host},
        {&env->task.b, sizeof env->task.b_host, env->task.b_host},
        {&env->task.c, sizeof env->task.a_host, NULL},
    };
    matmult_task_inputs(&env->task);
    cl_int err = buffers_create(env->ctx, made, sizeof made / sizeof made[0], env->buffers, &env->buffer_count);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clCreateBuffer");
    return 0;
}

/* Sets the quicksort's arguments: qsort's ten, then sort_part's four and small_sort's two, the
 * same indices in both megakernels (qsort_mega.h, qsort_matmult_mega.h). */
static int set_qsort_args(qsort_env *env, const options *o, coop_kernel *kernel)
{
    cl_mem buffers[] = {env->keys, env->tmp, NULL, NULL, env->seg, env->stats, NULL, NULL, NULL, NULL,
                        env->keys, env->tmp, env->nodes, env->stats, env->keys, env->tmp};
    cl_uint words[] = {0, 0, env->n, o->levels, 0, 0, o->cutoff, o->max_depth, o->task_groups, env->node_cap};
    coop_status status = COOP_OK;
    for (unsigned i = 0; i < QSORT_MEGA_ARG_COUNT && status == COOP_OK; i++)
        status = buffers[i] ? coop_kernel_set_buffer(kernel, i, buffers[i])
                            : coop_kernel_set_arg(kernel, i, sizeof words[i], &words[i]);
    return status == COOP_OK ? 0 : error_coop(name, env->ctx, status, "setting the kernel's arguments");
}

/* The input into keys; tmp poisoned (a key no partition wrote shows), the counters zeroed. */
static int reset(qsort_env *env)
{
    cl_command_queue queue = coop_context_queue(env->ctx);
    cl_int err = clEnqueueWriteBuffer(queue, env->keys, CL_FALSE, 0, (size_t)env->n * 4, env->input, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->tmp, 0xdeadbeefu, env->n);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->seg, 0, (2u << QS_MAX_LEVELS) * QS_SEG_WORDS);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->nodes, 0, (size_t)env->node_cap * QS_NODE_WORDS);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->stats, 0, STATS);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->task.c, 0, MATMULT_TASK_ORDER * MATMULT_TASK_ORDER);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    return err == CL_SUCCESS ? 0 : error_cl(name, err, "resetting the buffers");
}

/* radix.cl's arguments: keys, ids, keys_tmp, ids_tmp, hist, n. */
static int set_radix_args(qsort_env *env, coop_kernel *kernel)
{
    cl_mem buffers[] = {env->keys, env->ids, env->tmp, env->ids_tmp, env->hist};
    cl_uint n = env->n;
    coop_status status = COOP_OK;
    for (unsigned i = 0; i < sizeof buffers / sizeof buffers[0] && status == COOP_OK; i++)
        status = coop_kernel_set_buffer(kernel, i, buffers[i]);
    if (status == COOP_OK)
        status = coop_kernel_set_arg(kernel, RADIX_STANDALONE_ARG_radix_n, sizeof n, &n);
    return status == COOP_OK ? 0 : error_coop(name, env->ctx, status, "setting the radix kernel's arguments");
}

static int form_open(qsort_env *env, const options *o, mode m, run_kernel *f)
{
    static const char *const kernels[] = {QSORT_MEGA_NAME, QSORT_MATMULT_MEGA_NAME, RADIX_STANDALONE_NAME};
    const char *sources[] = {qsort_mega_source, qsort_matmult_mega_source, qsort_radix_standalone_source};
    coop_status status = coop_program_create(env->ctx, sources[m], NULL, &f->program);
    if (status == COOP_OK)
        status = coop_kernel_create(f->program, kernels[m], &f->kernel);
    if (status != COOP_OK)
        return error_coop(name, env->ctx, status, mode_names[m]);
    if (m == MODE_RADIX)
        return set_radix_args(env, f->kernel);
    if (set_qsort_args(env, o, f->kernel))
        return 1;
    if (m == MODE_COOPERATIVE) {
        status = matmult_task_set_args(&env->task, f->kernel, QSORT_MATMULT_MEGA_ARG_matmult_a,
                                       QSORT_MATMULT_MEGA_ARG_matmult_b, QSORT_MATMULT_MEGA_ARG_matmult_c);
        if (status != COOP_OK)
            return error_coop(name, env->ctx, status, "setting the task's arguments");
    }
    return 0;
}

/* The spawned runs among the report's records: per task, and the deepest. */
static void count_spawns(const coop_mega_report *report, sort_record *record)
{
    for (size_t i = 0; i < report->record_count; i++) {
        const coop_task_record *r = &report->records[i];
        if (!r->spawned)
            continue;
        record->sort_part_runs += r->task == QSORT_MEGA_TASK_sort_part;
        record->small_sort_runs += r->task == QSORT_MEGA_TASK_small_sort;
        if (r->depth > record->max_depth)
            record->max_depth = r->depth;
    }
}

/* The device's keys against the CPU's sort: 0, or 2 with the first differences printed. */
static int keys_check(qsort_env *env, const uint32_t *expected, uint32_t *got)
{
    cl_int err = clEnqueueReadBuffer(coop_context_queue(env->ctx), env->keys, CL_TRUE, 0, (size_t)env->n * 4, got, 0,
                                     NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clEnqueueReadBuffer");
    unsigned faults = 0;
    for (unsigned i = 0; i < env->n; i++)
        if (got[i] != expected[i] && faults++ < SHOWN_FAULTS)
            printf("keys[%u] = %u, expected %u\n", i, got[i], expected[i]);
    if (faults > SHOWN_FAULTS)
        printf("... %u keys differ in all\n", faults);
    return faults ? 2 : 0;
}

/* One sort by the radix kernel, checked; prints a line and gives its figures in *record; 0, 1
 * or 2. */
static int radix_once(qsort_env *env, run_kernel *f, const uint32_t *expected, uint32_t *got, sort_record *record)
{
    coop_launch launch = {.local_size = env->local_size};
    coop_run_stats stats = {0};
    if (run_persistent(name, env->ctx, f->kernel, &launch, &stats, NULL) != COOP_OK)
        return 1;
    *record = (sort_record){.form = MODE_RADIX, .groups = stats.groups, .ms = stats.run_ms - stats.discovery_ms};
    int status = keys_check(env, expected, got);
    if (status == 1)
        return 1;
    record->status = status;
    printf("radix: %.3f ms on %u groups, one kernel, no spawns: %s\n", record->ms, record->groups,
           status ? "keys WRONG" : "keys equal to the CPU's sort: ok");
    return status;
}

/* One sort in form m (chaos seed `seed`, 0: none), checked; prints a line and gives its figures
 * in *record; 0, 1 or 2. */
static int sort_once(qsort_env *env, mode m, run_kernel *f, unsigned seed, const uint32_t *expected, uint32_t *got,
                     sort_record *record)
{
    if (reset(env))
        return 1;
    if (m == MODE_RADIX)
        return radix_once(env, f, expected, got, record);
    coop_mega_report report = {0};
    coop_mega_params params = {.launch = {.local_size = env->local_size}, .chaos_seed = seed, .watchdog_s = 60};
    coop_task_plan plan = {.task = QSORT_MATMULT_MEGA_TASK_matmult, .workgroups = TASK_GROUPS,
                           .take = COOP_TAKE_QUARTER, .period_ms = TASK_PERIOD_MS, .args = {MATMULT_TASK_ORDER}};
    if (run_megakernel(name, env->ctx, f->kernel, &params, &plan, m == MODE_COOPERATIVE, &report, NULL) != COOP_OK) {
        coop_mega_report_free(&report);
        return 1;
    }
    *record = (sort_record){.form = m, .seed = seed, .groups = report.groups, .kills = report.kills,
                            .forks = report.forks, .ms = report.run_ms - report.discovery_ms};
    count_spawns(&report, record);
    record->task_runs = (unsigned)report.record_count - record->sort_part_runs - record->small_sort_runs;
    coop_mega_report_free(&report);
    cl_int err = clEnqueueReadBuffer(coop_context_queue(env->ctx), env->stats, CL_TRUE, 0, sizeof record->stats,
                                     record->stats, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clEnqueueReadBuffer");
    int status = keys_check(env, expected, got);
    if (status == 0 && m == MODE_COOPERATIVE && record->task_runs)
        status = matmult_task_check(&env->task, env->ctx, name);
    if (status == 1)
        return 1;
    /* every spawn the kernel counted as taken ran once, and none else */
    const unsigned *s = record->stats;
    if (status == 0 && (s[STAT_SORT_PART] != record->sort_part_runs || s[STAT_SMALL_SORT] != record->small_sort_runs)) {
        printf("spawns counted on the device (%u sort_part, %u small_sort) differ from the runs recorded (%u, %u)\n",
               s[STAT_SORT_PART], s[STAT_SMALL_SORT], record->sort_part_runs, record->small_sort_runs);
        status = 2;
    }
    record->status = status;
    printf("%s", mode_names[m]);
    if (m == MODE_COOPERATIVE)
        printf(" seed %u", seed);
    printf(": %.3f ms on %u groups, %u sort_part + %u small_sort runs spawned, depth %u; refused: %u full, "
           "%u too deep; %u past --max-depth, %u sorted inline",
           record->ms, record->groups, record->sort_part_runs, record->small_sort_runs, record->max_depth,
           s[STAT_FULL], s[STAT_TOO_DEEP], s[STAT_DEPTH_CUT], s[STAT_INLINE]);
    if (m == MODE_COOPERATIVE)
        printf("; %u kills, %u forks, %u task runs", record->kills, record->forks, record->task_runs);
    if (status == 2 && s[STAT_SORT_PART] == record->sort_part_runs && s[STAT_SMALL_SORT] == record->small_sort_runs)
        printf(": keys WRONG\n");
    else if (status == 2)
        printf(": WRONG\n");
    else
        printf(": keys equal to the CPU's sort: ok\n");
    return status;
}

/* The median time of the `count` records of form m; NAN for none. */
static double form_median(const sort_record *records, unsigned count, mode m, double *times)
{
    unsigned found = 0;
    for (unsigned i = 0; i < count; i++)
        if (records[i].form == m)
            times[found++] = records[i].ms;
    return found ? stats_quantile(times, found, 0.5) : NAN;
}

/* Every sort's figures and each form's median (and the CPU's) as one JSON object. */
static int write_json(const options *o, const qsort_env *env, const sort_record *records, unsigned count,
                      double *times, double cpu_ms)
{
    static const char *const stat_names[] = {"sort_part_spawned", "small_sort_spawned", "full", "too_deep",
                                             "depth_cut", "no_node", "inline", "nodes"};
    coop_outfile file;
    if (output_open(&file, name, o->json) != 0)
        return CLI_EXIT_ERROR;
    FILE *out = file.stream;
    const coop_device_info *info = coop_context_device(env->ctx);
    fprintf(out, "{\n  \"program\": \"coop-qsort\",\n  \"device\": ");
    json_string(out, info->name);
    fprintf(out, ",\n  \"platform\": ");
    json_string(out, info->platform);
    fprintf(out, ",\n  \"n\": %u,\n  \"dist\": \"%s\",\n  \"seed\": %u,\n  \"local_size\": %zu,\n  \"levels\": %u,\n"
            "  \"cutoff\": %u,\n  \"max_depth\": %u,\n  \"task_groups\": %u,\n  \"chaos_seed\": %u,\n  \"sorts\": [\n",
            env->n, dist_names[o->distribution], o->seed, env->local_size, o->levels, o->cutoff, o->max_depth,
            o->task_groups, o->chaos);
    for (unsigned i = 0; i < count; i++) {
        const sort_record *r = &records[i];
        fprintf(out, "    {\"form\": \"%s\", \"seed\": %u, \"time_ms\": %.6f, \"groups\": %u, \"kills\": %u, "
                "\"forks\": %u, \"task_runs\": %u, \"sort_part_runs\": %u, \"small_sort_runs\": %u, "
                "\"max_depth\": %u", mode_names[r->form], r->seed, r->ms, r->groups, r->kills, r->forks,
                r->task_runs, r->sort_part_runs, r->small_sort_runs, r->max_depth);
        for (int s = 0; s < STATS; s++)
            fprintf(out, ", \"%s\": %u", stat_names[s], r->stats[s]);
        fprintf(out, ", \"check\": \"%s\"}%s\n", r->status ? "wrong" : "ok", i + 1 < count ? "," : "");
    }
    fprintf(out, "  ],\n  \"median_ms\": {");
    for (int m = 0; m < MODES; m++) {
        fprintf(out, "%s\"%s\": ", m ? ", " : "", mode_names[m]);
        json_number(out, form_median(records, count, (mode)m, times));
    }
    fprintf(out, ", \"cpu_qsort\": ");
    json_number(out, cpu_ms);
    fprintf(out, "}\n}\n");
    return output_commit(&file, name);
}

/* The table: each form's median against the CPU's qsort, the baseline that spawns nothing. */
static void print_table(const sort_record *records, unsigned count, double *times, double cpu_ms, unsigned n)
{
    printf("%-12s %12s %14s %10s\n", "form", "median ms", "Mkeys/s", "vs qsort");
    /* radix and qsort: the baselines that spawn nothing, on the device and on the CPU */
    for (int m = 0; m < MODES; m++) {
        double ms = form_median(records, count, (mode)m, times);
        if (!isnan(ms))
            printf("%-12s %12.3f %14.2f %9.2fx\n", mode_names[m], ms, n / ms / 1e3, cpu_ms / ms);
    }
    printf("%-12s %12.3f %14.2f %9.2fx\n", "cpu qsort", cpu_ms, n / cpu_ms / 1e3, 1.0);
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_qsort_cli, argc, argv))
        return CLI_EXIT_OK;
    options o;
    if (parse(argc, argv, &o) != 0)
        return CLI_EXIT_ERROR;
    unsigned n = o.n;
    uint32_t *input = malloc((size_t)n * 4), *expected = malloc((size_t)n * 4), *got = malloc((size_t)n * 4);
    double *times = malloc((size_t)o.repeat * MODES * sizeof *times);
    sort_record *records = calloc((size_t)o.repeat * MODES, sizeof *records);
    if (!input || !expected || !got || !times || !records) {
        free(input), free(expected), free(got), free(times), free(records);
        return error_report(name, "out of memory for %u keys", n);
    }
    make_keys(input, n, o.distribution, o.seed);
    memcpy(expected, input, (size_t)n * 4);
    double cpu_start = clock_now_ms();
    qsort(expected, n, 4, compare_keys);
    double cpu_ms = clock_now_ms() - cpu_start;
    /* a line per sort, in order with libcoop's messages on standard error */
    setvbuf(stdout, NULL, _IOLBF, 0);
    output_catch_signals();
    qsort_env env = {.n = n, .input = input, .node_cap = node_cap_of(n, o.cutoff)};
    int result = device_open(name, NULL, &env.ctx);
    if (!result) {
        const coop_device_info *info = coop_context_device(env.ctx);
        env.local_size = o.local_size ? o.local_size : device_default_local_size(info);
        if (env.local_size > QS_MAX_LOCAL)
            env.local_size = QS_MAX_LOCAL;
        result = device_check_local_size(name, info, env.local_size);
        env.max_groups = coop_launch_groups(env.ctx, env.local_size);
    }
    if (!result)
        result = open_buffers(&env);
    if (!result)
        printf("qsort: %u keys (%s, seed %u), local size %zu, %u levels, cut-off %u, depth limit %u, "
               "sort_part at most %u workgroups; CPU qsort %.3f ms\n",
               n, dist_names[o.distribution], o.seed, env.local_size, o.levels, o.cutoff,
               o.max_depth ? o.max_depth : QS_DEPTH_MAX, o.task_groups, cpu_ms);
    unsigned wrong = 0, recorded = 0;
    for (int m = 0; !result && m < MODES; m++) {
        if (!o.modes[m])
            continue;
        run_kernel f = {0};
        result = form_open(&env, &o, (mode)m, &f);
        for (unsigned i = 0; !result && i < o.repeat; i++) {
            int run = sort_once(&env, (mode)m, &f, m == MODE_COOPERATIVE && o.chaos ? o.chaos + i : 0, expected, got,
                                &records[recorded]);
            if (run == 1)
                result = 1;
            else
                recorded++;
            wrong += run == 2;
        }
        run_kernel_release(&f);
    }
    if (!result)
        print_table(records, recorded, times, cpu_ms, n);
    if (!result && wrong)
        result = CLI_EXIT_CHECK;
    if (o.json && result != 1 && write_json(&o, &env, records, recorded, times, cpu_ms) != 0)
        result = 1;
    free(input);
    free(expected);
    free(got);
    free(times);
    free(records);
    buffers_release(env.buffers, env.buffer_count);
    coop_context_release(env.ctx);
    return result;
}
