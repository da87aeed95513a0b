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
 * 4. Queued: the same units and task without cooperation, the task enqueued every period on a
 *    second command queue beside the unit loop as one launch on the plain kernel's groups ("no
 *    cooperation") and as a chain of short launches (the multikernel form); timed by OpenCL
 *    profiling events (print_tasks() says what each stamp means).
 * Times are medians over R runs, from the end of discovery until the host saw the kernel end
 * (plain) or every member finish (cooperative); the device is chosen with COOP_DEVICE etc.
 * The kernels are benchmarks/sched/units.cl and rounds.cl in the cooperative language, with the
 * task task.cl: their megakernels and standalone forms (the plain baselines) are what coop-merge
 * makes of them (kernels/generated/sched_*), bound by the names of the generated headers. The
 * queued figure's kernels are ordinary ones, benchmarks/sched/queued.cl, built as written. */
#include "buffers.h"
#include "cli.h"
#include "clock.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "output.h"
#include "sched_rounds_mega.h"
#include "sched_rounds_standalone.h"
#include "sched_units_mega.h"
#include "sched_units_standalone.h"
#include "stats.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli sched_bench_cli = {
    "sched-bench",
    "Usage: sched-bench [--quick] [--repeat R] [--local-size L] [--iters N] [--units-per-group U]\n"
    "                   [--rounds N] [--period-ms P] [--take one|quarter|half|all-but-one|K] [--tasks T]\n"
    "                   [--chain-us LIST] [--in-flight K] [--figures LIST] [--options \"BUILD OPTIONS\"]\n"
    "Measures what cooperation costs and how fast a high-priority task gets its groups.\n"
    "\n"
    "Four figures: the overhead of a unit loop (work-stealing style) as a cooperative megakernel\n"
    "offering kill and fork after every unit, against the same loop as a plain persistent kernel;\n"
    "the overhead of rounds separated by resizing barriers against plain global barriers; the\n"
    "gather, execution and response times of a short task that takes groups from the unit loop\n"
    "every period; and the same task without cooperation, enqueued every period on a second\n"
    "command queue beside the unit loop as ordinary launches on the plain kernel's groups: one\n"
    "launch (\"no-cooperation\": the task waits for the loop's groups to end) and chains of\n"
    "launches of about --chain-us each (\"chainNus\", \"chainNms\": the task runs between two),\n"
    "with the task's start (queued to start), execution and response (queued to end) from OpenCL\n"
    "profiling events, and the app's time (first launch's start to last launch's end) against the\n"
    "one launch alone. Times are medians over R runs. Defaults differ on a GPU (first) and a CPU.\n"
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
    "                       1 to 4095 (default quarter); the queued task has as many workgroups\n"
    "  --tasks T            task submissions, 1 to 1000000 (default 1000 / 20)\n"
    "  --chain-us LIST      the chains' launch lengths in us, 1 to 4 of them, comma-separated, each\n"
    "                       1 to 1000000 (default 100,1000): each chain's launches hold the units the\n"
    "                       one launch alone did in that time\n"
    "  --in-flight K        task runs in flight at once in the gather run, 1 to 4 (default 1): the\n"
    "                       periodic task at the higher priority and K - 1 background tasks of the same\n"
    "                       take and 50 times its work, sent again as soon as each ends; the figures are\n"
    "                       the periodic task's, with how many runs were in flight when it was sent\n"
    "  --figures LIST       the figures to measure, comma-separated, in their order: units, rounds,\n"
    "                       gather, queued (default all four)\n"
    "  --options \"...\"     extra kernel build options\n"
    "  -h, --help           print this help and exit\n"
    "  --version            print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  the figures were measured and every unit ran exactly once\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a unit of the gather run or of a queued run did not run exactly once\n",
};

extern const char sched_units_mega_source[], sched_units_standalone_source[], sched_rounds_mega_source[],
    sched_rounds_standalone_source[], sched_queued_source[];

/* The five programs, built once each: four from coop-merge, and the queued figure's kernels. */
enum { UNITS_PLAIN, UNITS_MEGA, ROUNDS_PLAIN, ROUNDS_MEGA, QUEUED, PROGRAMS };

/* The four figures, in the order they run, as --figures names them. */
enum { FIGURE_UNITS, FIGURE_ROUNDS, FIGURE_GATHER, FIGURE_QUEUED, FIGURES };
static const char *const figure_names[FIGURES] = {"units", "rounds", "gather", "queued"};

/* The queued figure's chains: at most this many launch lengths, each at most this many launches
 * (a longer chain takes more units per launch: launching is not what it measures). */
