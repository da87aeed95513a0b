/* bench_task.c: coop-bench's high-priority tasks: sizing, buffers, plans, checks, and the
 * no-cooperation baseline (see bench_task.h). */
#include "bench_task.h"

#include "buffers.h"
#include "clock.h"
#include "device.h"
#include "errors.h"
#include "image.h"
#include "matmult_ref.h"
#include "render_ref.h"
#include "stats.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Close enough to the target time to stop sizing. */
#define SIZING_TOLERANCE 0.1

/* The most one refinement step scales the size by, either way. Without a device clock (PoCL) a
 * task's execution time is what the host saw between its start and its end, 0 when the host
 * was not scheduled in between, which on a busy machine can be most of the runs: the cost law
 * alone would then take the size to the maximum (a 3392-pixel frame, minutes of tracing on one
 * group, beyond the watchdog). */
#define SIZING_MAX_STEP 4.0

enum {
    SIZE_STEP = 16,             /* sizes are multiples of this */
    FIRST_SIZE = 64,            /* where the sizing starts */
    MATMULT_MAX_ORDER = 4096,
    RENDER_MAX_WIDTH = 3840,
    SIZING_RUNS = 5,            /* timed tasks per size, after one warm-up */
    SIZING_REFINEMENTS = 3,
    FULL_CHECK_ORDER = 256,     /* matrices up to this order are checked whole */
    CHECKED_ROWS = 16,
    CHECKED_PIXELS = 256
};

static const struct {
    const char *name;
    double period_ms, target_ms;
} kinds[] = {
    [BENCH_TASK_NONE] = {"none", 0.0, 0.0},
    [BENCH_TASK_LIGHT] = {"light", 70.0, 3.0},
    [BENCH_TASK_MEDIUM] = {"medium", 40.0, 3.0},
    [BENCH_TASK_HEAVY] = {"heavy", 40.0, 10.0},
    [BENCH_TASK_RENDER] = {"render", 40.0, 5.0},
};

const char *bench_task_name(bench_task_kind kind)
{
    return kinds[kind].name;
}

double bench_task_period_ms(bench_task_kind kind)
{
    return kinds[kind].period_ms;
}

double bench_task_target_ms(bench_task_kind kind)
{
    return kinds[kind].target_ms;
}

/* The task's failures are coop-bench's, "coop-bench: task: ...". */
static int cl_failed(cl_int err, const char *what)
{
    char task_what[128];
    snprintf(task_what, sizeof task_what, "task: %s", what);
    return error_cl(BENCH_TASK_PROGRAM, err, task_what);
}

static int coop_failed(const bench_task *t, coop_status status, const char *what)
{
    char task_what[128];
    snprintf(task_what, sizeof task_what, "task: %s", what);
    return error_coop(BENCH_TASK_PROGRAM, t->ctx, status, task_what);
}

static int is_render(const bench_task *t)
{
    return t->kind == BENCH_TASK_RENDER;
}

/* Render's frame is 4:3. */
static unsigned frame_height(unsigned width)
{
    return width * 3 / 4 ? width * 3 / 4 : 1;
}

/* 32-bit words of the result at `size`. */
static size_t result_words(const bench_task *t, unsigned size)
{
    return is_render(t) ? (size_t)size * frame_height(size) : (size_t)size * size;
}

/* ---- Running the task ----------------------------------------------------------------------- */

/* The plain kernel's arguments: the task's buffers and size; render draws frame `frame`. */
static int set_plain_args(bench_task *t, unsigned frame)
{
    coop_status status;
    if (is_render(t)) {
        const cl_uint values[4] = {t->width, t->height, frame, t->workgroups};
        status = coop_kernel_set_buffer(t->plain, 0, t->c);
        for (unsigned i = 0; i < 4 && status == COOP_OK; i++)
            status = coop_kernel_set_arg(t->plain, i + 1, sizeof values[i], &values[i]);
    } else {
        const cl_uint order = t->size;
        status = coop_kernel_set_buffer(t->plain, 0, t->a);
        if (status == COOP_OK)
            status = coop_kernel_set_buffer(t->plain, 1, t->b);
        if (status == COOP_OK)
            status = coop_kernel_set_buffer(t->plain, 2, t->c);
        if (status == COOP_OK)
            status = coop_kernel_set_arg(t->plain, 3, sizeof order, &order);
    }
    return status == COOP_OK ? 0 : coop_failed(t, status, "plain kernel arguments");
}

