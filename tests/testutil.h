/* testutil.h: helpers shared by libcoop's Check tests (header only).
 *
 * Check runs each test in a forked child. PoCL reads POCL_MAX_PTHREAD_COUNT once, when the
 * platform is first initialised, so each test sets it (tu_env) before its own first OpenCL
 * call, and nothing in the parent process (main, suite construction, unchecked fixtures) may
 * call OpenCL. Run the binaries from the repository root.
 *
 * The tests must hold on a machine whose cores are busy with other work. Discovery may then
 * find fewer co-resident groups than there are PoCL workers, which is correct (a worker that
 * gets no time slice within the window is not co-resident); only more groups than workers
 * would be wrong. A test asserts a range, or pins the groups it needs with tu_pin_groups().
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include "coop.h"
#include "internal.h" /* the context's device area and channel: tu_assert_mega_at_rest */

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TU_POCL_PLATFORM "Portable Computing Language"

/* ---- Progress ------------------------------------------------------------------------------
 * Check reports nothing until the whole suite has run, so every test prints a line on standard
 * output as it starts, with the seconds since the binary started, and a second line when it
 * passes after TU_SLOW_TEST_S or more (a failure is reported by Check at the end):
 *     [   12.3 s] reduce_under_chaos:2
 *     [   31.0 s] reduce_under_chaos:2 passed in 18.7 s
 * START_TEST below is Check's own with these two calls around the test's body. */

enum { TU_SLOW_TEST_S = 5 };

static double tu_binary_start_s;

static inline double tu_now_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec / 1e9;
}

/* Before main: the forked tests inherit it. */
__attribute__((constructor)) static void tu_mark_binary_start(void)
{
    tu_binary_start_s = tu_now_s();
}

static inline double tu_test_started(const char *name, int loop_index)
{
    double now_s = tu_now_s();
    printf("[%7.1f s] %s:%d\n", now_s - tu_binary_start_s, name, loop_index);
    fflush(stdout);
    return now_s;
}

static inline void tu_test_passed(const char *name, int loop_index, double start_s)
{
    double now_s = tu_now_s();
    if (now_s - start_s >= TU_SLOW_TEST_S) {
        printf("[%7.1f s] %s:%d passed in %.1f s\n", now_s - tu_binary_start_s, name, loop_index, now_s - start_s);
        fflush(stdout);
    }
}

