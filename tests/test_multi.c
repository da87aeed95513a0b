/* test_multi.c: coop-multi (host/coop-multi.c) run as a subprocess on PoCL with three workers in
 * its quick form, plain and under chaos: it must end with status 0, print the kernels' and the
 * tasks' tables with every result equal to the CPU's and the tree kernel's spawns (each taken one
 * run and recorded, each refused counted), and write a trace that says which kernel each group
 * served, whose picture scripts/timeline drew; bad arguments end with status 1 and the usage.
 *
 * Build it first (the lead's Makefile includes host/coop-multi.mk):
 * make -f Makefile -f host/coop-multi.mk build/bin/coop-multi */
#include "testutil.h"
#include "trace_check.h"

#include <unistd.h>

#define MULTI "build/bin/coop-multi"

/* A group per kernel; under chaos, six workers: each kernel then has members to kill beside its
 * member 0. */
enum { KERNELS = 3, WORKERS = 3, CHAOS_WORKERS = 6, PATH_BYTES = 256 };
#define GROUPS "3"
#define CHAOS_GROUPS "6"
/* --quick's tree (host/coop-multi.c's QUICK_TREE_TASKS) and its spawns: tasks 0, 16, ... 240 */
enum { TREE_TASKS = 255, TREE_SPAWNS = 16 };

/* Runs coop-multi on `workers` PoCL workers with the arguments given (NULL-terminated), standard
 * output and error together. */
#define run_multi_on(workers, ...)                                                                           \
    tu_run_program(MULTI, "make -f Makefile -f host/coop-multi.mk " MULTI, workers, __VA_ARGS__)
#define run_multi(...) run_multi_on(WORKERS, __VA_ARGS__)

static void assert_output(const tu_process *run, const char *fragment)
{
    ck_assert_msg(strstr(run->output, fragment) != NULL, "coop-multi's output lacks \"%s\":\n%s", fragment,
                  run->output);
}

/* The row of the table that starts with `name` (its first line), or a failure. */
static const char *row_of(const tu_process *run, const char *name)
{
    char start[32];
    snprintf(start, sizeof start, "\n%s ", name);
    const char *row = strstr(run->output, start);
    ck_assert_msg(row != NULL, "coop-multi's table has no row '%s':\n%s", name, run->output);
    return row + 1;
}

/* The share columns of kernel `name`'s row: its weight `weight` as asked, a positive time, and
 * its shares of the group-time while two or more kernels ran, held and due by its weight, added
 * to `held` and `due` (each column sums to 100% over the kernels). */
static void assert_kernel_row(const tu_process *run, const char *name, unsigned weight, double *held, double *due)
{
    char format[64];
    unsigned got = 0;
    double time_ms = 0, share = 0, weight_share = 0;
    snprintf(format, sizeof format, "%s %%u %%lf %%lf%%%% %%lf%%%%", name);
    ck_assert_int_eq(sscanf(row_of(run, name), format, &got, &time_ms, &share, &weight_share), 4);
    ck_assert_msg(got == weight && time_ms > 0 && share >= 0 && weight_share >= 0,
                  "%s's row: weight %u, %.2f ms, %.1f%% of the group-time against %.1f%%", name, got, time_ms, share,
                  weight_share);
    *held += share;
    *due += weight_share;
}

/* One quick run (chaos seed `chaos`, 0: none): status 0, both tables with their rows, each
 * kernel's weight as asked, each task run at least once with its deadlines counted, every tree
 * task's spawn taken or refused (SPAWN_FULL) and each taken one recorded as a spawned run, the
 * comparison line, every result the CPU's; a complete trace of three kernels that passes
 * trace_check.h's checks, each kernel's part against the report the file holds, and a PNG. */
