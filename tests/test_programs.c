/* test_programs.c: the command lines of every program (host/, benchmarks/; host/common/cli.c):
 * --help (status 0, every option in the usage explained, the environment and the exit status
 * given, the usage as docs/PROGRAMS.md shows it) and --version; each kind of bad number or name
 * (status 1, a message naming the option and the accepted range, the usage); and bad environment
 * values, which the programs used to ignore (status 1, the variable named). And README.md: under
 * README_MAX_LINES lines, and every command of its shell blocks runs as shown and ends with
 * status 0, except the blocks it marks as not run. Build the programs first (make). */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>

#define BIN "build/bin/"

/* Every program `make` builds (gridsync-bench and preempt-bench only with make CUDA=1: tested where they were). */
static const char *const programs[] = {"coop-info", "coop-litmus", "barrier-bench", "sched-bench",
                                       "coop-chaos", "coop-bench", "coop-demo", "coop-multi", "coop-ws",
                                       "coop-lbvh", "coop-path", "coop-qsort", "spawn-bench"};
enum { PROGRAMS = sizeof programs / sizeof programs[0] };

/* Runs build/bin/NAME with the arguments up to a NULL (at most 8), in this process's environment. */
static tu_process run_named(const char *name, const char *const *args)
{
    char path[64];
    snprintf(path, sizeof path, BIN "%s", name);
    struct stat info;
    ck_assert_msg(stat(path, &info) == 0, "%s is missing: build it with make", path);
    char *argv[10] = {path};
    for (size_t i = 0; args && args[i]; i++) {
        ck_assert_uint_lt(i, 8);
        argv[i + 1] = (char *)args[i];
    }
    return tu_run_process(argv);
}

/* The usage at the top of a help text: its first line and the indented ones that continue it. */
static char *usage_of(const char *help)
{
    size_t length = strcspn(help, "\n");
    while (help[length] == '\n' && help[length + 1] == ' ')
        length += 1 + strcspn(help + length + 1, "\n");
    char *usage = strndup(help, length);
    ck_assert_ptr_nonnull(usage);
    return usage;
}

/* Every "--option" of the usage has a line of its own in the options: "  --option" (or
 * "  -h, --option"). */
static void assert_options_explained(const char *name, const char *help, const char *usage)
{
    const char *options = strstr(help, "\nOptions:\n");
    ck_assert_msg(options != NULL, "%s --help has no Options section:\n%s", name, help);
    for (const char *at = strstr(usage, "--"); at; at = strstr(at + 2, "--")) {
        size_t length = strspn(at + 2, "abcdefghijklmnopqrstuvwxyz-") + 2;
        char line[64];
        snprintf(line, sizeof line, "\n  %.*s", (int)length, at);
        char after = '\0';
        const char *found = strstr(options, line);
        if (found)
            after = found[1 + 2 + length];
        ck_assert_msg(found && (after == ' ' || after == '\n'), "%s --help does not explain %.*s:\n%s", name,
                      (int)length, at, help);
    }
}

START_TEST(help_explains_every_option)
{
    const char *name = programs[_i];
    static const char *const help_args[] = {"--help", NULL}, *const short_args[] = {"-h", NULL};
    tu_process run = run_named(name, help_args);
    ck_assert_msg(run.status == 0, "%s --help: exit status %d:\n%s", name, run.status, run.output);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "Usage: %s ", name);
    ck_assert_msg(strncmp(run.output, prefix, strlen(prefix)) == 0, "%s --help starts:\n%s", name, run.output);
    char *usage = usage_of(run.output);
    assert_options_explained(name, run.output, usage);
    static const char *const sections[] = {"\n  -h, --help ", "\n  --version ", "\nEnvironment:\n",
                                           "\nExit status:\n  0  ", "\n  1  ", "\n  2  "};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        ck_assert_msg(strstr(run.output, sections[i]) != NULL, "%s --help lacks \"%s\":\n%s", name, sections[i],
                      run.output);
    /* docs/PROGRAMS.md shows the same usage */
    char *programs_md = tu_read_file("docs/PROGRAMS.md", NULL);
    ck_assert_msg(strstr(programs_md, usage) != NULL, "docs/PROGRAMS.md lacks %s's usage as --help gives it:\n%s",
                  name, usage);
    free(programs_md);
    tu_process again = run_named(name, short_args);
    ck_assert_int_eq(again.status, 0);
    ck_assert_str_eq(again.output, run.output);
    free(again.output);
    free(usage);
    free(run.output);
}
END_TEST

