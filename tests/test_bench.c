/* test_bench.c: coop-bench (host/coop-bench.c with apps/bfs/bfs.cl, apps/sssp/sssp.cl,
 * apps/color/color.cl, apps/mis/mis.cl, apps/sssp_bf/sssp_bf.cl and the tasks in host/bench_task.c,
 * kernels/tasks/matmult.cl and kernels/tasks/render.cl), run as a subprocess
 * on PoCL with two workers: each app in each mode equals its CPU reference on real and generated
 * graphs, the cooperative megakernels stay right under chaos seeds with a periodic task, every
 * task (matmult light / medium / heavy, render) is right beside each app's megakernel and as the
 * no-cooperation baseline, --output, --output-frame and --json say what they should, and bad
 * arguments and malformed graphs end with status 1 and a clear message. The sweep apps' --output
 * is checked here too, independently of coop-bench: a proper coloring, a maximal independent set,
 * distances that satisfy the shortest-path conditions. The neighbour expansion (kernels/lib/expand.h)
 * is checked with the GPU's sharing threshold on graphs made for its paths (a star, hubs of degree
 * around 32 and 256, isolated nodes, rmat), in every mode, at several local sizes and under chaos.
 *
 * coop-bench checks every run against its CPU reference itself and exits 2 on a difference, so
 * exit status 0 is the equality check. Build it first (the lead's Makefile includes
 * host/coop-bench.mk): make -f Makefile -f host/coop-bench.mk build/bin/coop-bench. The real
 * graphs are read from ../shared/graphs (skipped with a note when absent). */
#include "testutil.h"
#include "trace_check.h"

#include "graph.h"
#include "hash.h"

#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH "build/bin/coop-bench"
#define REAL "../shared/graphs/"
#define BAD "tests/data/graphs/bad/"
/* The light task's matrix order where its size does not matter: given, so that coop-bench makes
 * no sizing run (whose launch takes every group it finds, see run_argv_on), and small, so that
 * the group a task took is idle again well within the task's 1 ms period and can be forked back:
 * on PoCL a 64-order task kept it busy for most of each period, and mis and bfs on the mixed graph
 * forked in 0-1 of 20 chaos seeds (a clean clone's make check found none in 80); at 16, in 3 of 20,
 * colour in 12. */
#define CHAOS_TASK_SIZE "16"

enum {
    WORKERS = 2,
    MAX_ARGS = 32,
    CHAOS_SEEDS = 20,
    SEARCH_CHAOS_SEEDS = 5,
    PATH_BYTES = 256
};

/* ---- Running coop-bench ------------------------------------------------------------------- */

/* What one run printed (standard output and error together) and its exit status (-1: it did not
 * exit normally). */
typedef tu_process bench_run;

static void run_free(bench_run *run)
{
    free(run->output);
    run->output = NULL;
}

/* Runs coop-bench with the NULL-terminated argument list `args`; with `pinned`, on both groups
 * even on a busy machine (--groups 2 closes discovery once both registered, and the window is
 * long enough for both workers to get a time slice first: see tu_pin_groups), for runs whose
 * checks need two groups (kills, forks, a task that takes a group). A task's sizing run is not
 * capped by --groups, so it waits out the whole window: pinned runs give --task-size where they
 * can. */
static bench_run run_argv_on(const char *const *args, int pinned, const char *build_options)
{
    struct stat info;
    ck_assert_msg(stat(BENCH, &info) == 0,
                  BENCH " is missing: build it with make -f Makefile -f host/coop-bench.mk " BENCH);
    tu_env(WORKERS);
    if (build_options)
        setenv("COOP_BUILD_OPTIONS", build_options, 1);
    char *argv[MAX_ARGS + 4] = {BENCH};
    size_t argc = 1;
    for (; args[argc - 1]; argc++) {
        ck_assert_uint_lt(argc, MAX_ARGS);
        argv[argc] = (char *)args[argc - 1];
    }
    char window[32], groups[16];
    if (pinned) {
        snprintf(window, sizeof window, "%d", TU_PINNED_WINDOW_US);
        setenv("COOP_DISCOVERY_WINDOW_US", window, 1);
        snprintf(groups, sizeof groups, "%d", WORKERS);
        argv[argc++] = "--groups";
        argv[argc++] = groups;
    }
    argv[argc] = NULL;
    return tu_run_process(argv);
}

static bench_run run_argv(const char *const *args)
{
    return run_argv_on(args, 0, NULL);
}

/* A run on both groups (run_argv_on). */
static bench_run run_pinned(const char *const *args)
{
    return run_argv_on(args, 1, NULL);
}

/* Runs coop-bench with the arguments given (NULL-terminated). */
static bench_run run_bench(const char *first, ...)
{
    const char *args[MAX_ARGS + 1];
    size_t count = 0;
    va_list list;
    va_start(list, first);
    for (const char *arg = first; arg; arg = va_arg(list, const char *)) {
        ck_assert_uint_lt(count, MAX_ARGS);
        args[count++] = arg;
    }
    va_end(list);
    args[count] = NULL;
    return run_argv(args);
}

/* The command line, for failure messages. */
static void describe(const char *const *args, char *text, size_t size)
{
    size_t used = (size_t)snprintf(text, size, "coop-bench");
    for (size_t i = 0; args[i] && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, " %s", args[i]);
}

/* The run ended with `status` and printed `fragment`. */
static void assert_run(const bench_run *run, const char *what, int status, const char *fragment)
{
    ck_assert_msg(run->status == status, "%s: exit status %d, expected %d; output:\n%s", what, run->status, status,
                  run->output);
    ck_assert_msg(strstr(run->output, fragment) != NULL, "%s: output lacks \"%s\":\n%s", what, fragment,
                  run->output);
}

/* The number printed after `label` in the summary (0 if absent). */
static unsigned summary_number(const char *output, const char *label)
{
    const char *at = strstr(output, label);
    return at ? (unsigned)strtoul(at + strlen(label), NULL, 10) : 0u;
}

/* The number after `key` in a JSON text (NAN if absent). */
static double json_number(const char *json, const char *key)
{
    const char *at = strstr(json, key);
    return at ? strtod(at + strlen(key), NULL) : NAN;
}

static int file_exists(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0;
}

/* ---- Scratch files ------------------------------------------------------------------------ */

static char scratch[PATH_BYTES];

static void scratch_create(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/test_bench.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static const char *const scratch_names[] = {"tiny.gr", "tiny.txt", "out.txt", "run.json", "far.gr", "cut.gr.gz",
                                            "frame.png", "sweep.txt", "star.gr", "mixed.gr"};

static void scratch_remove(void)
{
    char path[2 * PATH_BYTES];
    for (size_t i = 0; i < sizeof scratch_names / sizeof scratch_names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", scratch, scratch_names[i]);
        unlink(path);
    }
    rmdir(scratch);
}

static void scratch_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", scratch, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    ck_assert_ptr_nonnull(file);
    ck_assert_int_ge(fputs(text, file), 0);
    ck_assert_int_eq(fclose(file), 0);
}

/* ---- Each app in each mode equals the CPU reference --------------------------------------- */

static const char *const apps[] = {"bfs", "sssp"};
static const char *const modes[] = {"cooperative", "standalone", "multikernel"};
static const struct {
    const char *option, *value;
} inputs[] = {
    {"--graph", REAL "rome99.gr.gz"},          /* weighted, directed, 3353 nodes */
    {"--graph", REAL "luxembourg_osm.mtx.gz"}, /* a road network: about a thousand rounds */
    {"--gen", "grid:30:30"},
    {"--gen", "rmat:10:8"},
};
enum { APPS = 2, MODES = 3, INPUTS = sizeof inputs / sizeof inputs[0] };

START_TEST(test_equals_reference)
{
    const char *app = apps[_i % APPS], *mode = modes[_i / APPS % MODES];
    unsigned input = (unsigned)_i / (APPS * MODES);
    if (!strcmp(inputs[input].option, "--graph") && !file_exists(inputs[input].value)) {
        printf("test_bench: %s is absent: %s %s on it skipped\n", inputs[input].value, app, mode);
        return;
    }
    const char *args[] = {app, inputs[input].option, inputs[input].value, "--mode", mode, "--repeat", "2", NULL};
    char what[256];
    describe(args, what, sizeof what);
    bench_run run = run_argv(args);
    assert_run(&run, what, 0, "equals the CPU reference");
    ck_assert_msg(summary_number(run.output, "rounds ") > 1, "%s: too few rounds:\n%s", what, run.output);
    run_free(&run);
}
END_TEST

