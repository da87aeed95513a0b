/* test_merge.c: coop-merge (merge-tool/): its rewriting of small inputs against golden outputs,
 * every rejection with its message and exit status, malformed inputs through the
 * AddressSanitizer/UBSan build, and merged megakernels built and run with libcoop on PoCL, under
 * chaos, against CPU references.
 *
 * Runs build/bin/coop-merge and build/bin/coop-merge-asan (COOP_MERGE and COOP_MERGE_ASAN
 * override them) from the repository root. COOP_MERGE_BLESS=1 rewrites the golden outputs in
 * tests/merge/expected/ from what the tool writes now (review the diff). */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The golden host headers: the end-to-end tests set arguments and plan tasks by these names.
 * (A program normally includes one; here the shared names are taken out between them.) */
#include "merge/expected/nested.h"
static const char nested_mega_name[] = COOP_MEGAKERNEL_NAME;
enum { NESTED_FILL_OUT = COOP_ARG_fill_out, NESTED_FILL_SEED = COOP_ARG_fill_seed, NESTED_TASK_FILL = COOP_TASK_fill };
#undef COOP_MEGAKERNEL_NAME
#undef COOP_ARG_COUNT
#undef COOP_TASK_COUNT
#undef COOP_ARG_fill_out
#undef COOP_ARG_fill_seed
#undef COOP_TASK_fill
#include "merge/expected/types.h"
static const char types_mega_name[] = COOP_MEGAKERNEL_NAME;
#undef COOP_MEGAKERNEL_NAME
#undef COOP_ARG_COUNT
#undef COOP_TASK_COUNT
#include "merge/expected/standalone.h"
static const char standalone_name[] = COOP_MEGAKERNEL_NAME;
#undef COOP_MEGAKERNEL_NAME
#undef COOP_ARG_COUNT
#include "merge/expected/rounds.h"
static const char rounds_mega_name[] = COOP_MEGAKERNEL_NAME;
#undef COOP_MEGAKERNEL_NAME
#undef COOP_ARG_COUNT
#undef COOP_TASK_COUNT
#include "merge/expected/phases.h"
static const char phases_mega_name[] = COOP_MEGAKERNEL_NAME;
#undef COOP_MEGAKERNEL_NAME
#undef COOP_ARG_COUNT
#undef COOP_TASK_COUNT
#include "merge/expected/sweep.h"
static const char sweep_mega_name[] = COOP_MEGAKERNEL_NAME;

#define GOLDEN_DIR "tests/merge/expected"
enum { PATH_BYTES = 256 };

static const char *tool_path(void)
{
    const char *path = getenv("COOP_MERGE");
    return path && *path ? path : "build/bin/coop-merge";
}

static const char *asan_tool_path(void)
{
    const char *path = getenv("COOP_MERGE_ASAN");
    return path && *path ? path : "build/bin/coop-merge-asan";
}

/* ---- Running the tool --------------------------------------------------------------------- */

/* What one run of the tool did. */
typedef struct tool_result {
    int exit_status;              /* -1 when a signal ended it */
    int signal;
    char *out;                    /* standard output */
    char *err;                    /* standard error */
} tool_result;

/* The whole file (NUL-terminated, *size bytes before the NUL), or NULL if it cannot be read. */
static char *read_file(const char *path, size_t *size)
{
    FILE *stream = fopen(path, "rb");
    if (!stream)
        return NULL;
    size_t capacity = 4096, length = 0;
    char *text = malloc(capacity);
    ck_assert_ptr_nonnull(text);
    size_t got;
    while ((got = fread(text + length, 1, capacity - length - 1, stream)) > 0) {
        length += got;
        if (capacity - length < 2) {
            capacity *= 2;
            text = realloc(text, capacity);
            ck_assert_ptr_nonnull(text);
        }
    }
    fclose(stream);
    text[length] = '\0';
    if (size)
        *size = length;
    return text;
}

static void write_file(const char *path, const char *text, size_t length)
{
    FILE *stream = fopen(path, "wb");
    ck_assert_msg(stream != NULL, "cannot write %s", path);
    ck_assert_uint_eq(fwrite(text, 1, length, stream), length);
    ck_assert_int_eq(fclose(stream), 0);
}

static void temporary_path(char *path, const char *suffix)
{
    static unsigned counter;
    snprintf(path, PATH_BYTES, "/tmp/test_merge.%d.%u%s", (int)getpid(), counter++, suffix);
}