START_TEST(version)
{
    const char *name = programs[_i];
    static const char *const args[] = {"--version", NULL};
    tu_process run = run_named(name, args);
    char expected[64];
    snprintf(expected, sizeof expected, "%s (libcoop) %s\n", name, COOP_VERSION_STRING);
    ck_assert_msg(run.status == 0, "%s --version: exit status %d:\n%s", name, run.status, run.output);
    ck_assert_str_eq(run.output, expected);
    free(run.output);
}
END_TEST

/* A bad value: exit status 1, "NAME: <message>", the usage and the pointer to --help. */
static const struct {
    const char *program;
    const char *args[8];
    const char *message;
} bad_values[] = {
    {"coop-info", {"--barriers", "-1"}, "--barriers: '-1' is negative; expected a whole number from 1 to 10000000"},
    {"coop-info", {"--barriers", "abc"}, "--barriers: 'abc' is not a whole number; expected a whole number from 1 to "
                                         "10000000"},
    {"coop-info", {"--rounds", "5abc"}, "--rounds: '5abc' is not a whole number; expected a whole number from 1 to "
                                        "1000000"},
    {"coop-info", {"--local-size", "4294967297"}, "--local-size: '4294967297' is out of range; expected a whole "
                                                  "number from 1 to 65536"},
    {"coop-info", {"--local-size"}, "--local-size: needs a value"},
    {"coop-info", {"--jsn"}, "unknown option '--jsn'"},
    {"coop-litmus", {"--iterations", "4294967297"}, "--iterations: '4294967297' is out of range; expected a whole "
                                                    "number from 1 to 10000000"},
    {"coop-litmus", {"--test", "MP"}, "--test: 'MP' is not a choice; expected mp, sb, lb or all"},
    {"coop-litmus", {"--local-size", "0"}, "--local-size: '0' is out of range; expected a whole number from 1 to "
                                           "65536"},
    {"barrier-bench", {"--barriers", "2x"}, "--barriers: '2x' is not a whole number; expected a whole number from 1 "
                                            "to 10000000"},
    {"barrier-bench", {"--barriers", "0"}, "--barriers: '0' is out of range"},
    {"spawn-bench", {"--runs", "0"}, "--runs: '0' is out of range; expected a whole number from 1 to 100000"},
    {"spawn-bench", {"--workgroups", "4096"}, "--workgroups: '4096' is out of range; expected a whole number from 1 "
                                              "to 4095"},
    {"sched-bench", {"--repeat", "0"}, "--repeat: '0' is out of range; expected a whole number from 1 to 1000"},
    {"sched-bench", {"--period-ms", "-5"}, "--period-ms: '-5' is negative; expected a number greater than 0 and at "
                                           "most 1e+06"},
    {"sched-bench", {"--period-ms", "abc"}, "--period-ms: 'abc' is not a number"},
    {"sched-bench", {"--take", "4096"}, "--take: '4096' is not a choice; expected one, quarter, half, all-but-one or "
                                        "a group count from 1 to 4095"},
    {"sched-bench", {"--local-size", "2"}, "--local-size: '2' is out of range; expected a whole number from 3 to "
                                           "65536"},
    {"sched-bench", {"--help-me"}, "unknown option '--help-me'"},
    {"sched-bench", {"--chain-us", "0"}, "--chain-us: '0' is out of range; expected a whole number from 1 to 1000000"},
    {"sched-bench", {"--chain-us", "100,"}, "--chain-us length 2: '' is empty; expected a whole number from 1 to "
                                            "1000000"},
    {"sched-bench", {"--chain-us", "100,1e3"}, "--chain-us length 2: '1e3' is not a whole number"},
    {"sched-bench", {"--chain-us", "1,2,3,4,5"}, "--chain-us '1,2,3,4,5': more than 4 launch lengths"},
    {"sched-bench", {"--chain-us", "100,100"}, "--chain-us '100,100': a launch length given twice"},
    {"sched-bench", {"--in-flight", "5"}, "--in-flight: '5' is out of range; expected a whole number from 1 to 4"},
    {"sched-bench", {"--figures", "gather,units,gather"}, "--figures 'gather,units,gather': a figure named twice"},
    {"sched-bench", {"--figures", "gather,"}, "--figures 'gather,': a name that is not units, rounds, gather or queued"},
    /* the case that aborted inside PoCL's compiler */
    {"coop-chaos", {"--local-size", "1"}, "--local-size: '1' is out of range; expected a whole number from 3 to "
                                          "65536"},
    {"coop-chaos", {"--seeds", "abc"}, "--seeds: 'abc' is not a whole number"},
    {"coop-chaos", {"--first", "0"}, "--first: '0' is out of range; expected a whole number from 1 to 4294967295"},
    {"coop-chaos", {"--first", "4294967295", "--seeds", "2"}, "--first 4294967295 with --seeds 2 goes past seed "
                                                              "4294967295"},
    {"coop-chaos", {"--tasks", "-1"}, "--tasks: '-1' is negative; expected a whole number from 0 to 1000000"},
    {"coop-bench", {"bfs", "--gen", "grid:3:3", "--repeat", "4294967297"}, "--repeat: '4294967297' is out of range; "
                                                                           "expected a whole number from 1 to 100000"},
    {"coop-bench", {"bfs", "--gen", "grid:3:3", "--chaos", "-1"}, "--chaos: '-1' is negative"},
    {"coop-bench", {"bfs", "--gen", "grid:3:3", "--period-ms", "1e400"}, "--period-ms: '1e400' is out of range"},
    {"coop-bench", {"bfs", "--gen", "grid:3:3", "--local-size", "65537"}, "--local-size: '65537' is out of range"},
    {"coop-bench", {"bfs", "--gen", "grid:3:3", "--steal", "all"}, "--steal: 'all' is not a choice; expected one, "
                                                                   "quarter, half, all-but-one or a group count"},
    {"coop-demo", {"--frame", "10x0"}, "--frame height: '0' is out of range; expected a whole number from 1 to "
                                       "4096"},
    {"coop-demo", {"--seconds", "601"}, "--seconds: '601' is out of range; expected a number greater than 0 and at "
                                        "most 600"},
    {"coop-demo", {"--period-ms", "nan"}, "--period-ms: 'nan' is not a number"},
    {"coop-ws", {"octree", "--points", "16777217"}, "--points: '16777217' is out of range; expected a whole number "
                                                    "from 1 to 16777216"},
    {"coop-ws", {"octree", "--local-size", "4"}, "--local-size: '4' is out of range; expected a whole number from 8 "
                                                 "to 1024"},
    {"coop-ws", {"game", "--depth", "0"}, "--depth: '0' is out of range; expected a whole number from 1 to 7"},
    {"coop-ws", {"game", "--leaf-max", "x"}, "--leaf-max: 'x' is not a whole number"},
    {"coop-lbvh", {"--gen", "uniform:16777217"}, "--gen: '16777217' is out of range; expected a whole number from 1 "
                                                 "to 16777216"},
    {"coop-lbvh", {"--gen", "uniform:8", "--rays", "x"}, "--rays: 'x' is not a whole number"},
    {"coop-path", {"--spp", "256"}, "--spp: '256' is out of range; expected a whole number from 1 to 255"},
    {"coop-path", {"--mode", "both"}, "--mode: 'both' is not a choice; expected all, standalone or cooperative"},
    /* an option with a value given twice: the last used to win silently */
    {"coop-info", {"--rounds", "5", "--rounds", "6"}, "--rounds: given twice ('5', then '6'); give it once"},
    {"coop-litmus", {"--test", "mp", "--test", "sb"}, "--test: given twice ('mp', then 'sb'); give it once"},
    {"barrier-bench", {"--options", "-DA", "--barriers", "5", "--options", "-DB"},
     "--options: given twice ('-DA', then '-DB'); give it once"},
    {"sched-bench", {"--take", "one", "--take", "half"}, "--take: given twice ('one', then 'half'); give it once"},
    {"coop-chaos", {"--seeds", "1", "--seeds", "1"}, "--seeds: given twice ('1', then '1'); give it once"},
    {"coop-bench", {"bfs", "--gen", "grid:3:3", "--gen", "grid:4:4"},
     "--gen: given twice ('grid:3:3', then 'grid:4:4'); give it once"},
    {"coop-demo", {"--seconds", "1", "--quick", "--seconds", "2"}, "--seconds: given twice ('1', then '2'); give it "
                                                                   "once"},
    {"coop-ws", {"game", "--seeds", "2", "--repeat", "3"}, "--repeat '3': --seeds and --repeat are one option; "
                                                            "give it once"},
};
enum { BAD_VALUES = sizeof bad_values / sizeof bad_values[0] };