static void quick_run(const char *chaos)
{
    char scratch[PATH_BYTES] = "/tmp/test_multi.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(scratch));
    /* --groups: as many groups as workers, whose start discovery waits for on a busy machine */
    tu_process run = chaos ? run_multi_on(CHAOS_WORKERS, "--quick", "--out", scratch, "--groups", CHAOS_GROUPS,
                                          "--chaos", chaos, NULL)
                           : run_multi("--quick", "--out", scratch, "--groups", GROUPS, NULL);
    ck_assert_msg(run.status == 0, "coop-multi --quick%s%s: exit status %d; output:\n%s", chaos ? " --chaos " : "",
                  chaos ? chaos : "", run.status, run.output);
    static const char *const fragments[] = {"weights bfs 2 : sssp 1 : tree 1", "group-time", "weight's", "moved in",
                                            "gather us med/p99", "exec us med/p99", "response us med/p99",
                                            "together (no planned task): ", "one after the other alone: ",
                                            "every run's bfs and sssp results (the last of its searches), frame "
                                            "and product equal the CPU's, and its tree saw every task once with a "
                                            "leaf run exactly where a spawn was taken"};
    for (size_t i = 0; i < sizeof fragments / sizeof fragments[0]; i++)
        assert_output(&run, fragments[i]);
    double held = 0, due = 0;
    assert_kernel_row(&run, "bfs", 2, &held, &due);
    assert_kernel_row(&run, "sssp", 1, &held, &due);
    assert_kernel_row(&run, "tree", 1, &held, &due);
    ck_assert_msg(fabs(held - 100) < 0.2 && fabs(due - 100) < 0.2,
                  "the kernels' shares of the group-time sum to %.1f%% held, %.1f%% due", held, due);
    /* coop-multi checked each leaf against its spawn's status; here the counts add up */
    unsigned tasks_seen = 0, taken = 0, refused = 0, recorded = 0;
    const char *spawn_line = strstr(run.output, "spawned on the device: ");
    ck_assert_msg(spawn_line != NULL, "coop-multi's output has no spawn line:\n%s", run.output);
    ck_assert_int_eq(sscanf(spawn_line,
                            "spawned on the device: tree %u tasks, %u leaf runs spawned (SPAWN_OK) and run, %u "
                            "refused (SPAWN_FULL), %u spawned runs recorded",
                            &tasks_seen, &taken, &refused, &recorded), 4);
    /* the queue holds 16 runs, so the first spawn is always taken */
    ck_assert_msg(tasks_seen == TREE_TASKS && taken >= 1 && taken + refused == TREE_SPAWNS && recorded == taken,
                  "spawn line: %u tasks, %u taken, %u refused, %u recorded", tasks_seen, taken, refused, recorded);
    static const char *const tasks[] = {"render", "light"};
    for (size_t i = 0; i < 2; i++) {
        unsigned runs = 0, groups = 0, met = 0, of = 0;
        char name[16];
        ck_assert_int_eq(sscanf(row_of(&run, tasks[i]), "%15s %u %u %*f/%*f %*f/%*f %*f/%*f %u of %u", name, &runs,
                                &groups, &met, &of), 5);
        ck_assert_msg(runs >= 1 && groups >= 1 && of == runs && met <= runs,
                      "%s's row: %u runs on up to %u groups, %u of %u deadlines met", tasks[i], runs, groups, met, of);
    }

    char trace[PATH_BYTES + 32], png[PATH_BYTES + 32];
    snprintf(trace, sizeof trace, "%s/trace.json", scratch);
    snprintf(png, sizeof png, "%s/timeline.png", scratch);
    tc_check_file(trace, "coop-multi's trace");
    tc_trace t = tc_load(trace);
    ck_assert_uint_eq(t.kernels, KERNELS);
    coop_kernel_report kernels[KERNELS];
    for (unsigned k = 0; k < KERNELS; k++)
        kernels[k] = tc_kernel_report_of(&t, k, "coop-multi's trace");
    tc_check_kernels(&t, kernels, KERNELS, "coop-multi's trace");
    tc_free(&t);
    size_t size = 0;
    char *picture = tu_read_file(png, &size);
    ck_assert_msg(size > 8 && !memcmp(picture, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG", png);
    free(picture);
    unlink(trace);
    unlink(png);
    rmdir(scratch);
    free(run.output);
}

START_TEST(quick_run_checks_every_result)
{
    quick_run(NULL);
}
END_TEST

START_TEST(quick_run_under_chaos)
{
    quick_run("7");
}
END_TEST

/* Bad arguments: status 1, the reason and the usage. */
START_TEST(bad_arguments)
{
    static const struct {
        const char *args[3];
        const char *fragment;
    } cases[] = {
        {{"--bogus", NULL}, "option '--bogus': unknown"},
        {{"extra", NULL}, "argument 'extra': unexpected"},
        {{"--weights", "2", NULL}, "--weights '2': is not A:B or A:B:C"},
        {{"--weights", "2:1:1:1", NULL}, "--weights '2:1:1:1': is not A:B or A:B:C"},
        {{"--weights", "2:0", NULL}, "--weights B: '0' is out of range"},
        {{"--weights", "2:1:0", NULL}, "--weights C: '0' is out of range"},
        {{"--searches", "0", NULL}, "--searches: '0' is out of range"},
        {{"--policy", "fifo", NULL}, "--policy"},
        {{"--groups", "0", NULL}, "--groups: '0' is out of range"},
        {{"--out", NULL}, "--out: needs a value"},
        {{"--graph", "g.gr", "--gen"}, "--gen: needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_process run = run_multi(cases[i].args[0], cases[i].args[1], cases[i].args[2], NULL);
        ck_assert_msg(run.status == 1, "case %zu: exit status %d; output:\n%s", i, run.status, run.output);
        assert_output(&run, cases[i].fragment);
        assert_output(&run, "Usage: coop-multi");
        free(run.output);
    }
    /* two groups for three kernels: the run fails, naming the kernel that got none */
    char scratch[PATH_BYTES] = "/tmp/test_multi.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(scratch));
    tu_process one = run_multi("--quick", "--groups", "2", "--out", scratch, NULL);
    ck_assert_msg(one.status == 1, "--groups 2: exit status %d; output:\n%s", one.status, one.output);
    assert_output(&one, "coop-multi: the together run: the device cannot run cooperative kernels: megakernel of 3 "
                        "cooperative kernels: only 2 groups are co-resident, and kernel 2 ('tree_spawn') got none");
    free(one.output);
    /* one group for three kernels: two got none; the first is named once bfs ran to its end (the
     * groups bfs leaves must not wait for the other kernel that never starts) */
    tu_process alone = run_multi("--quick", "--groups", "1", "--out", scratch, NULL);
    ck_assert_msg(alone.status == 1, "--groups 1: exit status %d; output:\n%s", alone.status, alone.output);
    assert_output(&alone, "coop-multi: the together run: the device cannot run cooperative kernels: megakernel of "
                          "3 cooperative kernels: only 1 groups are co-resident, and kernel 1 ('sssp_searches') got "
                          "none");
    free(alone.output);
    rmdir(scratch);
    tu_process run = run_multi("--graph", "tests/data/no-such-graph.gr", NULL);
    ck_assert_msg(run.status == 1, "missing graph: exit status %d; output:\n%s", run.status, run.output);
    assert_output(&run, "tests/data/no-such-graph.gr");
    free(run.output);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("multi");
    TCase *runs = tu_tcase("runs", 900);
    tcase_add_test(runs, quick_run_checks_every_result);
    tcase_add_test(runs, quick_run_under_chaos);
    suite_add_tcase(suite, runs);
    TCase *arguments = tu_tcase("arguments", 120);
    tcase_add_test(arguments, bad_arguments);
    suite_add_tcase(suite, arguments);
    return tu_run(suite);
}