/* Runs `tool` with the NULL-terminated `args`, capturing both output streams. */
static tool_result run_tool(const char *tool, const char *const *args)
{
    char out_path[PATH_BYTES], err_path[PATH_BYTES];
    temporary_path(out_path, ".stdout");
    temporary_path(err_path, ".stderr");
    const char *argv[64];
    size_t argc = 0;
    argv[argc++] = tool;
    for (size_t i = 0; args[i] && argc < 63; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    fflush(NULL);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
            _exit(126);
        execv(tool, (char *const *)argv);
        fprintf(stderr, "cannot run %s\n", tool);
        _exit(127);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    tool_result result = {.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                          .signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0};
    result.out = read_file(out_path, NULL);
    result.err = read_file(err_path, NULL);
    ck_assert_msg(result.out && result.err, "lost the output of %s", tool);
    ck_assert_msg(result.exit_status != 127 && result.exit_status != 126, "cannot run %s: build it first", tool);
    unlink(out_path);
    unlink(err_path);
    return result;
}

static void free_result(tool_result *result)
{
    free(result->out);
    free(result->err);
}

/* The tool's merged program for `args` (written to standard output), or a failed test. */
static char *merge_source(const char *const *args)
{
    const char *argv[32];
    size_t argc = 0;
    for (size_t i = 0; args[i] && argc < 28; i++)
        argv[argc++] = args[i];
    argv[argc++] = "-o";
    argv[argc++] = "-";
    argv[argc] = NULL;
    tool_result result = run_tool(tool_path(), argv);
    ck_assert_msg(result.exit_status == 0, "coop-merge failed (status %d): %s", result.exit_status, result.err);
    free(result.err);
    return result.out;
}

/* ---- Golden outputs ----------------------------------------------------------------------- */

typedef struct golden_case {
    const char *name;             /* tests/merge/expected/NAME.cl and NAME.h */
    const char *args[12];
} golden_case;

static const golden_case goldens[] = {
    {"rounds", {"tests/merge/rounds.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"nested", {"tests/merge/nested.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"types", {"tests/merge/types.cl", "--task", "tests/merge/tasks_a.cl", "--task", "tests/merge/tasks_b.cl", NULL}},
    {"paths", {"tests/merge/paths.cl", NULL}},
    {"phases", {"tests/merge/phases.cl", NULL}},
    {"sweep", {"tests/merge/sweep.cl", NULL}},
    {"standalone", {"tests/merge/nested.cl", "--standalone", NULL}},
    {"defines", {"tests/merge/defines.cl", "-I", "tests/merge/include", "-D", "WIDTH=4", "-DFAST", NULL}},
};

/* Compares a file the tool wrote with its golden copy (or replaces the copy when blessing). */
static void check_golden(const char *written, const char *golden)
{
    size_t size = 0, expected_size = 0;
    char *actual = read_file(written, &size);
    ck_assert_msg(actual != NULL, "coop-merge wrote no %s", written);
    if (getenv("COOP_MERGE_BLESS")) {
        write_file(golden, actual, size);
        free(actual);
        return;
    }
    char *expected = read_file(golden, &expected_size);
    ck_assert_msg(expected != NULL, "no golden file %s (COOP_MERGE_BLESS=1 writes it)", golden);
    if (size != expected_size || memcmp(actual, expected, size)) {
        unsigned line = 1;
        size_t at = 0;
        while (at < size && at < expected_size && actual[at] == expected[at])
            line += actual[at++] == '\n';
        ck_abort_msg("%s differs from %s at line %u: got \"%.80s\", expected \"%.80s\"", written, golden, line,
                     actual + at, expected + at);
    }
    free(expected);
    free(actual);
}

START_TEST(golden_outputs)
{
    const golden_case *g = &goldens[_i];
    char program[PATH_BYTES], header[PATH_BYTES], golden_program[PATH_BYTES], golden_header[PATH_BYTES];
    temporary_path(program, ".cl");
    temporary_path(header, ".h");
    snprintf(golden_program, sizeof golden_program, "%s/%s.cl", GOLDEN_DIR, g->name);
    snprintf(golden_header, sizeof golden_header, "%s/%s.h", GOLDEN_DIR, g->name);
    const char *args[20];
    size_t n = 0;
    for (size_t i = 0; g->args[i]; i++)
        args[n++] = g->args[i];
    args[n++] = "-o";
    args[n++] = program;
    args[n++] = "--host-header";
    args[n++] = header;
    args[n] = NULL;
    tool_result result = run_tool(tool_path(), args);
    ck_assert_msg(result.exit_status == 0, "%s: coop-merge failed (status %d): %s", g->name, result.exit_status,
                  result.err);
    ck_assert_msg(result.err[0] == '\0', "%s: coop-merge printed: %s", g->name, result.err);
    check_golden(program, golden_program);
    check_golden(header, golden_header);
    unlink(program);
    unlink(header);
    free_result(&result);
}
END_TEST

/* `-o -` and no -o both write the program to standard output, and nothing else. */
START_TEST(standard_output)
{
    const char *dash[] = {"tests/merge/rounds.cl", "--task", "tests/merge/fill.cl", "-o", "-", NULL};
    const char *none[] = {"tests/merge/rounds.cl", "--task", "tests/merge/fill.cl", NULL};
    tool_result a = run_tool(tool_path(), dash), b = run_tool(tool_path(), none);
    ck_assert_int_eq(a.exit_status, 0);
    ck_assert_int_eq(b.exit_status, 0);
    ck_assert_str_eq(a.out, b.out);
    ck_assert_ptr_nonnull(strstr(a.out, "kernel void rounds_mega(COOP_PARAMS, global uint *data, uint n, "
                                        "uint rounds_rounds, global uint *out, uint seed)"));
    free_result(&a);
    free_result(&b);
}
END_TEST

/* ---- Rejections --------------------------------------------------------------------------- */

typedef struct rejection {
    const char *args[8];
    const char *message;          /* the error line (or its start) */
    const char *hint;             /* a fragment of the note that follows, or NULL */
} rejection;

#define REJECT "tests/merge/reject/"
static const rejection rejections[] = {
    {{REJECT "no_kernel.cl"},
     REJECT "no_kernel.cl:1:1: error: no kernel function in the cooperative kernel's file", "kernel void NAME"},
    {{REJECT "two_kernels.cl"},
     REJECT "two_kernels.cl:6:13: error: second kernel 'second' in the cooperative kernel's file", "--task"},
    {{REJECT "transmit_nested.cl"},
     REJECT "transmit_nested.cl:4:23: error: 'transmit' variable 'seen' is not declared in the cooperative "
            "kernel's root scope", "top level of the kernel's body"},
    {{"tests/merge/rounds.cl", "--task", REJECT "transmit_task.cl"},
     REJECT "transmit_task.cl:3:19: error: 'transmit' variable 'count' outside the cooperative kernel",
     "cooperative kernel only"},
    {{REJECT "fork_switch.cl"},
     REJECT "fork_switch.cl:8:13: error: resizing_global_barrier() inside a switch statement: coop-merge cannot "
            "resume a forked group there", "out of the switch"},
    {{REJECT "fork_helper.cl"},
     REJECT "fork_helper.cl:4:5: error: offer_fork() in helper function 'step'", "in the cooperative kernel itself"},
    {{REJECT "fork_loop_header.cl"},
     REJECT "fork_loop_header.cl:5:9: error: resizing_global_barrier() in a for loop that declares its variable in "
            "its header", "'transmit'"},
    {{REJECT "fork_loop_private.cl"},
     REJECT "fork_loop_private.cl:8:9: error: offer_fork() in a loop whose control variable 'r' is not transmit",
     "declare 'r' with 'transmit'"},
    {{REJECT "recursion.cl"}, REJECT "recursion.cl:10:12: error: recursive call: 'depth' calls 'climb'", "loop"},
    {{"tests/merge/rounds.cl", "--task", REJECT "task_barrier.cl"},
     REJECT "task_barrier.cl:4:5: error: task kernel 'waits' calls global_barrier()", "only the cooperative kernel"},
    {{"tests/merge/rounds.cl", "--task", REJECT "task_helper_barrier.cl"},
     REJECT "task_helper_barrier.cl:9:5: error: task kernel 'publishes' calls 'publish', which uses a cooperative "
            "primitive", "only the cooperative kernel"},
    {{REJECT "nested_call.cl"}, REJECT "nested_call.cl:5:19: error: offer_fork() must be a statement of its own",
     "by itself"},
    {{REJECT "macro_id.cl"}, REJECT "macro_id.cl:5:10: error: get_group_id() inside a macro", "directly"},
    {{REJECT "goto.cl"}, REJECT "goto.cl:1:13: error: goto or label in a cooperative kernel with fork points",
     "structured control flow"},
    {{REJECT "transmit_large.cl"},
     REJECT "transmit_large.cl:3:20: error: transmit variables take 320 bytes; libcoop hands at most 256 bytes",
     "global memory"},
    {{REJECT "calls_kernel.cl", "--task", REJECT "calls_kernel_task.cl"},
     REJECT "calls_kernel_task.cl:5:5: error: 'caller' calls kernel 'inner'", "helper function"},
    {{REJECT "duplicate.cl", "--task", REJECT "duplicate_task.cl"},
     REJECT "duplicate_task.cl:1:6: error: 'twice' is also defined in " REJECT "duplicate.cl", "include guard"},
    {{REJECT "own_primitive.cl"},
     REJECT "own_primitive.cl:1:6: error: 'global_barrier' is a cooperative primitive", "rename"},
    {{REJECT "reserved_name.cl"},
     REJECT "reserved_name.cl:1:18: error: 'ctx' in 'offset' would clash with the name coop-merge gives", "rename"},
    {{"tests/merge/rounds.cl", "--task", REJECT "no_kernel.cl"},
     REJECT "no_kernel.cl:1:1: error: no kernel function in task file", NULL},
    /* clang's own diagnostics, as clang prints them */
    {{REJECT "syntax.cl"}, REJECT "syntax.cl:3:30: error: use of undeclared identifier 'undeclared_value'", NULL},
    {{"tests/merge/malformed/unbalanced_open.cl"}, "tests/merge/malformed/unbalanced_open.cl:", NULL},
    /* the command line */
    {{"tests/merge/no_such_file.cl"}, "coop-merge: cannot read tests/merge/no_such_file.cl", NULL},
    {{"tests/merge/rounds.cl", "--frobnicate"}, "coop-merge: unknown option --frobnicate", NULL},
    {{"tests/merge/rounds.cl", "--task"}, "coop-merge: --task needs an argument", NULL},
    {{"tests/merge/rounds.cl", "tests/merge/types.cl"}, "coop-merge: one cooperative kernel file only", NULL},
    {{"--standalone"}, "coop-merge: no cooperative kernel file", NULL},
};

/* Every rejection exits with status 1, says where, what and how to fix it, and writes nothing:
 * an output file that existed keeps its old content and no temporary file is left behind. */
START_TEST(rejections_report_and_write_nothing)
{
    const rejection *r = &rejections[_i];
    char dir[PATH_BYTES], program[2 * PATH_BYTES], header[2 * PATH_BYTES];
    temporary_path(dir, ".dir");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(program, sizeof program, "%s/out.cl", dir);
    snprintf(header, sizeof header, "%s/out.h", dir);
    write_file(program, "old", 3);
    const char *args[16];
    size_t n = 0;
    for (size_t i = 0; r->args[i]; i++)
        args[n++] = r->args[i];
    args[n++] = "-o";
    args[n++] = program;
    args[n++] = "--host-header";
    args[n++] = header;
    args[n] = NULL;
    tool_result result = run_tool(tool_path(), args);
    ck_assert_msg(result.exit_status == 1, "%s: exit status %d, expected 1; stderr: %s", r->message,
                  result.exit_status, result.err);
    ck_assert_msg(strstr(result.err, r->message) != NULL, "stderr lacks \"%s\": %s", r->message, result.err);
    if (r->hint) {
        const char *note = strstr(result.err, ": note: ");
        ck_assert_msg(note && strstr(note, r->hint), "no note with \"%s\": %s", r->hint, result.err);
    }
    ck_assert_str_eq(result.out, "");
    size_t size = 0;
    char *kept = read_file(program, &size);
    ck_assert_msg(kept && size == 3 && !memcmp(kept, "old", 3), "the old output file was changed");
    free(kept);
    ck_assert_int_eq(unlink(program), 0);
    ck_assert_msg(rmdir(dir) == 0, "the tool left files in %s", dir);
    free_result(&result);
}
END_TEST

/* ---- Malformed input, under the sanitizers ------------------------------------------------ */

/* Runs the sanitized tool on `text` as the cooperative kernel file (and, if `as_task`, as a task
 * file next to a good one); it must end with status 0 or 1 and no sanitizer report. */
static void check_survives(const char *text, size_t length, const char *what)
{
    char input[PATH_BYTES], program[PATH_BYTES];
    temporary_path(input, ".cl");
    temporary_path(program, ".out.cl");
    write_file(input, text, length);
    const char *as_coop[] = {input, "-o", program, NULL};
    const char *as_task[] = {"tests/merge/rounds.cl", "--task", input, "-o", program, NULL};
    const char *const *runs[] = {as_coop, as_task};
    for (size_t i = 0; i < 2; i++) {
        tool_result result = run_tool(asan_tool_path(), runs[i]);
        ck_assert_msg(result.signal == 0, "%s: coop-merge died of signal %d", what, result.signal);
        ck_assert_msg(result.exit_status == 0 || result.exit_status == 1, "%s: exit status %d: %s", what,
                      result.exit_status, result.err);
        ck_assert_msg(!strstr(result.err, "Sanitizer") && !strstr(result.err, "runtime error"), "%s: %s", what,
                      result.err);
        free_result(&result);
        unlink(program);
    }
    unlink(input);
}

static void sanitizer_environment(void)
{
    setenv("ASAN_OPTIONS", "exitcode=86:detect_leaks=1", 1);
    setenv("UBSAN_OPTIONS", "halt_on_error=1:exitcode=87:print_stacktrace=1", 1);
}

/* Every input file, cut short at many places. */
START_TEST(truncated_files)
{
    static const char *const inputs[] = {"tests/merge/nested.cl", "tests/merge/types.cl", "tests/merge/paths.cl",
                                         "tests/merge/tasks_a.cl"};
    sanitizer_environment();
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        size_t size = 0;
        char *text = read_file(inputs[i], &size);
        ck_assert_ptr_nonnull(text);
        size_t step = size / 24 + 1;
        for (size_t length = 0; length < size; length += step) {
            char what[PATH_BYTES];
            snprintf(what, sizeof what, "%s cut at %zu bytes", inputs[i], length);
            check_survives(text, length, what);
        }
        free(text);
    }
}
END_TEST

/* Random bytes (NULs, invalid UTF-8, control characters), and a kernel followed by them. */
START_TEST(binary_junk)
{
    sanitizer_environment();
    unsigned state = 12345;
    char junk[600];
    for (int round = 0; round < 16; round++) {
        size_t length = 0;
        if (round % 2) {
            const char *kernel = "kernel void k(global uint *d) { transmit uint i = 0; offer_fork(); d[i] = 1; }\n";
            length = strlen(kernel);
            memcpy(junk, kernel, length);
        }
        size_t extra = 40 + round * 30;
        for (size_t i = 0; i < extra; i++) {
            state = state * 1103515245u + 12345u;
            junk[length++] = (char)(state >> 16);
        }
        char what[64];
        snprintf(what, sizeof what, "junk round %d", round);
        check_survives(junk, length, what);
    }
}
END_TEST

/* The hand-made malformed files: unbalanced braces, stray primitives, NUL bytes. */
START_TEST(malformed_files)
{
    sanitizer_environment();
    DIR *dir = opendir("tests/merge/malformed");
    ck_assert_ptr_nonnull(dir);
    unsigned checked = 0;
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (entry->d_name[0] == '.')
            continue;
        char path[2 * PATH_BYTES];
        snprintf(path, sizeof path, "tests/merge/malformed/%s", entry->d_name);
        size_t size = 0;
        char *text = read_file(path, &size);
        ck_assert_ptr_nonnull(text);
        check_survives(text, size, path);
        free(text);
        checked++;
    }
    closedir(dir);
    ck_assert_uint_ge(checked, 4);
}
END_TEST