START_TEST(bad_value_is_refused)
{
    const char *name = bad_values[_i].program;
    tu_process run = run_named(name, bad_values[_i].args);
    char expected[512], usage[64], more[64];
    snprintf(expected, sizeof expected, "%s: %s", name, bad_values[_i].message);
    snprintf(usage, sizeof usage, "\nUsage: %s ", name);
    snprintf(more, sizeof more, "\nTry '%s --help' for more information.\n", name);
    ck_assert_msg(run.status == 1, "%s %s: exit status %d:\n%s", name, bad_values[_i].args[0], run.status, run.output);
    ck_assert_msg(strstr(run.output, expected) != NULL, "%s %s: output lacks \"%s\":\n%s", name,
                  bad_values[_i].args[0], expected, run.output);
    ck_assert_msg(strstr(run.output, usage) && strstr(run.output, more), "%s: no usage:\n%s", name, run.output);
    free(run.output);
}
END_TEST

/* A bad environment value: exit status 1 and the variable named (each used to be ignored). */
static const struct {
    const char *variable, *value, *program;
    const char *args[8];
    const char *message;
} bad_environment[] = {
    {"COOP_CHAOS", "notanumber", "coop-bench", {"bfs", "--gen", "grid:3:3"},
     "COOP_CHAOS: 'notanumber' is not a whole number; expected a whole number from 0 to 4294967295"},
    {"COOP_CHAOS", "-1", "coop-demo", {"--quick"}, "COOP_CHAOS: '-1' is negative"},
    {"COOP_TIMEOUT_S", "-3", "coop-litmus", {"--iterations", "1"},
     "COOP_TIMEOUT_S: '-3' is negative; expected a number greater than 0 and at most 1e+06"},
    {"COOP_WATCHDOG_S", "x", "coop-bench", {"bfs", "--gen", "grid:3:3"},
     "COOP_WATCHDOG_S: 'x' is not a number; expected a number greater than 0 and at most 1e+06"},
    {"COOP_DISCOVERY_WINDOW_US", "-5", "coop-info", {"--barriers", "1"},
     "COOP_DISCOVERY_WINDOW_US: '-5' is negative; expected a number greater than 0 and at most 1e+09"},
    {"COOP_TRACE", "yes", "coop-ws", {"game", "--depth", "1"},
     "COOP_TRACE: 'yes' is not a whole number; expected a whole number from 0 to 1"},
    {"COOP_BUILD_LOG", "on", "sched-bench", {"--quick"},
     "COOP_BUILD_LOG: 'on' is not a whole number; expected a whole number from 0 to 1"},
    {"COOP_DEVICE", "99999999999", "barrier-bench", {"--barriers", "1"},
     "COOP_DEVICE: '99999999999' is out of range; expected a whole number from 0 to 4294967295"},
    {"COOP_CHANNEL", "pigeon", "coop-chaos", {"--seeds", "1"},
     "COOP_CHANNEL: 'pigeon' is not a channel backend; expected svm, nvhost, queue or auto"},
};
enum { BAD_ENVIRONMENT = sizeof bad_environment / sizeof bad_environment[0] };

