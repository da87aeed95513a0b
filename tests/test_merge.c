/* test_merge.c: coop-merge (merge-tool/): its rewriting of small inputs against golden outputs,
 * every rejection with its message and exit status, malformed inputs through the
 * AddressSanitizer/UBSan build, merged megakernels built and run with libcoop on PoCL, under
 * chaos, against CPU references, and the tool's own source layout (its passes' includes).
 *
 * Runs build/bin/coop-merge and build/bin/coop-merge-asan (COOP_MERGE and COOP_MERGE_ASAN
 * override them) from the repository root. COOP_MERGE_BLESS=1 rewrites the golden outputs in
 * tests/merge/expected/ from what the tool writes now (review the diff). */
#define _XOPEN_SOURCE 700 /* mknod */
#include "testutil.h"

#include "coop/kernels/ws_layout.h" /* WS_QUEUE_WORDS: ws_rounds.cl's queue */

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The golden host headers: the end-to-end tests set arguments and plan tasks by these names,
 * and one file can include them all (their names start with the kernel's). */
#include "merge/expected/nested.h"
#include "merge/expected/phases.h"
#include "merge/expected/rounds.h"
#include "merge/expected/votes.h"
#include "merge/expected/standalone.h"
#include "merge/expected/sweep.h"
#include "merge/expected/types.h"
#include "merge/expected/relax.h"
#include "merge/expected/breaks.h"
#include "merge/expected/swap.h"
#include "merge/expected/headers.h"
#include "merge/expected/frontier.h"
#include "merge/expected/frontier_standalone.h"
#include "merge/expected/two_forks.h"
#include "merge/expected/ws_rounds.h"
#include "merge/expected/if_join.h"
#include "merge/expected/no_braces.h"
#include "merge/expected/spin.h"
#include "merge/expected/stall.h"
#include "merge/expected/stall_standalone.h"
#include "merge/expected/spawn.h"
#include "merge/expected/spawn_ring.h"

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

/* Runs `tool` with the NULL-terminated `args`, capturing both output streams; a nonzero
 * `limit_s` ends it with SIGALRM after that many seconds. */
static tool_result run_tool_within(const char *tool, const char *const *args, unsigned limit_s)
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
        alarm(limit_s);
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

static tool_result run_tool(const char *tool, const char *const *args)
{
    return run_tool_within(tool, args, 0);
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
    {"votes", {"tests/merge/votes.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"nested", {"tests/merge/nested.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"types", {"tests/merge/types.cl", "--task", "tests/merge/tasks_a.cl", "--task", "tests/merge/tasks_b.cl", NULL}},
    {"paths", {"tests/merge/paths.cl", NULL}},
    {"phases", {"tests/merge/phases.cl", NULL}},
    {"sweep", {"tests/merge/sweep.cl", NULL}},
    {"standalone", {"tests/merge/nested.cl", "--standalone", NULL}},
    {"defines", {"tests/merge/defines.cl", "-I", "tests/merge/include", "-D", "WIDTH=4", "-DFAST", NULL}},
    {"relax", {"tests/merge/relax.cl", "--task", "tests/merge/tasks_relax.cl", NULL}},
    {"breaks", {"tests/merge/breaks.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"swap", {"tests/merge/swap.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"headers", {"tests/merge/headers.cl", "--task", "tests/merge/tasks_headers.cl", NULL}},
    {"frontier", {"tests/merge/frontier.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"frontier_standalone", {"tests/merge/frontier.cl", "--standalone", NULL}},
    {"two_forks", {"tests/merge/two_forks.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"ws_rounds", {"tests/merge/ws_rounds.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"two_kernels", {"tests/merge/rounds.cl", "tests/merge/ws_rounds.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"stall_beside", {"tests/merge/rounds.cl", "tests/merge/stall.cl", "--prefix", "STALL_BESIDE", NULL}},
    {"if_join", {"tests/merge/if_join.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"no_braces", {"tests/merge/no_braces.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"spin", {"tests/merge/spin.cl", "--task", "tests/merge/fill.cl", NULL}},
    {"stall", {"tests/merge/stall.cl", NULL}},
    {"stall_standalone", {"tests/merge/stall.cl", "--standalone", NULL}},
    {"spawn", {"tests/merge/spawn.cl", "--task", "tests/merge/spawn_tasks.cl", NULL}},
    {"two_spawners", {"tests/merge/hand_out.cl", "tests/merge/chains.cl", "--task", "tests/merge/share_tasks.cl", NULL}},
    {"spawn_ring", {"tests/merge/spawn_ring.cl", "--task", "tests/merge/spawn_ring_tasks.cl", NULL}},
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
    {{REJECT "fork_loop_private.cl"},
     REJECT "fork_loop_private.cl:8:9: error: offer_fork() in a loop whose control variable 'r' is not transmit",
     "declare 'r' with 'transmit'"},
    {{REJECT "fork_loop_atomic.cl"},
     REJECT "fork_loop_atomic.cl:6:9: error: offer_fork() in a loop whose condition has side effects: a forked group "
            "would repeat them",
     "into a transmit variable"},
    {{REJECT "recursion.cl"}, REJECT "recursion.cl:10:12: error: recursive call: 'depth' calls 'climb'", "loop"},
    {{"tests/merge/rounds.cl", "--task", REJECT "task_barrier.cl"},
     REJECT "task_barrier.cl:4:5: error: task kernel 'waits' calls global_barrier()", "only the cooperative kernel"},
    {{"tests/merge/rounds.cl", "--task", REJECT "task_helper_barrier.cl"},
     REJECT "task_helper_barrier.cl:9:5: error: task kernel 'publishes' calls 'publish', which uses a cooperative "
            "primitive", "only the cooperative kernel"},
    {{REJECT "nested_call.cl"}, REJECT "nested_call.cl:5:19: error: offer_fork() must be a statement of its own",
     "by itself"},
    {{REJECT "vote_nested.cl"}, REJECT "vote_nested.cl:5:12: error: global_barrier_any() must be a statement of its own",
     "'VARIABLE = global_barrier_any(FLAG);'"},
    {{REJECT "transmit_anon_init.cl"},
     REJECT "transmit_anon_init.cl:4:47: error: transmit variable 'state' of a struct defined in its own declaration "
            "has an initializer list", "typedef struct"},
    {{REJECT "transmit_local_struct.cl"},
     REJECT "transmit_local_struct.cl:4:52: error: transmit variable 'state' has a struct type defined inside the "
            "kernel", "at program scope"},
    {{REJECT "program_global.cl"},
     REJECT "program_global.cl:3:12: error: program scope variable must reside in constant address space", NULL},
    {{REJECT "task_arg_coop.cl"},
     REJECT "task_arg_coop.cl:4:30: error: get_task_arg() in the cooperative kernel 'coop_args': only tasks have "
            "plan arguments", "kernel argument"},
    {{"tests/merge/rounds.cl", "--task", REJECT "task_arg_range.cl"},
     REJECT "task_arg_range.cl:4:29: error: get_task_arg(16): no such task argument", "0 .. 15"},
    {{REJECT "spawn_unknown.cl", "--task", "tests/merge/spawn_tasks.cl"},
     REJECT "spawn_unknown.cl:4:43: error: spawn_task(\"cube\"): the megakernel has no task kernel 'cube'", "--task"},
    {{REJECT "spawn_unknown.cl"},
     REJECT "spawn_unknown.cl:4:43: error: spawn_task(\"cube\"): the megakernel has no task kernel 'cube'", "--task"},
    {{REJECT "spawn_not_literal.cl", "--task", "tests/merge/spawn_tasks.cl"},
     REJECT "spawn_not_literal.cl:4:43: error: spawn_task()'s first argument is not a string literal", "in quotes"},
    {{REJECT "spawn_too_many.cl", "--task", "tests/merge/spawn_tasks.cl"},
     REJECT "spawn_too_many.cl:4:112: error: spawn_task(\"count\") with 17 argument words: at most 16", "buffer"},
    {{REJECT "spawn_standalone.cl", "--standalone"},
     REJECT "spawn_standalone.cl:4:32: error: spawn_task() in a standalone kernel: it has no tasks to run",
     "without --standalone"},
    {{"tests/merge/malformed/nul_bytes.cl"}, "tests/merge/malformed/nul_bytes.cl:2:1: error: NUL byte in the file",
     "remove the byte"},
    {{"tests/merge/rounds.cl", "--prefix", "9x"}, "coop-merge: --prefix 9x: not a C identifier", NULL},
    {{REJECT "macro_id.cl"}, REJECT "macro_id.cl:5:10: error: get_group_id() inside a macro", "directly"},
    {{REJECT "dimension_transmit.cl"},
     REJECT "dimension_transmit.cl:7:36: error: variable 'round' in the dimension of get_num_groups(): coop-merge "
            "rewrites the call without its argument", "write the dimension as a number"},
    {{REJECT "dimension_helper.cl"},
     REJECT "dimension_helper.cl:10:30: error: call to 'first' in the dimension of get_group_id(): coop-merge "
            "rewrites the call without its argument", "write the dimension as a number"},
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
    {{"tests/merge/rounds.cl", "--prefix", "A", "--prefix", "B"},
     "coop-merge: --prefix given twice ('A', then 'B'); give it once", NULL},
    /* several cooperative kernels */
    {{"tests/merge/rounds.cl", REJECT "same_name.cl"},
     REJECT "same_name.cl:3:13: error: 'rounds' is also defined in tests/merge/rounds.cl", "rename one of them"},
    {{"tests/merge/rounds.cl", REJECT "calls_coop.cl"},
     REJECT "calls_coop.cl:7:5: error: 'caller' calls kernel 'rounds'", "helper function"},
    {{"tests/merge/rounds.cl", "tests/merge/votes.cl", "tests/merge/sweep.cl", "tests/merge/paths.cl",
      "tests/merge/phases.cl"},
     "coop-merge: at most 4 cooperative kernel files (tests/merge/phases.cl is one more)", NULL},
    {{"tests/merge/rounds.cl", "tests/merge/votes.cl", "--standalone"},
     "coop-merge: --standalone makes one cooperative kernel a plain persistent kernel: give one file, not 2", NULL},
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

/* The committed merged programs (kernels/generated/, listed in merges.txt) are what coop-merge
 * makes of their sources now: machines without libclang build from them. */
START_TEST(generated_programs_are_current)
{
    size_t size = 0;
    char *list = tu_read_file("kernels/generated/merges.txt", &size);
    ck_assert_ptr_nonnull(list);
    unsigned checked = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0])
            continue;
        const char *argv[32];
        size_t argc = 0;
        char *name = line, *word = strchr(line, ' ');
        ck_assert_ptr_nonnull(word);
        *word++ = '\0';
        for (char *arg = strtok_r(word, " ", &word); arg && argc < 27; arg = strtok_r(NULL, " ", &word))
            argv[argc++] = arg;
        char program[PATH_BYTES], header[PATH_BYTES], golden[PATH_BYTES];
        temporary_path(program, ".cl");
        temporary_path(header, ".h");
        argv[argc++] = "-o";
        argv[argc++] = program;
        argv[argc++] = "--host-header";
        argv[argc++] = header;
        argv[argc] = NULL;
        tool_result result = run_tool(tool_path(), argv);
        ck_assert_msg(result.exit_status == 0, "%s: coop-merge failed: %s", name, result.err);
        free_result(&result);
        const char *written[] = {program, header}, *suffix[] = {".cl", ".h"};
        for (int i = 0; i < 2; i++) {
            snprintf(golden, sizeof golden, "kernels/generated/%s%s", name, suffix[i]);
            size_t a = 0, b = 0;
            char *now = tu_read_file(written[i], &a), *committed = tu_read_file(golden, &b);
            ck_assert_msg(committed != NULL, "%s is missing: run make regenerate", golden);
            ck_assert_msg(a == b && !memcmp(now, committed, a),
                          "%s differs from what coop-merge makes of its sources now: run make regenerate and "
                          "commit it", golden);
            free(now);
            free(committed);
            unlink(written[i]);
        }
        checked++;
    }
    ck_assert_uint_gt(checked, 0);
    free(list);
}
END_TEST

/* Outputs: regular files are replaced whole; anything else is written in place and stays what it
 * was; a directory, a dangling link and -o and --host-header naming one file are refused. */
/* A failed write names the file and its own reason: a full device (a node like /dev/full made in
 * a temporary folder) as -o and as standard output says "No space left on device" (both exited 1
 * with no message, or the wrong reason); a regular file whose folder takes no new file says that
 * the temporary file beside it could not be made (/proc/version said "No such file or
 * directory" as if it were missing). Device nodes need root; elsewhere that part is skipped. */
START_TEST(write_failures_name_the_reason)
{
    char dir[PATH_BYTES], full[2 * PATH_BYTES], command[6 * PATH_BYTES];
    temporary_path(dir, ".full");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(full, sizeof full, "%s/full", dir);
    if (mknod(full, S_IFCHR | 0666, makedev(1, 7)) == 0) {
        const char *args[] = {"tests/merge/rounds.cl", "-o", full, NULL};
        tool_result result = run_tool(tool_path(), args);
        ck_assert_int_eq(result.exit_status, 1);
        ck_assert_msg(strstr(result.err, "cannot write ") && strstr(result.err, "No space left on device"), "%s",
                      result.err);
        free_result(&result);
        char err[2 * PATH_BYTES];
        snprintf(err, sizeof err, "%s/err", dir);
        snprintf(command, sizeof command, "%s tests/merge/rounds.cl > '%s' 2> '%s'", tool_path(), full, err);
        int status = system(command);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: status %d", command, status);
        char *text = read_file(err, NULL);
        ck_assert_msg(text && strstr(text, "coop-merge: cannot write standard output: No space left on device"),
                      "%s said: %s", command, text ? text : "(nothing)");
        free(text);
        unlink(err);
        unlink(full);
    } else {
        printf("write_failures_name_the_reason: mknod: %s; the full device not tried\n", strerror(errno));
    }
    rmdir(dir);
    if (access("/proc/version", F_OK) == 0) {
        const char *args[] = {"tests/merge/rounds.cl", "-o", "/proc/version", NULL};
        tool_result result = run_tool(tool_path(), args);
        ck_assert_int_eq(result.exit_status, 1);
        ck_assert_msg(strstr(result.err, "coop-merge: cannot write /proc/version: cannot create a temporary file "
                                         "beside it: "),
                      "%s", result.err);
        free_result(&result);
    }
}
END_TEST

START_TEST(outputs_replace_only_regular_files)
{
    char dir[PATH_BYTES], path[2 * PATH_BYTES], other[2 * PATH_BYTES];
    temporary_path(dir, ".out");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    struct stat info;
    /* a pipe, read while the tool writes it */
    snprintf(path, sizeof path, "%s/pipe", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK);
    ck_assert_int_ge(reader, 0);
    const char *to_pipe[] = {"tests/merge/rounds.cl", "-o", path, NULL};
    tool_result result = run_tool(tool_path(), to_pipe);
    ck_assert_msg(result.exit_status == 0, "to a pipe: %s", result.err);
    free_result(&result);
    char start[32] = {0};
    ck_assert_int_gt(read(reader, start, sizeof start - 1), 0);
    ck_assert_msg(!strncmp(start, "/* Generated by coop-merge.", 27), "the pipe got '%s'", start);
    close(reader);
    ck_assert_int_eq(lstat(path, &info), 0);
    ck_assert_msg(S_ISFIFO(info.st_mode), "the pipe was replaced");
    ck_assert_int_eq(unlink(path), 0);
    /* a device node (only root may make one: the pipe above covers the rule otherwise) */
    snprintf(path, sizeof path, "%s/null", dir);
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        const char *to_device[] = {"tests/merge/rounds.cl", "-o", path, NULL};
        result = run_tool(tool_path(), to_device);
        ck_assert_msg(result.exit_status == 0, "to a device: %s", result.err);
        free_result(&result);
        ck_assert_int_eq(lstat(path, &info), 0);
        ck_assert_msg(S_ISCHR(info.st_mode), "the device node was replaced");
        ck_assert_int_eq(unlink(path), 0);
    }
    /* a link to a regular file: the file is replaced, the link stays */
    snprintf(path, sizeof path, "%s/link.cl", dir);
    snprintf(other, sizeof other, "%s/real.cl", dir);
    write_file(other, "old", 3);
    ck_assert_int_eq(symlink("real.cl", path), 0);
    const char *to_link[] = {"tests/merge/rounds.cl", "-o", path, NULL};
    result = run_tool(tool_path(), to_link);
    ck_assert_msg(result.exit_status == 0, "to a link: %s", result.err);
    free_result(&result);
    ck_assert_int_eq(lstat(path, &info), 0);
    ck_assert_msg(S_ISLNK(info.st_mode), "the link was replaced");
    size_t size = 0;
    char *text = read_file(other, &size);
    ck_assert_msg(text && size > 3 && !strncmp(text, "/* Generated by coop-merge.", 27), "the file was not written");
    free(text);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(unlink(other), 0);
    /* refused */
    snprintf(path, sizeof path, "%s/dangling.cl", dir);
    ck_assert_int_eq(symlink("nowhere", path), 0);
    snprintf(other, sizeof other, "%s/./same.cl", dir);
    char same[2 * PATH_BYTES];
    snprintf(same, sizeof same, "%s/same.cl", dir);
    const struct {
        const char *args[8];
        const char *message;
    } refused[] = {
        {{"tests/merge/rounds.cl", "-o", dir, NULL}, "Is a directory"},
        {{"tests/merge/rounds.cl", "-o", path, NULL}, "a symbolic link to nothing"},
        {{"tests/merge/rounds.cl", "-o", same, "--host-header", other, NULL}, "-o and --host-header name the same file"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        result = run_tool(tool_path(), refused[i].args);
        ck_assert_msg(result.exit_status == 1 && strstr(result.err, refused[i].message), "%s: status %d: %s",
                      refused[i].message, result.exit_status, result.err);
        free_result(&result);
    }
    ck_assert_msg(lstat(same, &info) != 0, "a refused run wrote %s", same);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_msg(rmdir(dir) == 0, "the tool left files in %s", dir);
}
END_TEST

/* An output that is an input file, a link to one, or a header an input includes is refused, and
 * the input keeps its text (coop-merge X.cl -o X.cl replaced its own input). */
START_TEST(outputs_never_replace_inputs)
{
    char dir[PATH_BYTES], kernel[2 * PATH_BYTES], task[2 * PATH_BYTES], header[2 * PATH_BYTES],
        link[2 * PATH_BYTES], folder[2 * PATH_BYTES];
    temporary_path(dir, ".inputs");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(folder, sizeof folder, "%s/include", dir);
    ck_assert_int_eq(mkdir(folder, 0700), 0);
    snprintf(kernel, sizeof kernel, "%s/headers.cl", dir);
    snprintf(task, sizeof task, "%s/tasks.cl", dir);
    snprintf(header, sizeof header, "%s/include/grid.h", dir);
    snprintf(link, sizeof link, "%s/link.cl", dir);
    const char *const copies[][2] = {{"tests/merge/headers.cl", kernel},
                                     {"tests/merge/tasks_headers.cl", task},
                                     {"tests/merge/include/grid.h", header}};
    char *texts[3];
    size_t sizes[3];
    for (size_t i = 0; i < 3; i++) {
        texts[i] = read_file(copies[i][0], &sizes[i]);
        ck_assert_ptr_nonnull(texts[i]);
        write_file(copies[i][1], texts[i], sizes[i]);
    }
    ck_assert_int_eq(symlink("tasks.cl", link), 0);
    const struct {
        const char *option, *path, *input;
    } refused[] = {
        {"-o", kernel, kernel},
        {"--host-header", link, task},
        {"-o", header, header},
    };
    for (size_t r = 0; r < sizeof refused / sizeof *refused; r++) {
        const char *args[] = {kernel, "--task", task, refused[r].option, refused[r].path, NULL};
        tool_result result = run_tool(tool_path(), args);
        char message[8 * PATH_BYTES];
        snprintf(message, sizeof message, "coop-merge: %s %s is the input file %s; write the output elsewhere\n",
                 refused[r].option, refused[r].path, refused[r].input);
        ck_assert_msg(result.exit_status == 1, "%s %s: status %d: %s", refused[r].option, refused[r].path,
                      result.exit_status, result.err);
        ck_assert_str_eq(result.err, message);
        ck_assert_str_eq(result.out, "");
        free_result(&result);
        for (size_t i = 0; i < 3; i++) {
            size_t size = 0;
            char *now = read_file(copies[i][1], &size);
            ck_assert_msg(now && size == sizes[i] && !memcmp(now, texts[i], size), "%s was changed", copies[i][1]);
            free(now);
        }
    }
    for (size_t i = 0; i < 3; i++) {
        free(texts[i]);
        ck_assert_int_eq(unlink(copies[i][1]), 0);
    }
    ck_assert_int_eq(unlink(link), 0);
    ck_assert_int_eq(rmdir(folder), 0);
    ck_assert_msg(rmdir(dir) == 0, "the tool left files in %s", dir);
}
END_TEST

/* --version as every program says it, and --help lists it. */
START_TEST(version_and_help)
{
    const char *version[] = {"--version", NULL}, *help[] = {"--help", NULL};
    tool_result result = run_tool(tool_path(), version);
    ck_assert_msg(result.exit_status == 0, "--version: status %d: %s", result.exit_status, result.err);
    ck_assert_str_eq(result.out, "coop-merge (libcoop) " COOP_VERSION_STRING "\n");
    ck_assert_str_eq(result.err, "");
    free_result(&result);
    result = run_tool(tool_path(), help);
    ck_assert_int_eq(result.exit_status, 0);
    ck_assert_msg(strstr(result.out, "\n  --version ") && strstr(result.out, "\n  -h, --help "), "%s", result.out);
    free_result(&result);
}
END_TEST

/* The kernel library needs no -I: build/bin/coop-merge finds kernels/lib through
 * build/include/coop/kernels, beside its folder, as an installed one finds
 * PREFIX/include/coop/kernels (test_library); before, "fatal error: 'ws_deque.h' file not
 * found". The program is the one an explicit -I gives, and a header of the user's wins. */
START_TEST(kernel_library_needs_no_include_path)
{
    char kernel[PATH_BYTES], folder[PATH_BYTES], header[PATH_BYTES + 16];
    temporary_path(kernel, ".cl");
    size_t size = 0;
    char *text = tu_read_file("tests/kernels/ws_tree.cl", &size);
    static const char in_tree[] = "#include \"lib/ws_deque.h\"";
    char *include = strstr(text, in_tree);
    ck_assert_ptr_nonnull(include);
    char *edited = malloc(size + 1);
    ck_assert_ptr_nonnull(edited);
    int length = snprintf(edited, size + 1, "%.*s#include \"ws_deque.h\"%s", (int)(include - text), text,
                          include + strlen(in_tree));
    write_file(kernel, edited, (size_t)length);
    free(edited);
    free(text);
    const char *plain[] = {kernel, NULL}, *explicit[] = {kernel, "-I", "kernels/lib", NULL};
    char *found = merge_source(plain), *given = merge_source(explicit);
    ck_assert_msg(strstr(found, "/* ---- kernels/lib/ws_deque.h ---- */"), "%.3000s", found);
    ck_assert_msg(!strcmp(found, given), "without -I:\n%.3000s\nwith -I kernels/lib:\n%.3000s", found, given);
    free(found);
    free(given);
    temporary_path(folder, "");
    ck_assert_int_eq(mkdir(folder, 0700), 0);
    snprintf(header, sizeof header, "%s/ws_deque.h", folder);
    static const char mine[] = "#define WS_SLOT_WORDS 8u\n";
    write_file(header, mine, strlen(mine));
    static const char fill[] = "#include \"ws_deque.h\"\nkernel void fill(global uint *out)\n"
                               "{\n    out[get_global_id(0)] = WS_SLOT_WORDS;\n}\n";
    write_file(kernel, fill, strlen(fill));
    const char *own[] = {kernel, "-I", folder, NULL};
    found = merge_source(own);
    ck_assert_msg(strstr(found, "ws_deque.h ---- */") && strstr(found, folder) && !strstr(found, "kernels/lib"),
                  "%.3000s", found);
    free(found);
    unlink(header);
    rmdir(folder);
    unlink(kernel);
}
END_TEST

/* Warnings: what the language leaves to the author. The program is still written; with -Werror
 * the warning is an error and nothing is. */
#define WARN "tests/merge/warn/"

static const struct {
    const char *input;
    const char *message;          /* every warning line the input gives, in order (NULL: none) */
    const char *more;
} warnings[] = {
    {WARN "distribute_after_kill.cl",
     WARN "distribute_after_kill.cl:8:23: warning: get_global_id() comes after offer_kill() (line 7) with no global "
          "barrier between them",
     WARN "distribute_after_kill.cl:8:53: warning: get_global_size() comes after offer_kill() (line 7)"},
    {WARN "distribute_after_barrier.cl", NULL, NULL},
    {WARN "distribute_before_fork.cl",
     WARN "distribute_before_fork.cl:13:90: warning: the call to 'stride', which reads the number of groups, comes "
          "before offer_fork() (line 16) with no global barrier between them",
     NULL},
    {WARN "untransmitted.cl",
     WARN "untransmitted.cl:5:10: warning: 'i' is read after the fork point at line 8 before it is assigned, but a "
          "group forked there does not receive it (it is not transmit)",
     NULL},
};

START_TEST(warnings_and_werror)
{
    char program[PATH_BYTES];
    temporary_path(program, ".cl");
    const char *plain[] = {warnings[_i].input, "-o", program, NULL};
    tool_result result = run_tool(tool_path(), plain);
    ck_assert_msg(result.exit_status == 0, "%s: status %d: %s", warnings[_i].input, result.exit_status, result.err);
    if (!warnings[_i].message) {
        ck_assert_msg(result.err[0] == '\0', "%s warns: %s", warnings[_i].input, result.err);
    } else {
        ck_assert_msg(strstr(result.err, warnings[_i].message), "no \"%s\": %s", warnings[_i].message, result.err);
        ck_assert_msg(!warnings[_i].more || strstr(result.err, warnings[_i].more), "no \"%s\": %s",
                      warnings[_i].more, result.err);
        ck_assert_msg(strstr(result.err, ": note: "), "no note: %s", result.err);
    }
    free_result(&result);
    ck_assert_int_eq(unlink(program), 0);
    const char *strict[] = {"-Werror", warnings[_i].input, "-o", program, NULL};
    result = run_tool(tool_path(), strict);
    ck_assert_int_eq(result.exit_status, warnings[_i].message ? 1 : 0);
    if (warnings[_i].message) {
        ck_assert_msg(strstr(result.err, ": error: ") && strstr(result.err, "[-Werror]"), "%s", result.err);
        ck_assert_msg(access(program, F_OK) != 0, "-Werror wrote %s", program);
    } else {
        ck_assert_int_eq(unlink(program), 0);
    }
    free_result(&result);
}
END_TEST

/* Loop nests 64 deep: the data flow behind the warnings passes over each loop until it settles,
 * which took time exponential in the depth (24 loops 50 s, 64 never ended). The nest with fork
 * points also keeps its findings: a read of the global id after the innermost fork point, and a
 * private counter that a forked group reads without receiving it. */
enum { DEEP_NEST = 64, DEEP_NEST_LIMIT_S = 20 };

static void append(char *text, size_t capacity, const char *format, ...) __attribute__((format(printf, 3, 4)));

static void append(char *text, size_t capacity, const char *format, ...)
{
    size_t length = strlen(text);
    va_list args;
    va_start(args, format);
    int wrote = vsnprintf(text + length, capacity - length, format, args);
    va_end(args);
    ck_assert_msg(wrote >= 0 && (size_t)wrote < capacity - length, "the generated kernel outgrew its buffer");
}

/* One line per declaration, loop header, statement and closing brace, unindented. */
static void deep_nest(char *text, size_t capacity, int forks)
{
    text[0] = '\0';
    append(text, capacity, "kernel void nest(global uint *data, uint n)\n{\n");
    for (int d = 0; forks && d < DEEP_NEST; d++)
        append(text, capacity, "transmit uint i%d;\n", d);
    if (forks)
        append(text, capacity, "uint spare = 0;\n");
    for (int d = 0; d < DEEP_NEST; d++)
        append(text, capacity, forks ? "for (i%d = 0; i%d < n; i%d++) {\n" : "for (uint i%d = 0; i%d < n; i%d++) {\n",
               d, d, d);
    append(text, capacity, "data[get_global_id(0)] += 1;\n");
    if (forks)
        append(text, capacity, "spare += data[0];\noffer_kill();\n");
    for (int d = DEEP_NEST - 1; d >= 0; d--)
        append(text, capacity, "%s}\n", !forks ? "" : d % 2 ? "resizing_global_barrier();\n" : "offer_fork();\n");
    append(text, capacity, forks ? "data[1] = spare;\n}\n" : "}\n");
}

START_TEST(deep_loop_nests)
{
    int forks = _i;
    char input[PATH_BYTES];
    temporary_path(input, ".cl");
    static char text[16384];
    deep_nest(text, sizeof text, forks);
    write_file(input, text, strlen(text));
    const char *args[] = {input, "-o", "/dev/null", NULL};
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    tool_result result = run_tool_within(tool_path(), args, DEEP_NEST_LIMIT_S);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    printf("%d nested loops%s merged in %.2f s\n", DEEP_NEST, forks ? " with fork points" : "", seconds);
    ck_assert_msg(result.signal != SIGALRM, "coop-merge did not finish within %d s", DEEP_NEST_LIMIT_S);
    ck_assert_msg(result.exit_status == 0, "status %d: %s", result.exit_status, result.err);
    if (forks) {
        /* the innermost body's first line, after the declarations and the loop headers */
        unsigned body = 2 + DEEP_NEST + 1 + DEEP_NEST + 1, resize = body + 3, fork = body + 5;
        char read[2 * PATH_BYTES], spare[2 * PATH_BYTES];
        snprintf(read, sizeof read, "%s:%u:6: warning: get_global_id() comes after offer_fork() (line %u)", input,
                 body, fork);
        snprintf(spare, sizeof spare, "%s:%d:6: warning: 'spare' is read after the fork point at line %u", input,
                 2 + DEEP_NEST + 1, resize);
        ck_assert_msg(strstr(result.err, read), "no \"%s\": %s", read, result.err);
        ck_assert_msg(strstr(result.err, spare), "no \"%s\": %s", spare, result.err);
    } else {
        ck_assert_msg(result.err[0] == '\0', "coop-merge printed: %s", result.err);
    }
    free_result(&result);
    ck_assert_int_eq(unlink(input), 0);
}
END_TEST

/* ---- End to end on PoCL ------------------------------------------------------------------- */

enum { WORKERS = 2, CHAOS_SEEDS = 6 };

/* Whether a chaos test runs seed `seed`: all of 0 .. last, then more (up to 4 times as many) until
 * chaos has both killed and forked. On a busy machine a kernel can end while its killed groups
 * still run the task, before any is idle to fork back (a clean clone's make check beside 8 busy
 * processes: 21 kills and no fork over 21 seeds; 7 and none over 7). */
static int more_seeds(unsigned seed, unsigned last, unsigned kills, unsigned forks)
{
    return seed <= last || ((!kills || !forks) && seed < 4 * (last + 1));
}

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
    coop_kernel *kernel = build_merged(ctx, args, NESTED_MEGA_NAME, &program);
    cl_mem data = tu_buffer(ctx, N), last_round = tu_buffer(ctx, 1), out = tu_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_uint n = N, outer = OUTER, inner = INNER;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, NESTED_MEGA_ARG_nested_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_MEGA_ARG_nested_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_MEGA_ARG_nested_outer, sizeof outer, &outer));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_MEGA_ARG_nested_inner, sizeof inner, &inner));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, NESTED_MEGA_ARG_nested_last_round, last_round));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, NESTED_MEGA_ARG_fill_out, out));
    unsigned kills = 0, forks = 0;
    static cl_uint values[N];
    for (unsigned seed = 0; more_seeds(seed, CHAOS_SEEDS, kills, forks); seed++) {
        cl_uint zero[N] = {0}, task_seed = 100 + seed;
        tu_write(ctx, data, zero, N);
        tu_write(ctx, out, zero, TASK_GROUPS * LOCAL);
        TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_MEGA_ARG_fill_seed, sizeof task_seed, &task_seed));
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_task_plan plan = {.task = NESTED_MEGA_TASK_fill, .workgroups = TASK_GROUPS, .take = COOP_TAKE_HALF,
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

/* spawn.cl + spawn_tasks.cl (docs/DESIGN.md section 10.2): the kernel learns how many of its
 * inputs are multiples of 3 and spawns `square` runs over the list it made, and `chain`, which
 * spawns itself to the depth limit; with `flood`, spawns of `count` until the queue is full. */
typedef struct spawn_run_result {
    unsigned found, pieces, oks, fulls, count_total;
    coop_mega_report report;
} spawn_run_result;

enum { SPAWN_N = 3000, SPAWN_PIECE = 200, SPAWN_LOCAL = 16, SPAWN_FLOOD = 64, SPAWN_ROUNDS = 400,
       SPAWN_STATUSES = SPAWN_N / SPAWN_PIECE + 2 + SPAWN_FLOOD + 2 };

/* `members`: the groups that start the kernel (0: all) */
static void run_spawns(coop_context *ctx, coop_kernel *kernel, unsigned seed, unsigned flood, unsigned members,
                       spawn_run_result *out)
{
    static cl_uint in[SPAWN_N], list[SPAWN_N], squares[SPAWN_N], statuses[SPAWN_STATUSES];
    cl_uint zero[SPAWN_STATUSES] = {0}, depths[COOP_SPAWN_DEPTH_MAX + 2], chain_statuses[COOP_SPAWN_DEPTH_MAX + 2];
    cl_mem b_in = tu_buffer(ctx, SPAWN_N), b_found = tu_buffer(ctx, 1), b_list = tu_buffer(ctx, SPAWN_N),
           b_squares = tu_buffer(ctx, SPAWN_N), b_statuses = tu_buffer(ctx, SPAWN_STATUSES),
           b_depths = tu_buffer(ctx, COOP_SPAWN_DEPTH_MAX + 2), b_chain = tu_buffer(ctx, COOP_SPAWN_DEPTH_MAX + 2),
           b_total = tu_buffer(ctx, 1);
    unsigned expected_found = 0;
    for (unsigned i = 0; i < SPAWN_N; i++) {
        in[i] = (i * 7919u + seed * 104729u) % 100003u;
        expected_found += in[i] % 3u == 0;
    }
    tu_write(ctx, b_in, in, SPAWN_N);
    tu_write(ctx, b_found, zero, 1);
    tu_write(ctx, b_statuses, zero, SPAWN_STATUSES);
    tu_write(ctx, b_depths, zero, COOP_SPAWN_DEPTH_MAX + 2);
    tu_write(ctx, b_chain, zero, COOP_SPAWN_DEPTH_MAX + 2);
    tu_write(ctx, b_total, zero, 1);
    cl_uint n = SPAWN_N, piece = SPAWN_PIECE, flood_words = flood, rounds = SPAWN_ROUNDS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_learn_in, b_in));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, LEARN_MEGA_ARG_learn_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_learn_found, b_found));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_learn_list, b_list));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_learn_statuses, b_statuses));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, LEARN_MEGA_ARG_learn_piece, sizeof piece, &piece));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, LEARN_MEGA_ARG_learn_flood, sizeof flood_words, &flood_words));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, LEARN_MEGA_ARG_learn_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_learn_chain_statuses, b_chain));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_square_list, b_list));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_square_squares, b_squares));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_chain_depths, b_depths));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_chain_chain_statuses, b_chain));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, LEARN_MEGA_ARG_count_total, b_total));
    coop_mega_params params = {.launch = {.local_size = SPAWN_LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                               .chaos_seed = seed, .watchdog_s = 30, .tasks_in_flight = 2, .members = members};
    /* every group the workers hold: with one member, the others wait idle for the spawned runs;
     * with an agent, two members or more for chaos to kill and fork */
    if (members || coop_context_channel(ctx) != COOP_CHANNEL_SVM)
        tu_pin_groups(&params.launch, ctx, coop_context_device(ctx)->compute_units);
    TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, NULL, 0, &out->report));
    char what[64];
    snprintf(what, sizeof what, "spawns, seed %u", seed);
    tu_assert_mega_at_rest(ctx, &out->report, what);
    cl_uint found = 0;
    tu_read(ctx, b_found, &found, 1);
    ck_assert_msg(found == expected_found, "%s: found %u multiples of 3, the CPU %u", what, found, expected_found);
    tu_read(ctx, b_list, list, SPAWN_N);
    tu_read(ctx, b_squares, squares, SPAWN_N);
    for (unsigned i = 0; i < found; i++)
        ck_assert_msg(list[i] % 3u == 0 && squares[i] == list[i] * list[i],
                      "%s: list[%u] = %u, its square %u (no spawned run wrote it, or one twice)", what, i, list[i],
                      squares[i]);
    /* the chain ran once at each depth 1 .. deepest, each spawning the next; the deepest one's
     * spawn was refused: too deep at COOP_SPAWN_DEPTH_MAX, or (only beside a flood) the queue full */
    tu_read(ctx, b_depths, depths, COOP_SPAWN_DEPTH_MAX + 2);
    tu_read(ctx, b_chain, chain_statuses, COOP_SPAWN_DEPTH_MAX + 2);
    unsigned deepest = 0;
    while (deepest <= COOP_SPAWN_DEPTH_MAX && depths[deepest + 1] == 1)
        deepest++;
    ck_assert_msg(deepest == COOP_SPAWN_DEPTH_MAX || (flood && deepest >= 1), "%s: the chain ended at depth %u",
                  what, deepest);
    for (unsigned d = 0; d < COOP_SPAWN_DEPTH_MAX + 2; d++) {
        unsigned runs = d >= 1 && d <= deepest;
        ck_assert_msg(depths[d] == runs, "%s: chain ran %u times at depth %u, expected %u", what, depths[d], d, runs);
        unsigned status = !runs ? 0
                          : d < deepest ? 1 + COOP_SPAWN_OK
                          : d == COOP_SPAWN_DEPTH_MAX ? 1 + COOP_SPAWN_TOO_DEEP
                                                      : 1 + COOP_SPAWN_FULL;
        ck_assert_msg(chain_statuses[d] == status, "%s: chain at depth %u: spawn status %u, expected %u", what, d,
                      chain_statuses[d] - 1, status - 1);
    }
    tu_read(ctx, b_statuses, statuses, SPAWN_STATUSES);
    out->found = found;
    out->pieces = (found + SPAWN_PIECE - 1) / SPAWN_PIECE;
    out->oks = 0;
    unsigned k = 0, expected_total = 0;
    for (; k < SPAWN_STATUSES && statuses[k] != 0xffffffffu; k++) {
        /* a flood spawn that found the queue full 10^5 times in a row stays refused */
        ck_assert_msg(statuses[k] == COOP_SPAWN_OK || (k > out->pieces && statuses[k] == COOP_SPAWN_FULL),
                      "%s: spawn %u returned %u", what, k, statuses[k]);
        out->oks += statuses[k] == COOP_SPAWN_OK;
        if (k > out->pieces && statuses[k] == COOP_SPAWN_OK)
            expected_total += k - out->pieces;
    }
    ck_assert_msg(k + 1 < SPAWN_STATUSES, "%s: the kernel did not go on after its spawns", what);
    out->fulls = statuses[k + 1];
    tu_read(ctx, b_total, &out->count_total, 1);
    ck_assert_msg(out->count_total == expected_total, "%s: the count runs added %u, the spawns that went in %u", what,
                  out->count_total, expected_total);
    /* a record per spawned run: the kernel's spawns, then the chain's */
    unsigned spawned = 0;
    for (size_t r = 0; r < out->report.record_count; r++) {
        const coop_task_record *rec = &out->report.records[r];
        ck_assert_msg(rec->spawned && rec->plan == COOP_PLAN_KERNEL, "%s: record %zu not a spawned run", what, r);
        ck_assert_msg(rec->depth >= 1 && rec->depth <= COOP_SPAWN_DEPTH_MAX, "%s: record %zu depth %u", what, r,
                      rec->depth);
        ck_assert_msg((rec->depth == 1) == (rec->spawned_by == 0), "%s: record %zu depth %u spawned by request %u",
                      what, r, rec->depth, rec->spawned_by);
        /* with an agent and task slots left to it, the agent applied every spawned run itself:
         * its request numbers are its own (section 10.2) */
        ck_assert_msg(!(rec->request & COOP_SPAWN_SEQ_BIT) == !out->report.agent,
                      "%s: record %zu: request %#x, %s agent", what, r, rec->request,
                      out->report.agent ? "an" : "no");
        ck_assert_msg(rec->spawned_by < rec->request && rec->spawn_wait_us >= 0,
                      "%s: record %zu (request %u) spawned by %u, waited %g us", what, r, rec->request,
                      rec->spawned_by, rec->spawn_wait_us);
        spawned++;
    }
    ck_assert_msg(spawned == out->oks + deepest - 1, "%s: %u records, %u spawns went in", what, spawned,
                  out->oks + deepest - 1);
    cl_mem buffers[] = {b_in, b_found, b_list, b_squares, b_statuses, b_depths, b_chain, b_total};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        clReleaseMemObject(buffers[i]);
}