/* A source given by its file id, in a graph that has other components. */
START_TEST(test_source_in_file_ids)
{
    if (!file_exists(REAL "rome99.gr.gz")) {
        printf("test_bench: " REAL "rome99.gr.gz is absent: test skipped\n");
        return;
    }
    for (unsigned a = 0; a < APPS; a++) {
        bench_run run = run_bench(apps[a], "--graph", REAL "rome99.gr.gz", "--source", "3353", "--mode",
                                  "standalone", NULL);
        assert_run(&run, apps[a], 0, "source 3353");
        assert_run(&run, apps[a], 0, "equals the CPU reference");
        run_free(&run);
    }
}
END_TEST

/* --searches K: K searches in one run (the persistent kernels restart themselves, multikernel mode
 * from the host), each as many rounds and items as one search alone; the last one is checked. */
START_TEST(test_searches_each_mode)
{
    const char *app = apps[_i % APPS], *mode = modes[_i / APPS];
    bench_run once = run_bench(app, "--gen", "grid:30:30", "--mode", mode, NULL);
    assert_run(&once, "one search", 0, "equals the CPU reference");
    unsigned rounds = summary_number(once.output, "rounds "), items = summary_number(once.output, "worklist items ");
    run_free(&once);
    ck_assert_uint_gt(rounds, 1);
    const char *args[] = {app, "--gen", "grid:30:30", "--mode", mode, "--searches", "3", "--repeat", "2", NULL};
    char what[256];
    describe(args, what, sizeof what);
    bench_run run = run_argv(args);
    assert_run(&run, what, 0, "equals the CPU reference");
    assert_run(&run, what, 0, "searches 3 per run; ");
    ck_assert_msg(summary_number(run.output, "rounds ") == 3 * rounds, "%s: rounds not 3 x %u:\n%s", what, rounds,
                  run.output);
    ck_assert_msg(summary_number(run.output, "worklist items ") == 3 * items, "%s: items not 3 x %u:\n%s", what,
                  items, run.output);
    run_free(&run);
}
END_TEST

/* ---- Chaos: the megakernels under random kills and forks with a periodic task -------------- */

/* Whether a chaos test runs seed `seed` (seeds count from 1): the `seeds` it asks for, and more
 * (up to four times as many) until chaos has done everything it must show (`all_seen`). Whether
 * a fork happens depends on a killed group being idle again when a fork is offered, which is
 * timing on PoCL (20 seeds of sssp-bf once saw 20 kills and no fork). */
static int more_seeds(unsigned seed, unsigned seeds, int all_seen)
{
    return seed <= seeds || (!all_seen && seed <= 4 * seeds);
}

static void chaos_with_task(const char *app, const char *option, const char *value, const char *build_options,
                            const char *out_path);

START_TEST(test_chaos_with_task)
{
    chaos_with_task(apps[_i], "--gen", "grid:30:30", NULL, NULL);
}
END_TEST

/* The restarts between searches under chaos: groups killed and forked across them. No task: a
 * killed group is then idle for chaos to fork again at the next resizing barrier, where a task
 * every millisecond keeps it busy to the end of a run this short on a busy machine (bfs beside 8
 * CPU hogs: one kill and no fork per seed, over 20 seeds). Tasks under chaos are
 * test_chaos_with_task's. */
START_TEST(test_searches_under_chaos)
{
    const char *app = apps[_i];
    unsigned kills = 0, forks = 0, seed = 1;
    for (; more_seeds(seed, SEARCH_CHAOS_SEEDS, kills && forks); seed++) {
        char seed_text[16];
        snprintf(seed_text, sizeof seed_text, "%u", seed);
        const char *args[] = {app, "--gen", "grid:30:30", "--chaos", seed_text, "--searches", "3", NULL};
        char what[256];
        describe(args, what, sizeof what);
        bench_run run = run_pinned(args);
        assert_run(&run, what, 0, "equals the CPU reference");
        kills += summary_number(run.output, "kills ");
        forks += summary_number(run.output, "forks ");
        run_free(&run);
    }
    ck_assert_msg(kills > 0 && forks > 0, "%s: %u kills, %u forks over %u seeds", app, kills, forks, seed - 1);
}
END_TEST

/* ---- --output, --json and the summary ----------------------------------------------------- */

/* 1-based DIMACS: 1 -> 2 (7), 2 -> 3 (1), 1 -> 3 (10), 4 -> 1 (2); node 5 is isolated. */
static const char tiny_dimacs[] = "c tiny\np sp 5 4\na 1 2 7\na 2 3 1\na 1 3 10\na 4 1 2\n";
/* 0-based SNAP, directed: 0 -> 1, 2 -> 1. */
static const char tiny_snap[] = "# tiny\n0\t1\n2\t1\n";

static const struct {
    const char *app, *file, *source, *expected;
} outputs[] = {
    {"bfs", "tiny.gr", NULL, "0\n1\n1\n-1\n-1\n"},
    {"sssp", "tiny.gr", NULL, "0\n7\n8\n-1\n-1\n"},
    {"bfs", "tiny.gr", "4", "1\n2\n2\n0\n-1\n"},
    {"sssp", "tiny.gr", "4", "2\n9\n10\n0\n-1\n"},
    {"bfs", "tiny.txt", NULL, "0\n1\n-1\n"},
    {"bfs", "tiny.txt", "2", "-1\n1\n0\n"},
    {"sssp", "tiny.txt", "2", "-1\n" /* weight of {1, 2}: */ "%u\n0\n"},
    {"sssp-bf", "tiny.gr", NULL, "0\n7\n8\n-1\n-1\n"},
    {"sssp-bf", "tiny.gr", "4", "2\n9\n10\n0\n-1\n"},
    {"sssp-bf", "tiny.txt", "2", "-1\n%u\n0\n"},
};
enum { OUTPUTS = sizeof outputs / sizeof outputs[0] };

/* Line k of --output is node k of a 1-based file (node k - 1 of a 0-based one), in every mode. */
START_TEST(test_output_format)
{
    char graph_path[2 * PATH_BYTES], out_path[2 * PATH_BYTES], expected[64];
    scratch_path(graph_path, sizeof graph_path, outputs[_i].file);
    scratch_path(out_path, sizeof out_path, "out.txt");
    write_text(graph_path, strstr(outputs[_i].file, ".gr") ? tiny_dimacs : tiny_snap);
    /* SNAP files have no weights: internal nodes 1 and 2 get graph.h's default weight. */
    snprintf(expected, sizeof expected, outputs[_i].expected, (unsigned)graph_default_weight(1, 2));
    for (unsigned m = 0; m < MODES; m++) {
        const char *args[] = {outputs[_i].app, "--graph", graph_path, "--mode", modes[m], "--output", out_path,
                              outputs[_i].source ? "--source" : NULL, outputs[_i].source, NULL};
        char what[512];
        describe(args, what, sizeof what);
        unlink(out_path);
        bench_run run = run_argv(args);
        assert_run(&run, what, 0, "equals the CPU reference");
        char *text = tu_read_file(out_path, NULL);
        ck_assert_msg(!strcmp(text, expected), "%s wrote:\n%s\nexpected:\n%s", what, text, expected);
        free(text);
        run_free(&run);
    }
}
END_TEST