enum { MAX_CHAINS = 4, MAX_LAUNCHES = 100000 };

/* Queued tasks whose groups stamp the device clock in their own words; later ones share one more. */
enum { STAMPED_TASKS = 1000 };

typedef struct settings {
    int quick;
    unsigned repeat, iters, units_per_group, rounds, tasks, task_iters;
    unsigned local_size;
    double period_ms;
    coop_take take;
    unsigned take_count;
    unsigned chain_us[MAX_CHAINS], chains; /* the chains' launch lengths */
    unsigned in_flight;        /* task runs in flight at once in the gather run (0: 1) */
    unsigned figures;          /* the figures to measure, a bit per FIGURE_* (0: all) */
    const char *options;       /* extra kernel build options */
} settings;

typedef struct bench {
    coop_context *ctx;
    coop_program *programs[PROGRAMS];
    cl_mem next, sink, task_sink, done;
    settings s;
    unsigned groups_bound;
    unsigned plain_groups;     /* the plain persistent kernel's co-resident groups (units figure) */
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

static const char *const kernel_names[QUEUED] = {SCHED_UNITS_STANDALONE_NAME, SCHED_UNITS_MEGA_NAME,
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
        if (units)
            b->plain_groups = groups;
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

/* The task's workgroups: one per group taken, the take's share of the launch's groups. */
static unsigned task_workgroups(const bench *b)
{
    unsigned members = b->groups_bound;
    switch (b->s.take) {
    case COOP_TAKE_ONE: return 1;
    case COOP_TAKE_QUARTER: return members / 4 ? members / 4 : 1;
    case COOP_TAKE_HALF: return members / 2 ? members / 2 : 1;
    case COOP_TAKE_ALL_BUT_ONE: return members > 1 ? members - 1 : 1;
    default: return b->s.take_count;
    }
}

/* The background tasks of --in-flight: each runs this many times the periodic task's work. */
enum { BACKGROUND_SCALE = 50 };

static int gather(bench *b)
{
    coop_kernel *mega = NULL;
    coop_status status = make_kernel(b, UNITS_MEGA, &mega);
    if (status == COOP_OK)
        status = zero_next(b);
    unsigned in_flight = b->s.in_flight ? b->s.in_flight : 1;
    /* plan 0: the periodic task, measured; plans 1..K-1: background tasks, due again a quarter
     * period after each was due, so that one is sent as soon as its slot is free, and with no
     * deadline that counts */
    coop_task_plan plans[COOP_TASKS_IN_FLIGHT_MAX];
    for (unsigned p = 0; p < in_flight; p++) {
        plans[p] = (coop_task_plan){.task = SCHED_UNITS_MEGA_TASK_task_short, .take = b->s.take,
                                    .take_count = b->s.take_count, .workgroups = task_workgroups(b)};
        if (p == 0) {
            plans[p].period_ms = b->s.period_ms;
            plans[p].repeats = b->s.tasks;
            plans[p].priority = in_flight > 1;
        } else {
            plans[p].period_ms = b->s.period_ms / 4;
            plans[p].start_ms = b->s.period_ms * p / in_flight;
            plans[p].deadline_ms = 1e6;
            plans[p].args[0] = BACKGROUND_SCALE;
        }
    }
    coop_mega_params params = {.launch = {.local_size = b->s.local_size}, .tasks_in_flight = in_flight};
    coop_mega_report report = {0};
    if (status == COOP_OK)
        status = coop_mega_run(mega, &params, plans, in_flight, &report);
    if (status != COOP_OK) {
        coop_kernel_release(mega);
        return error_coop(sched_bench_cli.name, b->ctx, status, "gather run");
    }
    unsigned wrong = check_units(b);
    size_t n = 0, background = 0;
    double *values[4];
    unsigned met = 0, taken = 0, full = 0;
    for (int i = 0; i < 4; i++)
        values[i] = calloc(report.record_count ? report.record_count : 1, sizeof(double));
    for (size_t i = 0; i < report.record_count; i++) {
        const coop_task_record *r = &report.records[i];
        if (r->plan != 0) {
            background++;
            continue;
        }
        taken = r->groups;
        values[0][n] = r->gather_us;
        values[1][n] = r->exec_us;
        values[2][n] = r->response_us;
        values[3][n] = (r->request_ms - r->due_ms) * 1e3;
        met += (unsigned)r->deadline_met;
        full += r->in_flight >= in_flight;
        n++;
    }
    printf("gather   %zu tasks taking %u of %u members every %.2f ms (%s-timed); kills %u forks %u; "
           "mean members %.1f\n", n, taken, report.members_start, b->s.period_ms,
           report.record_count && report.records[0].device_timed ? "device" : "host", report.kills, report.forks,
           report.mean_members);
    const char *names[4] = {"gather", "exec", "response", "sent"};
    for (int i = 0; i < (in_flight > 1 ? 4 : 3); i++)
        printf("         %-8s median %9.2f us   p99 %9.2f us   max %9.2f us\n", names[i],
               stats_quantile(values[i], n, 0.5), stats_quantile(values[i], n, 0.99), stats_quantile(values[i], n, 1.0));
    if (in_flight > 1)
        printf("         in flight: %u background tasks of %u workgroups and %ux the work ran %zu times; "
               "%u of %zu periodic runs were sent with %u runs in flight (\"sent\": due until sent)\n",
               in_flight - 1, plans[0].workgroups, (unsigned)BACKGROUND_SCALE, background, full, n, in_flight);
    printf("         deadlines met %u of %zu; units not run exactly once: %u\n", met, n, wrong);
    /* Each member offers kill after each unit: the mean time between its offers is its share
     * of the run, time x mean members / units (tasks' groups included: a slight overestimate). */
    size_t units = (size_t)b->s.units_per_group * b->groups_bound;
    printf("         offers: a member offers kill every %.1f us on average (%zu units)\n",
           units ? report.cooperative_ms * 1e3 * report.mean_members / (double)units : 0.0, units);
    /* the app's side of the trade, against the units figure's plain run (scripts/alternatives) */
    printf("         app run  %9.3f ms with the tasks\n", report.cooperative_ms);
    for (int i = 0; i < 4; i++)
        free(values[i]);
    coop_mega_report_free(&report);
    coop_kernel_release(mega);
    return wrong ? CLI_EXIT_CHECK : CLI_EXIT_OK;
}

/* ---- The queued figure: no cooperation, the task on a second command queue ---------------- */

/* What the queued runs share: the ordinary kernels (queued.cl), the app's queue and the task's,
 * both with profiling, and the task's device-clock stamps. */
typedef struct queued_kit {
    coop_kernel *units, *task;
    cl_command_queue app_queue, task_queue;
    cl_mem stamps;             /* (spare_slot + 1) x workgroups x 2 words */
    unsigned spare_slot;       /* the stamps' slot of the tasks past the stamped ones and the warm-up */
    unsigned groups;           /* the app's groups per launch: the plain persistent kernel's */
    unsigned workgroups;       /* the task's, as in the gather run */
} queued_kit;

/* What one queued run measured. */
typedef struct queued_result {
    double app_ms;             /* the first launch's start to the last launch's end */
    cl_event *events;          /* the tasks', `sent` of them */
    unsigned sent;
    unsigned wrong;            /* units not run exactly once */
} queued_result;

/* The thread that enqueues the task every period while the app runs, as a user's would. */
typedef struct submitter {
    const queued_kit *q;
    size_t local_size;
    double first_ms, period_ms;
    unsigned most;
    atomic_int stop;
    cl_event *events;
    atomic_uint sent;
    cl_int err;
} submitter;

static void *submit_tasks(void *argument)
{
    submitter *s = argument;
    cl_kernel task = coop_kernel_cl(s->q->task);
    size_t global_size = (size_t)s->q->workgroups * s->local_size;
    for (unsigned i = 0; i < s->most; i++) {
        /* sleeps in steps of at most 1 ms, so that the app's end stops it within one; the first
         * task goes in any case, as the gather run's first does (a short app may end before) */
        double due_ms = s->first_ms + i * s->period_ms;
        for (;;) {
            if (i > 0 && atomic_load(&s->stop))
                return NULL;
            double left_ms = due_ms - clock_now_ms();
            if (left_ms <= 0)
                break;
            clock_sleep_ms(left_ms < 1.0 ? left_ms : 1.0);
        }
        cl_uint slot = i < s->q->spare_slot ? i : s->q->spare_slot;
        cl_int err = clSetKernelArg(task, 3, sizeof slot, &slot);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(s->q->task_queue, task, 1, NULL, &global_size, &s->local_size, 0, NULL,
                                         &s->events[i]);
        if (err == CL_SUCCESS)
            err = clFlush(s->q->task_queue);
        if (err != CL_SUCCESS) {
            s->err = err;
            return NULL;
        }
        atomic_store(&s->sent, i + 1);
    }
    return NULL;
}

/* The app's last launch ended: a callback and a condition variable rather than clWaitForEvents(),
 * which spins on PoCL and would take a core from the app's groups. */
typedef struct app_end {
    pthread_mutex_t lock;
    pthread_cond_t ended;
    int done;
    cl_int status;
} app_end;

static void CL_CALLBACK app_ended(cl_event event, cl_int status, void *argument)
{
    (void)event;
    app_end *end = argument;
    pthread_mutex_lock(&end->lock);
    end->done = 1;
    end->status = status;
    pthread_cond_signal(&end->ended);
    pthread_mutex_unlock(&end->lock);
}

static cl_int wait_app(cl_event last)
{
    app_end end = {.done = 0};
    pthread_mutex_init(&end.lock, NULL);
    pthread_cond_init(&end.ended, NULL);
    cl_int err = clSetEventCallback(last, CL_COMPLETE, app_ended, &end);
    pthread_mutex_lock(&end.lock);
    while (err == CL_SUCCESS && !end.done)
        pthread_cond_wait(&end.ended, &end.lock);
    pthread_mutex_unlock(&end.lock);
    pthread_cond_destroy(&end.ended);
    pthread_mutex_destroy(&end.lock);
    return err == CL_SUCCESS && end.status < 0 ? end.status : err;
}

static cl_int profiled(cl_event event, cl_profiling_info info, cl_ulong *ns)
{
    return clGetEventProfilingInfo(event, info, sizeof *ns, ns, NULL);
}

/* Enqueues launches [from, to) of the app's `launches` launches of `chunk` units each (the last
 * takes the rest), the first's and the last's events in first and last (one event for one launch). */
static cl_int enqueue_app(bench *b, const queued_kit *q, cl_mem counters, unsigned from, unsigned to,
                          unsigned launches, unsigned chunk, cl_event *first, cl_event *last)
{
    cl_kernel kernel = coop_kernel_cl(q->units);
    cl_uint units = b->s.units_per_group * b->groups_bound;
    size_t local_size = b->s.local_size, global_size = (size_t)q->groups * local_size;
    cl_int err = clSetKernelArg(kernel, 0, sizeof counters, &counters);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 4, sizeof b->s.iters, &b->s.iters);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 5, sizeof b->sink, &b->sink);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 6, sizeof b->done, &b->done);
    for (cl_uint k = from; k < to && err == CL_SUCCESS; k++) {
        cl_uint begin = k * chunk, end = k + 1 == launches ? units : begin + chunk;
        err = clSetKernelArg(kernel, 1, sizeof k, &k);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 2, sizeof begin, &begin);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 3, sizeof end, &end);
        cl_event *event = k + 1 == launches ? last : k == 0 ? first : NULL;
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(q->app_queue, kernel, 1, NULL, &global_size, &local_size, 0, NULL, event);
        /* each launch on its way at once, as the task's are */
        if (err == CL_SUCCESS)
            err = clFlush(q->app_queue);
    }
    if (err == CL_SUCCESS && launches == 1 && from == 0) {
        *first = *last;
        err = clRetainEvent(*first);
    }
    return err;
}

