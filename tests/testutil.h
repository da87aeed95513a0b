/* testutil.h: helpers shared by libcoop's Check tests (header only).
 *
 * Check runs each test in a forked child. PoCL reads POCL_MAX_PTHREAD_COUNT once, when the
 * platform is first initialised, so each test sets it (tu_env) before its own first OpenCL
 * call, and nothing in the parent process (main, suite construction, unchecked fixtures) may
 * call OpenCL. Run the binaries from the repository root.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include "coop.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TU_POCL_PLATFORM "Portable Computing Language"

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

/* A program run by tu_run_process: its exit status (-1 if it did not exit normally) and everything
 * it wrote to standard output and standard error (malloc'ed, NUL-terminated). */
typedef struct tu_process {
    int status;
    char *output;
} tu_process;

/* Runs argv[0] with `argv` (NULL-terminated) and collects its output; the environment is the
 * caller's (set POCL_MAX_PTHREAD_COUNT etc. first). */
static inline tu_process tu_run_process(char *const argv[])
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

#endif