static cl_int launch_plain(const bench_task *t, unsigned groups, cl_event *event)
{
    return device_enqueue_plain(t->queue, t->plain, groups, t->local_size, event);
}

/* Nanoseconds between two profiling points of an ended command; -1 if the device has none. */
static double profiled_ns(cl_event event, cl_profiling_info from, cl_profiling_info to)
{
    double ns = 0.0;
    return device_event_ns(event, from, to, &ns) == CL_SUCCESS ? ns : -1.0;
}

/* The median of SIZING_RUNS timings (sorts them). */
static double median_of_runs(double *times)
{
    return stats_quantile(times, SIZING_RUNS, 0.5);
}

/* Sets the task's size: the frame's height and the workgroups follow from it. */
static void set_size(bench_task *t, unsigned size)
{
    t->size = size;
    if (is_render(t)) {
        t->width = size;
        t->height = frame_height(size);
    } else {
        t->workgroups = t->workgroups_bound < size ? t->workgroups_bound : size;
    }
}

/* The task's median execution time at `size` in ms, inside the sizing megakernel on a quarter of
 * its groups: one launch with SIZING_RUNS + 1 one-off tasks, the first a warm-up. Scratch
 * buffers: their values do not change the time. */
static int time_in_megakernel(bench_task *t, const bench_sizing *sizing, unsigned size, double *ms)
{
    set_size(t, size);
    size_t bytes = result_words(t, size) * sizeof(cl_uint);
    cl_int err = CL_SUCCESS;
    cl_mem buffers[3] = {NULL, NULL, NULL};
    for (unsigned i = 0; i < 3; i++)
        buffers[i] = buffer_create(t->ctx, i < 2 && is_render(t) ? sizeof(cl_uint) : bytes, NULL, &err);
    const int indices[3] = {sizing->binding.a, sizing->binding.b, sizing->binding.c};
    coop_status status = COOP_OK;
    for (unsigned i = 0; i < 3 && err == CL_SUCCESS && status == COOP_OK; i++)
        if (indices[i] >= 0)
            status = coop_kernel_set_buffer(sizing->mega, (unsigned)indices[i], buffers[i]);
    coop_task_plan plans[SIZING_RUNS + 1];
    for (unsigned i = 0; i <= SIZING_RUNS; i++)
        plans[i] = bench_task_plan(t, sizing->binding, COOP_TAKE_QUARTER, 0, 0.0, 0);
    coop_mega_params params = {.launch = {.local_size = t->local_size}};
    coop_mega_report report = {0};
    if (err == CL_SUCCESS && status == COOP_OK)
        status = coop_mega_run(sizing->mega, &params, plans, SIZING_RUNS + 1, &report);
    buffers_release(buffers, 3);
    int rc = err != CL_SUCCESS ? cl_failed(err, "sizing buffers") : 0;
    if (rc == 0 && status != COOP_OK)
        rc = coop_failed(t, status, "sizing run");
    if (rc == 0 && report.record_count != SIZING_RUNS + 1)
        rc = error_report(BENCH_TASK_PROGRAM, "task: the sizing run did %zu of its %u tasks", report.record_count,
                          SIZING_RUNS + 1);
    if (rc == 0) {
        double times[SIZING_RUNS];
        for (unsigned i = 0; i < SIZING_RUNS; i++)
            times[i] = report.records[i + 1].exec_us / 1e3;
        double median_ms = median_of_runs(times);
        *ms = median_ms > 0 ? median_ms : 1e-3;
        t->sizing_groups = report.records[SIZING_RUNS].groups;
    }
    coop_mega_report_free(&report);
    return rc;
}

static unsigned round_size(double size, unsigned max)
{
    double steps = floor(size / SIZE_STEP + 0.5);
    if (steps < 1)
        steps = 1;
    return steps * SIZE_STEP > max ? max : (unsigned)steps * SIZE_STEP;
}