/* The good inputs run clean under the sanitizers too (leaks included). */
START_TEST(good_inputs_clean_under_sanitizers)
{
    sanitizer_environment();
    const golden_case *g = &goldens[_i];
    const char *args[20];
    size_t n = 0;
    for (size_t i = 0; g->args[i]; i++)
        args[n++] = g->args[i];
    args[n++] = "-o";
    args[n++] = "-";
    args[n] = NULL;
    tool_result result = run_tool(asan_tool_path(), args);
    ck_assert_msg(result.exit_status == 0, "%s: status %d: %s", g->name, result.exit_status, result.err);
    ck_assert_msg(result.err[0] == '\0', "%s: %s", g->name, result.err);
    free_result(&result);
}
END_TEST

/* ---- End to end on PoCL ------------------------------------------------------------------- */

enum { WORKERS = 2, CHAOS_SEEDS = 6 };

/* PoCL compiles a kernel when it is first launched, inside the launch's time limit. */
#define COMPILE_TIMEOUT_S 1200.0

static cl_mem float_buffer(coop_context *ctx, size_t count)
{
    return tu_buffer(ctx, count); /* floats and words have the same size */
}

static coop_kernel *build_merged(coop_context *ctx, const char *const *args, const char *name, coop_program **program)
{
    char *source = merge_source(args);
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, name, program);
    free(source);
    return kernel;
}

