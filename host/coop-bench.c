/* coop-bench: the ported blocking graph algorithms on libcoop, in three modes, with every run
 * checked against a CPU reference: BFS and SSSP worklist-driven in the style of Lonestar-GPU,
 * coloring (color), maximal independent set (mis) and Bellman-Ford (sssp-bf) as sweeps over all
 * nodes in the style of Pannotia.
 *
 * The options and the exit statuses are in coop_bench_cli's help (--help).
 * Modes: `cooperative` runs the app as a megakernel (resizing barriers between rounds, so it may
 * lose and regain groups) with an optional periodic high-priority task; `standalone` runs the
 * same rounds as a plain persistent kernel with global barriers, and with a task it is the
 * no-cooperation baseline: the task is submitted every period as an ordinary kernel on a second
 * queue and waits for the persistent kernel; `multikernel` launches one ordinary kernel per round
 * and reads the worklist size (sweep apps: whether anything is left to do) back in between.
 * color and mis treat the graph as undirected (a directed input is symmetrized first) and their
 * checks are properties, not equality: a proper coloring with every node colored; an independent
 * set that is maximal. Tasks (bench_task.h): matmult light / medium /
 * heavy and a render frame, sized at start-up for this device unless --task-size gives the
 * matrix order or frame width; their results are checked too. One warm-up run (PoCL compiles at
 * the first launch; the baseline's warm-up has no task) precedes R timed runs; every run is
 * checked. The device is chosen with COOP_DEVICE etc. as in every libcoop program. */
#include "bench_task.h"
#include "bfs/bfs_ref.h"
#include "buffers.h"
#include "cli.h"
#include "clock.h"
#include "color/color_ref.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "graph.h"
#include "graph_input.h"
#include "json.h"
#include "mis/mis_ref.h"
#include "output.h"
#include "run.h"
#include "sssp/sssp_ref.h"
#include "stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The programs coop-merge made of the apps (kernels/generated/, one per form and task set), their
 * host headers, and the plain kernels: the multikernel steps and the tasks as ordinary kernels. */
#include "bfs_standalone.h"
#include "bfs_mega.h"
#include "bfs_matmult_mega.h"
#include "bfs_render_mega.h"
#include "bfs_searches_standalone.h"
#include "bfs_searches_mega.h"
#include "bfs_searches_matmult_mega.h"
#include "bfs_searches_render_mega.h"
#include "sssp_standalone.h"
#include "sssp_mega.h"
#include "sssp_matmult_mega.h"
#include "sssp_render_mega.h"
#include "sssp_searches_standalone.h"
#include "sssp_searches_mega.h"
#include "sssp_searches_matmult_mega.h"
#include "sssp_searches_render_mega.h"
#include "color_standalone.h"
#include "color_mega.h"
#include "color_matmult_mega.h"
#include "color_render_mega.h"
#include "mis_standalone.h"
#include "mis_mega.h"
#include "mis_matmult_mega.h"
#include "mis_render_mega.h"
#include "sssp_bf_standalone.h"
#include "sssp_bf_mega.h"
#include "sssp_bf_matmult_mega.h"
#include "sssp_bf_render_mega.h"

extern const char bfs_standalone_source[];
extern const char bfs_mega_source[];
extern const char bfs_matmult_mega_source[];
extern const char bfs_render_mega_source[];
extern const char bfs_searches_standalone_source[];
extern const char bfs_searches_mega_source[];
extern const char bfs_searches_matmult_mega_source[];
extern const char bfs_searches_render_mega_source[];
extern const char sssp_standalone_source[];
extern const char sssp_mega_source[];
extern const char sssp_matmult_mega_source[];
extern const char sssp_render_mega_source[];
extern const char sssp_searches_standalone_source[];
extern const char sssp_searches_mega_source[];
extern const char sssp_searches_matmult_mega_source[];
extern const char sssp_searches_render_mega_source[];
extern const char color_standalone_source[];
extern const char color_mega_source[];
extern const char color_matmult_mega_source[];
extern const char color_render_mega_source[];
extern const char mis_standalone_source[];
extern const char mis_mega_source[];
extern const char mis_matmult_mega_source[];
extern const char mis_render_mega_source[];
extern const char sssp_bf_standalone_source[];
extern const char sssp_bf_mega_source[];
extern const char sssp_bf_matmult_mega_source[];
extern const char sssp_bf_render_mega_source[];
extern const char bfs_step_source[];
extern const char sssp_step_source[];
extern const char color_step_source[];
extern const char mis_step_source[];
extern const char sssp_bf_step_source[];
extern const char bench_tasks_plain_source[];

/* The device's "unreached" distance (also uncolored, color.cl, and undecided, mis.cl), and the
 * largest distance it can hold (sssp.cl, sssp_bf.cl). */
#define DEVICE_UNREACHED 0xffffffffu
#define DEVICE_CAP 0xfffffffeu
/* Differences printed when a result is wrong. */
#define SHOWN_DIFFERENCES 10

/* The words of the kernels' `counts` buffer: the app's (bfs.cl, sssp.cl, sweep_app.cl), then
 * what kernels/lib/searches.cl reads and writes. */
enum {
    COUNT_ROUNDS = 3,
    COUNT_ITEMS = 4,
    COUNT_SEARCHES = 5,
    COUNT_SOURCE,
    COUNT_NODES,
    COUNT_BASE,
    COUNT_WORDS
};

typedef enum app_kind { APP_BFS, APP_SSSP, APP_COLOR, APP_MIS, APP_SSSP_BF, APPS } app_kind;
typedef enum run_mode { MODE_COOPERATIVE, MODE_STANDALONE, MODE_MULTIKERNEL } run_mode;

static const char *const app_names[] = {"bfs", "sssp", "color", "mis", "sssp-bf"};

/* The app's kernels take the arcs' weights. */
static int app_weighted(app_kind app)
{
    return app == APP_SSSP || app == APP_SSSP_BF;
}

/* Sweep apps go over all nodes each round and take the node count; the others use worklists. */
static int app_sweeps(app_kind app)
{
    return app >= APP_COLOR;
}

/* The app's result is a distance per node (compared with a reference) rather than a property. */
static int app_distances(app_kind app)
{
    return app == APP_BFS || app == APP_SSSP || app == APP_SSSP_BF;
}
static const char *const mode_names[] = {"cooperative", "standalone", "multikernel"};

/* A kernel coop-bench runs: its program's text, its name, and the indices of its parameters by
 * role (-1: it has none), from the host header coop-merge wrote for it. `dist` is bfs's level,
 * color's color and mis's in_set; `mark` is sssp's mark, color's colored and mis's decided. */
typedef struct app_kernel {
    const char *source, *name;
    int row, col, weight, dist, mark, wl0, wl1, counts, n;
    int max_degree;               /* bfs's: the graph's most arcs a node has (lib/expand.h) */
    int task;                     /* the task's index in the megakernel (coop_task_plan.task), -1: none */
    int task_a, task_b, task_c;   /* matmult's a, b and c; render's frame is task_c */
} app_kernel;

#define BFS_ARGS(P, K)                                                                                          \
    .row = P##_ARG_##K##_row, .col = P##_ARG_##K##_col, .weight = -1, .dist = P##_ARG_##K##_level, .mark = -1,  \
    .wl0 = P##_ARG_##K##_wl0, .wl1 = P##_ARG_##K##_wl1, .counts = P##_ARG_##K##_counts, .n = -1,             \
    .max_degree = P##_ARG_##K##_max_degree
#define SSSP_ARGS(P, K)                                                                                         \
    .row = P##_ARG_##K##_row, .col = P##_ARG_##K##_col, .weight = P##_ARG_##K##_weight,                         \
    .dist = P##_ARG_##K##_dist, .mark = P##_ARG_##K##_mark, .wl0 = P##_ARG_##K##_wl0, .wl1 = P##_ARG_##K##_wl1, \
    .counts = P##_ARG_##K##_counts, .n = -1, .max_degree = -1
#define COLOR_ARGS(P, K)                                                                                        \
    .row = P##_ARG_##K##_row, .col = P##_ARG_##K##_col, .weight = -1, .dist = P##_ARG_##K##_color,              \
    .mark = P##_ARG_##K##_colored, .wl0 = -1, .wl1 = -1, .counts = P##_ARG_##K##_counts, .n = P##_ARG_##K##_n,  \
    .max_degree = -1
#define MIS_ARGS(P, K)                                                                                          \
    .row = P##_ARG_##K##_row, .col = P##_ARG_##K##_col, .weight = -1, .dist = P##_ARG_##K##_in_set,             \
    .mark = P##_ARG_##K##_decided, .wl0 = -1, .wl1 = -1, .counts = P##_ARG_##K##_counts, .n = P##_ARG_##K##_n,  \
    .max_degree = -1