/* The size whose task takes about the kind's target time on a quarter of the groups: double
 * until the time is measurable, then scale by the cost law (n^3 for the product, width^2 for
 * the frame) and measure again. */
static int size_for_target(bench_task *t, const bench_sizing *sizing)
{
    double target = kinds[t->kind].target_ms, exponent = is_render(t) ? 2.0 : 3.0, ms = 0.0;
    unsigned max = is_render(t) ? RENDER_MAX_WIDTH : MATMULT_MAX_ORDER, size = FIRST_SIZE;
    if (time_in_megakernel(t, sizing, size, &ms) != 0)
        return 1;
    while (ms < target / 8 && size < max) {
        size = 2 * size < max ? 2 * size : max;
        if (time_in_megakernel(t, sizing, size, &ms) != 0)
            return 1;
    }
    for (unsigned i = 0; i < SIZING_REFINEMENTS && fabs(ms / target - 1.0) > SIZING_TOLERANCE; i++) {
        double step = fmin(fmax(pow(target / ms, 1.0 / exponent), 1.0 / SIZING_MAX_STEP), SIZING_MAX_STEP);
        unsigned next = round_size(size * step, max);
        if (next == size)
            break;
        size = next;
        if (time_in_megakernel(t, sizing, size, &ms) != 0)
            return 1;
    }
    set_size(t, size);
    t->sized_ms = ms;
    return 0;
}

/* ---- Buffers -------------------------------------------------------------------------------- */

static int make_buffers(bench_task *t)
{
    cl_context cl = coop_context_cl(t->ctx);
    cl_int err = CL_SUCCESS;
    size_t words = result_words(t, t->size);
    if (is_render(t)) {
        const cl_uint unused = 0;
        t->a = buffer_create(t->ctx, sizeof unused, &unused, &err);
        t->b = buffer_create(t->ctx, sizeof unused, &unused, &err);
    } else {
        t->a_host = malloc(words * sizeof *t->a_host);
        t->b_host = malloc(words * sizeof *t->b_host);
        if (!t->a_host || !t->b_host)
            return error_report(BENCH_TASK_PROGRAM, "out of memory for the task's %ux%u matrices", t->size, t->size);
        for (size_t i = 0; i < words; i++) {
            t->a_host[i] = (uint32_t)(i * 2654435761u) >> 20;
            t->b_host[i] = (uint32_t)((i + 7) * 40503u) >> 4;
        }
        t->a = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, words * sizeof(cl_uint), t->a_host, &err);
        if (err == CL_SUCCESS)
            t->b = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, words * sizeof(cl_uint), t->b_host,
                                  &err);
    }
    t->c = buffer_create(t->ctx, words * sizeof(cl_uint), NULL, &err);
    if (err != CL_SUCCESS)
        return cl_failed(err, "task buffers");
    return set_plain_args(t, 0);
}

/* The task's median execution time as an ordinary kernel alone on the whole device, what a
 * kernel-level preemption scheduler would give it: SIZING_RUNS launches after a warm-up, each
 * timed by the device clock (by the host's where the queue has no profiling). */
static int time_whole_device(bench_task *t)
{
    double times[SIZING_RUNS];
    for (unsigned i = 0; i <= SIZING_RUNS; i++) {
        cl_event event = NULL;
        double start_ms = clock_now_ms();
        cl_int err = launch_plain(t, t->workgroups, &event);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &event);
        double host_ms = clock_now_ms() - start_ms;
        double device_ns = err == CL_SUCCESS ? profiled_ns(event, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END)
                                             : -1.0;
        if (event)
            clReleaseEvent(event);
        if (err != CL_SUCCESS)
            return cl_failed(err, "timing the task alone on the device");
        if (i > 0)
            times[i - 1] = device_ns >= 0 ? device_ns / 1e6 : host_ms;
    }
    t->whole_device_ms = median_of_runs(times);
    return 0;
}