/* nested.cl + fill.cl: a resizing barrier two loops deep, a kill point and a fork point, helpers
 * that use the group id, local memory, and a periodic task; without and with chaos. */
START_TEST(nested_megakernel_under_chaos)
{
    enum { N = 3000, OUTER = 4, INNER = 5, TASK_GROUPS = 7, LOCAL = 16 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/nested.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, nested_mega_name, &program);
    cl_mem data = tu_buffer(ctx, N), last_round = tu_buffer(ctx, 1), out = tu_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_uint n = N, outer = OUTER, inner = INNER;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_nested_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_nested_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_nested_outer, sizeof outer, &outer));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_nested_inner, sizeof inner, &inner));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_nested_last_round, last_round));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, NESTED_FILL_OUT, out));
    unsigned kills = 0, forks = 0;
    static cl_uint values[N];
    for (unsigned seed = 0; seed <= CHAOS_SEEDS; seed++) {
        cl_uint zero[N] = {0}, task_seed = 100 + seed;
        tu_write(ctx, data, zero, N);
        tu_write(ctx, out, zero, TASK_GROUPS * LOCAL);
        TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_FILL_SEED, sizeof task_seed, &task_seed));
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_task_plan plan = {.task = NESTED_TASK_FILL, .workgroups = TASK_GROUPS, .take = COOP_TAKE_HALF,
                               .period_ms = 1, .repeats = 3};
        coop_mega_report report;
        TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, &plan, 1, &report));
        tu_read(ctx, data, values, N);
        for (unsigned i = 0; i < N; i++)
            ck_assert_msg(values[i] == OUTER * INNER, "seed %u: data[%u] = %u, expected %u", seed, i, values[i],
                          OUTER * INNER);
        tu_read(ctx, last_round, values, 1);
        ck_assert_msg(values[0] == OUTER * INNER, "seed %u: last round %u", seed, values[0]);
        if (report.record_count) {
            tu_read(ctx, out, values, TASK_GROUPS * LOCAL);
            for (unsigned g = 0; g < TASK_GROUPS; g++)
                for (unsigned l = 0; l < LOCAL; l++)
                    ck_assert_msg(values[g * LOCAL + l] == g * 7u + l + task_seed, "seed %u: task output [%u][%u]",
                                  seed, g, l);
        }
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made no kills (%u) or forks (%u)", kills, forks);
    clReleaseMemObject(data);
    clReleaseMemObject(last_round);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* rounds.cl + fill.cl, the example megakernel as a user writes it, built with PoCL's default
 * work-group method: a resizing barrier in a loop and a periodic task, without and with chaos. */