static void queued_result_free(queued_result *r)
{
    for (unsigned i = 0; i < r->sent; i++)
        clReleaseEvent(r->events[i]);
    free(r->events);
    r->events = NULL;
}

/* One run of the app as `launches` launches of `chunk` units, with `tasks` tasks at most enqueued
 * every period beside it until it ends (0: the app alone). 0, or CLI_EXIT_ERROR after saying why
 * (r then freed). */
static int queued_run(bench *b, const queued_kit *q, unsigned launches, unsigned chunk, unsigned tasks,
                      queued_result *r)
{
    *r = (queued_result){.events = calloc(tasks ? tasks : 1, sizeof(cl_event))};
    if (!r->events)
        return error_report(sched_bench_cli.name, "out of memory for the queued tasks");
    cl_int err = CL_SUCCESS;
    cl_mem counters = buffer_create(b->ctx, (size_t)launches * sizeof(cl_uint), NULL, &err);
    coop_status zeroed = err == CL_SUCCESS ? zero_next(b) : COOP_OK;
    if (err != CL_SUCCESS || zeroed != COOP_OK) {
        buffers_release(&counters, 1);
        queued_result_free(r);
        return err != CL_SUCCESS ? error_cl(sched_bench_cli.name, err, "queued run's counters")
                                 : error_coop(sched_bench_cli.name, b->ctx, zeroed, "queued run");
    }
    err = buffer_fill_words(coop_context_queue(b->ctx), counters, 0, launches);
    if (err == CL_SUCCESS)
        err = clFinish(coop_context_queue(b->ctx));
    submitter s = {.q = q, .local_size = b->s.local_size, .period_ms = b->s.period_ms, .most = tasks,
                   .events = r->events};
    atomic_init(&s.stop, 0);
    atomic_init(&s.sent, 0);
    pthread_t thread;
    int started = 0;
    cl_event first = NULL, last = NULL;
    if (err == CL_SUCCESS)
        err = enqueue_app(b, q, counters, 0, 1, launches, chunk, &first, &last);
    int no_thread = 0;
    if (err == CL_SUCCESS && tasks) {
        /* the first task a period after the app's first launch went, as preempt-bench's */
        s.first_ms = clock_now_ms() + b->s.period_ms;
        started = pthread_create(&thread, NULL, submit_tasks, &s) == 0;
        no_thread = !started;
    }
    if (err == CL_SUCCESS && !no_thread)
        err = enqueue_app(b, q, counters, 1, launches, launches, chunk, &first, &last);
    cl_int waited = last ? wait_app(last) : CL_SUCCESS;
    /* a failed enqueue leaves the launches before it running: their counters stay until they end */
    clFinish(q->app_queue);
    if (started) {
        atomic_store(&s.stop, 1);
        pthread_join(thread, NULL);
    }
    r->sent = atomic_load(&s.sent);
    if (err == CL_SUCCESS)
        err = waited != CL_SUCCESS ? waited : s.err;
    if (err == CL_SUCCESS && !no_thread)
        err = clFinish(q->task_queue);
    cl_ulong start_ns = 0, end_ns = 0;
    if (err == CL_SUCCESS && !no_thread)
        err = profiled(first, CL_PROFILING_COMMAND_START, &start_ns);
    if (err == CL_SUCCESS && !no_thread)
        err = profiled(last, CL_PROFILING_COMMAND_END, &end_ns);
    r->app_ms = (double)(end_ns - start_ns) / 1e6;
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    buffers_release(&counters, 1);
    if (err != CL_SUCCESS || no_thread) {
        queued_result_free(r);
        return err != CL_SUCCESS ? error_cl(sched_bench_cli.name, err, "queued run")
                                 : error_report(sched_bench_cli.name, "cannot start the queued tasks' thread");
    }
    r->wrong = check_units(b);
    return 0;
}

