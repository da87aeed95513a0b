/* sched-bench: what cooperation costs and how fast a high-priority task gets its groups
 * (sched_bench_cli's help says what it runs and takes).
 *
 * 1. Overhead, work-stealing style: the same unit loop as a plain persistent kernel and as a
 *    cooperative megakernel offering kill and fork after every unit (no task ever comes).
 * 2. Overhead, barrier style: rounds separated by global barriers, plain, against resizing
 *    barriers in a megakernel.
 * 3. Gather: the cooperative unit loop (offering kill after every unit: every 8.5 us on an H100
 *    at the default 2000 iterations; printed as measured) while a short task asks for groups
 *    every period; gather, execution and response times.
 * Times are medians over R runs, from the end of discovery until the host saw the kernel end
 * (plain) or every member finish (cooperative); the device is chosen with COOP_DEVICE etc.
 * The kernels are benchmarks/sched/units.cl and rounds.cl in the cooperative language, with the
 * task task.cl: their megakernels and standalone forms (the plain baselines) are what coop-merge
 * makes of them (kernels/generated/sched_*), bound by the names of the generated headers. */
#include "buffers.h"
#include "cli.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "output.h"
#include "sched_rounds_mega.h"
#include "sched_rounds_standalone.h"
#include "sched_units_mega.h"
#include "sched_units_standalone.h"
#include "stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli sched_bench_cli = {
    "sched-bench",
    "Usage: sched-bench [--quick] [--repeat R] [--local-size L] [--iters N] [--units-per-group U]\n"
    "                   [--rounds N] [--period-ms P] [--take one|quarter|half|all-but-one|K] [--tasks T]\n"
    "                   [--options \"BUILD OPTIONS\"]\n"
    "Measures what cooperation costs and how fast a high-priority task gets its groups.\n"
    "\n"
    "Three figures: the overhead of a unit loop (work-stealing style) as a cooperative megakernel\n"
    "offering kill and fork after every unit, against the same loop as a plain persistent kernel;\n"
    "the overhead of rounds separated by resizing barriers against plain global barriers; and the\n"
    "gather, execution and response times of a short task that takes groups from the unit loop\n"
    "every period. Times are medians over R runs. Defaults differ on a GPU (first) and a CPU.\n"
    "\n"
    "Options:\n"
    "  --quick              one run per figure and a tenth of the default units, rounds and tasks\n"
    "  --repeat R           runs per figure, 1 to 1000 (default 5)\n"
    "  --local-size L       work-items per group, 3 to 65536 and at most what the device allows\n"
    "                       (default 256 / 64); PoCL's compiler aborts on megakernels below 3\n"
    "  --iters N            iterations of one unit's work, 1 to 10000000 (default 2000 / 20000)\n"
    "  --units-per-group U  units per launched group, 1 to 1000000 (default 20000 / 100)\n"
    "  --rounds N           rounds of the barrier figure, 1 to 1000000 (default 2000 / 200)\n"
    "  --period-ms P        the task's period in ms, above 0 and at most 1000000 (default 1 / 20)\n"
    "  --take T             groups the task takes: one, quarter, half, all-but-one or a count from\n"
    "                       1 to 4095 (default quarter)\n"
    "  --tasks T            task submissions, 1 to 1000000 (default 1000 / 20)\n"
    "  --options \"...\"     extra kernel build options\n"
    "  -h, --help           print this help and exit\n"
    "  --version            print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  the figures were measured and every unit ran exactly once\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a unit of the gather run did not run exactly once\n",
};

extern const char sched_units_mega_source[], sched_units_standalone_source[], sched_rounds_mega_source[],
    sched_rounds_standalone_source[];

/* The four programs, built once each. */
enum { UNITS_PLAIN, UNITS_MEGA, ROUNDS_PLAIN, ROUNDS_MEGA, PROGRAMS };

typedef struct settings {
    int quick;
    unsigned repeat, iters, units_per_group, rounds, tasks, task_iters;
    unsigned local_size;
    double period_ms;
    coop_take take;
    unsigned take_count;
    const char *options;       /* extra kernel build options */
} settings;

typedef struct bench {
    coop_context *ctx;
    coop_program *programs[PROGRAMS];
    cl_mem next, sink, task_sink, done;
    settings s;
    unsigned groups_bound;
} bench;