START_TEST(rounds_megakernel_under_chaos)
{
    enum { N = 4096, ROUNDS = 40, TASK_GROUPS = 9, LOCAL = 32 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/rounds.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, rounds_mega_name, &program);
    cl_mem data = tu_buffer(ctx, N), out = tu_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_uint n = N, rounds = ROUNDS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_rounds_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_rounds_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_rounds_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_fill_out, out));
    unsigned kills = 0, forks = 0;
    static cl_uint values[N], zero[N];
    for (unsigned seed = 0; seed <= CHAOS_SEEDS; seed++) {
        cl_uint task_seed = 7 * seed;
        tu_write(ctx, data, zero, N);
        TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_fill_seed, sizeof task_seed, &task_seed));
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_task_plan plan = {.task = COOP_TASK_fill, .workgroups = TASK_GROUPS, .take = COOP_TAKE_HALF};
        coop_mega_report report;
        TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, &plan, 1, &report));
        ck_assert_uint_eq(report.record_count, 1);
        tu_read(ctx, data, values, N);
        for (unsigned i = 0; i < N; i++)
            ck_assert_msg(values[i] == ROUNDS, "seed %u: data[%u] = %u, expected %u", seed, i, values[i], ROUNDS);
        tu_read(ctx, out, values, TASK_GROUPS * LOCAL);
        for (unsigned g = 0; g < TASK_GROUPS; g++)
            for (unsigned l = 0; l < LOCAL; l++)
                ck_assert_msg(values[g * LOCAL + l] == g * 7u + l + task_seed, "seed %u: task output [%u][%u]", seed,
                              g, l);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made no kills (%u) or forks (%u)", kills, forks);
    clReleaseMemObject(data);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* types.cl's transmit state, as the CPU computes it: the value written in every round. */