START_TEST(bad_environment_is_refused)
{
    tu_env(2);
    setenv(bad_environment[_i].variable, bad_environment[_i].value, 1);
    const char *name = bad_environment[_i].program;
    tu_process run = run_named(name, bad_environment[_i].args);
    ck_assert_msg(run.status == 1, "%s=%s %s: exit status %d:\n%s", bad_environment[_i].variable,
                  bad_environment[_i].value, name, run.status, run.output);
    ck_assert_msg(strstr(run.output, bad_environment[_i].message) != NULL, "%s=%s %s: output lacks \"%s\":\n%s",
                  bad_environment[_i].variable, bad_environment[_i].value, name, bad_environment[_i].message,
                  run.output);
    free(run.output);
}
END_TEST

/* A CUDA program's --version line and its --help (returned, malloc'ed), which holds `usage` and
 * the exit statuses, as every program's. */
static char *cuda_program_help(const char *name, const char *usage)
{
    static const char *const version_args[] = {"--version", NULL}, *const help_args[] = {"--help", NULL};
    tu_process run = run_named(name, version_args);
    ck_assert_int_eq(run.status, 0);
    char expected[128];
    snprintf(expected, sizeof expected, "%s (libcoop) " COOP_VERSION_STRING "\n", name);
    ck_assert_str_eq(run.output, expected);
    free(run.output);
    run = run_named(name, help_args);
    ck_assert_int_eq(run.status, 0);
    ck_assert_msg(strstr(run.output, usage) != NULL, "%s --help lacks \"%s\"", name, usage);
    ck_assert_ptr_nonnull(strstr(run.output, "\nExit status:\n"));
    return run.output;
}

/* gridsync-bench, where make CUDA=1 built it (its checks need no GPU). */
START_TEST(gridsync_bench_where_built)
{
    struct stat info;
    if (stat(BIN "gridsync-bench", &info) != 0) {
        printf("test_programs: " BIN "gridsync-bench is not built (make CUDA=1): skipped\n");
        return;
    }
    static const char *const bad_args[] = {"1", "32", "-1", NULL};
    free(cuda_program_help("gridsync-bench", "Usage: gridsync-bench GRID BLOCK BARRIERS\n"));
    tu_process run = run_named("gridsync-bench", bad_args);
    ck_assert_int_eq(run.status, 1);
    ck_assert_ptr_nonnull(
        strstr(run.output, "gridsync-bench: BARRIERS: '-1' is negative; expected a whole number from 1 to 10000000"));
    free(run.output);
}
END_TEST