START_TEST(test_json_and_summary)
{
    char json_path[2 * PATH_BYTES];
    scratch_path(json_path, sizeof json_path, "run.json");
    const char *args[] = {"sssp",      "--gen", "grid:20:20", "--task",   "light", "--task-size", CHAOS_TASK_SIZE,
                          "--period-ms", "1",    "--repeat",   "3",        "--json", json_path,     NULL};
    bench_run run = run_pinned(args);
    const char *summary[] = {"cooperative mode", "groups ", "time median ", "over 3 runs", "rounds ", "kills ",
                             "forks ", "tasks ", "response median", "p99", "deadlines met", "equals the CPU reference"};
    for (size_t i = 0; i < sizeof summary / sizeof summary[0]; i++)
        assert_run(&run, "sssp summary", 0, summary[i]);
    char *json = tu_read_file(json_path, NULL);
    const char *fields[] = {"\"app\": \"sssp\"", "\"mode\": \"cooperative\"", "\"graph\": \"grid:20:20\"",
                            "\"nodes\": 400", "\"searches\": 1,", "\"time_ms_median\"", "\"response_us_p99\"", "\"deadlines_met\"",
                            "\"matrix_size\"", "\"runs\": [", "\"warmup\": true", "\"task_runs\"", "\"kills\"",
                            /* a task run's place among the requests, its due time and deadline (one
                             * periodic plan: the next period), overtakes and the runs in flight */
                            "{\"request\": 1, ", "\"due_ms\": 0.0000, \"deadline_ms\": 1.0000, ",
                            "\"overtaken\": 0, \"in_flight\": 1, "};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(strstr(json, fields[i]) != NULL, "--json lacks %s:\n%s", fields[i], json);
    /* one warm-up and three timed runs */
    unsigned runs = 0;
    for (const char *at = json; (at = strstr(at, "\"warmup\": ")) != NULL; at++)
        runs++;
    ck_assert_uint_eq(runs, 4);
    free(json);
    run_free(&run);

    run = run_bench("bfs", "--gen", "grid:20:20", "--mode", "multikernel", NULL);
    assert_run(&run, "bfs multikernel summary", 0, "launches 39 per run");
    assert_run(&run, "bfs multikernel summary", 0, "rounds 39");
    run_free(&run);
}
END_TEST

/* ---- High-priority tasks ----------------------------------------------------------------- */

static const char *const tasks[] = {"light", "medium", "heavy", "render"};
enum { TASKS = sizeof tasks / sizeof tasks[0] };

/* Each task beside each app's megakernel, and as the no-cooperation baseline beside its
 * standalone kernel (sizes given, so no start-up sizing): the apps' results and the tasks' are
 * checked by coop-bench, which exits 2 on a difference. The graph is large enough for the search
 * to outlast the host's first look, when the first task is submitted. */
START_TEST(test_task_results)
{
    const char *task = tasks[_i % TASKS], *app = apps[_i / TASKS % APPS];
    const char *mode = _i / (TASKS * APPS) ? "standalone" : "cooperative";
    const char *size = strcmp(task, "render") ? "40" : "32";
    const char *args[] = {app, "--gen", "grid:150:150", "--mode", mode, "--task", task, "--task-size", size,
                          "--period-ms", "2", "--repeat", "2", NULL};
    char what[256];
    describe(args, what, sizeof what);
    bench_run run = run_pinned(args);
    assert_run(&run, what, 0, "equals the CPU reference");
    assert_run(&run, what, 0, strcmp(task, "render") ? "every product computed equals the CPU's"
                                                      : "every frame drawn matches the CPU's");
    assert_run(&run, what, 0, "(size given)");
    if (!strcmp(mode, "cooperative"))
        ck_assert_msg(summary_number(run.output, "tasks ") > 0, "%s: no task ran:\n%s", what, run.output);
    else
        assert_run(&run, what, 0, "no cooperation");
    run_free(&run);
}
END_TEST

/* Without --task-size the task is sized at start-up; --output-frame writes the last frame; the
 * JSON describes the task. The graph is large enough for the search to outlast the host's first
 * look, when the first task is submitted. */
START_TEST(test_task_sizing_frame_and_json)
{
    char json_path[2 * PATH_BYTES], frame_path[2 * PATH_BYTES];
    scratch_path(json_path, sizeof json_path, "run.json");
    scratch_path(frame_path, sizeof frame_path, "frame.png");
    const char *args[] = {"bfs", "--gen", "grid:150:150", "--task", "render", "--output-frame", frame_path,
                          "--json", json_path, NULL};
    bench_run run = run_pinned(args);
    assert_run(&run, "render sizing", 0, "sized for 5.0 ms on a quarter of the groups");
    assert_run(&run, "render sizing", 0, "; alone on the whole device ");
    assert_run(&run, "render sizing", 0, "every frame drawn matches the CPU's");
    run_free(&run);
    char *png = tu_read_file(frame_path, NULL);
    ck_assert_msg(!memcmp(png, "\x89PNG\r\n\x1a\n", 8), "--output-frame wrote no PNG");
    free(png);
    char *json = tu_read_file(json_path, NULL);
    const char *fields[] = {"\"name\": \"render\"", "\"kind\": \"render\"", "\"frame_width\"", "\"frame_height\"",
                            "\"period_ms\": 40", "\"target_exec_ms\": 5", "\"baseline\": false",
                            "\"missed_periods\"", "\"preemption_slowdown\"", "\"gather_us_p99\"", "\"task_runs\": [{"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(strstr(json, fields[i]) != NULL, "--json lacks %s:\n%s", fields[i], json);
    /* The frame was timed on the quarter (one group) it was sized on and alone on the whole device
     * (which need not be faster on a busy machine: no comparison), and the whole-device model is
     * P / (P - that). */
    double sized_ms = json_number(json, "\"sized_ms\": "), whole_ms = json_number(json, "\"whole_device_ms\": ");
    ck_assert_msg(whole_ms > 0 && sized_ms > 0, "whole device %g ms, sized %g ms:\n%s", whole_ms, sized_ms, json);
    /* Both numbers are written with 6 significant digits, so the model is checked through the
     * time it implies, D = P - P / model: near D = P (a busy machine) a rounding of D moves the
     * model itself by far more than the digits it is written with. Without D < P there is none. */
    if (whole_ms < 40.0) {
        double model = json_number(json, "\"preemption_slowdown_whole_device\": ");
        ck_assert_msg(model > 1.0 && fabs(40.0 - 40.0 / model - whole_ms) < 1e-3, "whole-device model %g:\n%s",
                      model, json);
    } else {
        ck_assert_msg(strstr(json, "\"preemption_slowdown_whole_device\": null") != NULL,
                      "whole device %g ms, not within the 40 ms period, and a model:\n%s", whole_ms, json);
    }
    free(json);

    run = run_bench("sssp", "--gen", "grid:20:20", "--mode", "standalone", "--task", "heavy", "--task-size", "32",
                    "--json", json_path, NULL);
    assert_run(&run, "sssp baseline", 0, "equals the CPU reference");
    run_free(&run);
    json = tu_read_file(json_path, NULL);
    const char *baseline_fields[] = {"\"kind\": \"matmult\"", "\"matrix_size\": 32", "\"baseline\": true",
                                     "\"steal\": null", "\"period_ms\": 40"};
    for (size_t i = 0; i < sizeof baseline_fields / sizeof baseline_fields[0]; i++)
        ck_assert_msg(strstr(json, baseline_fields[i]) != NULL, "--json lacks %s:\n%s", baseline_fields[i], json);
    free(json);
}
END_TEST

/* ---- The sweep apps: color, mis, sssp-bf -------------------------------------------------- */

static const char *const sweep_apps[] = {"color", "mis", "sssp-bf"};
enum { SWEEP_APPS = sizeof sweep_apps / sizeof sweep_apps[0] };

/* The graph an input names, read as coop-bench reads it. */
static void load_input(const char *option, const char *value, graph *g)
{
    char err[512];
    int rc = !strcmp(option, "--graph") ? graph_read(value, g, err, sizeof err)
                                        : graph_parse_gen(value, g, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
}

/* The n numbers of an --output file, one per line. */
static int64_t *read_values(const char *path, uint32_t n)
{
    char *text = tu_read_file(path, NULL), *at = text;
    int64_t *values = malloc(((size_t)n + 1) * sizeof *values);
    ck_assert_ptr_nonnull(values);
    uint32_t count = 0;
    for (char *end = NULL; *at; at = end + 1) {
        ck_assert_msg(count < n, "%s: more than %u lines", path, n);
        values[count++] = strtoll(at, &end, 10);
        ck_assert_msg(end != at && *end == '\n', "%s: line %u is not a number", path, count);
    }
    ck_assert_msg(count == n, "%s: %u lines for %u nodes", path, count, n);
    free(text);
    return values;
}

/* Every node colored, no arc (in either direction) between equal colors. */
static void assert_coloring(const graph *g, const int64_t *color, const char *what)
{
    for (uint32_t u = 0; u < g->n; u++) {
        ck_assert_msg(color[u] >= 0, "%s: node %u is uncolored", what, u + g->first_id);
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++)
            ck_assert_msg(color[u] != color[g->col[e]], "%s: nodes %u and %u have color %lld", what,
                          u + g->first_id, g->col[e] + g->first_id, (long long)color[u]);
    }
}

/* 0/1 per node, no arc inside the set, and every node outside has a neighbour (through an arc
 * either way) inside. */
static void assert_mis(const graph *g, const int64_t *in_set, const char *what)
{
    char *covered = calloc(g->n ? g->n : 1, 1);
    ck_assert_ptr_nonnull(covered);
    for (uint32_t u = 0; u < g->n; u++) {
        ck_assert_msg(in_set[u] == 0 || in_set[u] == 1, "%s: node %u is %lld", what, u + g->first_id,
                      (long long)in_set[u]);
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            ck_assert_msg(!(in_set[u] && in_set[v]), "%s: nodes %u and %u are both in the set", what,
                          u + g->first_id, v + g->first_id);
            covered[u] |= (char)in_set[v];
            covered[v] |= (char)in_set[u];
        }
    }
    for (uint32_t u = 0; u < g->n; u++)
        ck_assert_msg(in_set[u] || covered[u], "%s: node %u and all its neighbours are outside the set", what,
                      u + g->first_id);
    free(covered);
}