/* Every unit of a units run must have counted itself exactly once. */
static unsigned check_units(bench *b)
{
    size_t units = (size_t)b->s.units_per_group * b->groups_bound;
    cl_uint *done = malloc(units * sizeof *done);
    if (!done)
        return 1;
    clEnqueueReadBuffer(coop_context_queue(b->ctx), b->done, CL_TRUE, 0, units * sizeof *done, done, 0, NULL, NULL);
    unsigned wrong = 0;
    for (size_t unit = 0; unit < units; unit++)
        wrong += done[unit] != 1;
    free(done);
    return wrong;
}

/* Resets the unit counter and the per-unit counts before a units run. */
static coop_status zero_next(bench *b)
{
    const cl_uint zero = 0;
    size_t units = (size_t)b->s.units_per_group * b->groups_bound;
    cl_int err = buffer_fill_words(coop_context_queue(b->ctx), b->done, 0, units);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(coop_context_queue(b->ctx), b->next, CL_TRUE, 0, sizeof zero, &zero, 0, NULL,
                                   NULL);
    return err == CL_SUCCESS ? COOP_OK : COOP_ERR_OPENCL;
}

/* Binds the arguments of program `which`: the unit loop's (next, units, iters, sink, done) or the
 * round loop's (rounds, iters, sink); megakernels add the task's (task_iters, task_sink). */
static coop_status set_args(bench *b, coop_kernel *k, int which)
{
    cl_uint units = b->s.units_per_group * b->groups_bound;
    coop_status status = COOP_OK;
#define SET_BUFFER(index, buffer) (status == COOP_OK ? (status = coop_kernel_set_buffer(k, index, buffer)) : status)
#define SET_UINT(index, value) (status == COOP_OK ? (status = coop_kernel_set_arg(k, index, sizeof(cl_uint), &value)) : status)
    switch (which) {
    case UNITS_PLAIN:
        SET_BUFFER(SCHED_UNITS_STANDALONE_ARG_sched_units_next, b->next);
        SET_UINT(SCHED_UNITS_STANDALONE_ARG_sched_units_units, units);
        SET_UINT(SCHED_UNITS_STANDALONE_ARG_sched_units_iters, b->s.iters);
        SET_BUFFER(SCHED_UNITS_STANDALONE_ARG_sched_units_sink, b->sink);
        SET_BUFFER(SCHED_UNITS_STANDALONE_ARG_sched_units_done, b->done);
        break;
    case UNITS_MEGA:
        SET_BUFFER(SCHED_UNITS_MEGA_ARG_sched_units_next, b->next);
        SET_UINT(SCHED_UNITS_MEGA_ARG_sched_units_units, units);
        SET_UINT(SCHED_UNITS_MEGA_ARG_sched_units_iters, b->s.iters);
        SET_BUFFER(SCHED_UNITS_MEGA_ARG_sched_units_sink, b->sink);
        SET_BUFFER(SCHED_UNITS_MEGA_ARG_sched_units_done, b->done);
        SET_UINT(SCHED_UNITS_MEGA_ARG_task_short_task_iters, b->s.task_iters);
        SET_BUFFER(SCHED_UNITS_MEGA_ARG_task_short_task_sink, b->task_sink);
        break;
    case ROUNDS_PLAIN:
        SET_UINT(SCHED_ROUNDS_STANDALONE_ARG_sched_rounds_rounds, b->s.rounds);
        SET_UINT(SCHED_ROUNDS_STANDALONE_ARG_sched_rounds_iters, b->s.iters);
        SET_BUFFER(SCHED_ROUNDS_STANDALONE_ARG_sched_rounds_sink, b->sink);
        break;
    default:
        SET_UINT(SCHED_ROUNDS_MEGA_ARG_sched_rounds_rounds, b->s.rounds);
        SET_UINT(SCHED_ROUNDS_MEGA_ARG_sched_rounds_iters, b->s.iters);
        SET_BUFFER(SCHED_ROUNDS_MEGA_ARG_sched_rounds_sink, b->sink);
        SET_UINT(SCHED_ROUNDS_MEGA_ARG_task_short_task_iters, b->s.task_iters);
        SET_BUFFER(SCHED_ROUNDS_MEGA_ARG_task_short_task_sink, b->task_sink);
        break;
    }
#undef SET_BUFFER
#undef SET_UINT
    return status;
}