/* preempt-bench, where make CUDA=1 built it: its options are checked before it looks for a GPU, so
 * these need none; without one it says so and fails. */
START_TEST(preempt_bench_where_built)
{
    struct stat info;
    if (stat(BIN "preempt-bench", &info) != 0) {
        printf("test_programs: " BIN "preempt-bench is not built (make CUDA=1): skipped\n");
        return;
    }
    static const char *const negative_args[] = {"--tasks", "-1", NULL},
                             *const small_args[] = {"--local-size", "16", NULL},
                             *const period_args[] = {"--period-ms", "0", NULL},
                             *const unknown_args[] = {"--mps", NULL}, *const missing_args[] = {"--iters", NULL};
    char *help = cuda_program_help("preempt-bench", "Usage: preempt-bench [--iters N]");
    ck_assert_ptr_nonnull(strstr(help, "identical arithmetic and sizes"));
    /* docs/PROGRAMS.md shows the same usage */
    char *programs_md = tu_read_file("docs/PROGRAMS.md", NULL);
    const char *usage_end = strstr(help, "\nMeasures");
    ck_assert_ptr_nonnull(usage_end);
    char *usage = strndup(help, (size_t)(usage_end - help) + 1);
    ck_assert_msg(strstr(programs_md, usage) != NULL, "docs/PROGRAMS.md lacks preempt-bench's usage:\n%s", usage);
    free(usage);
    free(programs_md);
    free(help);
    tu_process run = run_named("preempt-bench", negative_args);
    ck_assert_int_eq(run.status, 1);
    ck_assert_ptr_nonnull(
        strstr(run.output, "preempt-bench: --tasks: '-1' is negative; expected a whole number from 1 to 1000000\n"));
    free(run.output);
    run = run_named("preempt-bench", small_args);
    ck_assert_int_eq(run.status, 1);
    ck_assert_ptr_nonnull(strstr(run.output, "preempt-bench: --local-size: "));
    ck_assert_ptr_nonnull(strstr(run.output, "from 32 to 1024"));
    free(run.output);
    run = run_named("preempt-bench", period_args);
    ck_assert_int_eq(run.status, 1);
    ck_assert_ptr_nonnull(strstr(run.output, "preempt-bench: --period-ms: "));
    free(run.output);
    run = run_named("preempt-bench", unknown_args);
    ck_assert_int_eq(run.status, 1);
    ck_assert_ptr_nonnull(strstr(run.output, "preempt-bench: unknown option '--mps'\nUsage: preempt-bench"));
    free(run.output);
    run = run_named("preempt-bench", missing_args);
    ck_assert_int_eq(run.status, 1);
    ck_assert_ptr_nonnull(strstr(run.output, "preempt-bench: --iters needs a value\n"));
    free(run.output);
}
END_TEST

/* ---- sched-bench's queued figure ------------------------------------------------------------ */

/* The block of sched-bench's output that starts with the line "queued   NAME: " (up to the next
 * unindented line), malloc'ed; the test fails where there is none. */
static char *queued_block(const char *output, const char *name)
{
    char head[64];
    snprintf(head, sizeof head, "\nqueued   %s: ", name);
    const char *at = strstr(output, head);
    ck_assert_msg(at != NULL, "sched-bench printed no \"%s\" figure:\n%s", name, output);
    const char *end = at + 1;
    do
        end = strchr(end, '\n');
    while (end && end[1] == ' ' && end++);
    char *block = strndup(at + 1, end ? (size_t)(end - at - 1) : strlen(at + 1));
    ck_assert_ptr_nonnull(block);
    return block;
}

/* The units the app ran in one launch alone, from "queued   alone: 1 launch of U units". */
static unsigned queued_units(const char *output)
{
    char *alone = queued_block(output, "alone");
    unsigned units = 0;
    ck_assert_msg(sscanf(alone, "queued   alone: 1 launch of %u units", &units) == 1, "%s", alone);
    free(alone);
    return units;
}

/* spawn-bench on PoCL: every spawned run has its record (exit status 0), and the three lines of
 * medians and 99th percentiles are there, the wait marked as the host's (PoCL has no device clock
 * outside a traced run). 3 workers: one member and the idle groups its runs start on. */