/* Prints the median, p99 and max of n values (sorts them). */
static void print_quantiles(const char *name, double *values, size_t n)
{
    printf("         %-8s median %9.2f us   p99 %9.2f us   max %9.2f us\n", name, stats_quantile(values, n, 0.5),
           stats_quantile(values, n, 0.99), stats_quantile(values, n, 1.0));
}

/* The tasks of a run, from their events: start (QUEUED to START), exec (START to END) and response
 * (QUEUED to END). OpenCL defines all four as the device's time counter. PoCL takes them on one
 * host clock (its monotonic time, not CLOCK_MONOTONIC's origin): QUEUED when clEnqueueNDRangeKernel
 * took the command, SUBMIT when it went to the device, START when PoCL's scheduler took it up to
 * run its workgroups (the first launch of a kernel: after compiling it, hence the warm-up), END
 * when the last one ended. NVIDIA takes START and END on the GPU and QUEUED on the host, moved
 * onto the GPU's timer; whether its START waits for a workgroup to find room beside the app is not
 * documented, so where the device has a clock the groups' own stamps are printed against it. Tasks
 * whose stamps run backwards are left out and counted. */
static void print_tasks(const bench *b, const queued_kit *q, const queued_result *r)
{
    size_t n = r->sent, kept = 0, stamped = 0;
    double *values[5];
    for (int i = 0; i < 5; i++)
        values[i] = calloc(n ? n : 1, sizeof(double));
    size_t words = (size_t)2 * q->workgroups * (n < q->spare_slot ? n : q->spare_slot);
    cl_ulong *stamps = malloc((words ? words : 1) * sizeof *stamps);
    int clock = stamps && values[4] &&
                clEnqueueReadBuffer(q->task_queue, q->stamps, CL_TRUE, 0, words * sizeof *stamps, stamps, 0, NULL,
                                    NULL) == CL_SUCCESS;
    unsigned met = 0;
    for (size_t i = 0; i < n && values[0] && values[1] && values[2] && values[3]; i++) {
        cl_ulong queued = 0, start = 0, end = 0;
        if (profiled(r->events[i], CL_PROFILING_COMMAND_QUEUED, &queued) != CL_SUCCESS ||
            profiled(r->events[i], CL_PROFILING_COMMAND_START, &start) != CL_SUCCESS ||
            profiled(r->events[i], CL_PROFILING_COMMAND_END, &end) != CL_SUCCESS || start < queued || end < start)
            continue;
        values[0][kept] = (double)(start - queued) / 1e3;
        values[1][kept] = (double)(end - start) / 1e3;
        values[2][kept] = (double)(end - queued) / 1e3;
        met += values[2][kept] <= b->s.period_ms * 1e3;
        kept++;
        if (!clock || i >= q->spare_slot)
            continue;
        /* the first group's start and the last group's end on the device clock */
        const cl_ulong *task = stamps + (size_t)2 * q->workgroups * i;
        cl_ulong first = task[0], final = task[1];
        for (unsigned g = 0; g < q->workgroups; g++) {
            first = task[2 * g] < first ? task[2 * g] : first;
            final = task[2 * g + 1] > final ? task[2 * g + 1] : final;
        }
        if (first == 0) { /* no clock: queued.cl writes 0 */
            clock = 0;
            continue;
        }
        values[3][stamped] = ((double)first - (double)start) / 1e3;
        values[4][stamped++] = ((double)final - (double)first) / 1e3;
    }
    const char *names[3] = {"start", "exec", "response"};
    for (int i = 0; i < 3; i++)
        print_quantiles(names[i], values[i], kept);
    if (n > kept)
        printf("         events of %zu tasks ran backwards (QUEUED after START, or START after END): left out\n",
               n - kept);
    /* where the device has a clock: how START stands to the first group's start on it (a few us
     * when the two clocks are one), and the execution the groups saw */
    if (clock && stamped) {
        size_t m = stamped;
        printf("         device clock: START to the first group's start median %.2f us, p99 %.2f us; first start "
               "to last end median %.2f us, p99 %.2f us\n", stats_quantile(values[3], m, 0.5),
               stats_quantile(values[3], m, 0.99), stats_quantile(values[4], m, 0.5), stats_quantile(values[4], m, 0.99));
    }
    printf("         deadlines met %u of %zu; units not run exactly once: %u\n", met, kept, r->wrong);
    printf("         app run  %9.3f ms with the tasks\n", r->app_ms);
    for (int i = 0; i < 5; i++)
        free(values[i]);
    free(stamps);
}