/* A kernel hands out work whose size it learned, and a task spawns itself to the stated depth,
 * with the runs checked against the CPU: without chaos and under it (kills and forks around the
 * spawns, spawned runs gathering from killed groups); with the host serving the queue (SVM) and
 * with the agent serving it (the queue channel). */
START_TEST(spawned_tasks_process_what_the_kernel_learned)
{
    static const coop_channel_kind channels[] = {COOP_CHANNEL_SVM, COOP_CHANNEL_QUEUE};
    coop_context *ctx = tu_context_channel(WORKERS + 2 * (unsigned)_i, channels[_i]);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/spawn.cl", "--task", "tests/merge/spawn_tasks.cl", NULL};
    char *source = merge_source(args);
    coop_kernel *kernel = tu_kernel(ctx, source, TU_CHECK_OPTIONS, LEARN_MEGA_NAME, &program);
    free(source);
    unsigned kills = 0, forks = 0;
    for (unsigned seed = 0; more_seeds(seed, CHAOS_SEEDS, kills, forks); seed++) {
        spawn_run_result result;
        run_spawns(ctx, kernel, seed, 0, 0, &result);
        ck_assert_uint_eq(result.oks, result.pieces + 1);
        ck_assert_uint_eq(result.fulls, 0);
        kills += result.report.kills;
        forks += result.report.forks;
        coop_mega_report_free(&result.report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made no kills (%u) or forks (%u)", kills, forks);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* Spawning faster than the queue is taken returns SPAWN_FULL, the kernel goes on and spawns
 * again once the host took some, and every spawn that went in ran exactly once (the count runs'
 * total); with the host taking the queue (SVM) and with the agent copying it out (the queue
 * channel). */
START_TEST(full_spawn_queue_is_a_status)
{
    static const coop_channel_kind channels[] = {COOP_CHANNEL_SVM, COOP_CHANNEL_QUEUE};
    coop_context *ctx = tu_context_channel(WORKERS + 1, channels[_i]);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/spawn.cl", "--task", "tests/merge/spawn_tasks.cl", NULL};
    char *source = merge_source(args);
    coop_kernel *kernel = tu_kernel(ctx, source, TU_CHECK_OPTIONS, LEARN_MEGA_NAME, &program);
    free(source);
    spawn_run_result result;
    /* one member: the other groups are idle, so the host can run queued tasks while the member
     * tries again */
    run_spawns(ctx, kernel, 0, SPAWN_FLOOD, 1, &result);
    ck_assert_msg(result.fulls > 0, "no spawn returned SPAWN_FULL (%u went in)", result.oks);
    /* a queue's worth went in before the first refusal, more as the host took them */
    ck_assert_uint_ge(result.oks, COOP_SPAWN_QUEUE);
    coop_mega_report_free(&result.report);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* spawn_ring.cl + spawn_ring_tasks.cl: RING_TALLIES tally runs, each spawning a leaf, more runs
 * than an agent's record ring holds (docs/DESIGN.md section 10.2, S7); the kernel spawns a tally
 * only once the last one spawned its leaf, so no spawn finds the queue full. */
enum { RING_TALLIES = COOP_SPAWN_RECORDS / 2 + 4, RING_RUNS = 2 * RING_TALLIES };

/* An agent frees a spawned run's slot once the run is in the record ring, not once the host
 * recorded it: with a host that reads the ring only after the cooperative kernel finished, the
 * kernel sees more runs done than the ring holds, and the host then records every run once,
 * with its task, depth and spawner, before the end. The host serving the queue (SVM) too. */
START_TEST(records_outlast_a_slow_host)
{
    static const coop_channel_kind channels[] = {COOP_CHANNEL_QUEUE, COOP_CHANNEL_SVM};
    coop_context *ctx = tu_context_channel(WORKERS + 2, channels[_i]);
    ctx->hold_spawn_records = channels[_i] == COOP_CHANNEL_QUEUE;
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/spawn_ring.cl", "--task", "tests/merge/spawn_ring_tasks.cl", NULL};
    char *source = merge_source(args);
    coop_kernel *kernel = tu_kernel(ctx, source, TU_CHECK_OPTIONS, BURST_MEGA_NAME, &program);
    free(source);
    cl_uint zero[RING_TALLIES] = {0}, statuses[RING_TALLIES], tally_runs[RING_TALLIES], leaf_statuses[RING_TALLIES],
            leaf_runs[RING_TALLIES], done = 0;
    cl_mem b_statuses = tu_buffer(ctx, RING_TALLIES), b_done = tu_buffer(ctx, 1), b_tally = tu_buffer(ctx, RING_TALLIES),
           b_leaf_statuses = tu_buffer(ctx, RING_TALLIES), b_leaf = tu_buffer(ctx, RING_TALLIES);
    cl_mem zeroed[] = {b_statuses, b_tally, b_leaf_statuses, b_leaf};
    for (size_t i = 0; i < sizeof zeroed / sizeof *zeroed; i++)
        tu_write(ctx, zeroed[i], zero, RING_TALLIES);
    tu_write(ctx, b_done, zero, 1);
    /* more runs done than the ring holds, while the host reads none of it (the queue channel's
     * agent): the ring full, and runs done in the agent's slots */
    cl_uint runs = RING_TALLIES, wait_for = COOP_SPAWN_RECORDS + 1;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_burst_statuses, b_statuses));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_burst_tally_runs, b_tally));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_burst_leaf_statuses, b_leaf_statuses));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_burst_done, b_done));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, BURST_MEGA_ARG_burst_runs, sizeof runs, &runs));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, BURST_MEGA_ARG_burst_wait_for, sizeof wait_for, &wait_for));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_tally_tally_runs, b_tally));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_tally_leaf_statuses, b_leaf_statuses));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_leaf_leaf_runs, b_leaf));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BURST_MEGA_ARG_leaf_done, b_done));
    /* one member: the other groups wait idle for the spawned runs. An agent that frees a slot only
     * once the host recorded its run leaves the kernel waiting: the watchdog ends the run */
    coop_mega_params params = {.launch = {.local_size = SPAWN_LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                               .watchdog_s = 60, .members = 1};
    tu_pin_groups(&params.launch, ctx, coop_context_device(ctx)->compute_units);
    coop_mega_report report;
    TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, NULL, 0, &report));
    const char *what = channels[_i] == COOP_CHANNEL_QUEUE ? "a slow host, the agent serving" : "the host serving";
    tu_assert_mega_at_rest(ctx, &report, what);
    ck_assert_msg(report.agent == (channels[_i] == COOP_CHANNEL_QUEUE), "%s: agent %d", what, report.agent);
    tu_read(ctx, b_statuses, statuses, RING_TALLIES);
    tu_read(ctx, b_tally, tally_runs, RING_TALLIES);
    tu_read(ctx, b_leaf_statuses, leaf_statuses, RING_TALLIES);
    tu_read(ctx, b_leaf, leaf_runs, RING_TALLIES);
    tu_read(ctx, b_done, &done, 1);
    for (unsigned k = 0; k < RING_TALLIES; k++)
        ck_assert_msg(statuses[k] == COOP_SPAWN_OK && tally_runs[k] == 1 && leaf_statuses[k] == 1 + COOP_SPAWN_OK &&
                          leaf_runs[k] == 1,
                      "%s: tally %u: spawn status %u, ran %u times, its leaf's spawn status %d, leaf ran %u times",
                      what, k, statuses[k], tally_runs[k], (int)leaf_statuses[k] - 1, leaf_runs[k]);
    ck_assert_uint_eq(done, RING_TALLIES);
    /* one record per run: the agent numbers its runs 0 .. RING_RUNS - 1 above COOP_SPAWN_SEQ_BIT,
     * the host its requests from 1; each tally at depth 1 from the kernel, each leaf at depth 2
     * from a tally, no tally twice */
    ck_assert_msg(report.record_count == RING_RUNS, "%s: %zu records of %u runs", what, report.record_count,
                  (unsigned)RING_RUNS);
    unsigned char numbered[RING_RUNS + 1] = {0}, spawner[RING_RUNS + 1] = {0};
    unsigned tallies = 0;
    for (size_t r = 0; r < report.record_count; r++) {
        const coop_task_record *rec = &report.records[r];
        unsigned number = report.agent ? rec->request - COOP_SPAWN_SEQ_BIT : rec->request;
        ck_assert_msg(rec->spawned && (rec->request >= COOP_SPAWN_SEQ_BIT) == report.agent && number <= RING_RUNS &&
                          !numbered[number],
                      "%s: record %zu: spawned %d, request %#x (recorded twice, or numbered out of range)", what, r,
                      rec->spawned, rec->request);
        numbered[number] = 1;
        int tally = rec->task == BURST_MEGA_TASK_tally;
        tallies += tally;
        ck_assert_msg((tally && rec->depth == 1 && rec->spawned_by == 0) ||
                          (rec->task == BURST_MEGA_TASK_leaf && rec->depth == 2 && rec->spawned_by != 0),
                      "%s: record %zu: task %u at depth %u spawned by %u", what, r, rec->task, rec->depth,
                      rec->spawned_by);
    }
    ck_assert_uint_eq(tallies, RING_TALLIES);
    for (size_t r = 0; r < report.record_count; r++) {
        const coop_task_record *rec = &report.records[r];
        if (rec->task != BURST_MEGA_TASK_leaf)
            continue;
        size_t by = 0;
        while (by < report.record_count &&
               !(report.records[by].request == rec->spawned_by && report.records[by].task == BURST_MEGA_TASK_tally))
            by++;
        ck_assert_msg(by < report.record_count, "%s: record %zu: a leaf spawned by %u, no tally's request", what, r,
                      rec->spawned_by);
        ck_assert_msg(!spawner[by], "%s: tally record %zu spawned two leaves", what, by);
        spawner[by] = 1;
    }
    coop_mega_report_free(&report);
    cl_mem buffers[] = {b_statuses, b_done, b_tally, b_leaf_statuses, b_leaf};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* A cooperative kernel of rounds.cl's shape (parameters data, n, rounds: every round adds one to
 * every element) merged with fill.cl, and the indices its host header gives them. */