#define SSSP_BF_ARGS(P, K)                                                                                      \
    .row = P##_ARG_##K##_row, .col = P##_ARG_##K##_col, .weight = P##_ARG_##K##_weight,                         \
    .dist = P##_ARG_##K##_dist, .mark = -1, .wl0 = -1, .wl1 = -1, .counts = P##_ARG_##K##_counts,               \
    .n = P##_ARG_##K##_n, .max_degree = -1
#define NO_TASK(P) .task = -1, .task_a = -1, .task_b = -1, .task_c = -1
#define MATMULT_TASK(P)                                                                                         \
    .task = P##_TASK_matmult, .task_a = P##_ARG_matmult_a, .task_b = P##_ARG_matmult_b, .task_c = P##_ARG_matmult_c
#define RENDER_TASK(P) .task = P##_TASK_render, .task_a = -1, .task_b = -1, .task_c = P##_ARG_render_frame
#define APP_KERNEL(P, LOWER, ARGS, K, TASK) {.source = LOWER##_source, .name = P##_NAME, ARGS(P, K), TASK(P)}

/* The forms of a cooperative kernel K (host-header prefix P, generated files p_...) that
 * kernels/generated/merges.txt lists. */
enum { FORM_STANDALONE, FORM_MEGA, FORM_MATMULT_MEGA, FORM_RENDER_MEGA, FORMS };
#define APP_FORMS(P, p, ARGS, K)                                                                              \
    {                                                                                                         \
        APP_KERNEL(P##_STANDALONE, p##_standalone, ARGS, K, NO_TASK),                                         \
        APP_KERNEL(P##_MEGA, p##_mega, ARGS, K, NO_TASK),                                                     \
        APP_KERNEL(P##_MATMULT_MEGA, p##_matmult_mega, ARGS, K, MATMULT_TASK),                                \
        APP_KERNEL(P##_RENDER_MEGA, p##_render_mega, ARGS, K, RENDER_TASK)                                    \
    }

/* app_kernels[app][searches][form]: searches 1 is the --searches K kernel (bfs and sssp). */
static const app_kernel app_kernels[APPS][2][FORMS] = {
    [APP_BFS] = {APP_FORMS(BFS, bfs, BFS_ARGS, bfs), APP_FORMS(BFS_SEARCHES, bfs_searches, BFS_ARGS, bfs_searches)},
    [APP_SSSP] = {APP_FORMS(SSSP, sssp, SSSP_ARGS, sssp),
                  APP_FORMS(SSSP_SEARCHES, sssp_searches, SSSP_ARGS, sssp_searches)},
    [APP_COLOR] = {APP_FORMS(COLOR, color, COLOR_ARGS, color)},
    [APP_MIS] = {APP_FORMS(MIS, mis, MIS_ARGS, mis)},
    [APP_SSSP_BF] = {APP_FORMS(SSSP_BF, sssp_bf, SSSP_BF_ARGS, sssp_bf)},
};

/* The multikernel steps (apps/APP/APP_step.cl), plain kernels: their parameters are the
 * cooperative kernel's, in its order, then round and in_count. */
static const char *const step_sources[APPS] = {bfs_step_source, sssp_step_source, color_step_source, mis_step_source,
                                               sssp_bf_step_source};
static const char *const step_names[APPS] = {"bfs_step", "sssp_step", "color_step", "mis_step", "sssp_bf_step"};

typedef struct settings {
    app_kind app;
    const char *graph_path;
    const char *gen_spec;
    int source_given;
    unsigned source_id;           /* as written in the file */
    int source_max_degree;        /* --source max-degree */
    run_mode mode;
    bench_task_kind task;
    double period_ms;             /* 0: the task's own period */
    unsigned task_size;           /* 0: sized for the device */
    const char *output_frame;
    coop_take take;
    unsigned take_count;
    const char *steal;
    unsigned chaos_seed;
    unsigned repeat;
    const char *json_path;
    const char *trace_path;       /* --trace: the last run's trace file */
    unsigned trace_events;        /* --trace-events: per group (0: libcoop's default) */
    const char *output_path;
    size_t local_size;            /* 0: the device's default */
    unsigned max_groups;          /* 0: every co-resident group */
    int groups_auto;              /* --groups auto: max_groups from calibration runs */
    unsigned calibration_runs;    /* --calibration-runs: runs at each count (0: 1) */
    unsigned searches;            /* searches per run (bfs, sssp) */
} settings;

/* What one run measured. */
typedef struct run_result {
    double time_ms;               /* after discovery (persistent modes) / first launch to last read */
    double discovery_ms;
    unsigned rounds;
    unsigned items;               /* bfs, sssp: worklist items processed over all rounds */
    unsigned groups;              /* co-resident groups; multikernel: the most groups one round launched */
    unsigned members_start;
    unsigned kills, forks, resizes, barriers, tasks;
    double mean_members;
    coop_task_record *records;
    size_t record_count;
} run_result;

/* --groups auto: the median time at one group count. */
typedef struct calibration_point {
    unsigned groups, members;     /* co-resident groups; cooperative: members at the start */
    double time_ms;
} calibration_point;

typedef struct bench {
    settings s;
    graph g;
    uint32_t source;              /* internal id */
    int64_t *expected;
    uint32_t *result;
    coop_context *ctx;
    const app_kernel *form;       /* the kernel the mode runs */
    app_kernel step;              /* multikernel: the step kernel */
    coop_program *program;        /* form's */
    coop_kernel *kernel;
    coop_program *task_program;   /* with a task: its plain kernels (kernels/tasks/plain.cl) */
    coop_program *sizing_program; /* standalone with a task sized at start-up: the megakernel with the task */
    cl_mem row, col, weight, dist, mark, wl[2], counts;   /* color, mis: color / in_set in dist, sweep in mark */
    bench_task task;
    size_t local_size;
    unsigned multikernel_bound;   /* most groups a multikernel round launches */
    calibration_point *calibration;  /* --groups auto: each count's time */
    size_t calibration_count;
    int symmetrized;              /* color, mis: a directed input, read as undirected (g is the result) */
    double load_ms;               /* reading (or generating) the graph and building its CSR, symmetrized too */
    uint32_t max_degree;          /* the most arcs a node of g has (graph_max_degree) */
    uint64_t traversed_arcs;      /* the arcs one run traverses, for TEPS (traversed_arcs()) */
    coop_outfile output;        /* --output, opened before the runs (a bad path fails at once) */
} bench;

static const cli coop_bench_cli = {
    "coop-bench",
    "Usage: coop-bench bfs|sssp|color|mis|sssp-bf [--graph FILE | --gen rmat:SCALE:EDGEFACTOR | --gen grid:W:H]\n"
    "                  [--source N|max-degree] [--mode cooperative|standalone|multikernel]\n"
    "                  [--task none|light|medium|heavy|render] [--period-ms P] [--task-size N]\n"
    "                  [--steal one|quarter|half|all-but-one|K] [--chaos SEED] [--repeat R] [--json FILE]\n"
    "                  [--output FILE] [--output-frame FILE.png] [--local-size L] [--groups N|auto]\n"
    "                  [--calibration-runs C] [--searches K] [--trace FILE] [--trace-events N]\n"
    "Runs a blocking graph algorithm on libcoop and checks every run against the CPU.\n"
    "\n"
    "Apps: bfs and sssp (Lonestar-style worklists), color (graph coloring), mis (maximal\n"
    "independent set) and sssp-bf (Bellman-Ford), the last three as Pannotia-style sweeps; color\n"
    "and mis read a directed graph as undirected. One warm-up run (PoCL compiles at the first\n"
    "launch) precedes R timed runs; every run is checked.\n"
    "\n"
    "Besides the median time it reports TEPS, traversed edges per second: for bfs, sssp and\n"
    "sssp-bf the arcs leaving the nodes the source reaches (Graph500's edges of the reached\n"
    "component, an undirected edge counted both ways), times --searches; for color and mis every\n"
    "arc of the (symmetrized) graph; over the median time. And the graph's load time: reading and\n"
    "decoding the file, or generating the graph, and building its CSR (symmetrized for color and\n"
    "mis); the CPU reference is not in it.\n"
    "\n"
    "Options:\n"
    "  --graph FILE        a DIMACS .gr, PACE .gr, SNAP edge list or MatrixMarket .mtx graph,\n"
    "                      optionally .gz or .xz (unweighted arcs get weights 1..255 from a hash)\n"
    "  --gen SPEC          a generated graph: rmat:SCALE:EDGEFACTOR[:SEED] or grid:W:H\n"
    "  --source N|max-degree  the source node as the file numbers it, 0 to 4294967295, or the\n"
    "                      node with the most arcs (the first such) (default: the first node)\n"
    "  --mode M            cooperative: a megakernel with resizing barriers that may lose and\n"
    "                      regain groups, beside the task (the default); standalone: a plain\n"
    "                      persistent kernel with global barriers, the task (if any) queued as an\n"
    "                      ordinary kernel on a second queue (the no-cooperation baseline);\n"
    "                      multikernel: one ordinary kernel launch per round\n"
    "  --task T            a high-priority task every period: none (default), light, medium or\n"
    "                      heavy (a matrix multiplication sized for 3, 3 or 10 ms on a quarter of\n"
    "                      the groups, every 70, 40 or 40 ms) or render (a path-traced frame sized\n"
    "                      for 5 ms, every 40 ms); its result is checked too\n"
    "  --period-ms P       the task's period in ms, above 0 and at most 1000000 (default: the\n"
    "                      task's own)\n"
    "  --task-size N       the task's matrix order or frame width, 1 to 16384, instead of sizing\n"
    "                      it for this device at start-up\n"
    "  --steal S           groups each task takes from the cooperative kernel: one, quarter\n"
    "                      (default), half, all-but-one or a count from 1 to 4095\n"
    "  --chaos SEED        chaos mode from SEED, 1 to 4294967295 (--mode cooperative): kills and\n"
    "                      forks accepted at random, within the semantics\n"
    "  --repeat R          timed runs, 1 to 100000 (default 1)\n"
    "  --json FILE         write every run's figures to FILE\n"
    "  --trace FILE        write a timeline of the last run to FILE (Chrome trace event JSON, for\n"
    "                      Perfetto or chrome://tracing, or scripts/timeline; --mode cooperative)\n"
    "  --trace-events N    events each group's trace buffer holds, 1 to 1048576 (default 4096);\n"
    "                      a group's later events are counted as dropped\n"
    "  --output FILE       write the result, one line per node in file order: the distance (-1:\n"
    "                      unreachable), the color, or 0/1 for membership of the set\n"
    "  --output-frame FILE.png  write the last rendered frame (--task render)\n"
    "  --local-size L      work-items per group, 1 to 65536 and at most what the device allows\n"
    "                      (default 256 on a GPU, 64 on a CPU; megakernels need 3 on PoCL)\n"
    "  --groups N|auto     run on at most N groups, 1 to 16777216 (persistent modes: of the\n"
    "                      co-resident ones; multikernel: per launch); auto (persistent modes):\n"
    "                      the fastest of one run (without the task) on each multiple of the\n"
    "                      compute units up to the co-resident groups, after one that compiles\n"
    "                      and counts them\n"
    "  --calibration-runs C  --groups auto: runs at each group count, 1 to 1000 (default 1); its\n"
    "                      time is their median (--json lists every count's)\n"
    "  --searches K        bfs, sssp: search K times from the source in each run, 1 to 100000\n"
    "                      (default 1); the last search is checked\n"
    "  -h, --help          print this help and exit\n"
    "  --version           print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every run's result (and every task's) equals the CPU reference\n"
    "  1  a bad option or environment value, an unreadable graph, or a device or OpenCL error\n"
    "  2  a result differs from the CPU reference\n",
};

/* ---- Arguments ---------------------------------------------------------------------------- */

/* The value of a number option, strictly; -1 after saying why. */
static int number_option(const char *option, const char *value, unsigned min, unsigned max, unsigned *out)
{
    return cli_unsigned(&coop_bench_cli, option, value, min, max, out);
}

static int parse(int argc, char **argv, settings *s)
{
    const cli *c = &coop_bench_cli;
    *s = (settings){.mode = MODE_COOPERATIVE, .take = COOP_TAKE_QUARTER, .steal = "quarter",
                    .repeat = 1, .searches = 1};
    if (argc < 2)
        return cli_bad_argument(c, "APP", NULL, "missing (bfs, sssp, color, mis or sssp-bf)");
    size_t app = 0;
    if (cli_choice(c, "APP", argv[1], app_names, APPS, &app) != 0)
        return -1;
    s->app = (app_kind)app;
    const char *task_names[BENCH_TASK_RENDER + 1];
    for (int k = 0; k <= BENCH_TASK_RENDER; k++)
        task_names[k] = bench_task_name((bench_task_kind)k);
    cli_seen seen = {0};
    for (int i = 2; i < argc; i++) {
        const char *option = argv[i];
        if (strncmp(option, "--", 2) != 0)
            return cli_bad_argument(c, "argument", option, "unexpected");
        const char *value = cli_value(c, argc, argv, &i, &seen);
        if (!value)
            return -1;
        unsigned number = 0;
        size_t choice = 0;
        int bad = 0;
        if (!strcmp(option, "--graph")) {
            s->graph_path = value;
        } else if (!strcmp(option, "--gen")) {
            s->gen_spec = value;
        } else if (!strcmp(option, "--source")) {
            s->source_max_degree = !strcmp(value, "max-degree");
            if (!s->source_max_degree)
                bad = number_option(option, value, 0, UINT32_MAX, &s->source_id);
            s->source_given = !s->source_max_degree;
        } else if (!strcmp(option, "--mode")) {
            bad = cli_choice(c, option, value, mode_names, 3, &choice);
            s->mode = (run_mode)choice;
        } else if (!strcmp(option, "--task")) {
            bad = cli_choice(c, option, value, task_names, BENCH_TASK_RENDER + 1, &choice);
            s->task = (bench_task_kind)choice;
        } else if (!strcmp(option, "--task-size")) {
            bad = number_option(option, value, 1, 1 << 14, &s->task_size);
        } else if (!strcmp(option, "--output-frame")) {
            s->output_frame = value;
        } else if (!strcmp(option, "--period-ms")) {
            bad = cli_positive(c, option, value, 1e6, &s->period_ms);
        } else if (!strcmp(option, "--steal")) {
            if (cli_take(c, option, value, &s->take, &s->take_count) != 0)
                return -1;
            s->steal = value;
        } else if (!strcmp(option, "--chaos")) {
            bad = number_option(option, value, 1, UINT32_MAX, &s->chaos_seed);
        } else if (!strcmp(option, "--calibration-runs")) {
            bad = number_option(option, value, 1, 1000, &s->calibration_runs);
        } else if (!strcmp(option, "--repeat")) {
            bad = number_option(option, value, 1, 100000, &s->repeat);
        } else if (!strcmp(option, "--json")) {
            s->json_path = value;
        } else if (!strcmp(option, "--trace")) {
            s->trace_path = value;
        } else if (!strcmp(option, "--trace-events")) {
            bad = number_option(option, value, 1, COOP_TRACE_MAX_EVENTS, &s->trace_events);
        } else if (!strcmp(option, "--output")) {
            s->output_path = value;
        } else if (!strcmp(option, "--local-size")) {
            bad = number_option(option, value, 1, CLI_MAX_LOCAL_SIZE, &number);
            s->local_size = number;
        } else if (!strcmp(option, "--groups")) {
            s->groups_auto = !strcmp(value, "auto");
            if (!s->groups_auto)
                bad = number_option(option, value, 1, 1u << 24, &s->max_groups);
        } else if (!strcmp(option, "--searches")) {
            bad = number_option(option, value, 1, 100000, &s->searches);
        } else {
            return cli_bad_argument(c, "option", option, "unknown");
        }
        if (bad)
            return -1;
    }
    if (!s->graph_path == !s->gen_spec)
        return cli_bad_argument(c, "input", NULL, "give exactly one of --graph FILE and --gen SPEC");
    if (s->calibration_runs && !s->groups_auto)
        return cli_bad_argument(c, "--calibration-runs", NULL, "needs --groups auto");
    if (s->groups_auto && s->mode == MODE_MULTIKERNEL)
        return cli_bad_argument(c, "--groups", "auto", "calibration needs --mode cooperative or standalone");
    if (s->task && s->mode == MODE_MULTIKERNEL)
        return cli_bad_argument(c, "--task", bench_task_name(s->task),
                                "tasks run only in --mode cooperative or standalone");
    if (s->output_frame && s->task != BENCH_TASK_RENDER)
        return cli_bad_argument(c, "--output-frame", s->output_frame, "needs --task render");
    if (!s->period_ms)
        s->period_ms = s->task ? bench_task_period_ms(s->task) : 70.0;
    if (s->chaos_seed && s->mode != MODE_COOPERATIVE)
        return cli_bad_argument(c, "--chaos", NULL, "chaos mode needs --mode cooperative");
    if (s->trace_path && s->mode != MODE_COOPERATIVE)
        return cli_bad_argument(c, "--trace", s->trace_path, "traces need --mode cooperative");
    if (s->searches > 1 && s->app != APP_BFS && s->app != APP_SSSP)
        return cli_bad_argument(c, "--searches", NULL, "only bfs and sssp search from a source");
    return 0;
}

/* ---- Graph and references ----------------------------------------------------------------- */

/* The arcs a run traverses, for TEPS: with a source, the arcs leaving the nodes the CPU
 * reference reached (Graph500's edges of the reached component, an undirected edge counted both
 * ways), once per search; the sweep apps go over every arc. */
static uint64_t traversed_arcs(const bench *b)
{
    if (!app_distances(b->s.app))
        return b->g.m;
    uint64_t arcs = 0;
    for (uint32_t v = 0; v < b->g.n; v++)
        if (b->expected[v] >= 0)
            arcs += b->g.row[v + 1] - b->g.row[v];
    return arcs * b->s.searches;
}

static int load_graph(bench *b)
{
    double start_ms = clock_now_ms();
    if (graph_input_load(coop_bench_cli.name, b->s.graph_path, b->s.gen_spec, &b->g) != 0)
        return 1;
    if (b->g.directed && !app_distances(b->s.app)) {
        graph undirected;
        char err[256];
        if (graph_undirected(&b->g, &undirected, err, sizeof err) != 0)
            return error_report(coop_bench_cli.name, "the undirected graph: %s", err);
        graph_free(&b->g);
        b->g = undirected;
        b->symmetrized = 1;
    }
    b->load_ms = clock_now_ms() - start_ms;
    b->max_degree = graph_max_degree(&b->g);
    uint32_t first = b->g.first_id;
    uint64_t last = (uint64_t)first + b->g.n - 1;
    if (b->s.source_given && (b->s.source_id < first || b->s.source_id > last))
        return error_report(coop_bench_cli.name, "--source %" PRIu32 " is not a node of the graph (ids %" PRIu32
                            "..%" PRIu64 ")", b->s.source_id, first, last);
    b->source = b->s.source_given ? b->s.source_id - first : 0;
    for (uint32_t v = 0; b->s.source_max_degree && v < b->g.n; v++)
        if (b->g.row[v + 1] - b->g.row[v] > b->g.row[b->source + 1] - b->g.row[b->source])
            b->source = v;
    b->expected = malloc((size_t)b->g.n * sizeof *b->expected);
    b->result = malloc((size_t)b->g.n * sizeof *b->result);
    if (!b->expected || !b->result)
        return error_report(coop_bench_cli.name, "out of memory for %" PRIu32 " nodes", b->g.n);
    if (!app_distances(b->s.app)) {
        b->traversed_arcs = traversed_arcs(b);
        return 0;
    }
    int rc = b->s.app == APP_BFS ? reference_bfs(b->g.row, b->g.col, b->g.n, b->source, b->expected)
                             : reference_sssp(b->g.row, b->g.col, b->g.weight, b->g.n, b->source, b->expected);
    if (rc != 0)
        return error_report(coop_bench_cli.name, "out of memory in the CPU reference");
    b->traversed_arcs = traversed_arcs(b);
    for (uint32_t v = 0; v < b->g.n; v++)
        if (b->expected[v] >= (int64_t)DEVICE_CAP)
            return error_report(coop_bench_cli.name, "node %" PRIu64 " is at distance %" PRId64 ", beyond the "
                                "device's 32-bit distances (at most %u)", (uint64_t)v + first, b->expected[v],
                                DEVICE_CAP - 1);
    return 0;
}

/* ---- Device ------------------------------------------------------------------------------- */

/* A buffer of `words` 32-bit words, as buffer_create() makes it. */
static cl_mem make_buffer(bench *b, size_t words, cl_int *err)
{
    return buffer_create(b->ctx, words * sizeof(cl_uint), NULL, err);
}

/* Sets `form`'s graph parameters (every one it has) on `kernel`. */
static coop_status set_graph_args(bench *b, coop_kernel *kernel, const app_kernel *form)
{
    const struct {
        int index;
        cl_mem buffer;
    } buffers[] = {{form->row, b->row},       {form->col, b->col},     {form->weight, b->weight},
                   {form->dist, b->dist},     {form->mark, b->mark},   {form->wl0, b->wl[0]},
                   {form->wl1, b->wl[1]},     {form->counts, b->counts}};
    coop_status status = COOP_OK;
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0] && status == COOP_OK; i++)
        if (buffers[i].index >= 0)
            status = coop_kernel_set_buffer(kernel, (unsigned)buffers[i].index, buffers[i].buffer);
    if (form->n >= 0 && status == COOP_OK) {
        const cl_uint n = b->g.n;
        status = coop_kernel_set_arg(kernel, (unsigned)form->n, sizeof n, &n);
    }
    if (form->max_degree >= 0 && status == COOP_OK) {
        const cl_uint max_degree = b->max_degree;
        status = coop_kernel_set_arg(kernel, (unsigned)form->max_degree, sizeof max_degree, &max_degree);
    }
    return status;
}

/* The step kernel's parameters: the cooperative kernel's, in order (its megakernel without a
 * task lists exactly them), then round and in_count. */
static app_kernel step_kernel(app_kind app)
{
    const app_kernel *mega = &app_kernels[app][0][FORM_MEGA];
    app_kernel step = *mega;
    step.source = step_sources[app];
    step.name = step_names[app];
    return step;
}

/* The generated kernel of `form` for this run (--searches K: the searches kernel). */
static const app_kernel *app_form(const bench *b, int form)
{
    return &app_kernels[b->s.app][b->s.searches > 1][form];
}

/* The megakernel holding the run's task. */
static int task_form(const bench *b)
{
    return b->s.task == BENCH_TASK_RENDER ? FORM_RENDER_MEGA : FORM_MATMULT_MEGA;
}

/* Builds `source` into *program; 0, or 1 after saying why. */
static int build(bench *b, const char *source, const char *what, coop_program **program)
{
    coop_status status = coop_program_create(b->ctx, source, NULL, program);
    return status == COOP_OK ? 0 : error_coop(coop_bench_cli.name, b->ctx, status, what);
}

/* The task's binding in `form`'s megakernel, for bench_task.c. */
static bench_binding task_binding(const app_kernel *form)
{
    return (bench_binding){.task = (unsigned)form->task, .a = form->task_a, .b = form->task_b, .c = form->task_c};
}

/* Sizes the task in the app's megakernel with the task, with an empty worklist (its search ends
 * at once; reset() restores the worklist before each run), unless --task-size gives the size,
 * and says what it is. Standalone runs build that megakernel for the sizing alone. */
static int open_task(bench *b)
{
    const app_kernel *mega = app_form(b, task_form(b));
    bench_sizing sizing = {.binding = task_binding(mega)};
    coop_status status = COOP_OK;
    if (build(b, bench_tasks_plain_source, "the task's plain kernels", &b->task_program) != 0)
        return 1;
    if (!b->s.task_size) {
        coop_program *program = b->program;
        if (b->form != mega) {
            if (build(b, mega->source, "the task's sizing megakernel", &b->sizing_program) != 0)
                return 1;
            program = b->sizing_program;
        }
        status = coop_kernel_create(program, mega->name, &sizing.mega);
        if (status == COOP_OK)
            status = set_graph_args(b, sizing.mega, mega);
        cl_int err = status == COOP_OK ? buffer_fill_words(coop_context_queue(b->ctx), b->counts, 0, COUNT_WORDS)
                                       : CL_SUCCESS;
        if (err == CL_SUCCESS)
            err = clFinish(coop_context_queue(b->ctx));
        if (err != CL_SUCCESS) {
            coop_kernel_release(sizing.mega);
            return error_cl(coop_bench_cli.name, err, "emptying the worklist for the task's sizing");
        }
    }
    int rc = status == COOP_OK ? bench_task_open(&b->task, b->s.task, b->ctx, b->task_program, b->local_size,
                                                 b->s.task_size, &sizing)
                               : error_coop(coop_bench_cli.name, b->ctx, status, "the task's sizing kernel");
    coop_kernel_release(sizing.mega);
    if (rc != 0)
        return rc;
    char what[128];
    bench_task_describe(&b->task, what, sizeof what);
    if (b->task.sized_ms > 0)
        printf("task %s; sized for %.1f ms on a quarter of the groups: %.2f ms on %u group%s", what,
               bench_task_target_ms(b->s.task), b->task.sized_ms, b->task.sizing_groups,
               b->task.sizing_groups == 1 ? "" : "s");
    else
        printf("task %s (size given)", what);
    printf("; alone on the whole device %.2f ms\n", b->task.whole_device_ms);
    fflush(stdout);
    return 0;
}

static int open_device(bench *b)
{
    if (device_open(coop_bench_cli.name, "device", &b->ctx) != 0)
        return 1;
    const coop_device_info *info = coop_context_device(b->ctx);
    b->local_size = b->s.local_size ? b->s.local_size : device_default_local_size(info);
    if (device_check_local_size(coop_bench_cli.name, info, b->local_size) != 0)
        return 1;
    b->multikernel_bound = coop_launch_groups(b->ctx, b->local_size);
    if (b->s.max_groups && b->s.max_groups < b->multikernel_bound)
        b->multikernel_bound = b->s.max_groups;
    /* a megakernel holds only the task this run may run (kernels/generated/merges.txt) */
    if (b->s.mode == MODE_MULTIKERNEL) {
        b->step = step_kernel(b->s.app);
        b->form = &b->step;
    } else {
        b->form = app_form(b, b->s.mode == MODE_STANDALONE ? FORM_STANDALONE : b->s.task ? task_form(b) : FORM_MEGA);
    }
    if (device_build(coop_bench_cli.name, b->ctx, b->form->source, b->form->name, &b->program, &b->kernel) != 0)
        return 1;

    const graph *g = &b->g;
    cl_int err = CL_SUCCESS;
    graph_input_buffers(b->ctx, g, &b->row, &b->col, app_weighted(b->s.app) ? &b->weight : NULL, &err);
    if (b->s.app == APP_SSSP || b->s.app == APP_COLOR || b->s.app == APP_MIS)
        b->mark = make_buffer(b, g->n, &err);
    b->dist = make_buffer(b, g->n, &err);
    if (!app_sweeps(b->s.app)) {
        b->wl[0] = make_buffer(b, g->n, &err);
        b->wl[1] = make_buffer(b, g->n, &err);
    }
    b->counts = make_buffer(b, COUNT_WORDS, &err);
    if (err != CL_SUCCESS)
        return error_cl(coop_bench_cli.name, err, "buffers");
    if (b->s.task && open_task(b) != 0)
        return 1;
    coop_status status = set_graph_args(b, b->kernel, b->form);
    if (b->form->task >= 0) {
        const struct {
            int index;
            cl_mem buffer;
        } task_buffers[] = {{b->form->task_a, b->task.a}, {b->form->task_b, b->task.b}, {b->form->task_c, b->task.c}};
        for (unsigned i = 0; i < 3 && status == COOP_OK; i++)
            if (task_buffers[i].index >= 0)
                status = coop_kernel_set_buffer(b->kernel, (unsigned)task_buffers[i].index, task_buffers[i].buffer);
    }
    return status == COOP_OK ? 0 : error_coop(coop_bench_cli.name, b->ctx, status, "kernel arguments");
}

static void close_device(bench *b)
{
    bench_task_close(&b->task);
    const cl_mem buffers[] = {b->row, b->col, b->weight, b->dist, b->mark, b->wl[0], b->wl[1], b->counts};
    buffers_release(buffers, sizeof buffers / sizeof buffers[0]);
    coop_kernel_release(b->kernel);
    coop_program_release(b->program);
    coop_program_release(b->task_program);
    coop_program_release(b->sizing_program);
    coop_context_release(b->ctx);
}

/* Enqueues the starting state of a search (of a sweep app's run): bfs.cl, sssp.cl, sssp_bf.cl: no
 * node reached but the source (and the source alone in worklist 0); color.cl, mis.cl: every node
 * uncolored or undecided. counts[] gets {1, 0, 0} and `rest` after them; `rest` must last until
 * the queue has done the writes (the constants here are static for that reason). */
static cl_int enqueue_start(bench *b, const cl_uint *rest, size_t rest_words)
{
    cl_command_queue queue = coop_context_queue(b->ctx);
    static const cl_uint zero = 0, sizes[3] = {1, 0, 0};
    cl_int err = buffer_fill_words(queue, b->dist, DEVICE_UNREACHED, b->g.n);
    if (err == CL_SUCCESS && app_distances(b->s.app))
        err = clEnqueueWriteBuffer(queue, b->dist, CL_FALSE, b->source * sizeof(cl_uint), sizeof zero, &zero, 0,
                                   NULL, NULL);
    if (err == CL_SUCCESS && b->mark)
        err = buffer_fill_words(queue, b->mark, b->s.app == APP_SSSP ? 0 : DEVICE_UNREACHED, b->g.n);
    if (err == CL_SUCCESS && b->wl[0])
        err = clEnqueueWriteBuffer(queue, b->wl[0], CL_FALSE, 0, sizeof(cl_uint), &b->source, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(queue, b->counts, CL_FALSE, 0, sizeof sizes, sizes, 0, NULL, NULL);
    if (err == CL_SUCCESS && rest_words)
        err = clEnqueueWriteBuffer(queue, b->counts, CL_FALSE, sizeof sizes, rest_words * sizeof *rest, rest, 0,
                                   NULL, NULL);
    return err;
}

/* The state every mode starts a run with: the first search's, counts[] for kernels/lib/searches.cl
 * (rounds, items and the base 0), no task result. */
static int reset(bench *b)
{
    const cl_uint rest[COUNT_WORDS - 3] = {[COUNT_SEARCHES - 3] = b->s.searches, [COUNT_SOURCE - 3] = b->source,
                                           [COUNT_NODES - 3] = b->g.n};
    cl_int err = enqueue_start(b, rest, COUNT_WORDS - 3);
    if (err == CL_SUCCESS)
        err = clFinish(coop_context_queue(b->ctx));
    if (err != CL_SUCCESS)
        return error_cl(coop_bench_cli.name, err, "resetting the buffers");
    return b->s.task ? bench_task_clear(&b->task) : 0;
}

static int read_counts(bench *b, size_t first, size_t words, cl_uint *values)
{
    cl_int err = clEnqueueReadBuffer(coop_context_queue(b->ctx), b->counts, CL_TRUE, first * sizeof(cl_uint),
                                     words * sizeof(cl_uint), values, 0, NULL, NULL);
    return err == CL_SUCCESS ? 0 : error_cl(coop_bench_cli.name, err, "reading the worklist size");
}

/* A persistent run's rounds (without the restarts between searches) and worklist items. */
static int read_figures(bench *b, run_result *r)
{
    cl_uint figures[2] = {0, 0};
    if (read_counts(b, COUNT_ROUNDS, 2, figures) != 0)
        return 1;
    r->rounds = figures[0] - (b->s.searches - 1);
    r->items = figures[1];
    return 0;
}

/* With a task, the no-cooperation baseline: a timed run submits the task from `first_ms` after
 * the launch on (the warm-up's discovery time, about when the groups start the search), and the
 * run's index is the frame that render draws. */
static int run_standalone(bench *b, run_result *r, unsigned run, double first_ms)
{
    bench_baseline *baseline = NULL;
    if (b->s.task && run > 0 && bench_baseline_start(&b->task, b->s.period_ms, first_ms, run, &baseline) != 0)
        return 1;
    coop_launch launch = {.local_size = b->local_size, .max_groups = b->s.max_groups};
    coop_run_stats stats;
    coop_status status = run_persistent(coop_bench_cli.name, b->ctx, b->kernel, &launch, &stats, "standalone run");
    if (baseline && bench_baseline_stop(baseline, &r->records, &r->record_count) != 0)
        return 1;
    r->tasks = (unsigned)r->record_count;
    if (status != COOP_OK)
        return 1;
    r->time_ms = stats.run_ms - stats.discovery_ms;
    r->discovery_ms = stats.discovery_ms;
    r->groups = r->members_start = stats.groups;
    r->mean_members = stats.groups;
    return read_figures(b, r);
}

/* The run's index is the frame that render draws. */
static int run_cooperative(bench *b, run_result *r, unsigned run)
{
    coop_mega_params params = {.launch = {.local_size = b->local_size, .max_groups = b->s.max_groups},
                               .chaos_seed = b->s.chaos_seed,
                               .trace_file = run == b->s.repeat ? b->s.trace_path : NULL,
                               .trace_events = b->s.trace_events};
    coop_task_plan plan = {0};
    if (b->s.task)
        plan = bench_task_plan(&b->task, task_binding(b->form), b->s.take, b->s.take_count, b->s.period_ms, run);
    coop_mega_report report;
    coop_status status = run_megakernel(coop_bench_cli.name, b->ctx, b->kernel, &params, &plan, b->s.task ? 1 : 0,
                                        &report, "cooperative run");
    if (status != COOP_OK)
        return 1;
    r->time_ms = report.cooperative_ms;
    r->discovery_ms = report.discovery_ms;
    r->groups = report.groups;
    r->members_start = report.members_start;
    r->kills = report.kills;
    r->forks = report.forks;
    r->resizes = report.resizes;
    r->barriers = report.barriers;
    r->tasks = report.tasks;
    r->mean_members = report.mean_members;
    if (params.trace_file)
        printf("trace of the last run: %s (%lu events, %lu dropped)\n", params.trace_file, report.trace_events,
               report.trace_dropped);
    if (report.record_count) {
        r->records = malloc(report.record_count * sizeof *r->records);
        if (!r->records) {
            coop_mega_report_free(&report);
            return error_report(coop_bench_cli.name, "out of memory for task records");
        }
        memcpy(r->records, report.records, report.record_count * sizeof *r->records);
        r->record_count = report.record_count;
    }
    coop_mega_report_free(&report);
    return read_figures(b, r);
}

/* One launch per round, as many groups as the worklist (sweep apps: the nodes) needs, at most an
 * occupancy bound, and a blocking read of the next worklist's size in between. */
static int run_multikernel(bench *b, run_result *r)
{
    cl_command_queue queue = coop_context_queue(b->ctx);
    cl_kernel kernel = coop_kernel_cl(b->kernel);
    /* the step kernel's round and in_count follow the cooperative kernel's parameters */
    cl_uint round_index = (cl_uint)(b->step.max_degree >= 0 ? b->step.max_degree
                                    : app_sweeps(b->s.app) ? b->step.n : b->step.counts) + 1;
    cl_uint round = 0, in_count = 1;
    unsigned search = 1;
    double start_ms = clock_now_ms();
    while (in_count || search < b->s.searches) {
        if (!in_count) {
            cl_int err = enqueue_start(b, NULL, 0);
            if (err != CL_SUCCESS)
                return error_cl(coop_bench_cli.name, err, "restarting the search");
            r->rounds += round;
            round = 0;
            in_count = 1;
            search++;
        }
        size_t items = app_sweeps(b->s.app) ? b->g.n : in_count;
        size_t groups = (items + b->local_size - 1) / b->local_size;
        if (groups > b->multikernel_bound)
            groups = b->multikernel_bound;
        if (groups > r->groups)
            r->groups = (unsigned)groups;
        size_t global_size = groups * b->local_size;
        cl_int err = clSetKernelArg(kernel, round_index, sizeof round, &round);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, round_index + 1, sizeof in_count, &in_count);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global_size, &b->local_size, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return error_cl(coop_bench_cli.name, err, "multikernel launch");
        round++;
        r->items += in_count;
        if (read_counts(b, round % 3, 1, &in_count) != 0)
            return 1;
    }
    r->time_ms = clock_now_ms() - start_ms;
    r->rounds += round;
    r->members_start = r->groups;
    r->mean_members = r->groups;
    return 0;
}

/* ---- Checks ------------------------------------------------------------------------------- */

static void print_distance(FILE *out, int64_t value)
{
    fprintf(out, "%" PRId64, value);
}

static int64_t device_distance(uint32_t value)
{
    return value == DEVICE_UNREACHED ? -1 : (int64_t)value;
}

/* Checks a coloring (color) or a maximal independent set (mis); prints the first faults. */
static int check_property(bench *b, unsigned run)
{
    static const char *const faults[] = {
        [REFERENCE_UNDECIDED] = "no result (uncolored or undecided)",
        [REFERENCE_CONFLICT] = "the same as its neighbour",
        [REFERENCE_UNCOVERED] = "outside the set, and so is every neighbour (the set is not maximal)",
    };
    uint64_t wrong = 0;
    for (uint32_t v = 0; v < b->g.n; v++) {
        uint32_t neighbour = 0;
        reference_fault fault =
            b->s.app == APP_COLOR
                ? reference_coloring_fault(b->g.row, b->g.col, b->result, DEVICE_UNREACHED, v, &neighbour)
                : reference_mis_fault(b->g.row, b->g.col, b->result, v, &neighbour);
        if (fault == REFERENCE_OK)
            continue;
        if (wrong++ == 0)
            fprintf(stderr, "coop-bench: %s %s run %u is not a %s; first faults:\n", app_names[b->s.app],
                    mode_names[b->s.mode], run,
                    b->s.app == APP_COLOR ? "proper coloring" : "maximal independent set");
        if (wrong <= SHOWN_DIFFERENCES) {
            fprintf(stderr, "  node %" PRIu64 " (", (uint64_t)v + b->g.first_id);
            print_distance(stderr, device_distance(b->result[v]));
            fprintf(stderr, "): %s", faults[fault]);
            if (fault == REFERENCE_CONFLICT)
                fprintf(stderr, " %" PRIu64, (uint64_t)neighbour + b->g.first_id);
            fprintf(stderr, "\n");
        }
    }
    if (wrong)
        fprintf(stderr, "coop-bench: %" PRIu64 " of %" PRIu32 " nodes are at fault\n", wrong, b->g.n);
    return wrong ? 2 : 0;
}

/* Compares the device's distances with the reference, or checks the app's property; prints the
 * first differences. */
static int check_result(bench *b, unsigned run)
{
    cl_int err = clEnqueueReadBuffer(coop_context_queue(b->ctx), b->dist, CL_TRUE, 0,
                                     (size_t)b->g.n * sizeof(cl_uint), b->result, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(coop_bench_cli.name, err, "reading the result");
    if (!app_distances(b->s.app))
        return check_property(b, run);
    if (b->s.app == APP_BFS) {
        cl_uint base = 0;   /* the last search's first round: its source's level (searches.cl) */
        if (read_counts(b, COUNT_BASE, 1, &base) != 0)
            return 1;
        for (uint32_t v = 0; v < b->g.n; v++)
            if (b->result[v] != DEVICE_UNREACHED)
                b->result[v] -= base;
    }
    uint64_t wrong = 0;
    for (uint32_t v = 0; v < b->g.n; v++) {
        int64_t got = device_distance(b->result[v]);
        if (got == b->expected[v])
            continue;
        if (wrong++ == 0)
            fprintf(stderr, "coop-bench: %s %s run %u differs from the CPU reference; first differences:\n",
                    app_names[b->s.app], mode_names[b->s.mode], run);
        if (wrong <= SHOWN_DIFFERENCES) {
            fprintf(stderr, "  node %" PRIu64 ": got ", (uint64_t)v + b->g.first_id);
            print_distance(stderr, got);
            fprintf(stderr, ", expected ");
            print_distance(stderr, b->expected[v]);
            fprintf(stderr, "\n");
        }
    }
    if (wrong)
        fprintf(stderr, "coop-bench: %" PRIu64 " of %" PRIu32 " nodes differ\n", wrong, b->g.n);
    return wrong ? 2 : 0;
}

/* The task's result, once a task ran in this run (render: the run's frame). */
static int check_task(bench *b, const run_result *r, unsigned run)
{
    return b->s.task && r->record_count ? bench_task_check(&b->task, run, run) : 0;
}

/* ---- Reports ------------------------------------------------------------------------------ */

/* Figures over the timed runs (run 0 is the warm-up). */
typedef struct summary {
    double time_median_ms, time_min_ms, time_max_ms;
    double response_median_us, response_p99_us, gather_median_us, gather_p99_us, exec_median_us, exec_p99_us;
    double groups_median;         /* groups a task took (baseline: workgroups it launched) */
    unsigned kills, forks, resizes, tasks, deadlines_met;
    size_t records;
} summary;

/* The timed runs' task records, one figure each. */
enum { FIGURE_RESPONSE, FIGURE_GATHER, FIGURE_EXEC, FIGURE_GROUPS, FIGURES };

static summary summarise(const run_result *runs, unsigned count)
{
    summary sum = {0};
    size_t records = 0;
    for (unsigned i = 1; i < count; i++)
        records += runs[i].record_count;
    double *times = calloc(count, sizeof *times), *figures[FIGURES];
    int missing = !times;
    for (unsigned f = 0; f < FIGURES; f++)
        missing |= !(figures[f] = calloc(records ? records : 1, sizeof *figures[f]));
    for (unsigned i = 1; i < count && !missing; i++) {
        const run_result *r = &runs[i];
        times[i - 1] = r->time_ms;
        sum.kills += r->kills;
        sum.forks += r->forks;
        sum.resizes += r->resizes;
        sum.tasks += r->tasks;
        for (size_t t = 0; t < r->record_count; t++) {
            figures[FIGURE_RESPONSE][sum.records] = r->records[t].response_us;
            figures[FIGURE_GATHER][sum.records] = r->records[t].gather_us;
            figures[FIGURE_EXEC][sum.records] = r->records[t].exec_us;
            figures[FIGURE_GROUPS][sum.records] = r->records[t].groups;
            sum.deadlines_met += (unsigned)r->records[t].deadline_met;
            sum.records++;
        }
    }
    if (!missing) {
        sum.time_median_ms = stats_quantile(times, count - 1, 0.5);
        sum.time_min_ms = stats_quantile(times, count - 1, 0.0);
        sum.time_max_ms = stats_quantile(times, count - 1, 1.0);
        sum.response_median_us = stats_quantile(figures[FIGURE_RESPONSE], sum.records, 0.5);
        sum.response_p99_us = stats_quantile(figures[FIGURE_RESPONSE], sum.records, 0.99);
        sum.gather_median_us = stats_quantile(figures[FIGURE_GATHER], sum.records, 0.5);
        sum.gather_p99_us = stats_quantile(figures[FIGURE_GATHER], sum.records, 0.99);
        sum.exec_median_us = stats_quantile(figures[FIGURE_EXEC], sum.records, 0.5);
        sum.exec_p99_us = stats_quantile(figures[FIGURE_EXEC], sum.records, 0.99);
        sum.groups_median = stats_quantile(figures[FIGURE_GROUPS], sum.records, 0.5);
    }
    free(times);
    for (unsigned f = 0; f < FIGURES; f++)
        free(figures[f]);
    return sum;
}

/* The kernel's slowdown under a kernel-level preemption scheduler, which gives the device to the
 * task for D of every period P: P / (P - D); NAN when D >= P. */
static double preemption_model(const bench *b, double exec_ms)
{
    return exec_ms < b->s.period_ms ? b->s.period_ms / (b->s.period_ms - exec_ms) : NAN;
}

/* The model with D the median execution time measured in this run (on the groups the task took);
 * NAN without records. */
static double preemption_slowdown(const bench *b, const summary *sum)
{
    return sum->records ? preemption_model(b, sum->exec_median_us / 1e3) : NAN;
}

/* Traversed edges per second at the median time (see traversed_arcs); NAN for a zero time. */
static double teps(const bench *b, const summary *sum)
{
    return sum->time_median_ms > 0 ? (double)b->traversed_arcs / (sum->time_median_ms / 1e3) : NAN;
}

static const char *input_name(const bench *b)
{
    return b->s.graph_path ? b->s.graph_path : b->s.gen_spec;
}

static void print_tasks(const bench *b, const summary *sum)
{
    char what[128];
    bench_task_describe(&b->task, what, sizeof what);
    if (b->s.mode == MODE_COOPERATIVE)
        printf("tasks %u (%s, steal %s, every %.2f ms): response median %.1f us, p99 %.1f us; gather median %.1f us, "
               "p99 %.1f us; exec median %.1f us; %.0f groups taken (median); deadlines met %u of %zu; preemption "
               "model slowdown %.4f%s\n", sum->tasks, what, b->s.steal, b->s.period_ms, sum->response_median_us,
               sum->response_p99_us, sum->gather_median_us, sum->gather_p99_us, sum->exec_median_us,
               sum->groups_median, sum->deadlines_met, sum->records, preemption_slowdown(b, sum),
               isnan(preemption_slowdown(b, sum)) ? " (no task, or it outlasts its period)" : "");
    else
        printf("tasks %u (%s, no cooperation: an ordinary kernel on a second queue every %.2f ms): response median "
               "%.1f us, p99 %.1f us; queued until started median %.1f us, p99 %.1f us; exec median %.1f us; "
               "deadlines met %u of %zu\n", sum->tasks, what, b->s.period_ms, sum->response_median_us,
               sum->response_p99_us, sum->gather_median_us, sum->gather_p99_us, sum->exec_median_us,
               sum->deadlines_met, sum->records);
}

/* The colors of the last run's coloring (after check_result, so every node has one). */
static unsigned colors_used(const bench *b)
{
    uint32_t most = 0;
    for (uint32_t v = 0; v < b->g.n; v++)
        if (b->result[v] + 1u > most)
            most = b->result[v] + 1u;
    return most;
}

/* The nodes in the last run's independent set. */
static unsigned set_size(const bench *b)
{
    unsigned inside = 0;
    for (uint32_t v = 0; v < b->g.n; v++)
        inside += b->result[v] == 1;
    return inside;
}

static void print_summary(const bench *b, const run_result *runs, unsigned count, const summary *sum)
{
    const coop_device_info *info = coop_context_device(b->ctx);
    const run_result *last = &runs[count - 1];
    printf("coop-bench %s, %s mode, on %s (%s), local size %zu\n", app_names[b->s.app], mode_names[b->s.mode],
           info->name, info->platform, b->local_size);
    printf("graph %s: %" PRIu32 " nodes, %" PRIu64 " arcs, %s, %s, largest degree %" PRIu32, input_name(b), b->g.n,
           b->g.m, b->symmetrized ? "directed, read as undirected" : b->g.directed ? "directed" : "undirected",
           b->g.has_weights ? "weighted" : "default weights", b->max_degree);
    if (app_distances(b->s.app))
        printf("; source %" PRIu64, (uint64_t)b->source + b->g.first_id);
    printf("\n");
    if (b->s.mode == MODE_MULTIKERNEL)
        printf("launches %u per run (one per round), up to %u groups each\n", last->rounds, last->groups);
    else
        printf("groups %u co-resident, %u members at the start; discovery %.2f ms\n", last->groups,
               last->members_start, last->discovery_ms);
    printf("time median %.3f ms over %u runs (min %.3f, max %.3f); ", sum->time_median_ms, count - 1,
           sum->time_min_ms, sum->time_max_ms);
    if (b->s.searches > 1)
        printf("searches %u per run; ", b->s.searches);
    printf("rounds %u", last->rounds);
    if (!app_sweeps(b->s.app))
        printf("; worklist items %u", last->items);
    printf("\n");
    printf("TEPS %.4g: %" PRIu64 " arcs traversed per run (%s) over the median time; graph load %.1f ms\n",
           teps(b, sum), b->traversed_arcs, app_distances(b->s.app) ? "those leaving the nodes reached" : "every arc",
           b->load_ms);
    if (b->s.mode == MODE_COOPERATIVE)
        printf("kills %u, forks %u, resizes %u over the timed runs; mean members %.2f (last run)%s\n", sum->kills,
               sum->forks, sum->resizes, last->mean_members, b->s.chaos_seed ? "; chaos mode" : "");
    if (b->s.task)
        print_tasks(b, sum);
    else if (b->s.mode == MODE_COOPERATIVE)
        printf("tasks none\n");
    if (b->s.app == APP_COLOR)
        printf("check: every run (%u, with the warm-up) is a proper coloring (every node colored, no edge "
               "between equal colors); %u colors (last run)", count, colors_used(b));
    else if (b->s.app == APP_MIS)
        printf("check: every run (%u, with the warm-up) is a maximal independent set; %u nodes in it (last run)",
               count, set_size(b));
    else
        printf("check: every run (%u, with the warm-up) equals the CPU reference (%s)", count,
               b->s.app == APP_BFS ? "BFS levels" : "Dijkstra");
    if (b->s.task == BENCH_TASK_RENDER)
        printf("; every frame drawn matches the CPU's at the pixels checked\n");
    else if (b->s.task)
        printf("; every product computed equals the CPU's at the rows checked\n");
    else
        printf("\n");
}

static void write_json_task(FILE *out, const bench *b, const summary *sum)
{
    const bench_task *t = &b->task;
    fprintf(out, "  \"task\": {\"name\": \"%s\", ", bench_task_name(t->kind));
    if (t->kind == BENCH_TASK_RENDER)
        fprintf(out, "\"kind\": \"render\", \"frame_width\": %u, \"frame_height\": %u, ", t->width, t->height);
    else
        fprintf(out, "\"kind\": \"matmult\", \"matrix_size\": %u, ", t->size);
    fprintf(out, "\"workgroups\": %u, \"period_ms\": %.6g, \"target_exec_ms\": %.6g, \"sizing_groups\": %u, "
            "\"sized_ms\": %.6g, \"whole_device_ms\": %.6g, \"baseline\": %s, \"steal\": ", t->workgroups,
            b->s.period_ms, bench_task_target_ms(t->kind), t->sizing_groups, t->sized_ms, t->whole_device_ms,
            b->s.mode == MODE_STANDALONE ? "true" : "false");
    if (b->s.mode == MODE_COOPERATIVE)
        json_string(out, b->s.steal);
    else
        fprintf(out, "null");
    fprintf(out, "},\n  \"missed_periods\": %zu,\n  \"groups_taken_median\": %.6g,\n  \"preemption_slowdown\": ",
            sum->records - sum->deadlines_met, sum->groups_median);
    json_number(out, preemption_slowdown(b, sum));
    fprintf(out, ",\n  \"preemption_slowdown_whole_device\": ");
    json_number(out, preemption_model(b, t->whole_device_ms));
    fprintf(out, ",\n");
}

static int write_json(const bench *b, const run_result *runs, unsigned count, const summary *sum)
{
    coop_outfile file;
    if (output_open(&file, coop_bench_cli.name, b->s.json_path) != 0)
        return CLI_EXIT_ERROR;
    FILE *out = file.stream;
    const coop_device_info *info = coop_context_device(b->ctx);
    fprintf(out, "{\n  \"app\": \"%s\",\n  \"mode\": \"%s\",\n  \"device\": ", app_names[b->s.app],
            mode_names[b->s.mode]);
    json_string(out, info->name);
    fprintf(out, ",\n  \"platform\": ");
    json_string(out, info->platform);
    fprintf(out, ",\n  \"is_gpu\": %s,\n  \"graph\": ", info->is_gpu ? "true" : "false");
    json_string(out, input_name(b));
    fprintf(out, ",\n  \"nodes\": %" PRIu32 ",\n  \"arcs\": %" PRIu64 ",\n  \"max_degree\": %" PRIu32 ",\n"
            "  \"directed\": %s,\n  \"weighted\": %s,\n"
            "  \"source\": %" PRIu64 ",\n  \"searches\": %u,\n  \"local_size\": %zu,\n  \"repeat\": %u,\n"
            "  \"chaos_seed\": %u,\n",
            b->g.n, b->g.m, b->max_degree, b->g.directed || b->symmetrized ? "true" : "false",
            b->g.has_weights ? "true" : "false", (uint64_t)b->source + b->g.first_id, b->s.searches, b->local_size,
            count - 1, b->s.chaos_seed);
    if (b->s.task)
        write_json_task(out, b, sum);
    else
        fprintf(out, "  \"task\": null,\n");
    fprintf(out, "  \"calibration\": %s", b->s.groups_auto ? "[" : "null");
    for (size_t i = 0; i < b->calibration_count; i++)
        fprintf(out, "%s{\"groups\": %u, \"members\": %u, \"time_ms\": %.6f}", i ? ", " : "",
                b->calibration[i].groups, b->calibration[i].members, b->calibration[i].time_ms);
    fprintf(out, "%s,\n", b->s.groups_auto ? "]" : "");
    fprintf(out, "  \"load_ms\": %.3f,\n  \"traversed_arcs\": %" PRIu64 ",\n  \"teps\": ", b->load_ms,
            b->traversed_arcs);
    json_number(out, teps(b, sum));
    fprintf(out, ",\n");
    fprintf(out, "  \"time_ms_median\": %.6f,\n  \"time_ms_min\": %.6f,\n  \"time_ms_max\": %.6f,\n"
            "  \"kills\": %u,\n  \"forks\": %u,\n  \"resizes\": %u,\n  \"tasks\": %u,\n  \"task_records\": %zu,\n"
            "  \"response_us_median\": %.3f,\n  \"response_us_p99\": %.3f,\n  \"gather_us_median\": %.3f,\n"
            "  \"gather_us_p99\": %.3f,\n  \"exec_us_median\": %.3f,\n  \"exec_us_p99\": %.3f,\n"
            "  \"deadlines_met\": %u,\n  \"check\": \"%s\",\n  \"runs\": [\n",
            sum->time_median_ms, sum->time_min_ms, sum->time_max_ms, sum->kills, sum->forks, sum->resizes,
            sum->tasks, sum->records, sum->response_median_us, sum->response_p99_us, sum->gather_median_us,
            sum->gather_p99_us, sum->exec_median_us, sum->exec_p99_us, sum->deadlines_met,
            b->s.app == APP_COLOR ? "proper_coloring" : b->s.app == APP_MIS ? "maximal_independent_set" : "equal");
    for (unsigned i = 0; i < count; i++) {
        const run_result *r = &runs[i];
        fprintf(out, "    {\"warmup\": %s, \"time_ms\": %.6f, \"discovery_ms\": %.6f, \"rounds\": %u, "
                "\"items\": %u, \"groups\": %u, \"members_start\": %u, \"mean_members\": %.4f, \"kills\": %u, \"forks\": %u, "
                "\"resizes\": %u, \"barriers\": %u, \"tasks\": %u, \"task_runs\": [",
                i == 0 ? "true" : "false", r->time_ms, r->discovery_ms, r->rounds, r->items, r->groups, r->members_start,
                r->mean_members, r->kills, r->forks, r->resizes, r->barriers, r->tasks);
        for (size_t t = 0; t < r->record_count; t++) {
            const coop_task_record *rec = &r->records[t];
            fprintf(out, "%s{\"request\": %u, \"groups\": %u, \"request_ms\": %.4f, \"due_ms\": %.4f, "
                    "\"deadline_ms\": %.4f, \"gather_us\": %.3f, \"exec_us\": %.3f, \"response_us\": %.3f, "
                    "\"deadline_met\": %s, \"overtaken\": %u, \"in_flight\": %u, \"device_timed\": %s}",
                    t ? ", " : "", rec->request, rec->groups, rec->request_ms, rec->due_ms, rec->deadline_ms,
                    rec->gather_us, rec->exec_us, rec->response_us, rec->deadline_met ? "true" : "false",
                    rec->overtaken, rec->in_flight, rec->device_timed ? "true" : "false");
        }
        fprintf(out, "]}%s\n", i + 1 < count ? "," : "");
    }
    fprintf(out, "  ]\n}\n");
    return output_commit(&file, coop_bench_cli.name);
}

/* One line per node in file order: the distance (-1: unreached), the color or the membership
 * (0 or 1); -1 for a node the kernel left uncolored or undecided. */
static int write_output(bench *b)
{
    for (uint32_t v = 0; v < b->g.n; v++) {
        print_distance(b->output.stream, device_distance(b->result[v]));
        fputc('\n', b->output.stream);
    }
    return output_commit(&b->output, coop_bench_cli.name);
}

/* ---- Main --------------------------------------------------------------------------------- */

/* One run of the mode, checked; `run` is its index for the task's frames and the messages. */
static int run_checked(bench *b, run_result *r, unsigned run, double first_ms)
{
    int rc = reset(b);
    if (rc == 0)
        rc = b->s.mode == MODE_COOPERATIVE  ? run_cooperative(b, r, run)
             : b->s.mode == MODE_STANDALONE ? run_standalone(b, r, run, first_ms)
                                            : run_multikernel(b, r);
    if (rc == 0)
        rc = check_result(b, run);
    if (rc == 0)
        rc = check_task(b, r, run);
    return rc;
}

/* --groups auto: one run without the task on all co-resident groups (it compiles the kernel and
 * counts them), then --calibration-runs on each multiple of the compute units below that count and
 * on all of them; the count with the fastest median sets max_groups for the runs that follow. */
static int calibrate(bench *b)
{
    unsigned units = coop_context_device(b->ctx)->compute_units, runs = b->s.calibration_runs ? b->s.calibration_runs : 1;
    bench_task_kind task = b->s.task;
    const char *trace = b->s.trace_path;
    b->s.task = BENCH_TASK_NONE;
    b->s.trace_path = NULL;
    b->s.max_groups = 0;
    run_result r = {0};
    int rc = run_checked(b, &r, 0, 0.0);
    unsigned all = r.groups, best = all, counts = units ? (all + units - 1) / units : 0;
    double best_ms = INFINITY, *times = malloc(runs * sizeof *times);
    b->calibration = calloc(counts ? counts : 1, sizeof *b->calibration);
    if (rc == 0 && (!times || !b->calibration))
        rc = error_report(coop_bench_cli.name, "out of memory for the calibration");
    if (rc == 0)
        printf("calibration (median of %u run%s each, no task):", runs, runs == 1 ? "" : "s");
    for (unsigned k = 1; rc == 0 && k <= counts; k++) {
        b->s.max_groups = k * units < all ? k * units : all;
        for (unsigned i = 0; rc == 0 && i < runs; i++) {
            free(r.records);
            r = (run_result){0};
            rc = run_checked(b, &r, 0, 0.0);
            times[i] = r.time_ms;
        }
        if (rc != 0)
            break;
        calibration_point *p = &b->calibration[b->calibration_count++];
        *p = (calibration_point){r.groups, r.members_start, stats_quantile(times, runs, 0.5)};
        printf(" %u groups %.3f ms%s", p->groups, p->time_ms, k < counts ? "," : "");
        if (p->time_ms < best_ms) {
            best_ms = p->time_ms;
            best = p->groups;     /* the groups it ran on: a busy machine may have fewer co-resident */
        }
    }
    free(r.records);
    free(times);
    if (rc == 0)
        printf("; runs on %u groups\n", best);
    b->s.max_groups = best;
    b->s.task = task;
    b->s.trace_path = trace;
    return rc;
}

static int run_all(bench *b)
{
    int rc = load_graph(b);
    if (rc == 0 && b->s.output_path)
        rc = output_open(&b->output, coop_bench_cli.name, b->s.output_path);
    if (rc == 0)
        rc = open_device(b);
    if (rc == 0 && b->s.groups_auto)
        rc = calibrate(b);
    if (rc != 0)
        return rc;
    unsigned count = b->s.repeat + 1;
    run_result *runs = calloc(count, sizeof *runs);
    if (!runs)
        return error_report(coop_bench_cli.name, "out of memory");
    for (unsigned i = 0; i < count && rc == 0; i++)
        rc = run_checked(b, &runs[i], i, runs[0].discovery_ms);
    /* A wrong result is written too: it is what one wants to look at. */
    if ((rc == 0 || rc == 2) && b->output.stream && write_output(b) != 0 && rc == 0)
        rc = 1;
    if (rc == 0 && b->s.output_frame) {
        if (!runs[count - 1].record_count) {
            rc = error_report(coop_bench_cli.name, "%s: the last run drew no frame (no task was due while the kernel "
                              "ran)", b->s.output_frame);
        } else {
            rc = bench_task_write_frame(&b->task, b->s.output_frame);
        }
    }
    if (rc == 0) {
        summary sum = summarise(runs, count);
        print_summary(b, runs, count, &sum);
        if (b->s.json_path && write_json(b, runs, count, &sum) != 0)
            rc = 1;
    }
    for (unsigned i = 0; i < count; i++)
        free(runs[i].records);
    free(runs);
    return rc;
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_bench_cli, argc, argv))
        return CLI_EXIT_OK;
    bench b = {0};
    if (parse(argc, argv, &b.s) != 0)
        return CLI_EXIT_ERROR;
    output_catch_signals();
    int rc = run_all(&b);
    coop_outfile_abandon(&b.output);
    close_device(&b);
    graph_free(&b.g);
    free(b.expected);
    free(b.result);
    free(b.calibration);
    return rc;
}