/* Shortest-path distances from `source`: 0 there; no arc u -> v shortens v (and none leads from a
 * reached node to an unreached one); every other reached node is reached through a tight arc. */
static void assert_distances(const graph *g, const int64_t *dist, uint32_t source, const char *what)
{
    char *tight = calloc(g->n ? g->n : 1, 1);
    ck_assert_ptr_nonnull(tight);
    ck_assert_msg(dist[source] == 0, "%s: the source is at %lld", what, (long long)dist[source]);
    for (uint32_t u = 0; u < g->n; u++) {
        if (dist[u] < 0)
            continue;
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            int64_t through = dist[u] + g->weight[e];
            ck_assert_msg(dist[v] >= 0 && dist[v] <= through, "%s: node %u at %lld, but %u -> it gives %lld", what,
                          v + g->first_id, (long long)dist[v], u + g->first_id, (long long)through);
            tight[v] |= dist[v] == through;
        }
    }
    for (uint32_t v = 0; v < g->n; v++)
        ck_assert_msg(v == source || dist[v] < 0 || tight[v], "%s: node %u at %lld is not reached by any arc", what,
                      v + g->first_id, (long long)dist[v]);
    free(tight);
}

/* Checks the --output that `app` wrote at `path` for the input. */
static void assert_sweep_output(const char *app, const char *option, const char *value, const char *path,
                                const char *what)
{
    graph g;
    load_input(option, value, &g);
    int64_t *values = read_values(path, g.n);
    if (!strcmp(app, "color"))
        assert_coloring(&g, values, what);
    else if (!strcmp(app, "mis"))
        assert_mis(&g, values, what);
    else
        assert_distances(&g, values, 0, what);
    free(values);
    graph_free(&g);
}

/* What coop-bench says it checked, for each sweep app. */
static const char *sweep_check(const char *app)
{
    return !strcmp(app, "color") ? "is a proper coloring" : !strcmp(app, "mis") ? "is a maximal independent set"
                                                                                 : "equals the CPU reference";
}

START_TEST(test_sweeps_each_mode)
{
    const char *app = sweep_apps[_i % SWEEP_APPS], *mode = modes[_i / SWEEP_APPS % MODES];
    unsigned input = (unsigned)_i / (SWEEP_APPS * MODES);
    if (!strcmp(inputs[input].option, "--graph") && !file_exists(inputs[input].value)) {
        printf("test_bench: %s is absent: %s %s on it skipped\n", inputs[input].value, app, mode);
        return;
    }
    char out_path[2 * PATH_BYTES];
    scratch_path(out_path, sizeof out_path, "sweep.txt");
    unlink(out_path);
    const char *args[] = {app, inputs[input].option, inputs[input].value, "--mode", mode, "--output", out_path, NULL};
    char what[640];
    describe(args, what, sizeof what);
    bench_run run = run_argv(args);
    assert_run(&run, what, 0, sweep_check(app));
    ck_assert_msg(summary_number(run.output, "rounds ") > 1, "%s: too few rounds:\n%s", what, run.output);
    run_free(&run);
    assert_sweep_output(app, inputs[input].option, inputs[input].value, out_path, what);
}
END_TEST

/* The megakernel of `app` on the input under chaos seeds (more_seeds) with a periodic light task
 * on one group, pinned to both groups, built with `build_options` (NULL: none): every run equals its
 * reference (and, with `out_path`, its --output satisfies the sweep's property), and the seeds
 * together killed, forked and ran a task. */
static void chaos_with_task(const char *app, const char *option, const char *value, const char *build_options,
                            const char *out_path)
{
    unsigned kills = 0, forks = 0, tasks = 0, seed = 1;
    for (; more_seeds(seed, CHAOS_SEEDS, kills && forks && tasks); seed++) {
        char seed_text[16], what[1024];
        snprintf(seed_text, sizeof seed_text, "%u", seed);
        const char *args[] = {app, option, value, "--task", "light", "--task-size", CHAOS_TASK_SIZE, "--period-ms",
                              "1", "--steal", "one", "--chaos", seed_text, out_path ? "--output" : NULL, out_path,
                              NULL};
        describe(args, what, sizeof what);
        if (out_path)
            unlink(out_path);
        bench_run run = run_argv_on(args, 1, build_options);
        assert_run(&run, what, 0, sweep_check(app));
        assert_run(&run, what, 0, "chaos mode");
        kills += summary_number(run.output, "kills ");
        forks += summary_number(run.output, "forks ");
        tasks += summary_number(run.output, "tasks ");
        run_free(&run);
        if (out_path)
            assert_sweep_output(app, option, value, out_path, what);
    }
    /* The seeds must have exercised what they are for. */
    ck_assert_msg(kills > 0 && forks > 0 && tasks > 0, "%s: %u kills, %u forks, %u tasks over %u seeds", app, kills,
                  forks, tasks, seed - 1);
}

/* The sweeps' megakernels under chaos seeds with a periodic light task; every result checked. */
START_TEST(test_sweeps_chaos_with_task)
{
    char out_path[2 * PATH_BYTES];
    scratch_path(out_path, sizeof out_path, "sweep.txt");
    chaos_with_task(sweep_apps[_i], "--gen", "grid:30:30", NULL, out_path);
}
END_TEST

/* color and mis on a directed file treat its arcs as undirected edges (tiny.gr: node 4 has only
 * an arc out, node 5 none), in every mode; --json names the property checked. */
START_TEST(test_sweeps_directed_and_json)
{
    char graph_path[2 * PATH_BYTES], out_path[2 * PATH_BYTES], json_path[2 * PATH_BYTES];
    scratch_path(graph_path, sizeof graph_path, "tiny.gr");
    scratch_path(out_path, sizeof out_path, "sweep.txt");
    scratch_path(json_path, sizeof json_path, "run.json");
    write_text(graph_path, tiny_dimacs);
    for (unsigned a = 0; a < 2; a++)
        for (unsigned m = 0; m < MODES; m++) {
            const char *args[] = {sweep_apps[a], "--graph", graph_path, "--mode", modes[m], "--output", out_path,
                                  "--json", json_path, NULL};
            char what[1024];
            describe(args, what, sizeof what);
            unlink(out_path);
            bench_run run = run_argv(args);
            assert_run(&run, what, 0, sweep_check(sweep_apps[a]));
            assert_run(&run, what, 0, "5 nodes, 8 arcs, directed, read as undirected");
            run_free(&run);
            assert_sweep_output(sweep_apps[a], "--graph", graph_path, out_path, what);
            char *json = tu_read_file(json_path, NULL);
            const char *check = a == 0 ? "\"check\": \"proper_coloring\"" : "\"check\": \"maximal_independent_set\"";
            ck_assert_msg(strstr(json, check) != NULL, "--json lacks %s:\n%s", check, json);
            free(json);
        }
}
END_TEST

/* ---- Errors ------------------------------------------------------------------------------- */