#undef START_TEST
#define START_TEST(name)                                                                             \
    static void name##_body(int _i);                                                                 \
    static void name##_fn(int _i)                                                                    \
    {                                                                                                \
        double tu_start_s_ = tu_test_started(#name, _i);                                             \
        name##_body(_i);                                                                             \
        tu_test_passed(#name, _i, tu_start_s_);                                                      \
    }                                                                                                \
    static const TTest name##_ttest = {"" #name, name##_fn, __FILE__, __LINE__};                    \
    static const TTest *name = &name##_ttest;                                                        \
    static void name##_body(int _i CK_ATTRIBUTE_UNUSED)

/* Sets PoCL's worker count (its compute units) and clears every variable libcoop reads that a
 * user's environment may hold, so that only what a test sets itself applies. */
static inline void tu_env(unsigned workers)
{
    static const char *const variables[] = {"COOP_PLATFORM", "COOP_DEVICE", "COOP_CHANNEL",
                                            "COOP_DISCOVERY_WINDOW_US", "COOP_TIMEOUT_S", "COOP_WATCHDOG_S",
                                            "COOP_CHAOS", "COOP_TRACE", "COOP_TRACE_FILE", "COOP_BUILD_OPTIONS",
                                            "COOP_BUILD_LOG", "COOP_BUILD_DUMP"};
    char text[16];
    snprintf(text, sizeof text, "%u", workers);
    setenv("POCL_MAX_PTHREAD_COUNT", text, 1);
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        unsetenv(variables[i]);
}

/* Asserts that `call` returns `expected` and that the context's message then contains
 * `fragment`; the failure report shows both. */
#define TU_ASSERT_STATUS(ctx, call, expected, fragment)                                              \
    do {                                                                                             \
        coop_status tu_status_ = (call);                                                             \
        const char *tu_message_ = coop_context_message(ctx);                                         \
        ck_assert_msg(tu_status_ == (expected), "%s returned '%s', expected '%s' (message: %s)", #call, \
                      coop_strerror(tu_status_), coop_strerror(expected), tu_message_);              \
        ck_assert_msg(strstr(tu_message_, (fragment)) != NULL, "%s: message lacks \"%s\": %s", #call,  \
                      (fragment), tu_message_);                                                      \
    } while (0)

/* Asserts that `call` returns COOP_OK, showing the context's message if not. */
#define TU_ASSERT_OK(ctx, call)                                                                      \
    do {                                                                                             \
        coop_status tu_status_ = (call);                                                             \
        ck_assert_msg(tu_status_ == COOP_OK, "%s returned '%s': %s", #call, coop_strerror(tu_status_), \
                      coop_context_message(ctx));                                                    \
    } while (0)

/* Discovery of `groups` co-resident groups even on a busy machine: the default launch (so late
 * groups still leave), the poll closed as soon as `groups` registered, and a window long enough
 * for every worker to be given a time slice before then. Tests whose checks need that many
 * groups (a fork into an idle group, kills, exact members) use it; other tests accept any
 * count from 1 to the workers. */
enum { TU_PINNED_WINDOW_US = 5000000 };

static inline void tu_pin_groups(coop_launch *launch, const coop_context *ctx, unsigned groups)
{
    launch->launch_groups = coop_launch_groups(ctx, launch->local_size);
    launch->max_groups = groups;
    launch->discovery_window_us = TU_PINNED_WINDOW_US;
}

/* A context on PoCL with `workers` worker threads and channel backend `channel`. */
static inline coop_context *tu_context_channel(unsigned workers, coop_channel_kind channel)
{
    tu_env(workers);
    coop_options options = {.platform = TU_POCL_PLATFORM, .device = NULL, .channel = channel};
    coop_context *ctx = NULL;
    TU_ASSERT_OK(ctx, coop_context_create(&options, &ctx));
    ck_assert_uint_eq(coop_context_device(ctx)->compute_units, workers);
    return ctx;
}

/* A context on PoCL with `workers` worker threads and the default channel. */
static inline coop_context *tu_context(unsigned workers)
{
    return tu_context_channel(workers, COOP_CHANNEL_AUTO);
}

/* Builds `source` with `options` and returns its kernel `name`; *program receives the program
 * (release the kernel first, then the program). */
static inline coop_kernel *tu_kernel(coop_context *ctx, const char *source, const char *options, const char *name,
                                     coop_program **program)
{
    coop_kernel *kernel = NULL;
    TU_ASSERT_OK(ctx, coop_program_create(ctx, source, options, program));
    TU_ASSERT_OK(ctx, coop_kernel_create(*program, name, &kernel));
    return kernel;
}

/* A zero-filled read-write buffer of `words` 32-bit words. */
static inline cl_mem tu_buffer(coop_context *ctx, size_t words)
{
    cl_int err = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE, words * sizeof(cl_uint), NULL, &err);
    ck_assert_msg(err == CL_SUCCESS, "clCreateBuffer: %s", coop_cl_error_name(err));
    cl_uint zero = 0;
    err = clEnqueueFillBuffer(coop_context_queue(ctx), buffer, &zero, sizeof zero, 0, words * sizeof(cl_uint), 0,
                              NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueFillBuffer: %s", coop_cl_error_name(err));
    return buffer;
}

static inline void tu_write(coop_context *ctx, cl_mem buffer, const cl_uint *words, size_t count)
{
    cl_int err = clEnqueueWriteBuffer(coop_context_queue(ctx), buffer, CL_TRUE, 0, count * sizeof(cl_uint), words,
                                      0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueWriteBuffer: %s", coop_cl_error_name(err));
}

static inline void tu_read(coop_context *ctx, cl_mem buffer, cl_uint *words, size_t count)
{
    cl_int err = clEnqueueReadBuffer(coop_context_queue(ctx), buffer, CL_TRUE, 0, count * sizeof(cl_uint), words,
                                     0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %s", coop_cl_error_name(err));
}

/* The build option of a check build (coop_device/checks.h): the kernels then count what
 * breaks the rules of coop_layout.h's enum coop_check_rule, which tu_assert_mega_at_rest reads. */
#define TU_CHECK_OPTIONS "-DCOOP_CHECKS=1"

/* ---- A megakernel at rest ------------------------------------------------------------------
 * Once coop_mega_run has returned COOP_OK, every group has exited: the members finished (F = M)
 * and went to the pool, killed groups went to the pool or a task that then ended, and the
 * shutdown let the pool go. So the scheduler's words must be at rest (docs/DESIGN.md section 4's
 * conservation, section 6's B4): a group counted twice or lost, a fork slot never claimed, a
 * parked member never released, or a barrier left armed shows here. The words stay in the
 * context's device area (and, with the SVM channel, its channel) until the next launch. */

/* The control block where the kernels kept it (COOP_CTRL_IN_CHAN): the channel with SVM (an
 * agent's copy there would be partial), else the device area. */
static inline void tu_read_ctrl(coop_context *ctx, uint32_t *ctrl)
{
    if (ctx->channel.kind == COOP_CHANNEL_SVM) {
        for (unsigned i = 0; i < COOP_CTRL_WORDS; i++)
            ctrl[i] = __atomic_load_n(&ctx->channel.host[COOP_CHAN_CTRL + i], __ATOMIC_ACQUIRE);
        return;
    }
    cl_int err = clEnqueueReadBuffer(ctx->queue, ctx->dev_area, CL_TRUE, COOP_DEV_CTRL * sizeof(uint32_t),
                                     COOP_CTRL_WORDS * sizeof(uint32_t), ctrl, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %s", coop_cl_error_name(err));
}

#define TU_AT_REST(what, name, value, expected)                                                      \
    ck_assert_msg((value) == (expected), "%s: at rest after the run, %s = %u, expected %u", what, name, \
                  (unsigned)(value), (unsigned)(expected))

/* A check build broke none of the rules it checks (all zero otherwise, as the launch clears them). */
static inline void tu_assert_checks_kept(const uint32_t *ctrl, const char *what)
{
    static const char *const rules[COOP_CHECK_RULES] = {
        "R1/R4: a resize slot rewritten too early, or a second commit (barrier, slot's barrier, commit)",
        "R4: a resize slot read after it was rewritten (barrier, slot's barrier, id)",
        "K3: a kill-token count below zero (count, request, 0 take / 1 give-back / 2 offer)",
        "K4: a sweep released a park word it no longer held (id, word, sweeper)",
        "F1: a fork slot claimed from a record not published for it (FORK_SIZE, left, FORK_READ)",
        "B4: a barrier counter's half carried or borrowed (barrier, count, barrier + 2's count)",
        "K7: kill tokens left when the agent applied a request (request, tokens, their request)",
        "T6: a task request applied while another gathered (request, TASK_STATUS, -)",
        "T7: a task request applied to a slot whose task was not done (request, slot, its status)",
        "T8: a joined group's slot held another status once the task started (joined, slot's, -)",
        "C3: a group moved to its own kernel block or beyond the kernels (target, block, MOVE)",
        "C1: a member started outside the kernel blocks or at an id >= its kernel's M (block, id, STATE)",
        "S1: a spawn queue entry rewritten before its consumer took it (ticket, READY, tail)",
        /* parenthesised: one message on two lines, not two (clang's -Wstring-concatenation) */
        ("S7: the host's count of record ring entries read went back or past those written (written, read, "
         "read before)"),
    };
    char broken[2048] = "";
    for (unsigned rule = 0; rule < COOP_CHECK_RULES; rule++) {
        const uint32_t *words = &ctrl[COOP_CTRL_CHECKS + 4 * rule];
        size_t used = strlen(broken);
        if (words[0])
            snprintf(broken + used, sizeof broken - used, "; %s, %u times; first: %u, %u, %#x", rules[rule], words[0],
                     words[1], words[2], words[3]);
    }
    ck_assert_msg(!broken[0], "%s: the check build counted broken rules%s", what, broken);
}

/* The run that made `report` (coop_mega_run returned COOP_OK on ctx) left every word at rest;
 * `what` names the run in a failure. Kernels built with TU_CHECK_OPTIONS also kept their rules. */
static inline void tu_assert_mega_at_rest(coop_context *ctx, const coop_mega_report *report, const char *what)
{
    uint32_t *ctrl = malloc(COOP_CTRL_WORDS * sizeof *ctrl);
    ck_assert_ptr_nonnull(ctrl);
    tu_read_ctrl(ctx, ctrl);
    tu_assert_checks_kept(ctrl, what);
    unsigned pool = report->groups - (report->agent ? 1u : 0u);
    uint32_t state = ctrl[COOP_CTRL_STATE];
    TU_AT_REST(what, "F (finished members, STATE >> 12)", COOP_STATE_FINISHED(state), COOP_STATE_MEMBERS(state));
    TU_AT_REST(what, "IDLE", ctrl[COOP_CTRL_IDLE], pool);
    TU_AT_REST(what, "FORK_LEFT", ctrl[COOP_CTRL_FORK_LEFT], 0u);
    TU_AT_REST(what, "FORK_SIZE", ctrl[COOP_CTRL_FORK_SIZE], 0u);
    TU_AT_REST(what, "PARKED_COUNT", ctrl[COOP_CTRL_PARKED_COUNT], 0u);
    TU_AT_REST(what, "KILLS (kill tokens)", ctrl[COOP_CTRL_KILLS], 0u);
    TU_AT_REST(what, "KILLS_REQUEST (the kill tokens' request)", ctrl[COOP_CTRL_KILLS_REQUEST], 0u);
    /* every spawn reserved was taken (section 10.2): the host served the queue before the end */
    TU_AT_REST(what, "SPAWN_TAIL (spawns taken, against SPAWN_HEAD)", ctrl[COOP_CTRL_SPAWN_TAIL],
               ctrl[COOP_CTRL_SPAWN_HEAD]);
    for (unsigned id = 0; id < pool; id++) {
        char name[32];
        snprintf(name, sizeof name, "PARKED[%u]", id);
        TU_AT_REST(what, name, ctrl[COOP_CTRL_PARKED + id], COOP_PARK_NONE);
    }
    /* every group that joined a slot's last task left it, and the task is done (or the slot
     * never used). JOINED counts the groups that tried too: one that read GATHERING as the last
     * place went counts past WANT and goes back to the pool (coop_join_task), so the groups that
     * joined are the lesser of the two */
    for (unsigned slot = 0; slot < COOP_TASK_SLOTS; slot++) {
        char name[64];
        uint32_t task_status = ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS)];
        uint32_t joined = ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_JOINED)];
        uint32_t want = ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_WANT)];
        snprintf(name, sizeof name, "SLOT_FINISHED of task slot %u", slot);
        TU_AT_REST(what, name, ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_FINISHED)], joined < want ? joined : want);
        snprintf(name, sizeof name, "task slot %u's status (0: unused, %u: done)", slot, COOP_TASK_DONE);
        TU_AT_REST(what, name, task_status ? COOP_TASK_STATUS_OF(task_status) : COOP_TASK_DONE, COOP_TASK_DONE);
    }
    free(ctrl);
    /* B4: every member left the barriers when it finished or was killed, so each counter is
     * back where it started, its last flags apart */
    uint32_t counters[COOP_BAR_STRIDE + 2];
    cl_int err = clEnqueueReadBuffer(ctx->queue, ctx->dev_area, CL_TRUE, COOP_DEV_BAR_COUNT * sizeof(uint32_t),
                                     sizeof counters, counters, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %s", coop_cl_error_name(err));
    for (unsigned b = 0; b < 4; b++) {
        char name[64];
        snprintf(name, sizeof name, "barrier counter %u (flags masked)", b);
        uint32_t counter = counters[(b % 2u) * COOP_BAR_STRIDE + (b % 4u) / 2u];
        TU_AT_REST(what, name, counter & ~(COOP_BAR_FLAG | COOP_BAR_VOTE), COOP_BAR_IDLE);
    }
}