int bench_task_open(bench_task *t, bench_task_kind kind, coop_context *ctx, coop_program *program,
                    size_t local_size, unsigned size, const bench_sizing *sizing)
{
    *t = (bench_task){.kind = kind, .ctx = ctx, .local_size = local_size};
    if (kind == BENCH_TASK_NONE)
        return 0;
    cl_int err = CL_SUCCESS;
    t->queue = device_profiling_queue(ctx, &err);
    if (err != CL_SUCCESS)
        return cl_failed(err, "second queue");
    coop_status status = coop_kernel_create(program, is_render(t) ? "render_plain" : "matmult_plain", &t->plain);
    if (status != COOP_OK)
        return coop_failed(t, status, "plain kernel");
    /* As many workgroups as the device could hold, twice over for the frame's uneven tiles, so
     * that every share of the groups finds work. */
    t->workgroups_bound = 2 * coop_launch_groups(ctx, local_size);
    t->workgroups = t->workgroups_bound;
    if (size)
        set_size(t, size);
    else if (size_for_target(t, sizing) != 0)
        return 1;
    return make_buffers(t) != 0 ? 1 : time_whole_device(t);
}

void bench_task_close(bench_task *t)
{
    const cl_mem buffers[3] = {t->a, t->b, t->c};
    buffers_release(buffers, 3);
    coop_kernel_release(t->plain);
    if (t->queue)
        clReleaseCommandQueue(t->queue);
    free(t->a_host);
    free(t->b_host);
    *t = (bench_task){.kind = BENCH_TASK_NONE};
}

void bench_task_describe(const bench_task *t, char *text, size_t size)
{
    if (is_render(t))
        snprintf(text, size, "render: %ux%u frame in %u tiles", t->width, t->height, t->workgroups);
    else
        snprintf(text, size, "%s: %ux%u matmult on %u workgroups", kinds[t->kind].name, t->size, t->size,
                 t->workgroups);
}

coop_task_plan bench_task_plan(const bench_task *t, bench_binding binding, coop_take take, unsigned take_count,
                               double period_ms, unsigned frame)
{
    coop_task_plan plan = {.task = binding.task, .workgroups = t->workgroups, .take = take, .take_count = take_count,
                           .period_ms = period_ms};
    if (is_render(t)) {
        plan.args[0] = frame;
        plan.args[1] = t->width;
        plan.args[2] = t->height;
    } else {
        plan.args[0] = t->size;
    }
    return plan;
}

int bench_task_clear(const bench_task *t)
{
    cl_int err = buffer_fill_words(t->queue, t->c, 0, result_words(t, t->size));
    if (err == CL_SUCCESS)
        err = clFinish(t->queue);
    return err == CL_SUCCESS ? 0 : cl_failed(err, "clearing the task's result");
}

/* ---- Checks --------------------------------------------------------------------------------- */

static uint32_t *read_result(const bench_task *t)
{
    size_t words = result_words(t, t->size);
    uint32_t *c = malloc(words * sizeof *c);
    if (!c) {
        error_report(BENCH_TASK_PROGRAM, "out of memory reading the task's result");
        return NULL;
    }
    cl_int err = clEnqueueReadBuffer(t->queue, t->c, CL_TRUE, 0, words * sizeof *c, c, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        free(c);
        cl_failed(err, "reading the task's result");
        return NULL;
    }
    return c;
}

static int check_matmult(const bench_task *t, const uint32_t *c, unsigned run)
{
    unsigned n = t->size, rows = n <= FULL_CHECK_ORDER ? n : CHECKED_ROWS;
    uint32_t *expected = malloc((size_t)n * sizeof *expected);
    if (!expected)
        return error_report(BENCH_TASK_PROGRAM, "out of memory checking the task");
    size_t wrong = 0, first_row = 0, first_col = 0;
    uint32_t first_got = 0, first_expected = 0;
    for (unsigned r = 0; r < rows; r++) {
        size_t i = rows == n ? r : (size_t)r * (n - 1) / (rows - 1);
        matmult_ref_row(t->a_host, t->b_host, n, i, expected);
        for (size_t j = 0; j < n; j++)
            if (c[i * n + j] != expected[j] && wrong++ == 0) {
                first_row = i;
                first_col = j;
                first_got = c[i * n + j];
                first_expected = expected[j];
            }
    }
    free(expected);
    if (!wrong)
        return 0;
    fprintf(stderr, "coop-bench: run %u: the %s task's product differs from the CPU's in %zu of the %zu elements "
            "checked; first at (%zu, %zu): got %u, expected %u\n", run, kinds[t->kind].name, wrong,
            (size_t)rows * n, first_row, first_col, first_got, first_expected);
    return 2;
}