static const struct {
    const char *args[8];
    const char *fragment;
} bad_arguments[] = {
    {{NULL}, "APP: missing"},
    {{"dfs", "--gen", "grid:3:3", NULL}, "APP: 'dfs' is not a choice; expected bfs, sssp, color, mis or sssp-bf"},
    {{"bfs", NULL}, "give exactly one of --graph FILE and --gen SPEC"},
    {{"bfs", "--gen", "grid:3:3", "--graph", "x.gr", NULL}, "give exactly one of"},
    {{"bfs", "--gen", "grid:3:3", "--mode", "fast", NULL},
     "--mode: 'fast' is not a choice; expected cooperative, standalone or multikernel"},
    {{"bfs", "--gen", "grid:3:3", "--task", "huge", NULL},
     "--task: 'huge' is not a choice; expected none, light, medium, heavy or render"},
    {{"bfs", "--gen", "grid:3:3", "--task", "light", "--mode", "multikernel", NULL},
     "only in --mode cooperative or standalone"},
    {{"bfs", "--gen", "grid:3:3", "--task", "light", "--task-size", "0", NULL},
     "--task-size: '0' is out of range; expected a whole number from 1 to 16384"},
    {{"bfs", "--gen", "grid:3:3", "--task", "light", "--output-frame", "f.png", NULL}, "needs --task render"},
    {{"bfs", "--gen", "grid:3:3", "--chaos", "3", "--mode", "multikernel", NULL}, "chaos mode needs"},
    {{"bfs", "--gen", "grid:3:3", "--chaos", "0", NULL}, "--chaos: '0' is out of range"},
    {{"bfs", "--gen", "grid:3:3", "--steal", "most", NULL}, "--steal: 'most' is not a choice"},
    {{"bfs", "--gen", "grid:3:3", "--period-ms", "-5", NULL}, "--period-ms: '-5' is negative"},
    {{"bfs", "--gen", "grid:3:3", "--repeat", "0", NULL}, "--repeat: '0' is out of range"},
    {{"bfs", "--gen", "grid:3:3", "--repeat", "2x", NULL}, "--repeat: '2x' is not a whole number"},
    {{"bfs", "--gen", "grid:3:3", "--local-size", "0", NULL}, "--local-size: '0' is out of range"},
    {{"bfs", "--gen", "grid:3:3", "--groups", "0", NULL}, "--groups: '0' is out of range"},
    {{"bfs", "--gen", "grid:3:3", "--searches", "0", NULL}, "--searches: '0' is out of range"},
    {{"color", "--gen", "grid:3:3", "--searches", "2", NULL}, "--searches: only bfs and sssp search from a source"},
    {{"bfs", "--gen", "grid:3:3", "--source", "9", NULL}, "--source 9 is not a node of the graph (ids 0..8)"},
    {{"bfs", "--gen", "grid:3:3", "--source", NULL}, "--source: needs a value"},
    {{"bfs", "--gen", "grid:3:3", "--speed", "1", NULL}, "option '--speed': unknown"},
    {{"bfs", "--gen", "grid:3:3", "stray", NULL}, "argument 'stray': unexpected"},
    {{"bfs", "--gen", "cube:3", NULL}, "cube:3"},
    {{"bfs", "--graph", BAD "bad-number.gr", NULL}, BAD "bad-number.gr:3: "},
    {{"sssp", "--graph", BAD "missing-arcs.gr", NULL}, BAD "missing-arcs.gr:2: "},
    {{"bfs", "--graph", "tests/data/graphs/no-such-file.gr", NULL}, "tests/data/graphs/no-such-file.gr: "},
    {{"bfs", "--gen", "grid:3:3", "--output", "/nonexistent-dir/out.txt", NULL}, "/nonexistent-dir/out.txt: "},
    {{"bfs", "--gen", "grid:3:3", "--mode", "standalone", "--trace", "t.json", NULL},
     "--trace 't.json': traces need --mode cooperative"},
    {{"bfs", "--gen", "grid:3:3", "--trace", "/nonexistent-dir/t.json", NULL},
     "trace '/nonexistent-dir/t.json': No such file or directory"},
    {{"bfs", "--gen", "grid:3:3", "--trace-events", "0", NULL}, "--trace-events"},
};
enum { BAD_ARGUMENTS = sizeof bad_arguments / sizeof bad_arguments[0] };

START_TEST(test_bad_arguments)
{
    char what[256];
    describe(bad_arguments[_i].args, what, sizeof what);
    bench_run run = run_argv(bad_arguments[_i].args);
    assert_run(&run, what, 1, bad_arguments[_i].fragment);
    assert_run(&run, what, 1, "coop-bench: ");
    run_free(&run);
}
END_TEST

/* --trace: the last timed run's timeline, a valid trace whose counts are its report's. */
START_TEST(test_trace_file)
{
    char path[2 * PATH_BYTES];
    scratch_path(path, sizeof path, "trace.json");
    bench_run run = run_bench("bfs", "--gen", "grid:20:20", "--task", "light", "--period-ms", "1", "--repeat", "2",
                              "--chaos", "3", "--trace", path, "--trace-events", "65536", NULL);
    assert_run(&run, "bfs --trace", 0, "trace of the last run: ");
    assert_run(&run, "bfs --trace", 0, " dropped)\n");
    tc_check_file(path, "coop-bench --trace");
    unlink(path);
    run_free(&run);
}
END_TEST

/* --groups caps the groups of every mode; the worklist item count is the nodes reached (BFS
 * pushes each reached node once). */
START_TEST(test_groups_and_items)
{
    static const char *const modes[] = {"standalone", "cooperative", "multikernel"};
    for (int m = 0; m < 3; m++) {
        bench_run run = run_bench("bfs", "--gen", "grid:20:20", "--mode", modes[m], "--groups", "1", NULL);
        assert_run(&run, modes[m], 0, "equals the CPU reference");
        assert_run(&run, modes[m], 0, m == 2 ? "up to 1 groups each" : "groups 1 co-resident, 1 members at the start");
        assert_run(&run, modes[m], 0, "; worklist items 400\n");
        run_free(&run);
    }
}
END_TEST

/* --groups auto: the calibration lists one run per multiple of the compute units, ending with all
 * the co-resident groups, and the timed runs use its fastest count; multikernel mode refuses it. */
START_TEST(test_groups_auto)
{
    enum { MAX_POINTS = 64 };
    static const char *const modes[] = {"standalone", "cooperative"};
    static const char prefix[] = "calibration (median of 3 runs each, no task):";
    bench_run run;
    for (int m = 0; m < 2; m++) {
        char json_path[2 * PATH_BYTES];
        scratch_path(json_path, sizeof json_path, "auto.json");
        run = run_bench("sssp", "--gen", "grid:20:20", "--mode", modes[m], "--groups", "auto", "--repeat", "2",
                        "--calibration-runs", "3", "--json", json_path, NULL);
        assert_run(&run, modes[m], 0, "equals the CPU reference");
        const char *at = strstr(run.output, prefix);
        ck_assert_msg(at != NULL, "%s: no calibration line:\n%s", modes[m], run.output);
        at += strlen(prefix);
        unsigned groups[MAX_POINTS], points = 0, best = 0;
        double ms[MAX_POINTS];
        int used;
        while (points < MAX_POINTS && sscanf(at, " %u groups %lf ms%n", &groups[points], &ms[points], &used) == 2) {
            ck_assert_msg(!points || groups[points] > groups[points - 1], "%s: counts not rising:\n%s", modes[m],
                          run.output);
            if (!points || ms[points] < ms[best])
                best = points;
            points++;
            at += used + (at[used] == ',');
        }
        ck_assert_msg(points > 0 && summary_number(at, "; runs on ") == groups[best],
                      "%s: the fastest count was %u:\n%s", modes[m], points ? groups[best] : 0, run.output);
        ck_assert_uint_eq(summary_number(run.output, "\ngroups "), groups[best]);
        run_free(&run);
        /* --json lists the same counts and times */
        char *json = tu_read_file(json_path, NULL);
        const char *entry = strstr(json, "\"calibration\": [");
        ck_assert_msg(entry != NULL, "%s: --json lacks the calibration:\n%s", modes[m], json);
        for (unsigned k = 0; k < points; k++) {
            unsigned g = 0, members = 0;
            double t = 0;
            entry = strstr(entry, "{\"groups\": ");
            int read = entry ? sscanf(entry, "{\"groups\": %u, \"members\": %u, \"time_ms\": %lf", &g, &members, &t) : 0;
            ck_assert_msg(read == 3 && g == groups[k] && members >= 1 && members <= g && fabs(t - ms[k]) < 1e-3,
                          "%s: --json's calibration point %u is not the printed %u groups %.3f ms:\n%s", modes[m], k,
                          groups[k], ms[k], json);
            entry++;
        }
        free(json);
    }
    run = run_bench("bfs", "--gen", "grid:5:5", "--mode", "multikernel", "--groups", "auto", NULL);
    assert_run(&run, "multikernel", 1, "--groups 'auto': calibration needs --mode cooperative or standalone");
    run_free(&run);
    run = run_bench("bfs", "--gen", "grid:5:5", "--groups", "automatic", NULL);
    assert_run(&run, "automatic", 1, "--groups");
    run_free(&run);
    run = run_bench("sssp", "--gen", "grid:5:5", "--calibration-runs", "3", NULL);
    assert_run(&run, "--calibration-runs alone", 1, "--calibration-runs: needs --groups auto");
    run_free(&run);
}
END_TEST