static void types_reference(unsigned rounds, float *per_round)
{
    unsigned round = 0, count = 0;
    int delta = -3;
    float scale = 1.0f, weight = 0.25f, acc[4] = {0, 0, 0, 0};
    const float add[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    while (round < rounds) {
        per_round[round] = scale + acc[0] + acc[1] + acc[2] + acc[3] + weight + (float)count + (float)delta;
        round++;
        delta -= 2;
        scale = scale * 1.5f;
        for (int k = 0; k < 4; k++)
            acc[k] = acc[k] * 0.5f + add[k];
        count += round;
        weight = weight * 0.75f;
    }
}

/* types.cl + tasks_a.cl + tasks_b.cl: transmit of uint, int, float, float4 and a struct, local memory in
 * the cooperative kernel and in a task, three tasks from two files, a helper that uses the group
 * id; without and with chaos. */
START_TEST(types_megakernel_under_chaos)
{
    enum { N = 1000, ROUNDS = 12, LOCAL = 64, TASK_GROUPS = 5 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/types.cl", "--task", "tests/merge/tasks_a.cl", "--task",
                          "tests/merge/tasks_b.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, types_mega_name, &program);
    cl_mem out = float_buffer(ctx, N * ROUNDS), scaled = float_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_mem hits = tu_buffer(ctx, TASK_GROUPS), stamped = tu_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_uint n = N, rounds = ROUNDS;
    cl_float factor = 0.5f;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_types_out, out));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_types_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_types_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_scale_out, scaled));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_scale_factor, sizeof factor, &factor));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_count_hits, hits));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_stamp_out, stamped));
    float expected[ROUNDS];
    types_reference(ROUNDS, expected);
    unsigned kills = 0, forks = 0;
    static float values[N * ROUNDS];
    static cl_uint words[TASK_GROUPS * LOCAL];
    for (unsigned seed = 0; seed <= CHAOS_SEEDS; seed++) {
        static cl_uint zero[N * ROUNDS];
        cl_uint stamp_seed = 1000 + seed;
        tu_write(ctx, out, zero, N * ROUNDS);
        tu_write(ctx, hits, zero, TASK_GROUPS);
        TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_stamp_seed, sizeof stamp_seed, &stamp_seed));
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_task_plan plans[3] = {
            {.task = COOP_TASK_scale, .workgroups = TASK_GROUPS, .take = COOP_TAKE_ONE, .start_ms = 0},
            {.task = COOP_TASK_count, .workgroups = TASK_GROUPS, .take = COOP_TAKE_ONE, .start_ms = 1},
            {.task = COOP_TASK_stamp, .workgroups = TASK_GROUPS, .take = COOP_TAKE_HALF, .start_ms = 2},
        };
        coop_mega_report report;
        TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, plans, 3, &report));
        ck_assert_uint_eq(report.record_count, 3);
        tu_read(ctx, out, (cl_uint *)values, N * ROUNDS);
        for (unsigned r = 0; r < ROUNDS; r++)
            for (unsigned i = 0; i < N; i++)
                ck_assert_msg(fabsf(values[r * N + i] - expected[r]) <= 1e-5f * fabsf(expected[r]),
                              "seed %u: round %u element %u: %g, expected %g", seed, r, i, values[r * N + i],
                              expected[r]);
        tu_read(ctx, scaled, (cl_uint *)values, TASK_GROUPS * LOCAL);
        for (unsigned i = 0; i < TASK_GROUPS * LOCAL; i++)
            ck_assert_msg(values[i] == (float)i * factor, "seed %u: scale[%u] = %g", seed, i, values[i]);
        tu_read(ctx, hits, words, TASK_GROUPS);
        for (unsigned g = 0; g < TASK_GROUPS; g++)
            ck_assert_msg(words[g] == 1, "seed %u: count[%u] = %u", seed, g, words[g]);
        tu_read(ctx, stamped, words, TASK_GROUPS * LOCAL);
        for (unsigned i = 0; i < TASK_GROUPS * LOCAL; i++)
            ck_assert_msg(words[i] == stamp_seed + TASK_GROUPS * LOCAL, "seed %u: stamp[%u] = %u", seed, i,
                          words[i]);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made no kills (%u) or forks (%u)", kills, forks);
    clReleaseMemObject(out);
    clReleaseMemObject(scaled);
    clReleaseMemObject(hits);
    clReleaseMemObject(stamped);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* phases.cl: three fork points (top level, both branches of an if in a do-while loop) and a kill
 * point, without and with chaos, and no task; built with PoCL's default method (about a minute). */