/* The times plan runs: once, or `repeats` times if periodic (a test gives a periodic plan its
 * repeats: 0, no limit, would count none). */
static inline unsigned tu_plan_runs(const coop_task_plan *plan)
{
    return plan->period_ms > 0 ? plan->repeats : 1;
}

/* A test case whose tests may take up to `timeout_s` (kernels on an oversubscribed CPU). */
static inline TCase *tu_tcase(const char *name, double timeout_s)
{
    TCase *tcase = tcase_create(name);
    tcase_set_timeout(tcase, timeout_s);
    return tcase;
}

/* Runs the suite with every test in its own process (the tests rely on it: see the top of this
 * file) and returns the exit status for main. */
static inline int tu_run(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_set_fork_status(runner, CK_FORK);
    srunner_run_all(runner, CK_ENV);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}


/* The whole file at `path`, NUL-terminated (malloc'ed); *size, unless NULL, gets its length. A
 * file that cannot be opened or read whole fails the test. */
static inline char *tu_read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    ck_assert_msg(file != NULL, "%s was not written (or cannot be opened)", path);
    ck_assert_int_eq(fseek(file, 0, SEEK_END), 0);
    long length = ftell(file);
    ck_assert_int_ge(length, 0);
    rewind(file);
    char *text = malloc((size_t)length + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(fread(text, 1, (size_t)length, file), (size_t)length);
    text[length] = '\0';
    fclose(file);
    if (size)
        *size = (size_t)length;
    return text;
}