/* Distances the device's 32-bit words cannot hold are refused, not computed wrong. */
START_TEST(test_distances_beyond_32_bits)
{
    char path[2 * PATH_BYTES];
    scratch_path(path, sizeof path, "far.gr");
    write_text(path, "p sp 3 2\na 1 2 4294967295\na 2 3 4294967295\n");
    bench_run run = run_bench("sssp", "--graph", path, NULL);
    assert_run(&run, "sssp far.gr", 1, "beyond the device's 32-bit distances");
    run_free(&run);
    run = run_bench("bfs", "--graph", path, "--output", "/dev/null", NULL);
    assert_run(&run, "bfs far.gr", 0, "equals the CPU reference");
    run_free(&run);
}
END_TEST

/* Compressed data cut short is reported with the file's name. */
START_TEST(test_truncated_graph)
{
    if (!file_exists(REAL "rome99.gr.gz")) {
        printf("test_bench: " REAL "rome99.gr.gz is absent: test skipped\n");
        return;
    }
    char *whole = tu_read_file(REAL "rome99.gr.gz", NULL);
    char path[2 * PATH_BYTES];
    scratch_path(path, sizeof path, "cut.gr.gz");
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    ck_assert_uint_eq(fwrite(whole, 1, 20000, file), 20000);
    ck_assert_int_eq(fclose(file), 0);
    free(whole);
    bench_run run = run_bench("sssp", "--graph", path, NULL);
    assert_run(&run, "truncated rome99", 1, path);
    run_free(&run);
}
END_TEST

/* ---- The neighbour expansion (kernels/lib/expand.h) --------------------------------------- */

/* PoCL shares no node's arcs by default (expand.h: a CPU gains nothing from it), so these runs
 * build every program with the GPU's threshold: a node of more than 8 arcs is shared by its
 * group, one of at most 8 is walked by its own work-item. */
#define EXPAND_GPU_THRESHOLD "-DEXPAND_ALONE=8"

enum {
    STAR_LEAVES = 50000,
    MIXED_LEAVES = 10000,
    MIXED_ISOLATED = 5
};
/* The mixed graph's hubs: around the GPU's threshold (7, 8, 9), around a warp (31, 32, 33) and a
 * group (255, 256, 257), and one adjacent to every leaf; the hub of degree 0 is isolated, as are
 * MIXED_ISOLATED more nodes. */
static const unsigned mixed_degrees[] = {0, 1, 7, 8, 9, 31, 32, 33, 255, 256, 257, MIXED_LEAVES};
enum { MIXED_HUBS = sizeof mixed_degrees / sizeof mixed_degrees[0] };

/* Writes a DIMACS file of `nodes` nodes whose edges come from `edge(i, &u, &v)` (1-based ids, each
 * edge both ways, weights from a hash). */
static void write_dimacs(const char *path, unsigned nodes, unsigned edges,
                         void (*edge)(unsigned i, unsigned *u, unsigned *v))
{
    FILE *file = fopen(path, "w");
    ck_assert_ptr_nonnull(file);
    fprintf(file, "p sp %u %u\n", nodes, 2u * edges);
    for (unsigned i = 0; i < edges; i++) {
        unsigned u, v;
        edge(i, &u, &v);
        unsigned weight = 1u + (u * 31u + v * 17u) % 100u;
        fprintf(file, "a %u %u %u\na %u %u %u\n", u, v, weight, v, u, weight);
    }
    ck_assert_int_eq(fclose(file), 0);
}

/* The star: node 1 (the source) joined to nodes 2..STAR_LEAVES + 1. */
static void star_edge(unsigned i, unsigned *u, unsigned *v)
{
    *u = 1;
    *v = i + 2u;
}

/* The mixed graph: leaves 1..MIXED_LEAVES (node 1 the source), then the hubs, each joined to a
 * run of leaves starting at a different one, then the isolated nodes. */
static void mixed_edge(unsigned i, unsigned *u, unsigned *v)
{
    unsigned hub = 0;
    while (i >= mixed_degrees[hub])
        i -= mixed_degrees[hub++];
    *u = MIXED_LEAVES + 1u + hub;
    *v = 1u + (hub * 997u + i) % MIXED_LEAVES;
}

static unsigned mixed_edges(void)
{
    unsigned edges = 0;
    for (unsigned hub = 0; hub < MIXED_HUBS; hub++)
        edges += mixed_degrees[hub];
    return edges;
}

/* The inputs: the two files above (written into the scratch folder) and an rmat graph. */
enum { EXPAND_INPUTS = 3 };
static void expand_input(unsigned input, const char **option, char *value, size_t size)
{
    *option = input < 2 ? "--graph" : "--gen";
    if (input == 0) {
        scratch_path(value, size, "star.gr");
        write_dimacs(value, STAR_LEAVES + 1u, STAR_LEAVES, star_edge);
    } else if (input == 1) {
        scratch_path(value, size, "mixed.gr");
        write_dimacs(value, MIXED_LEAVES + MIXED_HUBS + MIXED_ISOLATED, mixed_edges(), mixed_edge);
    } else {
        snprintf(value, size, "rmat:10:16");
    }
}

static const char *const expand_apps[] = {"bfs", "sssp", "color", "mis", "sssp-bf"};
enum { EXPAND_APPS = sizeof expand_apps / sizeof expand_apps[0] };

/* Each app in each mode on each input with shared nodes: the result equals the CPU reference
 * (coop-bench's own check); the sweeps' --output also satisfies its property here. */
START_TEST(test_expand_each_mode)
{
    const char *app = expand_apps[_i % EXPAND_APPS], *mode = modes[_i / EXPAND_APPS % MODES], *option;
    char value[2 * PATH_BYTES], out_path[2 * PATH_BYTES], what[1024];
    expand_input((unsigned)_i / (EXPAND_APPS * MODES), &option, value, sizeof value);
    scratch_path(out_path, sizeof out_path, "sweep.txt");
    unlink(out_path);
    const char *args[] = {app, option, value, "--mode", mode, "--output", out_path, NULL};
    describe(args, what, sizeof what);
    bench_run run = run_argv_on(args, 0, EXPAND_GPU_THRESHOLD);
    assert_run(&run, what, 0, sweep_check(app));
    run_free(&run);
    if (strcmp(app, "bfs") && strcmp(app, "sssp"))
        assert_sweep_output(app, option, value, out_path, what);
}
END_TEST

/* Any local size works (expand.h): a chunk has at most one node per work-item and at most 256,
 * so at 3 the chunks are tiny and at 512 some work-items take no node but all share the arcs;
 * 3 is the least a megakernel takes on PoCL. Each app's megakernel on the mixed graph with
 * shared nodes. */
static const char *const expand_local_sizes[] = {"3", "100", "512"};
enum { EXPAND_LOCAL_SIZES = sizeof expand_local_sizes / sizeof expand_local_sizes[0] };

START_TEST(test_expand_local_sizes)
{
    const char *app = expand_apps[_i % EXPAND_APPS], *local_size = expand_local_sizes[_i / EXPAND_APPS], *option;
    char value[2 * PATH_BYTES], what[1024];
    expand_input(1, &option, value, sizeof value);
    const char *args[] = {app, option, value, "--local-size", local_size, NULL};
    describe(args, what, sizeof what);
    bench_run run = run_argv_on(args, 0, EXPAND_GPU_THRESHOLD);
    assert_run(&run, what, 0, sweep_check(app));
    run_free(&run);
}
END_TEST