START_TEST(phases_megakernel_under_chaos)
{
    enum { N = 2500, STEPS = 9, LOCAL = 16, TOTAL = STEPS * (STEPS + 1) / 2 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/phases.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, phases_mega_name, &program);
    cl_mem data = tu_buffer(ctx, N + 1);
    cl_uint n = N, steps = STEPS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_phases_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_phases_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_phases_steps, sizeof steps, &steps));
    unsigned kills = 0, forks = 0;
    static cl_uint values[N + 1], zero[N + 1];
    for (unsigned seed = 0; seed <= CHAOS_SEEDS; seed++) {
        tu_write(ctx, data, zero, N + 1);
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_mega_report report;
        TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, NULL, 0, &report));
        tu_read(ctx, data, values, N + 1);
        for (unsigned i = 0; i <= N; i++)
            ck_assert_msg(values[i] == TOTAL, "seed %u: data[%u] = %u, expected %u", seed, i, values[i], TOTAL);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made no kills (%u) or forks (%u)", kills, forks);
    clReleaseMemObject(data);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* sweep.cl: the only fork point ends a for loop's body (inside an if), so a forked group goes on
 * with the loop's increment; without and with chaos, against the sequential result. */
START_TEST(sweep_megakernel_under_chaos)
{
    enum { N = 3000, SWEEPS = 21, LOCAL = 32 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/sweep.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, sweep_mega_name, &program);
    cl_mem data = float_buffer(ctx, N);
    cl_uint n = N, sweeps = SWEEPS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_sweep_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_sweep_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_sweep_sweeps, sizeof sweeps, &sweeps));
    static float start[N], expected[N], values[N];
    for (unsigned i = 0; i < N; i++) {
        start[i] = (float)(i % 7);
        expected[i] = start[i];
        for (unsigned s = 0; s < SWEEPS; s++)
            expected[i] = expected[i] * 0.5f + (float)s;
    }
    unsigned kills = 0, forks = 0;
    for (unsigned seed = 0; seed <= CHAOS_SEEDS; seed++) {
        tu_write(ctx, data, (const cl_uint *)start, N);
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_mega_report report;
        TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, NULL, 0, &report));
        tu_read(ctx, data, (cl_uint *)values, N);
        for (unsigned i = 0; i < N; i++)
            ck_assert_msg(fabsf(values[i] - expected[i]) <= 1e-5f * fabsf(expected[i]),
                          "seed %u: data[%u] = %g, expected %g", seed, i, values[i], expected[i]);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made no kills (%u) or forks (%u)", kills, forks);
    clReleaseMemObject(data);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* --standalone: the same cooperative kernel as a plain persistent kernel. */