static int check_render(const bench_task *t, const uint32_t *frame_words, unsigned frame, unsigned run)
{
    const uint8_t *rgba = (const uint8_t *)frame_words;
    size_t pixels = (size_t)t->width * t->height, samples = pixels < CHECKED_PIXELS ? pixels : CHECKED_PIXELS;
    uint8_t got[4 * CHECKED_PIXELS], expected[4 * CHECKED_PIXELS];
    size_t where[CHECKED_PIXELS];
    for (size_t k = 0; k < samples; k++) {
        where[k] = k * pixels / samples;
        memcpy(got + 4 * k, rgba + 4 * where[k], 4);
        render_ref_pixel(t->width, t->height, frame, (unsigned)(where[k] % t->width), (unsigned)(where[k] / t->width),
                         expected + 4 * k);
    }
    render_ref_diff diff = render_ref_compare(got, expected, samples);
    if (render_ref_frames_match(&diff))
        return 0;
    size_t worst = diff.worst_pixel, p = where[worst];
    fprintf(stderr, "coop-bench: run %u: frame %u differs from the CPU reference at the %zu pixels checked: mean %.3f "
            "levels, %.2f%% within %d, %zu never written; worst at (%zu, %zu): got %u %u %u, expected %u %u %u\n",
            run, frame, samples, diff.mean_abs, 100.0 * diff.within, RENDER_REF_TOLERANCE, diff.alpha_mismatches,
            p % t->width, p / t->width, got[4 * worst], got[4 * worst + 1], got[4 * worst + 2], expected[4 * worst],
            expected[4 * worst + 1], expected[4 * worst + 2]);
    return 2;
}

int bench_task_check(const bench_task *t, unsigned frame, unsigned run)
{
    uint32_t *c = read_result(t);
    if (!c)
        return 1;
    int rc = is_render(t) ? check_render(t, c, frame, run) : check_matmult(t, c, run);
    free(c);
    return rc;
}

int bench_task_write_frame(const bench_task *t, const char *path)
{
    uint32_t *c = read_result(t);
    if (!c)
        return 1;
    char err[512];
    size_t length = strlen(path);
    int ppm = length >= 4 && !strcmp(path + length - 4, ".ppm");
    int rc = ppm ? image_write_ppm(path, (const uint8_t *)c, t->width, t->height, 4, err, sizeof err)
                 : image_write_png(path, (const uint8_t *)c, t->width, t->height, 4, err, sizeof err);
    free(c);
    return rc != 0 ? error_report(BENCH_TASK_PROGRAM, "%s", err) : 0;
}

/* ---- The no-cooperation baseline ------------------------------------------------------------ */

struct bench_baseline {
    bench_task *task;
    double period_ms;
    double start_ms;            /* host time of the first period */
    atomic_int stop;
    pthread_t thread;
    /* the task in flight: set by the event's callback */
    pthread_mutex_t lock;
    pthread_cond_t ended;
    int done;
    cl_int status;
    double done_ms;
    coop_task_record *records;
    size_t count, capacity;
    int failed;
};

/* Sleeps until host time `when_ms`, in steps of at most a millisecond; 0 if told to stop first. */
static int wait_until(bench_baseline *baseline, double when_ms)
{
    for (;;) {
        if (atomic_load(&baseline->stop))
            return 0;
        double left_ms = when_ms - clock_now_ms();
        if (left_ms <= 0)
            return 1;
        clock_sleep_ms(left_ms < 1.0 ? left_ms : 1.0);
    }
}

static int add_record(bench_baseline *baseline, const coop_task_record *record)
{
    if (baseline->count == baseline->capacity) {
        size_t capacity = baseline->capacity ? 2 * baseline->capacity : 64;
        coop_task_record *grown = realloc(baseline->records, capacity * sizeof *grown);
        if (!grown)
            return error_report(BENCH_TASK_PROGRAM, "out of memory recording tasks");
        baseline->records = grown;
        baseline->capacity = capacity;
    }
    baseline->records[baseline->count++] = *record;
    return 0;
}