/* More waiting nodes than slots: every node with an arc is shared (-DEXPAND_ALONE=0) and a call
 * of expand_next records at most two of them, so a chunk of the rmat graph takes many calls,
 * most of them with waiting nodes left over. Each app in each mode. */
START_TEST(test_expand_slots_full)
{
    const char *app = expand_apps[_i % EXPAND_APPS], *mode = modes[_i / EXPAND_APPS], *option;
    char value[2 * PATH_BYTES], what[1024];
    expand_input(2, &option, value, sizeof value);
    const char *args[] = {app, option, value, "--mode", mode, NULL};
    describe(args, what, sizeof what);
    bench_run run = run_argv_on(args, 0, "-DEXPAND_ALONE=0 -DEXPAND_SLOTS_LOG2=1");
    assert_run(&run, what, 0, sweep_check(app));
    run_free(&run);
}
END_TEST

/* The sweeps' rule, replayed on the host: node priorities as kernels/lib/priority.h hashes them
 * (murmur3's finaliser, ties broken by the id), and in sweep r each undecided node that
 * outranks every neighbour still undecided at the sweep's start decides, from what its neighbours
 * decided before the sweep. color: the smallest color none of them has; mis: in unless one is in
 * (a node with a neighbour in leaves at once). Both results are deterministic, so the device's
 * must equal these node for node. */
static int outranks(uint32_t u, uint32_t v)
{
    uint32_t pu = hash_fmix32(u), pv = hash_fmix32(v);
    return pu > pv || (pu == pv && u > v);
}

/* color[] (is_color) or in_set[] (0/1) after the sweeps, on the undirected graph g. */
static int64_t *sweep_reference(const graph *g, int is_color)
{
    uint32_t n = g->n, undecided = n, round = 0;
    int64_t *value = malloc(((size_t)n + 1) * sizeof *value);
    uint32_t *when = malloc(((size_t)n + 1) * sizeof *when);
    char *used = calloc((size_t)graph_max_degree(g) + 2, 1);
    ck_assert(value && when && used);
    for (uint32_t v = 0; v < n; v++)
        when[v] = UINT32_MAX;
    for (; undecided; round++) {
        for (uint32_t v = 0; v < n; v++) {
            if (when[v] != UINT32_MAX)
                continue;
            int top = 1, covered = 0;
            for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
                uint32_t u = g->col[e];
                if (when[u] >= round)
                    top &= !outranks(u, v);
                else if (!is_color && value[u] == 1)
                    covered = 1;
            }
            if (!is_color && covered) {
                value[v] = 0;
            } else if (!top) {
                continue;
            } else if (is_color) {
                uint32_t degree = g->row[v + 1] - g->row[v], c = 0;
                memset(used, 0, (size_t)degree + 1);
                for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
                    if (when[g->col[e]] < round && value[g->col[e]] <= degree)
                        used[value[g->col[e]]] = 1;
                while (used[c])
                    c++;
                value[v] = c;
            } else {
                value[v] = 1;
            }
            when[v] = round;
            undecided--;
        }
    }
    free(when);
    free(used);
    return value;
}

/* color and mis equal the host's replay of their rule on rmat:10:16, whose coloring needs 33
 * colors: a node takes a color past the first 32, which an alone walk finds only by walking its
 * arcs again (color_smallest_free). Each mode, with every node walked alone (PoCL's default) and
 * with the GPU's threshold (nodes above 8 arcs shared). */
static const char *const replay_apps[] = {"color", "mis"};
enum { REPLAY_APPS = sizeof replay_apps / sizeof replay_apps[0] };

START_TEST(test_sweeps_equal_replay)
{
    const char *app = replay_apps[_i % REPLAY_APPS], *mode = modes[_i / REPLAY_APPS % MODES];
    const char *options = _i / (REPLAY_APPS * MODES) ? EXPAND_GPU_THRESHOLD : NULL;
    char out_path[2 * PATH_BYTES], what[1024];
    scratch_path(out_path, sizeof out_path, "replay.txt");
    unlink(out_path);
    const char *args[] = {app, "--gen", "rmat:10:16", "--mode", mode, "--output", out_path, NULL};
    describe(args, what, sizeof what);
    bench_run run = run_argv_on(args, 0, options);
    assert_run(&run, what, 0, sweep_check(app));
    run_free(&run);
    graph directed, g;
    char err[256];
    load_input("--gen", "rmat:10:16", &directed);
    ck_assert_msg(graph_undirected(&directed, &g, err, sizeof err) == 0, "%s", err);
    int64_t *got = read_values(out_path, g.n), *want = sweep_reference(&g, !strcmp(app, "color"));
    int64_t most = 0;
    for (uint32_t v = 0; v < g.n; v++) {
        ck_assert_msg(got[v] == want[v], "%s%s%s: node %u is %lld, the host's replay says %lld", what,
                      options ? " built with " : "", options ? options : "", v, (long long)got[v],
                      (long long)want[v]);
        most = want[v] > most ? want[v] : most;
    }
    if (!strcmp(app, "color"))
        ck_assert_msg(most >= 32, "rmat:10:16's coloring has colors 0..%lld: none past the first 32", (long long)most);
    free(got);
    free(want);
    graph_free(&directed);
    graph_free(&g);
}
END_TEST

/* The megakernels on the mixed graph, with shared nodes, under chaos seeds with a periodic light
 * task: groups killed and forked between rounds, every result checked. */
START_TEST(test_expand_chaos_with_task)
{
    const char *option;
    char value[2 * PATH_BYTES];
    expand_input(1, &option, value, sizeof value);
    chaos_with_task(expand_apps[_i], option, value, EXPAND_GPU_THRESHOLD, NULL);
}
END_TEST

/* NVIDIA's default (COOP_PRIVATE_M: M kept per work-item, reread after a barrier that changes it)
 * built on PoCL, where it is off by default: every app's megakernel under chaos seeds with a
 * periodic light task, groups killed and forked at every kind of barrier, every result checked. */
START_TEST(test_private_m_chaos_with_task)
{
    chaos_with_task(expand_apps[_i], "--gen", "grid:30:30", "-DCOOP_PRIVATE_M=1", NULL);
}
END_TEST

START_TEST(test_help)
{
    bench_run run = run_bench("--help", NULL);
    assert_run(&run, "--help", 0, "Usage: coop-bench bfs|sssp|color|mis|sssp-bf");
    run_free(&run);
}
END_TEST

/* ---- Throughput: TEPS and load time ------------------------------------------------------- */

/* Directed, 1-based: 1 -> 2 -> 3, and node 4, with the most arcs, to 5 and to 1. From node 1
 * the arcs leaving the nodes reached are 1 -> 2 and 2 -> 3; from node 4 every arc; read as
 * undirected (color, mis) it has 8 arcs. Its largest degree is 2 either way (node 4; read as
 * undirected, nodes 1, 2 and 4 too); a grid's is 4. */
static const char teps_graph[] = "p sp 5 4\na 1 2 3\na 2 3 4\na 4 5 1\na 4 1 2\n";

static const struct {
    const char *app, *input, *source, *searches;
    double arcs;                  /* traversed per run */
    const char *degree;           /* the summary's largest degree */
} teps_cases[] = {
    {"bfs", NULL, NULL, NULL, 2, "2"},
    {"sssp", NULL, NULL, NULL, 2, "2"},
    {"sssp-bf", NULL, NULL, NULL, 2, "2"},
    {"bfs", NULL, "max-degree", NULL, 4, "2"},
    {"sssp-bf", NULL, "max-degree", NULL, 4, "2"},
    {"bfs", NULL, NULL, "3", 6, "2"},
    {"sssp", NULL, "max-degree", "2", 8, "2"},
    {"color", NULL, NULL, NULL, 8, "2"},
    {"mis", NULL, NULL, NULL, 8, "2"},
    {"bfs", "grid:20:20", NULL, NULL, 1520, "4"},
    {"mis", "grid:20:20", NULL, NULL, 1520, "4"},
};
enum { TEPS_CASES = sizeof teps_cases / sizeof teps_cases[0] };