START_TEST(standalone_runs_as_persistent_kernel)
{
    enum { N = 2000, OUTER = 3, INNER = 4 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/nested.cl", "--standalone", NULL};
    coop_kernel *kernel = build_merged(ctx, args, standalone_name, &program);
    cl_mem data = tu_buffer(ctx, N), last_round = tu_buffer(ctx, 1);
    cl_uint n = N, outer = OUTER, inner = INNER;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_nested_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_nested_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_nested_outer, sizeof outer, &outer));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, COOP_ARG_nested_inner, sizeof inner, &inner));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, COOP_ARG_nested_last_round, last_round));
    coop_launch launch = {.local_size = 16, .timeout_s = COMPILE_TIMEOUT_S};
    coop_run_stats stats;
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, &stats));
    static cl_uint values[N];
    tu_read(ctx, data, values, N);
    for (unsigned i = 0; i < N; i++)
        ck_assert_msg(values[i] == OUTER * INNER, "data[%u] = %u", i, values[i]);
    tu_read(ctx, last_round, values, 1);
    ck_assert_uint_eq(values[0], OUTER * INNER);
    clReleaseMemObject(data);
    clReleaseMemObject(last_round);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

static Suite *merge_suite(void)
{
    Suite *suite = suite_create("merge");
    TCase *rewriting = tu_tcase("rewriting", 120);
    tcase_add_loop_test(rewriting, golden_outputs, 0, (int)(sizeof goldens / sizeof *goldens));
    tcase_add_test(rewriting, standard_output);
    tcase_add_loop_test(rewriting, rejections_report_and_write_nothing, 0,
                        (int)(sizeof rejections / sizeof *rejections));
    suite_add_tcase(suite, rewriting);
    TCase *robustness = tu_tcase("robustness", 900);
    tcase_add_test(robustness, truncated_files);
    tcase_add_test(robustness, binary_junk);
    tcase_add_test(robustness, malformed_files);
    tcase_add_loop_test(robustness, good_inputs_clean_under_sanitizers, 0, (int)(sizeof goldens / sizeof *goldens));
    suite_add_tcase(suite, robustness);
    TCase *end_to_end = tu_tcase("end_to_end", 1800);
    tcase_add_test(end_to_end, rounds_megakernel_under_chaos);
    tcase_add_test(end_to_end, nested_megakernel_under_chaos);
    tcase_add_test(end_to_end, types_megakernel_under_chaos);
    tcase_add_test(end_to_end, phases_megakernel_under_chaos);
    tcase_add_test(end_to_end, sweep_megakernel_under_chaos);
    tcase_add_test(end_to_end, standalone_runs_as_persistent_kernel);
    suite_add_tcase(suite, end_to_end);
    return suite;
}

int main(void)
{
    return tu_run(merge_suite());
}