static const char *const kernel_names[PROGRAMS] = {SCHED_UNITS_STANDALONE_NAME, SCHED_UNITS_MEGA_NAME,
                                                    SCHED_ROUNDS_STANDALONE_NAME, SCHED_ROUNDS_MEGA_NAME};

/* The kernel of program `which`, its arguments bound. */
static coop_status make_kernel(bench *b, int which, coop_kernel **kernel)
{
    coop_status status = coop_kernel_create(b->programs[which], kernel_names[which], kernel);
    return status == COOP_OK ? set_args(b, *kernel, which) : status;
}

/* Median run time (ms, after discovery) of a plain and of a cooperative kernel. */
static int overhead(bench *b, int units)
{
    coop_kernel *plain = NULL, *mega = NULL;
    const char *mega_name = kernel_names[units ? UNITS_MEGA : ROUNDS_MEGA];
    coop_status status = make_kernel(b, units ? UNITS_PLAIN : ROUNDS_PLAIN, &plain);
    if (status == COOP_OK)
        status = make_kernel(b, units ? UNITS_MEGA : ROUNDS_MEGA, &mega);
    double *plain_ms = calloc(b->s.repeat, sizeof *plain_ms), *mega_ms = calloc(b->s.repeat, sizeof *mega_ms);
    unsigned groups = 0, members = 0;
    coop_launch launch = {.local_size = b->s.local_size};
    coop_mega_params params = {.launch = launch};
    for (unsigned r = 0; r <= b->s.repeat && status == COOP_OK; r++) {
        coop_run_stats stats;
        if ((status = zero_next(b)) != COOP_OK || (status = coop_kernel_run(plain, &launch, &stats)) != COOP_OK)
            break;
        coop_mega_report report;
        if ((status = zero_next(b)) != COOP_OK || (status = coop_mega_run(mega, &params, NULL, 0, &report)) != COOP_OK)
            break;
        if (r > 0) { /* the first pair warms up (PoCL compiles at first launch) */
            plain_ms[r - 1] = stats.run_ms - stats.discovery_ms;
            mega_ms[r - 1] = report.cooperative_ms;
        }
        groups = stats.groups;
        members = report.members_start;
        coop_mega_report_free(&report);
    }
    int rc = 0;
    if (status != COOP_OK) {
        rc = error_coop(sched_bench_cli.name, b->ctx, status, mega_name);
    } else {
        double p = stats_quantile(plain_ms, b->s.repeat, 0.5), c = stats_quantile(mega_ms, b->s.repeat, 0.5);
        printf("%-8s plain %9.3f ms on %4u groups   cooperative %9.3f ms on %4u members   overhead %+6.2f%%\n",
               units ? "units" : "rounds", p, groups, c, members, (c / p - 1.0) * 100.0);
    }
    free(plain_ms);
    free(mega_ms);
    coop_kernel_release(plain);
    coop_kernel_release(mega);
    return rc;
}