typedef struct rounds_kernel {
    const char *source, *name;
    unsigned data, n, rounds, fill_out, fill_seed, fill;
} rounds_kernel;

/* Runs such a kernel on `items` elements for `rounds` rounds without and with chaos (seeds 0 ..
 * last, more until chaos has both killed and forked), with fill.cl as a task of `task_groups`
 * groups taking half of the kernel's: every element ends equal to `rounds`, and the task writes
 * its output. */
static void check_rounds_under_chaos(const rounds_kernel *k, unsigned items, unsigned rounds, unsigned task_groups,
                                     unsigned last)
{
    enum { ITEMS_MAX = 4096, LOCAL = 32 };
    ck_assert_uint_le(items, ITEMS_MAX);
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {k->source, "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, k->name, &program);
    cl_mem data = tu_buffer(ctx, items), out = tu_buffer(ctx, task_groups * LOCAL);
    cl_uint n = items, count = rounds;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, k->data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, k->n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, k->rounds, sizeof count, &count));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, k->fill_out, out));
    unsigned kills = 0, forks = 0;
    static cl_uint values[ITEMS_MAX], zero[ITEMS_MAX];
    for (unsigned seed = 0; more_seeds(seed, last, kills, forks); seed++) {
        cl_uint task_seed = 7 * seed;
        tu_write(ctx, data, zero, items);
        TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, k->fill_seed, sizeof task_seed, &task_seed));
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_task_plan plan = {.task = k->fill, .workgroups = task_groups, .take = COOP_TAKE_HALF};
        coop_mega_report report;
        TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, &plan, 1, &report));
        ck_assert_uint_eq(report.record_count, 1);
        tu_read(ctx, data, values, items);
        for (unsigned i = 0; i < items; i++)
            ck_assert_msg(values[i] == rounds, "seed %u (%u kills, %u forks): data[%u] = %u, expected %u", seed,
                          report.kills, report.forks, i, values[i], rounds);
        tu_read(ctx, out, values, task_groups * LOCAL);
        for (unsigned g = 0; g < task_groups; g++)
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