START_TEST(spawn_bench_times_every_run)
{
    tu_process run = tu_run_program(BIN "spawn-bench", "make", 3, "--runs", "20", "--local-size", "16", NULL);
    ck_assert_msg(run.status == 0, "spawn-bench: exit status %d:\n%s", run.status, run.output);
    static const char *const lines[] = {"20 runs of 1 workgroup\n", "\nspawn to start ", "\n  spawn to request ",
                                        "\n  gather ", "(timed by the host for 20 runs"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        ck_assert_msg(strstr(run.output, lines[i]) != NULL, "spawn-bench printed no \"%s\":\n%s", lines[i],
                      run.output);
    free(run.output);
}
END_TEST

/* sched-bench --quick's queued figure on PoCL: the unit loop as one launch and as two chains (their
 * names from --chain-us), beside the task on a second queue. Each row splits the units into whole
 * launches, every unit ran exactly once (exit status 0), and each row has its task figures and app
 * time. Long enough for tasks beside the app on a quiet machine; the first task goes in any case. */
START_TEST(sched_bench_queued_rows)
{
    tu_process run = tu_run_program(BIN "sched-bench", "make", 2, "--quick", "--units-per-group", "50", "--period-ms",
                                    "5", "--tasks", "4", "--chain-us", "250,2000", NULL);
    ck_assert_msg(run.status == 0, "sched-bench: exit status %d:\n%s", run.status, run.output);
    unsigned units = queued_units(run.output);
    static const char *const names[] = {"no-cooperation", "chain250us", "chain2ms"};
    for (size_t i = 0; i < 3; i++) {
        char *block = queued_block(run.output, names[i]);
        char head[64];
        unsigned launches = 0, chunk = 0, tasks = 0, workgroups = 0;
        snprintf(head, sizeof head, "queued   %s: %%u launch", names[i]);
        const char *of = strstr(block, " of ");
        ck_assert_msg(sscanf(block, head, &launches) == 1 && of &&
                          sscanf(of, " of %u units on %*u groups; %u tasks of %u", &chunk, &tasks, &workgroups) == 3,
                      "%s", block);
        /* whole launches: the last one holds what is left, at least one unit */
        ck_assert_msg(launches >= 1 && (unsigned long)(launches - 1) * chunk < units &&
                          (unsigned long)launches * chunk >= units, "%s: %u launches of %u units for %u units",
                      names[i], launches, chunk, units);
        ck_assert_uint_eq(launches == 1, i == 0);
        ck_assert_uint_ge(tasks, 1);
        ck_assert_uint_le(tasks, 4);
        ck_assert_uint_eq(workgroups, units / 50 / 4 ? units / 50 / 4 : 1); /* a quarter of the groups */
        static const char *const lines[] = {"\n         start    median ", "\n         exec     median ",
                                            "\n         response median ", "units not run exactly once: 0\n",
                                            "\n         app run "};
        for (size_t l = 0; l < 5; l++)
            ck_assert_msg(strstr(block, lines[l]) != NULL, "%s lacks \"%s\":\n%s", names[i], lines[l], block);
        free(block);
    }
    free(run.output);
}
END_TEST

/* sched-bench --in-flight 3 on PoCL: the gather figure is the periodic task's alone (at most its
 * --tasks runs), beside two background tasks that ran at least once (they are due from a third
 * and two thirds of the first period, long before the unit loop ends), every unit once. */
START_TEST(sched_bench_tasks_in_flight)
{
    tu_process run = tu_run_program(BIN "sched-bench", "make", 2, "--quick", "--units-per-group", "50", "--period-ms",
                                    "5", "--tasks", "4", "--chain-us", "250", "--in-flight", "3", NULL);
    ck_assert_msg(run.status == 0, "sched-bench: exit status %d:\n%s", run.status, run.output);
    const char *gather = strstr(run.output, "\ngather   "), *flight = strstr(run.output, "\n         in flight: ");
    unsigned periodic = 0, background = 0, scale = 0, full = 0, counted = 0, k = 0;
    ck_assert_msg(gather && sscanf(gather, "\ngather   %u tasks taking", &periodic) == 1, "%s", run.output);
    ck_assert_msg(flight && sscanf(flight, "\n         in flight: 2 background tasks of %*u workgroups and %ux the "
                                           "work ran %u times; %u of %u periodic runs were sent with %u runs",
                                   &scale, &background, &full, &counted, &k) == 5, "%s", run.output);
    ck_assert_uint_ge(periodic, 1);
    ck_assert_uint_le(periodic, 4);
    ck_assert_uint_eq(counted, periodic);
    ck_assert_uint_le(full, periodic);
    ck_assert_uint_eq(scale, 50);
    ck_assert_uint_eq(k, 3);
    ck_assert_uint_ge(background, 1);
    ck_assert_msg(strstr(gather, "\n         sent     median ") != NULL, "%s", run.output);
    ck_assert_msg(strstr(gather, "units not run exactly once: 0\n") != NULL, "%s", run.output);
    free(run.output);
}
END_TEST

/* The queued runs' check: a chain whose second launch's units never count themselves (queued.cl's
 * SCHED_TEST_LOSE_LAUNCH) is found, and sched-bench ends with exit status 2 once every row ran;
 * the one launch, which has no second, is not. */
START_TEST(sched_bench_queued_lost_units)
{
    tu_process run = tu_run_program(BIN "sched-bench", "make", 2, "--quick", "--units-per-group", "50", "--tasks",
                                    "2", "--chain-us", "250", "--options", "-DSCHED_TEST_LOSE_LAUNCH=1", NULL);
    ck_assert_msg(run.status == 2, "sched-bench: exit status %d, expected 2:\n%s", run.status, run.output);
    unsigned units = queued_units(run.output);
    char *whole = queued_block(run.output, "no-cooperation"), *chain = queued_block(run.output, "chain250us");
    ck_assert_msg(strstr(whole, "units not run exactly once: 0\n") != NULL, "%s", whole);
    unsigned launches = 0, chunk = 0, wrong = 0;
    const char *of = strstr(chain, " of "), *lost = strstr(chain, "units not run exactly once: ");
    ck_assert_msg(sscanf(chain, "queued   chain250us: %u launch", &launches) == 1 && of && lost &&
                      sscanf(of, " of %u units", &chunk) == 1 &&
                      sscanf(lost, "units not run exactly once: %u", &wrong) == 1, "%s", chain);
    /* the second launch's units: a chunk, or the rest where it is the last */
    ck_assert_uint_ge(launches, 2);
    ck_assert_uint_eq(wrong, launches > 2 ? chunk : units - chunk);
    free(whole);
    free(chain);
    free(run.output);
}
END_TEST

/* ---- README.md ------------------------------------------------------------------------------ */

enum {
    README_MAX_LINES = 220,
    README_MAX_COMMANDS = 64,
    PATH_BYTES = 4096
};

/* The line before a shell block that this test leaves out (its commands take minutes). */
#define README_NOT_RUN "<!-- not run by tests/test_programs.c"

START_TEST(readme_is_short)
{
    char *readme = tu_read_file("README.md", NULL);
    unsigned lines = 0;
    for (const char *at = readme; *at; at++)
        lines += *at == '\n';
    ck_assert_msg(lines < README_MAX_LINES, "README.md has %u lines; at most %d (the rest belongs in docs/)", lines,
                  README_MAX_LINES - 1);
    free(readme);
}
END_TEST

/* The commands of README.md's ```sh blocks, but those after a README_NOT_RUN line: a line ending
 * in a backslash continues on the next, and a comment ("  # ...") is dropped. Malloc'ed. */
static size_t readme_commands(const char *readme, char *commands[README_MAX_COMMANDS], unsigned *skipped_blocks)
{
    size_t count = 0;
    int in_block = 0, run_block = 0;
    const char *previous = "";
    size_t previous_length = 0;
    char *pending = NULL;
    *skipped_blocks = 0;
    for (const char *line = readme; *line;) {
        size_t length = strcspn(line, "\n");
        if (!in_block && length == 5 && !strncmp(line, "```sh", 5)) {
            in_block = 1;
            run_block = !(previous_length >= strlen(README_NOT_RUN) &&
                          !strncmp(previous, README_NOT_RUN, strlen(README_NOT_RUN)));
            *skipped_blocks += !run_block;
        } else if (in_block && length == 3 && !strncmp(line, "```", 3)) {
            ck_assert_msg(pending == NULL, "README.md: a shell block ends in a continued line: %s", pending);
            in_block = 0;
        } else if (in_block && run_block && length > 0) {
            size_t keep = length;
            const char *comment = strstr(line, "  #");
            if (comment && (size_t)(comment - line) < length)
                keep = (size_t)(comment - line);
            while (keep > 0 && line[keep - 1] == ' ')
                keep--;
            int continued = keep > 0 && line[keep - 1] == '\\';
            if (continued)
                keep--;
            size_t had = pending ? strlen(pending) : 0;
            pending = realloc(pending, had + keep + 2);
            ck_assert_ptr_nonnull(pending);
            memcpy(pending + had, line, keep);
            pending[had + keep] = '\0';
            if (!continued) {
                ck_assert_uint_lt(count, README_MAX_COMMANDS);
                commands[count++] = pending;
                pending = NULL;
            }
        }
        if (length > 0) {
            previous = line;
            previous_length = length;
        }
        line += length + (line[length] == '\n');
    }
    ck_assert_msg(!in_block, "README.md: a shell block is not closed");
    return count;
}

/* A folder of links to every top-level entry of the repository (the current folder), so that
 * commands run as they would from its root while the files they write land in the folder. */
static void link_tree(const char *folder)
{
    char root[PATH_BYTES], target[2 * PATH_BYTES], link[2 * PATH_BYTES];
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    DIR *tree = opendir(".");
    ck_assert_ptr_nonnull(tree);
    for (struct dirent *entry = readdir(tree); entry; entry = readdir(tree)) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        snprintf(target, sizeof target, "%s/%s", root, entry->d_name);
        snprintf(link, sizeof link, "%s/%s", folder, entry->d_name);
        ck_assert_msg(symlink(target, link) == 0, "symlink %s: %s", link, strerror(errno));
    }
    closedir(tree);
}