/* The task's kernel ended. A callback and a condition variable rather than clWaitForEvents(),
 * which spins on PoCL and takes a core from the persistent kernel's workers. */
static void CL_CALLBACK task_ended(cl_event event, cl_int status, void *argument)
{
    (void)event;
    bench_baseline *baseline = argument;
    double now_ms = clock_now_ms();
    pthread_mutex_lock(&baseline->lock);
    baseline->done = 1;
    baseline->status = status;
    baseline->done_ms = now_ms;
    pthread_cond_signal(&baseline->ended);
    pthread_mutex_unlock(&baseline->lock);
}

/* Submits the task and waits for it; *done_ms: when it ended. */
static cl_int run_task(bench_baseline *baseline, cl_event *event, double *done_ms)
{
    baseline->done = 0;
    cl_int err = launch_plain(baseline->task, baseline->task->workgroups, event);
    if (err == CL_SUCCESS)
        err = clSetEventCallback(*event, CL_COMPLETE, task_ended, baseline);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&baseline->lock);
    while (!baseline->done)
        pthread_cond_wait(&baseline->ended, &baseline->lock);
    err = baseline->status < 0 ? baseline->status : CL_SUCCESS;
    *done_ms = baseline->done_ms;
    pthread_mutex_unlock(&baseline->lock);
    return err;
}

static void *baseline_loop(void *argument)
{
    bench_baseline *baseline = argument;
    const bench_task *t = baseline->task;
    for (unsigned sent = 0; !baseline->failed; sent++) {
        double due_ms = sent * baseline->period_ms;
        if (!wait_until(baseline, baseline->start_ms + due_ms))
            break;
        double request_ms = clock_now_ms(), done_ms = 0.0;
        cl_event event = NULL;
        cl_int err = run_task(baseline, &event, &done_ms);
        if (err != CL_SUCCESS) {
            baseline->failed = cl_failed(err, "baseline task");
        } else {
            double gather_ns = profiled_ns(event, CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_START);
            double exec_ns = profiled_ns(event, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
            coop_task_record record = {
                .groups = t->workgroups,
                .request_ms = request_ms - baseline->start_ms,
                .response_us = (done_ms - request_ms) * 1e3,
                .deadline_met = done_ms - baseline->start_ms <= due_ms + baseline->period_ms,
                .device_timed = gather_ns >= 0 && exec_ns >= 0,
            };
            record.gather_us = record.device_timed ? gather_ns / 1e3 : 0.0;
            record.exec_us = record.device_timed ? exec_ns / 1e3 : record.response_us;
            baseline->failed = add_record(baseline, &record);
        }
        if (event)
            clReleaseEvent(event);
    }
    return NULL;
}

int bench_baseline_start(bench_task *t, double period_ms, double first_ms, unsigned frame, bench_baseline **out)
{
    *out = NULL;
    if (is_render(t) && set_plain_args(t, frame) != 0)
        return 1;
    bench_baseline *baseline = calloc(1, sizeof *baseline);
    if (!baseline)
        return error_report(BENCH_TASK_PROGRAM, "out of memory");
    baseline->task = t;
    baseline->period_ms = period_ms;
    baseline->start_ms = clock_now_ms() + first_ms;
    atomic_init(&baseline->stop, 0);
    pthread_mutex_init(&baseline->lock, NULL);
    pthread_cond_init(&baseline->ended, NULL);
    if (pthread_create(&baseline->thread, NULL, baseline_loop, baseline) != 0) {
        pthread_cond_destroy(&baseline->ended);
        pthread_mutex_destroy(&baseline->lock);
        free(baseline);
        return error_report(BENCH_TASK_PROGRAM, "cannot start the baseline's task thread");
    }
    *out = baseline;
    return 0;
}

int bench_baseline_stop(bench_baseline *baseline, coop_task_record **records, size_t *count)
{
    atomic_store(&baseline->stop, 1);
    pthread_join(baseline->thread, NULL);
    int failed = baseline->failed;
    *records = baseline->records;
    *count = baseline->count;
    pthread_cond_destroy(&baseline->ended);
    pthread_mutex_destroy(&baseline->lock);
    free(baseline);
    return failed;
}