/* ---- Standard error of expected build failures ----------------------------------------------
 * PoCL builds programs with clang's CompilerInstance, which prints "1 error generated." to the
 * process's standard error for a program that does not compile, besides the build log that
 * libcoop returns. TU_QUIETLY(call) evaluates `call` with standard error captured in a
 * temporary file, then drops those lines and passes anything else on, so that a test of a build
 * error prints nothing on success and hides nothing else. A test that checks what a call prints
 * brackets it with tu_stderr_capture() and tu_stderr_take(). */

static struct {
    int saved_fd;     /* the real standard error while it is captured */
    char path[32];
} tu_captured;

static inline void tu_stderr_capture(void)
{
    snprintf(tu_captured.path, sizeof tu_captured.path, "/tmp/tu_stderr.XXXXXX");
    int fd = mkstemp(tu_captured.path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    tu_captured.saved_fd = dup(STDERR_FILENO);
    ck_assert_int_ge(tu_captured.saved_fd, 0);
    ck_assert_int_eq(dup2(fd, STDERR_FILENO), STDERR_FILENO);
    close(fd);
}

/* "N error(s) generated." or "N warning(s) and N error(s) generated.": clang's summary line. */
static inline int tu_is_diagnostic_count(const char *line, size_t length)
{
    static const char tail[] = " generated.";
    return length > sizeof tail && line[0] >= '0' && line[0] <= '9' &&
           !memcmp(line + length - (sizeof tail - 1), tail, sizeof tail - 1);
}

/* Ends the capture and returns what was written (malloc'ed, NUL-terminated). */
static inline char *tu_stderr_take(void)
{
    fflush(stderr);
    ck_assert_int_eq(dup2(tu_captured.saved_fd, STDERR_FILENO), STDERR_FILENO);
    close(tu_captured.saved_fd);
    char *text = tu_read_file(tu_captured.path, NULL);
    unlink(tu_captured.path);
    return text;
}

/* Ends the capture and passes on every line but clang's counts of diagnostics. */
static inline void tu_stderr_release(void)
{
    char *text = tu_stderr_take();
    for (char *line = text; *line;) {
        size_t length = strcspn(line, "\n");
        if (!tu_is_diagnostic_count(line, length))
            fprintf(stderr, "%.*s\n", (int)length, line);
        line += length + (line[length] == '\n');
    }
    free(text);
}

static inline coop_status tu_stderr_release_status(coop_status status)
{
    tu_stderr_release();
    return status;
}

#define TU_QUIETLY(call) (tu_stderr_capture(), tu_stderr_release_status(call))

/* Starts argv with its output thrown away, SIGINT and SIGTERM at their defaults whatever this
 * process was started with (a background job ignores SIGINT, and would pass that on); returns
 * its pid, for the caller to signal and wait for. */
static inline pid_t tu_start_silent(char *const argv[])
{
    fflush(NULL);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execv(argv[0], argv);
        _exit(127);
    }
    return child;
}