/* Removes what link_tree made and what the commands wrote (plain files and links only). */
static void remove_folder(const char *folder)
{
    DIR *contents = opendir(folder);
    ck_assert_ptr_nonnull(contents);
    char path[2 * PATH_BYTES];
    for (struct dirent *entry = readdir(contents); entry; entry = readdir(contents)) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        ck_assert_msg(unlink(path) == 0, "%s: %s", path, strerror(errno));
    }
    closedir(contents);
    ck_assert_int_eq(rmdir(folder), 0);
}

START_TEST(readme_commands_run)
{
    char *readme = tu_read_file("README.md", NULL);
    char *commands[README_MAX_COMMANDS];
    unsigned skipped = 0;
    size_t count = readme_commands(readme, commands, &skipped);
    ck_assert_msg(count > 0, "README.md shows no command this test runs");
    ck_assert_msg(skipped > 0 && strstr(readme, "make demo") != NULL,
                  "README.md's two commands (make demo, make check) are not marked " README_NOT_RUN);
    char folder[] = "/tmp/test_programs_readme.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(folder));
    link_tree(folder);
    tu_env(2);
    setenv("COOP_PLATFORM", TU_POCL_PLATFORM, 1);
    for (size_t i = 0; i < count; i++) {
        size_t bytes = strlen(folder) + strlen(commands[i]) + 16;
        char *script = malloc(bytes);
        ck_assert_ptr_nonnull(script);
        snprintf(script, bytes, "cd %s && %s", folder, commands[i]);
        char *argv[] = {"/bin/sh", "-c", script, NULL};
        tu_process run = tu_run_process(argv);
        ck_assert_msg(run.status == 0, "README.md's command\n  %s\nexited with status %d:\n%s", commands[i],
                      run.status, run.output);
        free(run.output);
        free(script);
        free(commands[i]);
    }
    remove_folder(folder);
    free(readme);
}
END_TEST