static int gather(bench *b)
{
    coop_kernel *mega = NULL;
    coop_status status = make_kernel(b, UNITS_MEGA, &mega);
    if (status == COOP_OK)
        status = zero_next(b);
    coop_task_plan plan = {.task = SCHED_UNITS_MEGA_TASK_task_short, .take = b->s.take, .take_count = b->s.take_count,
                           .period_ms = b->s.period_ms, .repeats = b->s.tasks};
    coop_mega_params params = {.launch = {.local_size = b->s.local_size}};
    /* one workgroup per group taken: the plan's workgroups follow the take */
    plan.workgroups = 1;
    coop_mega_report report = {0};
    if (status == COOP_OK) {
        unsigned members = b->groups_bound;
        switch (plan.take) {
        case COOP_TAKE_ONE: plan.workgroups = 1; break;
        case COOP_TAKE_QUARTER: plan.workgroups = members / 4 ? members / 4 : 1; break;
        case COOP_TAKE_HALF: plan.workgroups = members / 2 ? members / 2 : 1; break;
        case COOP_TAKE_ALL_BUT_ONE: plan.workgroups = members > 1 ? members - 1 : 1; break;
        default: plan.workgroups = plan.take_count; break;
        }
        status = coop_mega_run(mega, &params, &plan, 1, &report);
    }
    if (status != COOP_OK) {
        coop_kernel_release(mega);
        return error_coop(sched_bench_cli.name, b->ctx, status, "gather run");
    }
    unsigned wrong = check_units(b);
    size_t n = report.record_count;
    double *values[3];
    unsigned met = 0, taken = n ? report.records[0].groups : 0;
    for (int i = 0; i < 3; i++)
        values[i] = calloc(n ? n : 1, sizeof(double));
    for (size_t i = 0; i < n; i++) {
        values[0][i] = report.records[i].gather_us;
        values[1][i] = report.records[i].exec_us;
        values[2][i] = report.records[i].response_us;
        met += (unsigned)report.records[i].deadline_met;
    }
    printf("gather   %zu tasks taking %u of %u members every %.2f ms (%s-timed); kills %u forks %u; "
           "mean members %.1f\n", n, taken, report.members_start, b->s.period_ms,
           n && report.records[0].device_timed ? "device" : "host", report.kills, report.forks, report.mean_members);
    const char *names[3] = {"gather", "exec", "response"};
    for (int i = 0; i < 3; i++)
        printf("         %-8s median %9.2f us   p99 %9.2f us   max %9.2f us\n", names[i],
               stats_quantile(values[i], n, 0.5), stats_quantile(values[i], n, 0.99), stats_quantile(values[i], n, 1.0));
    printf("         deadlines met %u of %zu; units not run exactly once: %u\n", met, n, wrong);
    /* Each member offers kill after each unit: the mean time between its offers is its share
     * of the run, time x mean members / units (tasks' groups included: a slight overestimate). */
    size_t units = (size_t)b->s.units_per_group * b->groups_bound;
    printf("         offers: a member offers kill every %.1f us on average (%zu units)\n",
           units ? report.cooperative_ms * 1e3 * report.mean_members / (double)units : 0.0, units);
    /* the app's side of the trade, against the units figure's plain run (scripts/alternatives) */
    printf("         app run  %9.3f ms with the tasks\n", report.cooperative_ms);
    for (int i = 0; i < 3; i++)
        free(values[i]);
    coop_mega_report_free(&report);
    coop_kernel_release(mega);
    return wrong ? CLI_EXIT_CHECK : CLI_EXIT_OK;
}

/* The options; 0 in a setting leaves the device's default (defaults()). -1 to go on, else the exit
 * status. */