/* rounds.cl + fill.cl, the example megakernel as a user writes it, built with PoCL's default
 * work-group method: a resizing barrier in a loop and a periodic task, without and with chaos. */
START_TEST(rounds_megakernel_under_chaos)
{
    const rounds_kernel k = {.source = "tests/merge/rounds.cl", .name = ROUNDS_MEGA_NAME,
                             .data = ROUNDS_MEGA_ARG_rounds_data, .n = ROUNDS_MEGA_ARG_rounds_n,
                             .rounds = ROUNDS_MEGA_ARG_rounds_rounds, .fill_out = ROUNDS_MEGA_ARG_fill_out,
                             .fill_seed = ROUNDS_MEGA_ARG_fill_seed, .fill = ROUNDS_MEGA_TASK_fill};
    check_rounds_under_chaos(&k, 4096, 40, 9, CHAOS_SEEDS);
}
END_TEST

/* votes.cl + fill.cl: a loop that resizing_global_barrier_any() ends, under chaos and a periodic
 * task; few rounds and more seeds, so that chaos often forks at the last barrier, where a forked
 * group must take the vote's outcome (no round more) rather than the value its forking group
 * transmitted. */
START_TEST(vote_ends_the_loop_of_forked_groups_under_chaos)
{
    const rounds_kernel k = {.source = "tests/merge/votes.cl", .name = VOTES_MEGA_NAME,
                             .data = VOTES_MEGA_ARG_votes_data, .n = VOTES_MEGA_ARG_votes_n,
                             .rounds = VOTES_MEGA_ARG_votes_rounds, .fill_out = VOTES_MEGA_ARG_fill_out,
                             .fill_seed = VOTES_MEGA_ARG_fill_seed, .fill = VOTES_MEGA_TASK_fill};
    check_rounds_under_chaos(&k, 2048, 3, 5, 24);
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
        per_round[round] = scale + acc[0] + acc[1] + acc[2] + acc[3] + weight + (float)count + (float)delta +
                           2.0f * (float)round;
        round++;
        delta -= 2;
        scale = scale * 1.5f;
        for (int k = 0; k < 4; k++)
            acc[k] = acc[k] * 0.5f + add[k];
        count += round;
        weight = weight * 0.75f;
    }
}