/* --json's traversed_arcs is the arc count the definition gives on a known graph, teps times the
 * median time is that count, load_ms is there; the summary says both, and the graph's largest
 * degree (max_degree in the JSON); --source max-degree starts from node 4. Each case in another
 * mode. */
START_TEST(test_teps_and_load_time)
{
    char graph_path[2 * PATH_BYTES], json_path[2 * PATH_BYTES];
    scratch_path(graph_path, sizeof graph_path, "tiny.gr");
    scratch_path(json_path, sizeof json_path, "run.json");
    write_text(graph_path, teps_graph);
    const char *args[MAX_ARGS] = {teps_cases[_i].app, teps_cases[_i].input ? "--gen" : "--graph",
                                  teps_cases[_i].input ? teps_cases[_i].input : graph_path, "--mode",
                                  modes[_i % MODES], "--repeat", "3", "--json", json_path};
    size_t argc = 9;
    if (teps_cases[_i].source) {
        args[argc++] = "--source";
        args[argc++] = teps_cases[_i].source;
    }
    if (teps_cases[_i].searches) {
        args[argc++] = "--searches";
        args[argc++] = teps_cases[_i].searches;
    }
    char what[1024];
    describe(args, what, sizeof what);
    bench_run run = run_argv(args);
    assert_run(&run, what, 0, "TEPS ");
    assert_run(&run, what, 0, " arcs traversed per run (");
    assert_run(&run, what, 0, "; graph load ");
    char degree[64];
    int sweeps = !strcmp(teps_cases[_i].app, "color") || !strcmp(teps_cases[_i].app, "mis");
    snprintf(degree, sizeof degree, ", largest degree %s%s", teps_cases[_i].degree, sweeps ? "\n" : "; source");
    assert_run(&run, what, 0, degree);
    run_free(&run);

    char *json = tu_read_file(json_path, NULL);
    ck_assert_msg(json_number(json, "\"max_degree\": ") == atof(teps_cases[_i].degree), "%s: max_degree in:\n%s",
                  what, json);
    double arcs = json_number(json, "\"traversed_arcs\": "), teps = json_number(json, "\"teps\": ");
    double time_ms = json_number(json, "\"time_ms_median\": "), load_ms = json_number(json, "\"load_ms\": ");
    ck_assert_msg(arcs == teps_cases[_i].arcs, "%s: traversed_arcs %g, expected %g", what, arcs, teps_cases[_i].arcs);
    ck_assert_msg(time_ms > 0 && fabs(teps * time_ms / 1e3 - arcs) <= 1e-4 * arcs,
                  "%s: teps %g x time %g ms is not %g arcs", what, teps, time_ms, arcs);
    ck_assert_msg(load_ms >= 0 && load_ms < 60e3, "%s: load_ms %g", what, load_ms);
    if (teps_cases[_i].source)
        ck_assert_msg(strstr(json, "\"source\": 4,") != NULL, "%s: the source is not node 4:\n%s", what, json);
    free(json);
}
END_TEST

/* A generated graph's load time is its generation and CSR build: measurable for rmat:16:16 (1.8
 * million arcs); from the node with the most arcs, BFS reaches all but the isolated nodes. Specs
 * beyond the generators' limits end with graph.h's message. */
START_TEST(test_generated_load_time)
{
    char json_path[2 * PATH_BYTES];
    scratch_path(json_path, sizeof json_path, "run.json");
    bench_run run = run_bench("bfs", "--gen", "rmat:16:16", "--source", "max-degree", "--mode", "multikernel",
                              "--json", json_path, NULL);
    assert_run(&run, "bfs rmat:16:16 --source max-degree", 0, "equals the CPU reference");
    run_free(&run);
    char *json = tu_read_file(json_path, NULL);
    double arcs = json_number(json, "\"traversed_arcs\": "), load_ms = json_number(json, "\"load_ms\": ");
    ck_assert_msg(arcs > 0.9 * 1820244 && arcs <= 1820244, "traversed_arcs %g of 1820244", arcs);
    ck_assert_msg(load_ms > 1 && load_ms < 60e3, "load_ms %g", load_ms);
    free(json);

    run = run_bench("bfs", "--gen", "grid:65535:65535", NULL);
    assert_run(&run, "bfs grid:65535:65535", 1, "coop-bench: grid: 65535x65535 has too many arcs (at most 4294967295)");
    run_free(&run);
    run = run_bench("mis", "--gen", "rmat:31:1", NULL);
    assert_run(&run, "mis rmat:31:1", 1, "coop-bench: rmat: 2147483648 edges are too many (at most 2147483647)");
    run_free(&run);
}
END_TEST

static Suite *bench_suite(void)
{
    Suite *suite = suite_create("bench");
    TCase *apps_case = tu_tcase("apps", 120);
    tcase_add_loop_test(apps_case, test_equals_reference, 0, APPS * MODES * INPUTS);
    tcase_add_test(apps_case, test_source_in_file_ids);
    tcase_add_loop_test(apps_case, test_searches_each_mode, 0, APPS * MODES);
    suite_add_tcase(suite, apps_case);

    TCase *chaos = tu_tcase("chaos", 180);
    tcase_add_loop_test(chaos, test_chaos_with_task, 0, APPS);
    tcase_add_loop_test(chaos, test_searches_under_chaos, 0, APPS);
    suite_add_tcase(suite, chaos);

    TCase *task_case = tu_tcase("tasks", 120);
    tcase_add_checked_fixture(task_case, scratch_create, scratch_remove);
    tcase_add_loop_test(task_case, test_task_results, 0, TASKS * APPS * 2);
    tcase_add_test(task_case, test_task_sizing_frame_and_json);
    suite_add_tcase(suite, task_case);

    TCase *formats = tu_tcase("output", 120);
    tcase_add_checked_fixture(formats, scratch_create, scratch_remove);
    tcase_add_loop_test(formats, test_output_format, 0, OUTPUTS);
    tcase_add_test(formats, test_json_and_summary);
    tcase_add_test(formats, test_trace_file);
    suite_add_tcase(suite, formats);

    TCase *sweeps = tu_tcase("sweeps", 180);
    tcase_add_checked_fixture(sweeps, scratch_create, scratch_remove);
    tcase_add_loop_test(sweeps, test_sweeps_each_mode, 0, SWEEP_APPS * MODES * INPUTS);
    tcase_add_loop_test(sweeps, test_sweeps_chaos_with_task, 0, SWEEP_APPS);
    tcase_add_test(sweeps, test_sweeps_directed_and_json);
    suite_add_tcase(suite, sweeps);

    TCase *errors = tu_tcase("errors", 60);
    tcase_add_checked_fixture(errors, scratch_create, scratch_remove);
    tcase_add_loop_test(errors, test_bad_arguments, 0, BAD_ARGUMENTS);
    tcase_add_test(errors, test_groups_and_items);
    tcase_add_test(errors, test_groups_auto);
    tcase_add_test(errors, test_distances_beyond_32_bits);
    tcase_add_test(errors, test_truncated_graph);
    tcase_add_test(errors, test_help);
    suite_add_tcase(suite, errors);

    TCase *expand = tu_tcase("expand", 600);
    tcase_add_checked_fixture(expand, scratch_create, scratch_remove);
    tcase_add_loop_test(expand, test_expand_each_mode, 0, EXPAND_APPS * MODES * EXPAND_INPUTS);
    tcase_add_loop_test(expand, test_expand_local_sizes, 0, EXPAND_APPS * EXPAND_LOCAL_SIZES);
    tcase_add_loop_test(expand, test_expand_slots_full, 0, EXPAND_APPS * MODES);
    tcase_add_loop_test(expand, test_sweeps_equal_replay, 0, REPLAY_APPS * MODES * 2);
    tcase_add_loop_test(expand, test_expand_chaos_with_task, 0, EXPAND_APPS);
    tcase_add_loop_test(expand, test_private_m_chaos_with_task, 0, EXPAND_APPS);
    suite_add_tcase(suite, expand);

    TCase *throughput = tu_tcase("throughput", 120);
    tcase_add_checked_fixture(throughput, scratch_create, scratch_remove);
    tcase_add_loop_test(throughput, test_teps_and_load_time, 0, TEPS_CASES);
    tcase_add_test(throughput, test_generated_load_time);
    suite_add_tcase(suite, throughput);
    return suite;
}

int main(void)
{
    return tu_run(bench_suite());
}