static int parse(int argc, char **argv, settings *s)
{
    static const char *const names[] = {"--repeat", "--iters", "--units-per-group", "--rounds", "--tasks",
                                        "--local-size"};
    static const unsigned most[] = {1000, 10000000, 1000000, 1000000, 1000000, CLI_MAX_LOCAL_SIZE};
    const cli *c = &sched_bench_cli;
    *s = (settings){.take = COOP_TAKE_QUARTER};
    unsigned *fields[] = {&s->repeat, &s->iters, &s->units_per_group, &s->rounds, &s->tasks, &s->local_size};
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        if (cli_info_option(c, arg))
            return CLI_EXIT_OK;
        if (!strcmp(arg, "--quick")) {
            s->quick = 1;
            continue;
        }
        size_t f = 0;
        while (f < 6 && strcmp(arg, names[f]))
            f++;
        int known = f < 6 || !strcmp(arg, "--period-ms") || !strcmp(arg, "--take") || !strcmp(arg, "--options");
        if (!known) {
            cli_fail(c, "unknown option '%s'", arg);
            return CLI_EXIT_ERROR;
        }
        if (!(value = cli_value(c, argc, argv, &i, &seen)))
            return CLI_EXIT_ERROR;
        if (f < 6) {
            /* local sizes from 3: PoCL's compiler aborts on megakernels below (libcoop/src/launch.c) */
            if (cli_unsigned(c, arg, value, f == 5 ? 3 : 1, most[f], fields[f]) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--period-ms")) {
            if (cli_positive(c, arg, value, 1e6, &s->period_ms) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--take")) {
            if (cli_take(c, arg, value, &s->take, &s->take_count) != 0)
                return CLI_EXIT_ERROR;
        } else {
            s->options = value;
        }
    }
    return -1;
}

/* The device's defaults where no option gave a value; --quick takes a tenth of the default
 * units, rounds and tasks and runs each figure once. 20000 units per group: on an H100 the gather
 * run lasts about 260 ms, 260 tasks (5000 gave 66, and gather medians that moved by 2 us between
 * runs). */
static void defaults(settings *s, int gpu)
{
    const settings d = {.repeat = 5, .iters = gpu ? 2000 : 20000, .units_per_group = gpu ? 20000 : 100,
                        .rounds = gpu ? 2000 : 200, .tasks = gpu ? 1000 : 20, .local_size = gpu ? 256 : 64,
                        .period_ms = gpu ? 1.0 : 20.0};
    unsigned quick = s->quick ? 10 : 1;
    s->repeat = s->repeat ? s->repeat : s->quick ? 1 : d.repeat;
    s->iters = s->iters ? s->iters : d.iters;
    s->units_per_group = s->units_per_group ? s->units_per_group : d.units_per_group / quick;
    s->rounds = s->rounds ? s->rounds : d.rounds / quick;
    s->tasks = s->tasks ? s->tasks : d.tasks / quick;
    s->local_size = s->local_size ? s->local_size : d.local_size;
    s->period_ms = s->period_ms > 0 ? s->period_ms : d.period_ms;
    s->task_iters = gpu ? 1000 : 5000;
}

int main(int argc, char **argv)
{
    bench b = {0};
    int rc = parse(argc, argv, &b.s);
    if (rc >= 0)
        return rc;
    output_catch_signals(); /* a trace (COOP_TRACE_FILE) being written */
    if (device_open(sched_bench_cli.name, "context", &b.ctx) != 0)
        return CLI_EXIT_ERROR;
    coop_status status = COOP_OK;
    const coop_device_info *info = coop_context_device(b.ctx);
    defaults(&b.s, info->is_gpu);
    if (device_check_local_size(sched_bench_cli.name, info, b.s.local_size) != 0) {
        coop_context_release(b.ctx);
        return CLI_EXIT_ERROR;
    }
    b.groups_bound = coop_launch_groups(b.ctx, b.s.local_size);
    size_t sink_words = (size_t)4096 * b.s.local_size;
    cl_int err = CL_SUCCESS;
    b.next = buffer_create(b.ctx, sizeof(cl_uint), NULL, &err);
    b.sink = buffer_create(b.ctx, sink_words * sizeof(cl_uint), NULL, &err);
    b.task_sink = buffer_create(b.ctx, sink_words * sizeof(cl_uint), NULL, &err);
    b.done = buffer_create(b.ctx, (size_t)b.s.units_per_group * b.groups_bound * sizeof(cl_uint), NULL, &err);
    if (err != CL_SUCCESS)
        return error_cl(sched_bench_cli.name, err, "buffers");
    const char *const sources[PROGRAMS] = {sched_units_standalone_source, sched_units_mega_source,
                                           sched_rounds_standalone_source, sched_rounds_mega_source};
    for (int i = 0; i < PROGRAMS && status == COOP_OK; i++)
        status = coop_program_create(b.ctx, sources[i], b.s.options, &b.programs[i]);
    if (status != COOP_OK)
        return error_coop(sched_bench_cli.name, b.ctx, status, "build");
    printf("sched-bench on %s (%s), channel %s, local size %u, unit %u iterations, %u runs per figure%s%s\n",
           info->name, info->platform, coop_channel_name(coop_context_channel(b.ctx)), b.s.local_size, b.s.iters,
           b.s.repeat, b.s.options ? ", options " : "", b.s.options ? b.s.options : "");
    rc = overhead(&b, 1);
    if (!rc)
        rc = overhead(&b, 0);
    if (!rc)
        rc = gather(&b);
    const cl_mem buffers[] = {b.next, b.sink, b.task_sink, b.done};
    buffers_release(buffers, sizeof buffers / sizeof buffers[0]);
    for (int i = 0; i < PROGRAMS; i++)
        coop_program_release(b.programs[i]);
    coop_context_release(b.ctx);
    return rc;
}