static Suite *programs_suite(void)
{
    Suite *suite = suite_create("programs");
    TCase *info = tu_tcase("help and version", 60);
    tcase_add_loop_test(info, help_explains_every_option, 0, PROGRAMS);
    tcase_add_loop_test(info, version, 0, PROGRAMS);
    tcase_add_test(info, gridsync_bench_where_built);
    tcase_add_test(info, preempt_bench_where_built);
    suite_add_tcase(suite, info);
    TCase *values = tu_tcase("bad values", 60);
    tcase_add_loop_test(values, bad_value_is_refused, 0, BAD_VALUES);
    suite_add_tcase(suite, values);
    TCase *environment = tu_tcase("bad environment", 300);
    tcase_add_loop_test(environment, bad_environment_is_refused, 0, BAD_ENVIRONMENT);
    suite_add_tcase(suite, environment);
    TCase *queued = tu_tcase("sched-bench queued", 600);
    tcase_add_test(queued, sched_bench_queued_rows);
    tcase_add_test(queued, sched_bench_queued_lost_units);
    tcase_add_test(queued, sched_bench_tasks_in_flight);
    suite_add_tcase(suite, queued);
    TCase *spawn = tu_tcase("spawn-bench", 600);
    tcase_add_test(spawn, spawn_bench_times_every_run);
    suite_add_tcase(suite, spawn);
    TCase *readme = tu_tcase("readme", 600);
    tcase_add_test(readme, readme_is_short);
    tcase_add_test(readme, readme_commands_run);
    suite_add_tcase(suite, readme);
    return suite;
}

int main(void)
{
    return tu_run(programs_suite());
}