/* types.cl + tasks_a.cl + tasks_b.cl: transmit of uint, int, float, float4, a struct and an anonymous
 * struct, local memory in
 * the cooperative kernel and in a task, three tasks from two files, a helper that uses the group
 * id; without and with chaos. */
START_TEST(types_megakernel_under_chaos)
{
    enum { N = 1000, ROUNDS = 12, LOCAL = 64, TASK_GROUPS = 5 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/types.cl", "--task", "tests/merge/tasks_a.cl", "--task",
                          "tests/merge/tasks_b.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, TYPES_MEGA_NAME, &program);
    cl_mem out = float_buffer(ctx, N * ROUNDS), scaled = float_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_mem hits = tu_buffer(ctx, TASK_GROUPS), stamped = tu_buffer(ctx, TASK_GROUPS * LOCAL);
    cl_uint n = N, rounds = ROUNDS;
    cl_float factor = 0.5f;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, TYPES_MEGA_ARG_types_out, out));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TYPES_MEGA_ARG_types_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TYPES_MEGA_ARG_types_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, TYPES_MEGA_ARG_scale_out, scaled));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TYPES_MEGA_ARG_scale_factor, sizeof factor, &factor));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, TYPES_MEGA_ARG_count_hits, hits));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, TYPES_MEGA_ARG_stamp_out, stamped));
    float expected[ROUNDS];
    types_reference(ROUNDS, expected);
    unsigned kills = 0, forks = 0;
    static float values[N * ROUNDS];
    static cl_uint words[TASK_GROUPS * LOCAL];
    for (unsigned seed = 0; more_seeds(seed, CHAOS_SEEDS, kills, forks); seed++) {
        static cl_uint zero[N * ROUNDS];
        cl_uint stamp_seed = 1000 + seed;
        tu_write(ctx, out, zero, N * ROUNDS);
        tu_write(ctx, hits, zero, TASK_GROUPS);
        TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TYPES_MEGA_ARG_stamp_seed, sizeof stamp_seed, &stamp_seed));
        coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_task_plan plans[3] = {
            {.task = TYPES_MEGA_TASK_scale, .workgroups = TASK_GROUPS, .take = COOP_TAKE_ONE, .start_ms = 0},
            {.task = TYPES_MEGA_TASK_count, .workgroups = TASK_GROUPS, .take = COOP_TAKE_ONE, .start_ms = 1},
            {.task = TYPES_MEGA_TASK_stamp, .workgroups = TASK_GROUPS, .take = COOP_TAKE_HALF, .start_ms = 2},
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
    coop_kernel *kernel = build_merged(ctx, args, PHASES_MEGA_NAME, &program);
    cl_mem data = tu_buffer(ctx, N + 1);
    cl_uint n = N, steps = STEPS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, PHASES_MEGA_ARG_phases_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, PHASES_MEGA_ARG_phases_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, PHASES_MEGA_ARG_phases_steps, sizeof steps, &steps));
    unsigned kills = 0, forks = 0;
    static cl_uint values[N + 1], zero[N + 1];
    for (unsigned seed = 0; more_seeds(seed, CHAOS_SEEDS, kills, forks); seed++) {
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
    coop_kernel *kernel = build_merged(ctx, args, SWEEP_MEGA_NAME, &program);
    cl_mem data = float_buffer(ctx, N);
    cl_uint n = N, sweeps = SWEEPS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, SWEEP_MEGA_ARG_sweep_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, SWEEP_MEGA_ARG_sweep_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, SWEEP_MEGA_ARG_sweep_sweeps, sizeof sweeps, &sweeps));
    static float start[N], expected[N], values[N];
    for (unsigned i = 0; i < N; i++) {
        start[i] = (float)(i % 7);
        expected[i] = start[i];
        for (unsigned s = 0; s < SWEEPS; s++)
            expected[i] = expected[i] * 0.5f + (float)s;
    }
    unsigned kills = 0, forks = 0;
    for (unsigned seed = 0; more_seeds(seed, CHAOS_SEEDS, kills, forks); seed++) {
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
    coop_kernel *kernel = build_merged(ctx, args, NESTED_STANDALONE_NAME, &program);
    cl_mem data = tu_buffer(ctx, N), last_round = tu_buffer(ctx, 1);
    cl_uint n = N, outer = OUTER, inner = INNER;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, NESTED_STANDALONE_ARG_nested_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_STANDALONE_ARG_nested_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_STANDALONE_ARG_nested_outer, sizeof outer, &outer));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, NESTED_STANDALONE_ARG_nested_inner, sizeof inner, &inner));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, NESTED_STANDALONE_ARG_nested_last_round, last_round));
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

/* ---- End to end: kernels a user would write ------------------------------------------------ */

enum { USER_SEEDS = 20 };

/* One merged megakernel run for each chaos seed 0 .. USER_SEEDS (and more: more_seeds) with the
 * plans: `prepare` resets the inputs before each run, `check` compares the results with the CPU's
 * after it. Chaos must have killed and forked over the runs. */
typedef struct chaos_runs {
    coop_context *ctx;
    coop_kernel *kernel;
    size_t local_size;
    const coop_task_plan *plans;
    size_t plan_count;
    void (*prepare)(struct chaos_runs *runs, unsigned seed);
    void (*check)(struct chaos_runs *runs, unsigned seed, const coop_mega_report *report);
    void *data;
    int offers_optional;          /* a kernel whose chaos may make no fork on a busy machine */
} chaos_runs;

static void run_under_chaos(chaos_runs *runs)
{
    unsigned kills = 0, forks = 0;
    for (unsigned seed = 0; runs->offers_optional ? seed <= USER_SEEDS : more_seeds(seed, USER_SEEDS, kills, forks);
         seed++) {
        runs->prepare(runs, seed);
        coop_mega_params params = {.launch = {.local_size = runs->local_size, .timeout_s = COMPILE_TIMEOUT_S},
                                   .chaos_seed = seed, .watchdog_s = 30};
        coop_mega_report report;
        TU_ASSERT_OK(runs->ctx, coop_mega_run(runs->kernel, &params, runs->plans, runs->plan_count, &report));
        ck_assert_msg(report.record_count >= runs->plan_count, "seed %u: %zu task runs for %zu plans", seed,
                      report.record_count, runs->plan_count);
        runs->check(runs, seed, &report);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(runs->offers_optional || (kills > 0 && forks > 0), "chaos made no kills (%u) or forks (%u)", kills,
                  forks);
}

/* Every element of `words` (count of them) equals its expected value. */
static void check_words(coop_context *ctx, cl_mem buffer, const cl_uint *expected, size_t count, unsigned seed,
                        const char *what)
{
    cl_uint *values = malloc(count * sizeof *values);
    ck_assert_ptr_nonnull(values);
    tu_read(ctx, buffer, values, count);
    for (size_t i = 0; i < count; i++)
        ck_assert_msg(values[i] == expected[i], "seed %u: %s[%zu] = %u, expected %u", seed, what, i, values[i],
                      expected[i]);
    free(values);
}

/* relax.cl: the CPU's relaxation, a[] after the last sweep and the sum after each sweep. */
enum { RELAX_N = 700, RELAX_SWEEPS = 3, RELAX_PHASES = 2, RELAX_STEPS = 3, RELAX_LOCAL = 16, SQUARES = 5 * 16 };

typedef struct relax_data {
    cl_mem a, b, sums, squares, smooth;
    cl_uint a0[RELAX_N], a_final[RELAX_N], sums_expected[RELAX_SWEEPS];
} relax_data;

static void relax_reference(relax_data *d)
{
    static cl_uint a[RELAX_N], b[RELAX_N];
    memcpy(a, d->a0, sizeof a);
    int shift = 1;
    cl_uint weight = 1;
    for (unsigned s = 0; s < RELAX_SWEEPS; s++) {
        for (unsigned p = 0; p < RELAX_PHASES; p++) {
            for (unsigned t = 0; t < RELAX_STEPS; t++) {
                for (unsigned i = 0; i < RELAX_N; i++)
                    b[i] = (a[i] + a[(i + RELAX_N + (unsigned)shift) % RELAX_N] * weight) % 65521u;
                for (unsigned i = 0; i < RELAX_N; i++)
                    a[i] = b[i] + 1u;
            }
            shift = -shift;
        }
        d->sums_expected[s] = 0;
        for (unsigned i = 0; i < RELAX_N; i++)
            d->sums_expected[s] += a[i];
        weight *= 2;
    }
    memcpy(d->a_final, a, sizeof a);
}

static void relax_prepare(chaos_runs *runs, unsigned seed)
{
    (void)seed;
    relax_data *d = runs->data;
    static const cl_uint zero[RELAX_SWEEPS];
    tu_write(runs->ctx, d->a, d->a0, RELAX_N);
    tu_write(runs->ctx, d->sums, zero, RELAX_SWEEPS);
}

static void relax_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    relax_data *d = runs->data;
    check_words(runs->ctx, d->a, d->a_final, RELAX_N, seed, "a");
    check_words(runs->ctx, d->sums, d->sums_expected, RELAX_SWEEPS, seed, "sums");
    cl_uint squares[SQUARES];
    for (unsigned i = 0; i < SQUARES; i++)
        squares[i] = i * i + 11u;
    check_words(runs->ctx, d->squares, squares, SQUARES, seed, "square");
    float smooth[SQUARES];
    tu_read(runs->ctx, d->smooth, (cl_uint *)smooth, SQUARES);
    for (unsigned i = 0; i < SQUARES; i++) {
        unsigned lid = i % RELAX_LOCAL, next = (lid + 1) % RELAX_LOCAL;
        ck_assert_msg(smooth[i] == (float)(i - lid + next) * 0.25f, "seed %u: blur[%u] = %g", seed, i, smooth[i]);
    }
}

/* relax.cl + tasks_relax.cl: three fork points in a loop nest three deep, a kill point at the
 * outer loop's end, a periodic task and a one-off one. */
START_TEST(relax_loop_nest_under_chaos)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/relax.cl", "--task", "tests/merge/tasks_relax.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, RELAX_MEGA_NAME, &program);
    static relax_data d;
    for (unsigned i = 0; i < RELAX_N; i++)
        d.a0[i] = (i * 2654435761u) % 1000u;
    relax_reference(&d);
    d.a = tu_buffer(ctx, RELAX_N);
    d.b = tu_buffer(ctx, RELAX_N);
    d.sums = tu_buffer(ctx, RELAX_SWEEPS);
    d.squares = tu_buffer(ctx, SQUARES);
    d.smooth = float_buffer(ctx, SQUARES);
    cl_uint n = RELAX_N, sweeps = RELAX_SWEEPS, phases = RELAX_PHASES, steps = RELAX_STEPS, offset = 11;
    cl_float factor = 0.25f;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, RELAX_MEGA_ARG_relax_a, d.a));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, RELAX_MEGA_ARG_relax_b, d.b));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, RELAX_MEGA_ARG_relax_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, RELAX_MEGA_ARG_relax_sweeps, sizeof sweeps, &sweeps));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, RELAX_MEGA_ARG_relax_phases, sizeof phases, &phases));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, RELAX_MEGA_ARG_relax_steps, sizeof steps, &steps));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, RELAX_MEGA_ARG_relax_sums, d.sums));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, RELAX_MEGA_ARG_square_out, d.squares));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, RELAX_MEGA_ARG_square_offset, sizeof offset, &offset));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, RELAX_MEGA_ARG_blur_smooth, d.smooth));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, RELAX_MEGA_ARG_blur_factor, sizeof factor, &factor));
    coop_task_plan plans[2] = {
        {.task = RELAX_MEGA_TASK_square, .workgroups = SQUARES / RELAX_LOCAL, .take = COOP_TAKE_HALF,
         .period_ms = 2},
        {.task = RELAX_MEGA_TASK_blur, .workgroups = SQUARES / RELAX_LOCAL, .take = COOP_TAKE_ONE, .start_ms = 1},
    };
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = RELAX_LOCAL, .plans = plans, .plan_count = 2,
                       .prepare = relax_prepare, .check = relax_check, .data = &d};
    run_under_chaos(&runs);
    cl_mem buffers[] = {d.a, d.b, d.sums, d.squares, d.smooth};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* The fill task (fill.cl) of the next tests: word l of workgroup g is g * 7 + l + seed. */
enum { FILL_GROUPS = 6, USER_LOCAL = 16, USER_N = 3000, USER_ROUNDS = 12 };

typedef struct rounds_data {
    cl_mem data, second, out;
    cl_uint fill_seed;
    size_t fill_seed_arg;
    cl_uint *initial, *expected;
    size_t count;
} rounds_data;

static void rounds_prepare(chaos_runs *runs, unsigned seed)
{
    rounds_data *d = runs->data;
    d->fill_seed = 3 * seed + 1;
    tu_write(runs->ctx, d->data, d->initial, d->count);
    TU_ASSERT_OK(runs->ctx, coop_kernel_set_arg(runs->kernel, (unsigned)d->fill_seed_arg, sizeof d->fill_seed,
                                                &d->fill_seed));
}

static void check_fill(chaos_runs *runs, const rounds_data *d, unsigned seed)
{
    cl_uint expected[FILL_GROUPS * USER_LOCAL];
    for (unsigned g = 0; g < FILL_GROUPS; g++)
        for (unsigned l = 0; l < USER_LOCAL; l++)
            expected[g * USER_LOCAL + l] = g * 7u + l + d->fill_seed;
    check_words(runs->ctx, d->out, expected, FILL_GROUPS * USER_LOCAL, seed, "fill");
}

static void rounds_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    rounds_data *d = runs->data;
    check_words(runs->ctx, d->data, d->expected, d->count, seed, "data");
    check_fill(runs, d, seed);
}