/* A chain's name in the rows: chain100us, chain1ms (preempt-bench's). */
static void chain_name(unsigned us, char *name, size_t size)
{
    if (us % 1000 == 0)
        snprintf(name, size, "chain%ums", us / 1000);
    else
        snprintf(name, size, "chain%uus", us);
}

/* The app alone as one launch (a median of R runs, after one that warms up the app's and the
 * task's kernels), then with the task queued beside it: as one launch, and as each chain. */
static int queued(bench *b, queued_kit *q)
{
    unsigned units = b->s.units_per_group * b->groups_bound;
    queued_result r;
    double *alone_ms = calloc(b->s.repeat, sizeof *alone_ms);
    if (!alone_ms)
        return error_report(sched_bench_cli.name, "out of memory");
    int rc = 0;
    for (unsigned i = 0; i <= b->s.repeat && !rc; i++) {
        if (i == 0) {
            size_t global_size = (size_t)q->workgroups * b->s.local_size, local_size = b->s.local_size;
            cl_uint slot = q->spare_slot;
            cl_int err = clSetKernelArg(coop_kernel_cl(q->task), 3, sizeof slot, &slot);
            if (err == CL_SUCCESS)
                err = clEnqueueNDRangeKernel(q->task_queue, coop_kernel_cl(q->task), 1, NULL, &global_size,
                                             &local_size, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = clFinish(q->task_queue);
            if (err != CL_SUCCESS) {
                rc = error_cl(sched_bench_cli.name, err, "queued task");
                break;
            }
        }
        if ((rc = queued_run(b, q, 1, units, 0, &r)) != 0)
            break;
        if (i > 0)
            alone_ms[i - 1] = r.app_ms;
        if (r.wrong) {
            printf("queued   alone: units not run exactly once: %u\n", r.wrong);
            rc = CLI_EXIT_CHECK;
        }
        queued_result_free(&r);
    }
    double alone = rc ? 0.0 : stats_quantile(alone_ms, b->s.repeat, 0.5);
    free(alone_ms);
    if (rc)
        return rc;
    /* the unit time the chains are sized from */
    printf("queued   alone: 1 launch of %u units on %u groups %9.3f ms (median of %u runs; event-timed), a unit "
           "every %.2f us on each group\n", units, q->groups, alone, b->s.repeat,
           units ? alone * 1e3 * q->groups / units : 0.0);
    unsigned wrong = 0;
    for (unsigned c = 0; c <= b->s.chains && !rc; c++) {
        char name[32] = "no-cooperation";
        unsigned chunk = units, launches = 1;
        if (c > 0) {
            /* the units the one launch alone did in the chain's launch length */
            unsigned us = b->s.chain_us[c - 1];
            double per_launch = alone > 0 ? units * (us / (alone * 1e3)) : units;
            chunk = per_launch < 1 ? 1 : per_launch >= units ? units : (unsigned)(per_launch + 0.5);
            if (((unsigned long long)units + chunk - 1) / chunk > MAX_LAUNCHES)
                chunk = (unsigned)(((unsigned long long)units + MAX_LAUNCHES - 1) / MAX_LAUNCHES);
            launches = (unsigned)(((unsigned long long)units + chunk - 1) / chunk);
            chain_name(us, name, sizeof name);
        }
        if ((rc = queued_run(b, q, launches, chunk, b->s.tasks, &r)) != 0)
            break;
        printf("queued   %s: %u launch%s of %u units on %u groups; %u tasks of %u workgroups on a second queue "
               "every %.2f ms (event-timed)\n", name, launches, launches == 1 ? "" : "es", chunk, q->groups, r.sent,
               q->workgroups, b->s.period_ms);
        print_tasks(b, q, &r);
        wrong += r.wrong;
        queued_result_free(&r);
    }
    return rc ? rc : wrong ? CLI_EXIT_CHECK : CLI_EXIT_OK;
}

/* The queued figure's kernels, queues and stamps; then the figure. */
static int queued_figure(bench *b)
{
    queued_kit q = {.groups = b->plain_groups ? b->plain_groups : b->groups_bound, .workgroups = task_workgroups(b)};
    q.spare_slot = b->s.tasks < STAMPED_TASKS ? b->s.tasks : STAMPED_TASKS;
    coop_status status = coop_kernel_create(b->programs[QUEUED], "sched_units_launch", &q.units);
    if (status == COOP_OK)
        status = coop_kernel_create(b->programs[QUEUED], "sched_task_stamped", &q.task);
    if (status != COOP_OK) {
        coop_kernel_release(q.units);
        return error_coop(sched_bench_cli.name, b->ctx, status, "queued kernels");
    }
    cl_int err = CL_SUCCESS;
    q.stamps = buffer_create(b->ctx, ((size_t)q.spare_slot + 1) * q.workgroups * 2 * sizeof(cl_ulong), NULL, &err);
    if (err == CL_SUCCESS)
        q.app_queue = device_profiling_queue(b->ctx, &err);
    if (err == CL_SUCCESS)
        q.task_queue = device_profiling_queue(b->ctx, &err);
    cl_kernel task = coop_kernel_cl(q.task);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(task, 0, sizeof b->s.task_iters, &b->s.task_iters);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(task, 1, sizeof b->task_sink, &b->task_sink);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(task, 2, sizeof q.stamps, &q.stamps);
    int rc = err == CL_SUCCESS ? queued(b, &q) : error_cl(sched_bench_cli.name, err, "queued figure");
    if (q.app_queue)
        clReleaseCommandQueue(q.app_queue);
    if (q.task_queue)
        clReleaseCommandQueue(q.task_queue);
    buffers_release(&q.stamps, 1);
    coop_kernel_release(q.units);
    coop_kernel_release(q.task);
    return rc;
}

/* --chain-us: 1 to MAX_CHAINS launch lengths in us, comma-separated, each from 1 to 1000000 and
 * each once. 0, or -1 after saying which is wrong ("--chain-us length 2: ..." in a list). */
static int parse_chains(const cli *c, const char *option, const char *value, settings *s)
{
    s->chains = 0;
    for (const char *item = value;; item++) {
        size_t length = strcspn(item, ",");
        if (s->chains == MAX_CHAINS)
            return cli_bad_argument(c, option, value, "more than 4 launch lengths");
        char *text = strndup(item, length);
        if (!text)
            return cli_fail(c, "out of memory");
        char name[64];
        if (strchr(value, ','))
            snprintf(name, sizeof name, "%s length %u", option, s->chains + 1);
        else
            snprintf(name, sizeof name, "%s", option);
        unsigned us = 0;
        int bad = cli_unsigned(c, name, text, 1, 1000000, &us);
        free(text);
        if (bad)
            return -1;
        for (unsigned k = 0; k < s->chains; k++)
            if (s->chain_us[k] == us)
                return cli_bad_argument(c, option, value, "a launch length given twice");
        s->chain_us[s->chains++] = us;
        item += length;
        if (!*item)
            return 0;
    }
}

/* --figures: each name once, of figure_names. */
static int parse_figures(const cli *c, const char *option, const char *value, settings *s)
{
    s->figures = 0;
    for (const char *item = value;; item++) {
        size_t length = strcspn(item, ",");
        char *text = strndup(item, length);
        if (!text)
            return cli_fail(c, "out of memory");
        int figure = 0;
        while (figure < FIGURES && strcmp(text, figure_names[figure]))
            figure++;
        int twice = figure < FIGURES && (s->figures & (1u << figure));
        free(text);
        if (figure == FIGURES)
            return cli_bad_argument(c, option, value, "a name that is not units, rounds, gather or queued");
        if (twice)
            return cli_bad_argument(c, option, value, "a figure named twice");
        s->figures |= 1u << figure;
        item += length;
        if (!*item)
            return 0;
    }
}

/* The options; 0 in a setting leaves the device's default (defaults()). -1 to go on, else the exit
 * status. */
static int parse(int argc, char **argv, settings *s)
{
    static const char *const names[] = {"--repeat", "--iters",      "--units-per-group", "--rounds",
                                        "--tasks",  "--local-size", "--in-flight"};
    static const unsigned most[] = {1000, 10000000, 1000000, 1000000, 1000000, CLI_MAX_LOCAL_SIZE,
                                    COOP_TASKS_IN_FLIGHT_MAX};
    const cli *c = &sched_bench_cli;
    *s = (settings){.take = COOP_TAKE_QUARTER};
    unsigned *fields[] = {&s->repeat, &s->iters,      &s->units_per_group, &s->rounds,
                          &s->tasks,  &s->local_size, &s->in_flight};
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
        while (f < 7 && strcmp(arg, names[f]))
            f++;
        int known = f < 7 || !strcmp(arg, "--period-ms") || !strcmp(arg, "--take") || !strcmp(arg, "--options") ||
                    !strcmp(arg, "--chain-us") || !strcmp(arg, "--figures");
        if (!known) {
            cli_fail(c, "unknown option '%s'", arg);
            return CLI_EXIT_ERROR;
        }
        if (!(value = cli_value(c, argc, argv, &i, &seen)))
            return CLI_EXIT_ERROR;
        if (f < 7) {
            /* local sizes from 3: PoCL's compiler aborts on megakernels below (libcoop/src/launch.c) */
            if (cli_unsigned(c, arg, value, f == 5 ? 3 : 1, most[f], fields[f]) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--period-ms")) {
            if (cli_positive(c, arg, value, 1e6, &s->period_ms) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--take")) {
            if (cli_take(c, arg, value, &s->take, &s->take_count) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--chain-us")) {
            if (parse_chains(c, arg, value, s) != 0)
                return CLI_EXIT_ERROR;
        } else if (!strcmp(arg, "--figures")) {
            if (parse_figures(c, arg, value, s) != 0)
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
    if (!s->chains) {
        s->chain_us[0] = 100;
        s->chain_us[1] = 1000;
        s->chains = 2;
    }
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
                                           sched_rounds_standalone_source, sched_rounds_mega_source,
                                           sched_queued_source};
    for (int i = 0; i < PROGRAMS && status == COOP_OK; i++)
        status = coop_program_create(b.ctx, sources[i], b.s.options, &b.programs[i]);
    if (status != COOP_OK)
        return error_coop(sched_bench_cli.name, b.ctx, status, "build");
    printf("sched-bench on %s (%s), channel %s, local size %u, unit %u iterations, %u runs per figure%s%s\n",
           info->name, info->platform, coop_channel_name(coop_context_channel(b.ctx)), b.s.local_size, b.s.iters,
           b.s.repeat, b.s.options ? ", options " : "", b.s.options ? b.s.options : "");
    unsigned figures = b.s.figures ? b.s.figures : (1u << FIGURES) - 1u;
    rc = 0;
    if (figures & (1u << FIGURE_UNITS))
        rc = overhead(&b, 1);
    if (!rc && (figures & (1u << FIGURE_ROUNDS)))
        rc = overhead(&b, 0);
    if (!rc && (figures & (1u << FIGURE_GATHER)))
        rc = gather(&b);
    if (!rc && (figures & (1u << FIGURE_QUEUED)))
        rc = queued_figure(&b);
    const cl_mem buffers[] = {b.next, b.sink, b.task_sink, b.done};
    buffers_release(buffers, sizeof buffers / sizeof buffers[0]);
    for (int i = 0; i < PROGRAMS; i++)
        coop_program_release(b.programs[i]);
    coop_context_release(b.ctx);
    return rc;
}