/* A program run by tu_run_process: its exit status (-1 if it did not exit normally) and everything
 * it wrote to standard output and standard error (malloc'ed, NUL-terminated). */
typedef struct tu_process {
    int status;
    char *output;
} tu_process;

/* Runs argv[0] with `argv` (NULL-terminated) and collects its output; the environment is the
 * caller's (set POCL_MAX_PTHREAD_COUNT etc. first). With `unprivileged`, a root caller runs it as
 * nobody (for whom a read-only mode stops writing, as it does not stop root). */
static inline tu_process tu_run_process_as(char *const argv[], int unprivileged)
{
    int pipe_fds[2];
    ck_assert_int_eq(pipe(pipe_fds), 0);
    fflush(NULL);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        dup2(pipe_fds[1], STDOUT_FILENO);
        dup2(pipe_fds[1], STDERR_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        if (unprivileged && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pipe_fds[1]);
    tu_process run = {.status = -1};
    size_t length = 0, capacity = 8192;
    run.output = malloc(capacity);
    ck_assert_ptr_nonnull(run.output);
    for (;;) {
        if (capacity - length < 1024) {
            capacity *= 2;
            run.output = realloc(run.output, capacity);
            ck_assert_ptr_nonnull(run.output);
        }
        ssize_t got = read(pipe_fds[0], run.output + length, capacity - length - 1);
        if (got <= 0)
            break;
        length += (size_t)got;
    }
    run.output[length] = '\0';
    close(pipe_fds[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    if (WIFEXITED(status))
        run.status = WEXITSTATUS(status);
    return run;
}

static inline tu_process tu_run_process(char *const argv[])
{
    return tu_run_process_as(argv, 0);
}

/* Runs one of the programs `make` builds, `program` (its path), with the arguments that follow
 * `workers` up to a NULL, and `workers` PoCL compute units; a program not built fails the test
 * with `build`, how to build it. */
enum { TU_MAX_ARGS = 32 };
static inline tu_process tu_run_program(const char *program, const char *build, unsigned workers, ...)
{
    struct stat info;
    ck_assert_msg(stat(program, &info) == 0, "%s is missing: build it with %s", program, build);
    tu_env(workers);
    char *argv[TU_MAX_ARGS + 2] = {(char *)program};
    size_t argc = 1;
    va_list args;
    va_start(args, workers);
    for (const char *arg = va_arg(args, const char *); arg; arg = va_arg(args, const char *)) {
        ck_assert_uint_lt(argc, TU_MAX_ARGS);
        argv[argc++] = (char *)arg;
    }
    va_end(args);
    argv[argc] = NULL;
    return tu_run_process(argv);
}

/* Asserts that `run` exited with `status` and that its output contains `fragment`; `what` names
 * the run in a failure, which shows the whole output. */
static inline void tu_assert_run(const tu_process *run, const char *what, int status, const char *fragment)
{
    ck_assert_msg(run->status == status, "%s: exit status %d, expected %d; output:\n%s", what, run->status, status,
                  run->output);
    ck_assert_msg(strstr(run->output, fragment) != NULL, "%s: output lacks \"%s\":\n%s", what, fragment, run->output);
}

/* The number of lines of `output` that begin with `start` and end with `end`. */
static inline unsigned tu_lines_with(const char *output, const char *start, const char *end)
{
    unsigned count = 0;
    for (const char *line = output; *line;) {
        const char *eol = strchr(line, '\n');
        size_t length = eol ? (size_t)(eol - line) : strlen(line);
        if (!strncmp(line, start, strlen(start)) && length >= strlen(end) &&
            !strncmp(line + length - strlen(end), end, strlen(end)))
            count++;
        line += length + (eol != NULL);
    }
    return count;
}

/* The sum of the numbers printed just before `label` (e.g. " kills") wherever it occurs in
 * `output`. */
static inline unsigned tu_sum_before(const char *output, const char *label)
{
    unsigned sum = 0;
    for (const char *at = strstr(output, label); at; at = strstr(at + 1, label)) {
        const char *digits = at;
        while (digits > output && digits[-1] >= '0' && digits[-1] <= '9')
            digits--;
        sum += (unsigned)strtoul(digits, NULL, 10);
    }
    return sum;
}

/* ---- Study scripts' smoke tests ---------------------------------------------------------------
 * A study script (scripts/path-study, qsort-study, lbvh-build) run with --quick writes its CSVs,
 * report.md and a plot into the folder --out names; its smoke test checks what each file holds
 * (not the times, which PoCL does not measure). */

enum { TU_STUDY_CHECKS = 4 };

/* A file a study writes: its name in the folder, how it starts (NULL: any way), fragments it
 * contains, and how many of its lines begin with each of `lines`' starts. A .png file must
 * begin with the PNG signature too. */
typedef struct tu_study_file {
    const char *name, *start;
    const char *contains[TU_STUDY_CHECKS];
    struct {
        const char *start;
        unsigned count;
    } lines[TU_STUDY_CHECKS];
} tu_study_file;

/* Runs `script` --quick into a new temporary folder with `workers` PoCL compute units, asserts
 * that it exits 0 with `fragment` in its output and that it wrote each of the `count` files as
 * described, then removes them and the folder. */
static inline void tu_run_study(const char *script, unsigned workers, const char *fragment,
                                const tu_study_file *files, size_t count)
{
    static const char png_signature[] = "\x89PNG\r\n\x1a\n";
    char folder[] = "/tmp/tu_study-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(folder));
    tu_env(workers);
    char *argv[] = {(char *)script, "--quick", "--out", folder, NULL};
    tu_process run = tu_run_process(argv);
    char what[128], path[256];
    snprintf(what, sizeof what, "%s --quick", script);
    tu_assert_run(&run, what, 0, fragment);
    free(run.output);
    for (size_t f = 0; f < count; f++) {
        const tu_study_file *file = &files[f];
        snprintf(path, sizeof path, "%s/%s", folder, file->name);
        size_t size = 0, name_length = strlen(file->name);
        char *text = tu_read_file(path, &size);
        if (name_length > 4 && !strcmp(file->name + name_length - 4, ".png"))
            ck_assert_msg(size >= sizeof png_signature - 1 && !memcmp(text, png_signature, sizeof png_signature - 1),
                          "%s is not a PNG image", file->name);
        ck_assert_msg(!file->start || !strncmp(text, file->start, strlen(file->start)), "%s starts:\n%s",
                      file->name, text);
        for (size_t k = 0; k < TU_STUDY_CHECKS && file->contains[k]; k++)
            ck_assert_msg(strstr(text, file->contains[k]) != NULL, "%s lacks \"%s\":\n%s", file->name,
                          file->contains[k], text);
        for (size_t k = 0; k < TU_STUDY_CHECKS && file->lines[k].start; k++) {
            unsigned lines = tu_lines_with(text, file->lines[k].start, "");
            ck_assert_msg(lines == file->lines[k].count, "%s: %u lines begin with \"%s\", expected %u:\n%s",
                          file->name, lines, file->lines[k].start, file->lines[k].count, text);
        }
        free(text);
    }
    for (size_t f = 0; f < count; f++) {
        snprintf(path, sizeof path, "%s/%s", folder, files[f].name);
        unlink(path);
    }
    rmdir(folder);
}

#endif