/* breaks.cl + fill.cl: `while (1) { ...; if (done) break; resizing_global_barrier(); }`, then a
 * `while (1)` left after `int more = resizing_global_barrier_any(...);`. */
START_TEST(break_out_of_endless_loop_under_chaos)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/breaks.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, BREAKS_MEGA_NAME, &program);
    static cl_uint initial[USER_N + 1], expected[USER_N + 1];
    for (unsigned i = 0; i <= USER_N; i++)
        expected[i] = 2 * USER_ROUNDS; /* two loops of USER_ROUNDS rounds */
    rounds_data d = {.data = tu_buffer(ctx, USER_N + 1), .out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL),
                     .fill_seed_arg = BREAKS_MEGA_ARG_fill_seed, .initial = initial, .expected = expected,
                     .count = USER_N + 1};
    cl_uint n = USER_N, rounds = USER_ROUNDS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BREAKS_MEGA_ARG_breaks_data, d.data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, BREAKS_MEGA_ARG_breaks_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, BREAKS_MEGA_ARG_breaks_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, BREAKS_MEGA_ARG_fill_out, d.out));
    coop_task_plan plan = {.task = BREAKS_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF,
                           .period_ms = 2};
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = &plan, .plan_count = 1,
                       .prepare = rounds_prepare, .check = rounds_check, .data = &d};
    run_under_chaos(&runs);
    clReleaseMemObject(d.data);
    clReleaseMemObject(d.out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* swap.cl: after the last round the result is in `first` for an even number of rounds. */
static void swap_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    rounds_data *d = runs->data;
    check_words(runs->ctx, USER_ROUNDS % 2 ? d->second : d->data, d->expected, d->count, seed, "result");
    check_fill(runs, d, seed);
}

/* swap.cl + fill.cl: pointer variables swapped every round and transmitted to forked groups. */
START_TEST(swapped_pointers_under_chaos)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/swap.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, SWAP_MEGA_NAME, &program);
    static cl_uint initial[USER_N], expected[USER_N], next[USER_N];
    for (unsigned i = 0; i < USER_N; i++)
        initial[i] = expected[i] = i % 17;
    for (unsigned r = 0; r < USER_ROUNDS; r++) {
        for (unsigned i = 0; i < USER_N; i++)
            next[i] = expected[i] + expected[(i + 1) % USER_N];
        memcpy(expected, next, sizeof next);
    }
    rounds_data d = {.data = tu_buffer(ctx, USER_N), .second = tu_buffer(ctx, USER_N),
                     .out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL), .fill_seed_arg = SWAP_MEGA_ARG_fill_seed,
                     .initial = initial, .expected = expected, .count = USER_N};
    cl_uint n = USER_N, rounds = USER_ROUNDS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, SWAP_MEGA_ARG_swap_first, d.data));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, SWAP_MEGA_ARG_swap_second, d.second));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, SWAP_MEGA_ARG_swap_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, SWAP_MEGA_ARG_swap_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, SWAP_MEGA_ARG_fill_out, d.out));
    coop_task_plan plan = {.task = SWAP_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_QUARTER,
                           .period_ms = 2};
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = &plan, .plan_count = 1,
                       .prepare = rounds_prepare, .check = swap_check, .data = &d};
    run_under_chaos(&runs);
    clReleaseMemObject(d.data);
    clReleaseMemObject(d.second);
    clReleaseMemObject(d.out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* headers.cl + tasks_headers.cl: helpers and types from an #included header in the cooperative
 * kernel and a task, and a task that reads its plan's arguments. */
enum { STAMP_GROUPS = 4, ARG_GROUPS = 3, ARG_A = 41, ARG_B = 5 };

typedef struct headers_data {
    rounds_data rounds;
    cl_mem stamps, plan_out;
    cl_uint stamp_seed;
} headers_data;

static void headers_prepare(chaos_runs *runs, unsigned seed)
{
    headers_data *d = runs->data;
    d->stamp_seed = seed + 100;
    tu_write(runs->ctx, d->rounds.data, d->rounds.initial, d->rounds.count);
    TU_ASSERT_OK(runs->ctx, coop_kernel_set_arg(runs->kernel, HEADERS_MEGA_ARG_stamp_seed, sizeof d->stamp_seed,
                                                &d->stamp_seed));
}

static void headers_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    headers_data *d = runs->data;
    check_words(runs->ctx, d->rounds.data, d->rounds.expected, d->rounds.count, seed, "data");
    cl_uint stamps[STAMP_GROUPS * USER_LOCAL], args[ARG_GROUPS * USER_LOCAL];
    for (unsigned i = 0; i < STAMP_GROUPS * USER_LOCAL; i++)
        stamps[i] = d->stamp_seed * 3u + STAMP_GROUPS * USER_LOCAL; /* mix(seed, stride) */
    check_words(runs->ctx, d->stamps, stamps, STAMP_GROUPS * USER_LOCAL, seed, "stamp");
    for (unsigned i = 0; i < ARG_GROUPS * USER_LOCAL; i++)
        args[i] = ARG_A * 1000u + ARG_B + i;
    check_words(runs->ctx, d->plan_out, args, ARG_GROUPS * USER_LOCAL, seed, "plan_args");
}

START_TEST(included_helpers_and_task_arguments_under_chaos)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/headers.cl", "--task", "tests/merge/tasks_headers.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, HEADERS_MEGA_NAME, &program);
    static cl_uint initial[USER_N], expected[USER_N];
    for (unsigned i = 0; i < USER_N; i++) {
        initial[i] = expected[i] = i;
        for (unsigned r = 0; r < USER_ROUNDS; r++)
            expected[i] = expected[i] * 3u + r; /* mix() */
    }
    headers_data d = {.rounds = {.data = tu_buffer(ctx, USER_N), .initial = initial, .expected = expected,
                                 .count = USER_N},
                      .stamps = tu_buffer(ctx, STAMP_GROUPS * USER_LOCAL),
                      .plan_out = tu_buffer(ctx, ARG_GROUPS * USER_LOCAL)};
    cl_uint n = USER_N, rounds = USER_ROUNDS;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, HEADERS_MEGA_ARG_headers_data, d.rounds.data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, HEADERS_MEGA_ARG_headers_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, HEADERS_MEGA_ARG_headers_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, HEADERS_MEGA_ARG_stamp_out, d.stamps));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, HEADERS_MEGA_ARG_plan_args_out, d.plan_out));
    coop_task_plan plans[2] = {
        {.task = HEADERS_MEGA_TASK_stamp, .workgroups = STAMP_GROUPS, .take = COOP_TAKE_HALF, .period_ms = 2},
        {.task = HEADERS_MEGA_TASK_plan_args, .workgroups = ARG_GROUPS, .take = COOP_TAKE_ONE, .start_ms = 1,
         .args = {ARG_A, ARG_B}},
    };
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = plans, .plan_count = 2,
                       .prepare = headers_prepare, .check = headers_check, .data = &d};
    run_under_chaos(&runs);
    clReleaseMemObject(d.rounds.data);
    clReleaseMemObject(d.stamps);
    clReleaseMemObject(d.plan_out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST


/* frontier.cl: a W x H grid with a chord from every seventh node, in compressed rows; the CPU's
 * breadth-first levels from node 0. */
enum { FRONTIER_W = 40, FRONTIER_H = 30, FRONTIER_NODES = FRONTIER_W * FRONTIER_H, FRONTIER_EDGES = 5 * FRONTIER_NODES };

typedef struct frontier_data {
    rounds_data fill;
    cl_mem level, first, targets, lists[2], counts[2];
    cl_uint expected[FRONTIER_NODES];
} frontier_data;

static unsigned frontier_graph(cl_uint *first, cl_uint *targets)
{
    unsigned m = 0;
    for (unsigned v = 0; v < FRONTIER_NODES; v++) {
        unsigned x = v % FRONTIER_W, y = v / FRONTIER_W;
        first[v] = m;
        if (x > 0)
            targets[m++] = v - 1;
        if (x + 1 < FRONTIER_W)
            targets[m++] = v + 1;
        if (y > 0)
            targets[m++] = v - FRONTIER_W;
        if (y + 1 < FRONTIER_H)
            targets[m++] = v + FRONTIER_W;
        if (v % 7 == 3)
            targets[m++] = (v * 37u + 11u) % FRONTIER_NODES;
    }
    first[FRONTIER_NODES] = m;
    return m;
}

static void frontier_reference(const cl_uint *first, const cl_uint *targets, cl_uint *level)
{
    static cl_uint queue[FRONTIER_NODES];
    for (unsigned v = 0; v < FRONTIER_NODES; v++)
        level[v] = 0xffffffffu;
    level[0] = 0;
    queue[0] = 0;
    for (unsigned head = 0, tail = 1; head < tail; head++)
        for (cl_uint e = first[queue[head]]; e < first[queue[head] + 1]; e++)
            if (level[targets[e]] == 0xffffffffu) {
                level[targets[e]] = level[queue[head]] + 1;
                queue[tail++] = targets[e];
            }
}

static void frontier_prepare(chaos_runs *runs, unsigned seed)
{
    frontier_data *d = runs->data;
    static cl_uint level[FRONTIER_NODES];
    for (unsigned v = 0; v < FRONTIER_NODES; v++)
        level[v] = v ? 0xffffffffu : 0u;
    const cl_uint source = 0, one = 1, zero = 0;
    tu_write(runs->ctx, d->level, level, FRONTIER_NODES);
    tu_write(runs->ctx, d->lists[0], &source, 1);
    tu_write(runs->ctx, d->counts[0], &one, 1);
    tu_write(runs->ctx, d->counts[1], &zero, 1);
    d->fill.fill_seed = 3 * seed + 1;
    TU_ASSERT_OK(runs->ctx, coop_kernel_set_arg(runs->kernel, FRONTIER_MEGA_ARG_fill_seed, sizeof d->fill.fill_seed,
                                                &d->fill.fill_seed));
}

static void frontier_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    frontier_data *d = runs->data;
    check_words(runs->ctx, d->level, d->expected, FRONTIER_NODES, seed, "level");
    check_fill(runs, &d->fill, seed);
}

/* frontier.cl + fill.cl: group scans with workgroup barriers in helpers, one called inside the
 * edge loop, between resizing barriers (the shape of the FSE'17 artifact's Lonestar BFS, which
 * PoCL miscompiled beside libcoop's resizing barrier until COOP_RESIZE_PREFETCH). */
START_TEST(worklist_scans_under_chaos)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/frontier.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, FRONTIER_MEGA_NAME, &program);
    static frontier_data d;
    static cl_uint first[FRONTIER_NODES + 1], targets[FRONTIER_EDGES];
    unsigned edges = frontier_graph(first, targets);
    frontier_reference(first, targets, d.expected);
    d.fill.out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL);
    d.level = tu_buffer(ctx, FRONTIER_NODES);
    d.first = tu_buffer(ctx, FRONTIER_NODES + 1);
    d.targets = tu_buffer(ctx, edges);
    tu_write(ctx, d.first, first, FRONTIER_NODES + 1);
    tu_write(ctx, d.targets, targets, edges);
    const size_t list_args[2] = {FRONTIER_MEGA_ARG_frontier_list_a, FRONTIER_MEGA_ARG_frontier_list_b};
    const size_t count_args[2] = {FRONTIER_MEGA_ARG_frontier_count_a, FRONTIER_MEGA_ARG_frontier_count_b};
    for (unsigned i = 0; i < 2; i++) {
        d.lists[i] = tu_buffer(ctx, FRONTIER_NODES);
        d.counts[i] = tu_buffer(ctx, 1);
        TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, (unsigned)list_args[i], d.lists[i]));
        TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, (unsigned)count_args[i], d.counts[i]));
    }
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, FRONTIER_MEGA_ARG_frontier_level, d.level));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, FRONTIER_MEGA_ARG_frontier_first, d.first));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, FRONTIER_MEGA_ARG_frontier_targets, d.targets));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, FRONTIER_MEGA_ARG_fill_out, d.fill.out));
    coop_task_plan plan = {.task = FRONTIER_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_QUARTER,
                           .period_ms = 2};
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = &plan, .plan_count = 1,
                       .prepare = frontier_prepare, .check = frontier_check, .data = &d};
    run_under_chaos(&runs);
    cl_mem buffers[] = {d.fill.out, d.level, d.first, d.targets, d.lists[0], d.lists[1], d.counts[0], d.counts[1]};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST
/* two_forks.cl: each round's sum of 0 .. TWO_FORKS_N - 1 through a helper with workgroup barriers. */
enum { TWO_FORKS_ROUNDS = 3, TWO_FORKS_N = 100, TWO_FORKS_SUM = TWO_FORKS_ROUNDS * TWO_FORKS_N * (TWO_FORKS_N - 1) / 2 };

static void two_forks_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    rounds_data *d = runs->data;
    cl_uint out[2];
    tu_read(runs->ctx, d->data, out, 2);
    ck_assert_msg(out[0] == TWO_FORKS_SUM, "seed %u (%u kills, %u forks): member 0 summed %u, expected %u", seed,
                  report->kills, report->forks, out[0], TWO_FORKS_SUM);
    check_fill(runs, d, seed);
}

/* two_forks.cl + fill.cl: a helper holding workgroup barriers, called where a group walking to one
 * of two fork points skips it by a conditional. PoCL ran the code after that conditional with local
 * id 0 in every work-item, so nothing was summed, until coop-merge put coop_pocl_join() there. First
 * two members without chaos or tasks (each member sums every round), then under chaos. */
START_TEST(helper_barrier_between_two_fork_points)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/two_forks.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, TWO_FORKS_MEGA_NAME, &program);
    static cl_uint zero[2];
    rounds_data d = {.data = tu_buffer(ctx, 2), .out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL),
                     .fill_seed_arg = TWO_FORKS_MEGA_ARG_fill_seed, .initial = zero, .count = 2};
    cl_uint rounds = TWO_FORKS_ROUNDS, n = TWO_FORKS_N;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, TWO_FORKS_MEGA_ARG_two_forks_out, d.data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TWO_FORKS_MEGA_ARG_two_forks_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TWO_FORKS_MEGA_ARG_two_forks_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, TWO_FORKS_MEGA_ARG_fill_out, d.out));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, TWO_FORKS_MEGA_ARG_fill_seed, sizeof n, &n));
    coop_mega_params params = {.launch = {.local_size = USER_LOCAL, .timeout_s = COMPILE_TIMEOUT_S}, .members = 2,
                               .watchdog_s = 30};
    tu_pin_groups(&params.launch, ctx, 2);
    coop_mega_report report;
    TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, NULL, 0, &report));
    cl_uint out[2];
    tu_read(ctx, d.data, out, 2);
    ck_assert_msg(out[0] == TWO_FORKS_SUM && out[1] == TWO_FORKS_SUM * report.members_start,
                  "%u members summed %u and %u, expected %u and %u", report.members_start, out[0], out[1],
                  TWO_FORKS_SUM, TWO_FORKS_SUM * report.members_start);
    coop_mega_report_free(&report);
    coop_task_plan plan = {.task = TWO_FORKS_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF,
                           .period_ms = 1};
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = &plan, .plan_count = 1,
                       .prepare = rounds_prepare, .check = two_forks_check, .data = &d};
    run_under_chaos(&runs);
    clReleaseMemObject(d.data);
    clReleaseMemObject(d.out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* ws_rounds.cl: a tree of WS_ROUNDS_LIMIT tasks walked by work stealing in each of WS_ROUNDS_ROUNDS
 * rounds; the queue has deques for the most groups the launch can have. */
enum { WS_ROUNDS_LIMIT = 600, WS_ROUNDS_ROUNDS = 4, WS_ROUNDS_DEQUE = 8 };

typedef struct ws_rounds_data {
    rounds_data fill;             /* the task's output (fill.out) */
    cl_mem queue, seen;
    size_t queue_words;
} ws_rounds_data;

static void ws_rounds_prepare(chaos_runs *runs, unsigned seed)
{
    ws_rounds_data *d = runs->data;
    static cl_uint zero[WS_ROUNDS_ROUNDS * WS_ROUNDS_LIMIT];
    cl_uint *queue = calloc(d->queue_words, sizeof *queue);
    ck_assert_ptr_nonnull(queue);
    d->fill.data = d->seen;
    d->fill.initial = zero;
    d->fill.count = WS_ROUNDS_ROUNDS * WS_ROUNDS_LIMIT;
    rounds_prepare(runs, seed);
    tu_write(runs->ctx, d->queue, queue, d->queue_words);
    free(queue);
}

static void ws_rounds_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    ws_rounds_data *d = runs->data;
    static cl_uint once[WS_ROUNDS_ROUNDS * WS_ROUNDS_LIMIT];
    for (unsigned i = 0; i < WS_ROUNDS_ROUNDS * WS_ROUNDS_LIMIT; i++)
        once[i] = 1;
    check_words(runs->ctx, d->seen, once, WS_ROUNDS_ROUNDS * WS_ROUNDS_LIMIT, seed, "task runs (round * limit + task)");
    check_fill(runs, &d->fill, seed);
}

/* ws_rounds.cl + fill.cl: work stealing whose rounds end with a resizing barrier (three fork
 * points; ws_next_task's workgroup barrier skipped by a conditional), the shape of a user's
 * integrator that hung on PoCL before coop_pocl_join(); every task runs once per round. */
START_TEST(work_stealing_rounds_under_chaos)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/ws_rounds.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, WS_ROUNDS_MEGA_NAME, &program);
    cl_uint groups = coop_launch_groups(ctx, USER_LOCAL), limit = WS_ROUNDS_LIMIT, rounds = WS_ROUNDS_ROUNDS;
    ws_rounds_data d = {.queue_words = WS_QUEUE_WORDS((size_t)groups, WS_ROUNDS_DEQUE, WS_ROUNDS_LIMIT)};
    d.queue = tu_buffer(ctx, d.queue_words);
    d.seen = tu_buffer(ctx, WS_ROUNDS_ROUNDS * WS_ROUNDS_LIMIT);
    d.fill.out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL);
    d.fill.fill_seed_arg = WS_ROUNDS_MEGA_ARG_fill_seed;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, WS_ROUNDS_MEGA_ARG_ws_rounds_queue_words, d.queue));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, WS_ROUNDS_MEGA_ARG_ws_rounds_queue_groups, sizeof groups, &groups));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, WS_ROUNDS_MEGA_ARG_ws_rounds_limit, sizeof limit, &limit));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, WS_ROUNDS_MEGA_ARG_ws_rounds_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, WS_ROUNDS_MEGA_ARG_ws_rounds_seen, d.seen));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, WS_ROUNDS_MEGA_ARG_fill_out, d.fill.out));
    coop_task_plan plan = {.task = WS_ROUNDS_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF,
                           .period_ms = 1};
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = &plan, .plan_count = 1,
                       .prepare = ws_rounds_prepare, .check = ws_rounds_check, .data = &d};
    run_under_chaos(&runs);
    clReleaseMemObject(d.queue);
    clReleaseMemObject(d.seen);
    clReleaseMemObject(d.fill.out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST
/* The arguments of a counting kernel merged with fill.cl: its out buffer and round count, fill's
 * out buffer and seed, and fill's task index, as the program's header names them. */
typedef struct counting_args {
    unsigned out, n, fill_out, fill_seed, fill_task;
} counting_args;

/* Runs a kernel that counts into `words` words of out (all 0 at first) in `n` rounds, merged with
 * fill.cl as a periodic task on half the groups, under chaos; `check` compares out and fill's
 * output (on a busy machine the task may hold the idle groups that a fork would take: forks are
 * not required). */
static void run_counting_under_chaos(const char *const *args, const char *name, const counting_args *a,
                                     size_t words, cl_uint n, void (*check)(chaos_runs *, unsigned,
                                                                            const coop_mega_report *))
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    coop_kernel *kernel = build_merged(ctx, args, name, &program);
    cl_uint *zero = calloc(words, sizeof *zero);
    ck_assert_ptr_nonnull(zero);
    rounds_data d = {.data = tu_buffer(ctx, words), .out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL),
                     .fill_seed_arg = a->fill_seed, .initial = zero, .count = words};
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, a->out, d.data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, a->n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, a->fill_out, d.out));
    coop_task_plan plan = {.task = a->fill_task, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF, .period_ms = 1};
    chaos_runs runs = {.ctx = ctx, .kernel = kernel, .local_size = USER_LOCAL, .plans = &plan, .plan_count = 1,
                       .prepare = rounds_prepare, .check = check, .data = &d, .offers_optional = 1};
    run_under_chaos(&runs);
    free(zero);
    clReleaseMemObject(d.data);
    clReleaseMemObject(d.out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}

/* if_join.cl, IF_JOIN_ROUNDS rounds: out[l] = 21 a round for every work-item l of member 0,
 * out[USER_LOCAL] = 22 a round. */
enum { IF_JOIN_ROUNDS = 20 };

static void if_join_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    rounds_data *d = runs->data;
    cl_uint expected[USER_LOCAL + 1];
    for (unsigned l = 0; l < USER_LOCAL; l++)
        expected[l] = 21 * IF_JOIN_ROUNDS;
    expected[USER_LOCAL] = 22 * IF_JOIN_ROUNDS;
    check_words(runs->ctx, d->data, expected, USER_LOCAL + 1, seed, "out");
    check_fill(runs, d, seed);
}

/* if_join.cl + fill.cl (smith seed 118): an `if` around a helper's workgroup barriers after a
 * fork point, under chaos with a periodic task. */
START_TEST(if_around_helper_barriers_after_a_fork_point)
{
    const char *args[] = {"tests/merge/if_join.cl", "--task", "tests/merge/fill.cl", NULL};
    const counting_args a = {IF_JOIN_MEGA_ARG_if_join_out, IF_JOIN_MEGA_ARG_if_join_n, IF_JOIN_MEGA_ARG_fill_out,
                             IF_JOIN_MEGA_ARG_fill_seed, IF_JOIN_MEGA_TASK_fill};
    run_counting_under_chaos(args, IF_JOIN_MEGA_NAME, &a, USER_LOCAL + 1, IF_JOIN_ROUNDS, if_join_check);
}
END_TEST

/* no_braces.cl, NO_BRACES_ROUNDS rounds of each loop: out = {5, 7}. */
enum { NO_BRACES_ROUNDS = 12 };

static void no_braces_check(chaos_runs *runs, unsigned seed, const coop_mega_report *report)
{
    (void)report;
    rounds_data *d = runs->data;
    const cl_uint expected[2] = {5, 7};
    check_words(runs->ctx, d->data, expected, 2, seed, "out");
    check_fill(runs, d, seed);
}

/* Loops whose bodies are a primitive without braces (a resizing barrier, an offer, a global
 * barrier) merge and run right under chaos with a periodic task; coop-merge failed on them with
 * an internal error. */
START_TEST(loop_bodies_without_braces)
{
    const char *args[] = {"tests/merge/no_braces.cl", "--task", "tests/merge/fill.cl", NULL};
    const counting_args a = {NO_BRACES_MEGA_ARG_no_braces_out, NO_BRACES_MEGA_ARG_no_braces_n,
                             NO_BRACES_MEGA_ARG_fill_out, NO_BRACES_MEGA_ARG_fill_seed, NO_BRACES_MEGA_TASK_fill};
    run_counting_under_chaos(args, NO_BRACES_MEGA_NAME, &a, 2, NO_BRACES_ROUNDS, no_braces_check);
}
END_TEST

/* A smith finding in tests/merge/smith/: its spec (the comment's "size L G", "uint smith NAME V"
 * and "expect smith out W..." lines; out is the kernel's first parameter, the uints follow). */
/* The most words of out a finding's spec may give (seed 6011's has 86) */
#define FINDING_WORDS 256

typedef struct smith_finding {
    unsigned local, groups, args[8], arg_count, expected[FINDING_WORDS], words, buffer_words;
} smith_finding;

static void read_finding(const char *path, smith_finding *f)
{
    char *text = read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    memset(f, 0, sizeof *f);
    for (char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        char name[32];
        unsigned value, used = 0;
        if (sscanf(line, " *   size %u %u", &f->local, &f->groups) == 2)
            continue;
        if (sscanf(line, " *   uint smith %31s %u", name, &value) == 2) {
            ck_assert_msg(f->arg_count < 8, "%s: more than 8 arguments", path);
            f->args[f->arg_count++] = value;
        }
        if (sscanf(line, " *   buffer smith out %u", &value) == 1)
            f->buffer_words = value;
        if (sscanf(line, " *   expect smith out%n", (int *)&used) == 0 && used) {
            char *at = line + used, *end;
            for (unsigned long word; (word = strtoul(at, &end, 10), end != at); at = end) {
                ck_assert_msg(f->words < FINDING_WORDS, "%s: more than %d words of out", path, FINDING_WORDS);
                f->expected[f->words++] = (unsigned)word;
            }
        }
    }
    free(text);
    ck_assert_msg(f->local && f->groups && f->words, "%s: no spec", path);
    /* out as large as the kernel writes: a shorter buffer let the kernel write past it */
    ck_assert_msg(f->buffer_words == f->words, "%s: buffer of %u words, %u expected", path, f->buffer_words,
                  f->words);
}

/* Compares out with the finding's expected words after a run (chaos seed `seed`, 0: standalone). */
static void check_finding_run(coop_context *ctx, const smith_finding *f, cl_mem out, const char *what, unsigned seed)
{
    cl_uint words[FINDING_WORDS];
    tu_read(ctx, out, words, f->words);
    for (unsigned i = 0; i < f->words; i++)
        ck_assert_msg(words[i] == f->expected[i], "%s, chaos seed %u: out[%u] = %u, expected %u", what, seed, i,
                      words[i], f->expected[i]);
}

/* The smith findings, tests/merge/smith/seedN.cl (found in main, before the suite is made). */
static glob_t smith_findings;

/* Each smith finding as a megakernel under chaos seeds 1-6 with a periodic task (fill.cl, not the
 * finding's own tasks), then as a standalone kernel: out equals the generator's words. Each was
 * wrong, crashed PoCL or did not build on PoCL before its fix (the file's comment says which). */
START_TEST(smith_findings_run_right)
{
    const char *path = smith_findings.gl_pathv[_i];
    smith_finding f;
    read_finding(path, &f);
    coop_context *ctx = tu_context(WORKERS);
    for (int standalone = 0; standalone <= 1; standalone++) {
        coop_program *program = NULL;
        const char *mega_args[] = {path, "--task", "tests/merge/fill.cl", NULL};
        const char *standalone_args[] = {path, "--standalone", NULL};
        coop_kernel *kernel = build_merged(ctx, standalone ? standalone_args : mega_args,
                                           standalone ? "smith_standalone" : "smith_mega", &program);
        cl_mem out = tu_buffer(ctx, f.words), fill_out = tu_buffer(ctx, FILL_GROUPS * f.local);
        TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, out));
        for (unsigned i = 0; i < f.arg_count; i++)
            TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 1 + i, sizeof f.args[i], &f.args[i]));
        static const cl_uint zero[FINDING_WORDS];
        if (standalone) {
            coop_launch launch = {.local_size = f.local, .max_groups = f.groups, .timeout_s = COMPILE_TIMEOUT_S};
            TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, NULL));
            check_finding_run(ctx, &f, out, path, 0);
        } else {
            cl_uint fill_seed = 3;
            TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 1 + f.arg_count, fill_out));
            TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 2 + f.arg_count, sizeof fill_seed, &fill_seed));
            coop_task_plan plan = {.task = 0, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF, .period_ms = 1};
            for (unsigned seed = 1; seed <= 6; seed++) {
                tu_write(ctx, out, zero, f.words);
                coop_mega_params params = {.launch = {.local_size = f.local, .max_groups = f.groups,
                                                      .timeout_s = COMPILE_TIMEOUT_S},
                                           .chaos_seed = seed, .watchdog_s = 30};
                coop_mega_report report;
                TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, &plan, 1, &report));
                coop_mega_report_free(&report);
                check_finding_run(ctx, &f, out, path, seed);
            }
        }
        clReleaseMemObject(out);
        clReleaseMemObject(fill_out);
        coop_kernel_release(kernel);
        coop_program_release(program);
    }
    coop_context_release(ctx);
}
END_TEST

/* A plan for a task the megakernel does not have is refused before the run, naming the field and
 * the tasks there are (coop-merge writes their count into the program); before, the run
 * succeeded and recorded a task run in which nothing ran. */
START_TEST(plan_for_a_missing_task_is_refused)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/rounds.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, ROUNDS_MEGA_NAME, &program);
    coop_task_plan plans[2] = {{.task = ROUNDS_MEGA_TASK_fill, .workgroups = 1, .take = COOP_TAKE_ONE},
                               {.task = ROUNDS_MEGA_TASK_COUNT, .workgroups = 1, .take = COOP_TAKE_ONE}};
    coop_mega_report report;
    TU_ASSERT_STATUS(ctx, coop_mega_run(kernel, NULL, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: plans[1].task = 1: megakernel 'rounds_mega' has 1 task (task 0 only)");
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* spin.cl + fill.cl: a loop through kill and fork offers that never ends, beside a task every
 * millisecond that takes half the groups. The task's kills and forks are not the kernel's
 * progress: the watchdog ends the run within a second of its time, says where the groups are and
 * what the task did meanwhile. The megakernel then still runs, so the test leaves with _exit(). */
START_TEST(watchdog_fires_while_a_task_runs)
{
    enum { WATCHDOG_S = 2 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/spin.cl", "--task", "tests/merge/fill.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, SPIN_MEGA_NAME, &program);
    cl_mem flag = tu_buffer(ctx, 1), out = tu_buffer(ctx, FILL_GROUPS * USER_LOCAL);
    cl_uint seed = 5;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, SPIN_MEGA_ARG_spin_flag, flag));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, SPIN_MEGA_ARG_fill_out, out));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, SPIN_MEGA_ARG_fill_seed, sizeof seed, &seed));
    coop_mega_params params = {.launch = {.local_size = USER_LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                               .watchdog_s = WATCHDOG_S};
    tu_pin_groups(&params.launch, ctx, 2);
    coop_task_plan plan = {.task = SPIN_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF,
                           .period_ms = 1};
    coop_mega_report report;
    TU_ASSERT_STATUS(ctx, coop_mega_run(kernel, &params, &plan, 1, &report), COOP_ERR_TIMEOUT,
                     "(no global barrier completed and no member finished; ");
    const char *message = coop_context_message(ctx);
    ck_assert_msg(strstr(message, "megakernel 'spin_mega'"), "message: %s", message);
    ck_assert_msg(strstr(message, " running (ids 0"), "message: %s", message);
    const char *quiet = strstr(message, "no progress for ");
    ck_assert_msg(quiet != NULL, "message: %s", message);
    double quiet_s = atof(quiet + strlen("no progress for "));
    /* never early; how late depends on the machine's load, so no upper bound (had the task's
     * runs counted as progress, the watchdog would not have fired at all) */
    ck_assert_msg(quiet_s >= WATCHDOG_S, "the watchdog fired after %.2f s: %s", quiet_s, message);
    /* two groups: the task takes one of them, again and again */
    ck_assert_msg(strstr(message, "; meanwhile its offers killed "), "message: %s", message);
    _exit(0);
}
END_TEST
/* stall.cl: group 1 never reaches the second global barrier. Merged as a megakernel (the
 * watchdog) and as a standalone kernel (the time limit), the report names the barrier the other
 * group waits at by its line in stall.cl and the group that never arrived. Each run leaves the
 * kernel running, so each test leaves with _exit(). */
static const char stall_where[] =
    "1 group waiting at global barrier #2 (tests/merge/stall.cl:9:5: global_barrier()), group 1 never arrived";

START_TEST(watchdog_names_the_barrier_line)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/stall.cl", NULL};
    coop_kernel *kernel = build_merged(ctx, args, STALL_MEGA_NAME, &program);
    cl_mem flag = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, STALL_MEGA_ARG_stall_flag, flag));
    coop_mega_params params = {.launch = {.local_size = USER_LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                               .watchdog_s = 1};
    tu_pin_groups(&params.launch, ctx, 2);
    coop_mega_report report;
    TU_ASSERT_STATUS(ctx, coop_mega_run(kernel, &params, NULL, 0, &report), COOP_ERR_TIMEOUT, stall_where);
    _exit(0);
}
END_TEST

START_TEST(time_limit_names_the_barrier_line)
{
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    const char *args[] = {"tests/merge/stall.cl", "--standalone", NULL};
    coop_kernel *kernel = build_merged(ctx, args, STALL_STANDALONE_NAME, &program);
    cl_mem flag = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, STALL_STANDALONE_ARG_stall_flag, flag));
    coop_launch launch = {.local_size = USER_LOCAL, .timeout_s = 2};
    tu_pin_groups(&launch, ctx, 2);
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, &launch, NULL), COOP_ERR_TIMEOUT, stall_where);
    _exit(0);
}
END_TEST
/* ---- The tool's source layout ------------------------------------------------------------- */

/* coop-merge's passes and support files in the order they may include one another: a file of
 * merge-tool/ belongs to the layer its name starts with (up to its first '_' or '.': analyse_flow.c
 * is analyse's), and includes the headers of its own layer and of earlier ones only, so that the
 * imports form a DAG (merge-tool/README.md, "Source layout"). */
static const char *const merge_layers[] = {"text",    "merge",   "edit", "parse",   "analyse",
                                           "validate", "rewrite", "emit", "compile", "main"};

static int merge_layer(const char *name)
{
    size_t length = strcspn(name, "_.");
    for (size_t i = 0; i < sizeof merge_layers / sizeof *merge_layers; i++)
        if (strlen(merge_layers[i]) == length && !strncmp(merge_layers[i], name, length))
            return (int)i;
    return -1;
}

/* The first of `text`'s #include "..." of a merge-tool header that `name` may not include, as a
 * message, or NULL. Headers from elsewhere (libcoop's, found through -I) are not the tool's. */
static char *include_violation(const char *name, const char *text, int (*is_tool_header)(const char *header))
{
    char *message = NULL;
    int layer = merge_layer(name);
    if (layer < 0) {
        message = malloc(PATH_BYTES);
        snprintf(message, PATH_BYTES, "merge-tool/%s: its name starts with no layer of the declared order", name);
        return message;
    }
    for (const char *line = text; line && *line && !message; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        char header[PATH_BYTES];
        if (sscanf(line, "#include \"%255[^\"]\"", header) != 1 || !is_tool_header(header))
            continue;
        int included = merge_layer(header);
        if (included < 0 || included > layer) {
            message = malloc(2 * PATH_BYTES);
            snprintf(message, 2 * PATH_BYTES, "merge-tool/%s includes %s, of %s", name, header,
                     included < 0 ? "no layer of the declared order" : "a later layer");
        }
    }
    return message;
}

static int in_merge_tool(const char *header)
{
    char path[2 * PATH_BYTES];
    snprintf(path, sizeof path, "merge-tool/%s", header);
    return access(path, F_OK) == 0;
}

static int any_header(const char *header)
{
    (void)header;
    return 1;
}

/* The check itself fails on an include against the order, and passes one along it. */
START_TEST(include_order_check_finds_a_cycle)
{
    char *backward = include_violation("analyse.c", "#include \"analyse.h\"\n#include \"rewrite.h\"\n", any_header);
    ck_assert_ptr_nonnull(backward);
    ck_assert_str_eq(backward, "merge-tool/analyse.c includes rewrite.h, of a later layer");
    free(backward);
    ck_assert_ptr_null(include_violation("rewrite_control.c", "#include \"rewrite.h\"\n#include \"edit.h\"\n",
                                         any_header));
    char *unknown = include_violation("lint.c", "", any_header);
    ck_assert_ptr_nonnull(unknown);
    free(unknown);
}
END_TEST

/* Every file of merge-tool/ includes only the headers of its own layer and earlier ones. */
START_TEST(merge_tool_includes_form_a_dag)
{
    DIR *dir = opendir("merge-tool");
    ck_assert_ptr_nonnull(dir);
    unsigned checked = 0;
    for (struct dirent *entry; (entry = readdir(dir));) {
        size_t length = strlen(entry->d_name);
        if (length < 3 || (strcmp(entry->d_name + length - 2, ".c") && strcmp(entry->d_name + length - 2, ".h")))
            continue;
        char path[2 * PATH_BYTES];
        snprintf(path, sizeof path, "merge-tool/%s", entry->d_name);
        size_t size = 0;
        char *text = read_file(path, &size);
        ck_assert_ptr_nonnull(text);
        char *violation = include_violation(entry->d_name, text, in_merge_tool);
        ck_assert_msg(!violation, "%s", violation);
        free(text);
        checked++;
    }
    closedir(dir);
    ck_assert_uint_ge(checked, 10);
}
END_TEST

static Suite *merge_suite(void)
{
    Suite *suite = suite_create("merge");
    TCase *rewriting = tu_tcase("rewriting", 120);
    tcase_add_loop_test(rewriting, golden_outputs, 0, (int)(sizeof goldens / sizeof *goldens));
    tcase_add_test(rewriting, standard_output);
    tcase_add_test(rewriting, generated_programs_are_current);
    tcase_add_test(rewriting, outputs_replace_only_regular_files);
    tcase_add_test(rewriting, write_failures_name_the_reason);
    tcase_add_test(rewriting, outputs_never_replace_inputs);
    tcase_add_test(rewriting, version_and_help);
    tcase_add_test(rewriting, kernel_library_needs_no_include_path);
    tcase_add_loop_test(rewriting, warnings_and_werror, 0, (int)(sizeof warnings / sizeof *warnings));
    tcase_add_loop_test(rewriting, deep_loop_nests, 0, 2);
    tcase_add_loop_test(rewriting, rejections_report_and_write_nothing, 0,
                        (int)(sizeof rejections / sizeof *rejections));
    suite_add_tcase(suite, rewriting);
    TCase *layout = tu_tcase("layout", 30);
    tcase_add_test(layout, include_order_check_finds_a_cycle);
    tcase_add_test(layout, merge_tool_includes_form_a_dag);
    suite_add_tcase(suite, layout);
    TCase *robustness = tu_tcase("robustness", 900);
    tcase_add_test(robustness, truncated_files);
    tcase_add_test(robustness, binary_junk);
    tcase_add_test(robustness, malformed_files);
    tcase_add_loop_test(robustness, good_inputs_clean_under_sanitizers, 0, (int)(sizeof goldens / sizeof *goldens));
    suite_add_tcase(suite, robustness);
    TCase *skipped_barriers = tu_tcase("skipped_barriers", 900);
    tcase_add_test(skipped_barriers, helper_barrier_between_two_fork_points);
    tcase_add_test(skipped_barriers, work_stealing_rounds_under_chaos);
    tcase_add_test(skipped_barriers, if_around_helper_barriers_after_a_fork_point);
    tcase_add_test(skipped_barriers, loop_bodies_without_braces);
    /* seedN.cl, and seedN_shapes.cl where the seed's program has the generator's later shapes */
    if (glob("tests/merge/smith/seed*[0-9].cl", 0, NULL, &smith_findings) != 0) {
        fprintf(stderr, "test_merge: no smith findings in tests/merge/smith/ (run from the repository root)\n");
        exit(1);
    }
    glob("tests/merge/smith/seed*_shapes.cl", GLOB_APPEND, NULL, &smith_findings);
    glob("tests/merge/smith/seed*_standalone.cl", GLOB_APPEND, NULL, &smith_findings);
    tcase_add_loop_test(skipped_barriers, smith_findings_run_right, 0, (int)smith_findings.gl_pathc);
    suite_add_tcase(suite, skipped_barriers);
    TCase *watchdog = tu_tcase("watchdog", 300);
    tcase_add_test(watchdog, watchdog_fires_while_a_task_runs);
    tcase_add_test(watchdog, plan_for_a_missing_task_is_refused);
    tcase_add_test(watchdog, watchdog_names_the_barrier_line);
    tcase_add_test(watchdog, time_limit_names_the_barrier_line);
    suite_add_tcase(suite, watchdog);
    TCase *spawn = tu_tcase("spawn", 1800);
    tcase_add_loop_test(spawn, spawned_tasks_process_what_the_kernel_learned, 0, 2);
    tcase_add_loop_test(spawn, full_spawn_queue_is_a_status, 0, 2);
    tcase_add_loop_test(spawn, records_outlast_a_slow_host, 0, 2);
    suite_add_tcase(suite, spawn);
    TCase *end_to_end = tu_tcase("end_to_end", 1800);
    tcase_add_test(end_to_end, rounds_megakernel_under_chaos);
    tcase_add_test(end_to_end, vote_ends_the_loop_of_forked_groups_under_chaos);
    tcase_add_test(end_to_end, nested_megakernel_under_chaos);
    tcase_add_test(end_to_end, types_megakernel_under_chaos);
    tcase_add_test(end_to_end, phases_megakernel_under_chaos);
    tcase_add_test(end_to_end, sweep_megakernel_under_chaos);
    tcase_add_test(end_to_end, standalone_runs_as_persistent_kernel);
    tcase_add_test(end_to_end, relax_loop_nest_under_chaos);
    tcase_add_test(end_to_end, break_out_of_endless_loop_under_chaos);
    tcase_add_test(end_to_end, swapped_pointers_under_chaos);
    tcase_add_test(end_to_end, included_helpers_and_task_arguments_under_chaos);
    tcase_add_test(end_to_end, worklist_scans_under_chaos);
    suite_add_tcase(suite, end_to_end);
    return suite;
}

int main(void)
{
    return tu_run(merge_suite());
}
