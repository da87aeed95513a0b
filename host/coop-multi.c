/* coop-multi: several cooperative kernels and prioritized tasks sharing one device (issue 43).
 *
 *   coop-multi [--graph FILE | --gen SPEC] [--searches K] [--weights A:B[:C]] [--out DIR]
 *              [--chaos SEED] [--quick] ...        (coop_multi_cli's help says more)
 *
 * BFS and SSSP search a graph from one source K times each (apps/bfs/bfs_searches.cl,
 * apps/sssp/sssp_searches.cl) and a work-stealing kernel walks a binary tree of tasks, spawning
 * a `leaf` task run on the device at every TREE_EVERY-th (apps/multi/tree_spawn.cl, leaf.cl), as
 * three cooperative kernels of one megakernel (kernels/generated/multi_mega.cl), which libcoop
 * shares between them by weight (2:1:1 unless told otherwise, docs/DESIGN.md section 17), while
 * two tasks ask for a quarter of the groups each: a path-traced frame (kernels/tasks/render.cl)
 * every 40 ms at high priority, and a small matmult (kernels/tasks/matmult.cl) every 5 ms with a
 * 5 ms deadline, two runs in flight at once.
 *
 * Runs, each checked against the CPU (each search kernel's result, the last of its searches,
 * which start alike; every tree task seen once and a leaf run exactly where its spawn returned
 * SPAWN_OK, as many spawned runs recorded; the frame and the product):
 *   alone      each kernel alone in its own megakernel on the whole device;
 *   together   the kernels in the shared megakernel, no planned task;
 *   tasks      the kernels with the two tasks (the table's figures);
 *   traced     the same traced, into DIR/trace.json, drawn by scripts/timeline into
 *              DIR/timeline.png (who ran where: each kernel's members and each task's workgroups).
 * Prints a table: per kernel its time, its share of the group-time against its weight's share,
 * its kills, forks and moves; per task its runs, gather, execution and response times (median
 * and 99th percentile) and deadlines met; the leaf runs spawned and refused (SPAWN_FULL, the
 * spawn queue full: a defined outcome); and the time the kernels took together against one
 * after the other alone.
 *
 * Another cooperative kernel joins by a line in kernels/generated/merges.txt (its file after
 * sssp's) and an entry in `apps` below: its buffers, its arguments, its start and its check.
 *
 * Exit status: 0; 1 for an error (bad arguments, unreadable graph, device failure); 2 when a
 * result differs from the CPU's. The device is chosen with COOP_DEVICE etc. */
#include "bench_task.h"
#include "bfs/bfs_ref.h"
#include "buffers.h"
#include "cli.h"
#include "coop.h"
#include "coop_layout.h" /* spawn_task's statuses */
#include "device.h"
#include "errors.h"
#include "graph.h"
#include "graph_input.h"
#include "stats.h"

#include "sssp/sssp_ref.h"

#include "coop/kernels/ws_layout.h" /* the tree's queue words, as the kernel has them */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* What coop-merge made (kernels/generated/): the shared megakernel, and each kernel alone. */
#include "bfs_searches_mega.h"
#include "multi_mega.h"
#include "sssp_searches_mega.h"
#include "tree_spawn_mega.h"

extern const char multi_mega_source[];
extern const char bfs_searches_mega_source[];
extern const char sssp_searches_mega_source[];
extern const char tree_spawn_mega_source[];
extern const char bench_tasks_plain_source[];

#define PROGRAM "coop-multi"
#define DEFAULT_GEN "grid:256:256"
#define QUICK_GEN "grid:24:24"
#define DEVICE_UNREACHED 0xffffffffu
#define SHOWN_DIFFERENCES 5
#define GROUPS_WINDOW_US 5e6

/* The tree kernel's tasks (all of a complete binary tree's 12 levels; --quick: 8) and every how
 * many of them spawns a leaf run; TREE_DEQUE: its groups' deque slots (tree_spawn.cl's 8u). */
#define TREE_TASKS 4095u
#define QUICK_TREE_TASKS 255u
#define TREE_EVERY 16u
#define TREE_DEQUE 8u
#define TREE_SEED 0u

/* counts[] of apps/bfs/bfs.h and apps/sssp/sssp.h, then kernels/lib/searches.h's words */
enum { COUNT_SEARCHES = 5, COUNT_SOURCE, COUNT_NODES, COUNT_BASE, COUNT_WORDS };
enum { APPS = MULTI_MEGA_COOP_COUNT, SEARCHES = 2, TREE = MULTI_MEGA_COOP_tree_spawn, PLAN_RENDER = 0, PLAN_LIGHT,
       PLANS };

typedef struct settings {
    const char *graph_path, *gen_spec, *out_dir, *timeline;
    unsigned searches, source, weights[APPS], frame_width, light_size, chaos_seed, groups, tree_tasks;
    double render_period_ms, light_period_ms, light_deadline_ms;
    coop_policy policy;
    int quick, source_given;
} settings;

/* One cooperative kernel of the megakernel: its buffers, and where its arguments are in the
 * shared megakernel and in its own. */
typedef struct app {
    const char *name;
    const char *alone_source, *alone_name;
    unsigned shared_first;        /* its first argument in multi_mega */
    cl_mem dist, mark, wl[2], counts;
    cl_mem queue, seen, spawned, leaves; /* the tree's */
    unsigned queue_groups;        /* the tree's: the most groups it can have */
    int64_t *expected;
    uint32_t *result;
    coop_program *alone_program;
    coop_kernel *alone;
} app;

typedef struct multi {
    settings s;
    graph g;
    coop_context *ctx;
    size_t local_size;
    coop_program *shared_program, *plain_program;
    coop_kernel *shared;
    cl_mem row, col, weight;
    app apps[APPS];
    bench_task render, light;
} multi;

/* The tree's spawns in one run: spawn_task's statuses, and the spawned runs recorded. */
typedef struct spawns {
    unsigned ok, full, recorded;
} spawns;

/* What one run did. */
typedef struct outcome {
    coop_mega_report report;
    coop_kernel_report kernels[APPS];
    double ms;                    /* discovery done until every kernel finished */
    spawns tree;
} outcome;

static const cli coop_multi_cli = {
    PROGRAM,
    "Usage: coop-multi [--graph FILE | --gen rmat:SCALE:EF | --gen grid:W:H] [--source N] [--searches K]\n"
    "                  [--weights A:B[:C]] [--render-period-ms P] [--light-period-ms P]\n"
    "                  [--light-deadline-ms D] [--frame-width W] [--matmult N] [--policy priority|edf]\n"
    "                  [--chaos SEED] [--groups N] [--out DIR] [--timeline SCRIPT] [--quick]\n"
    "Runs BFS, SSSP and a work-stealing tree as cooperative kernels sharing the device by weight,\n"
    "beside two tasks and the tasks the tree spawns on the device.\n"
    "\n"
    "BFS and SSSP search the graph K times each from the source and a work-stealing kernel walks a\n"
    "tree of 4095 tasks (--quick: 255), every 16th spawning a leaf task run from the device, as\n"
    "three cooperative kernels of one megakernel whose groups libcoop shares by weight, while a\n"
    "path-traced frame is due every 40 ms at high priority and a small matmult every 5 ms with a\n"
    "5 ms deadline, each on a quarter of the groups, two in flight at once. It runs each kernel\n"
    "alone, all together, all with the tasks, and that again traced; checks every result against\n"
    "the CPU (a leaf run exactly where its spawn was taken); prints a table of each kernel's time\n"
    "and share of the groups, each task's times and the spawned runs; and writes DIR/trace.json\n"
    "and its picture DIR/timeline.png.\n"
    "\n"
    "Options:\n"
    "  --graph FILE            the graph (default: a 256 x 256 grid)\n"
    "  --gen SPEC              a generated graph: rmat:SCALE:EF[:SEED] or grid:W:H\n"
    "  --source N              the source node as the file numbers it (default: the first node)\n"
    "  --searches K            searches per kernel and run, 1 to 100000 (default 20)\n"
    "  --weights A:B[:C]       BFS's, SSSP's and the tree's weights, each 1 to 1000 (default 2:1:1;\n"
    "                          C: 1 unless given)\n"
    "  --render-period-ms P    a frame is due every P ms, above 0 and at most 10000 (default 40)\n"
    "  --light-period-ms P     a matmult is due every P ms, above 0 and at most 10000 (default 5)\n"
    "  --light-deadline-ms D   its deadline from when it is due, above 0 and at most 10000 (default:\n"
    "                          its period)\n"
    "  --frame-width W         the frame's width, 8 to 1024 (default 96; its height is 3/4 of it)\n"
    "  --matmult N             the matmult's order, 1 to 1024 (default 64)\n"
    "  --policy priority|edf   which due task goes first: the higher priority (the frame), or the\n"
    "                          earlier deadline (default priority)\n"
    "  --chaos SEED            kill and fork groups of every kernel at random (libcoop's chaos mode)\n"
    "                          in the shared runs, 1 to 4294967295\n"
    "  --groups N              run on N groups, 1 to 4095, waiting up to 5 s at each launch for them\n"
    "                          to start (default: the groups discovery finds co-resident)\n"
    "  --out DIR               where trace.json and timeline.png go (default multi)\n"
    "  --timeline SCRIPT       the script that draws the trace (default scripts/timeline, run with\n"
    "                          /usr/bin/python3; no picture where it is absent)\n"
    "  --quick                 a 24 x 24 grid, 2 searches, a 16 x 16 matmult, a 32-pixel frame\n"
    "                          unless told otherwise, and a tree of 255 tasks (for tests)\n"
    "  -h, --help              print this help and exit\n"
    "  --version               print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every run done and every result equals the CPU's\n"
    "  1  a bad option or environment value, an unreadable graph, or a device or OpenCL error\n"
    "  2  a result differs from the CPU's\n",
};

/* ---- Arguments ---------------------------------------------------------------------------- */

/* A:B or A:B:C, each strictly a number from 1 to COOP_WEIGHT_MAX (C: 1 when absent). */
static int parse_weights(const char *value, settings *s)
{
    static const char *const names[APPS] = {"--weights A", "--weights B", "--weights C"};
    char copy[64];
    if (strlen(value) >= sizeof copy)
        return cli_bad_argument(&coop_multi_cli, "--weights", value, "is not A:B or A:B:C");
    strcpy(copy, value);
    char *parts[APPS + 1] = {copy};
    unsigned n = 1;
    for (char *colon = strchr(copy, ':'); colon; colon = strchr(colon + 1, ':')) {
        *colon = '\0';
        if (n == APPS)
            return cli_bad_argument(&coop_multi_cli, "--weights", value, "is not A:B or A:B:C");
        parts[n++] = colon + 1;
    }
    if (n < SEARCHES)
        return cli_bad_argument(&coop_multi_cli, "--weights", value, "is not A:B or A:B:C");
    s->weights[TREE] = 1;
    for (unsigned k = 0; k < n; k++)
        if (cli_unsigned(&coop_multi_cli, names[k], parts[k], 1, COOP_WEIGHT_MAX, &s->weights[k]) != 0)
            return -1;
    return 0;
}

static int parse(int argc, char **argv, settings *s)
{
    const cli *c = &coop_multi_cli;
    *s = (settings){.out_dir = "multi", .timeline = "scripts/timeline", .searches = 20, .weights = {2, 1, 1},
                    .frame_width = 96, .light_size = 64, .render_period_ms = 40.0, .light_period_ms = 5.0};
    static const char *const valued[] = {"--graph", "--gen", "--source", "--searches", "--weights",
                                         "--render-period-ms", "--light-period-ms", "--light-deadline-ms",
                                         "--frame-width", "--matmult", "--policy", "--chaos", "--groups", "--out",
                                         "--timeline"};
    static const char *const policies[] = {"priority", "edf"};
    int searches_given = 0, width_given = 0, size_given = 0;
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (!strcmp(option, "--quick")) {
            s->quick = 1;
            continue;
        }
        if (strncmp(option, "--", 2) != 0)
            return cli_bad_argument(c, "argument", option, "unexpected");
        size_t known = 0;
        while (known < sizeof valued / sizeof *valued && strcmp(option, valued[known]))
            known++;
        if (known == sizeof valued / sizeof *valued)
            return cli_bad_argument(c, "option", option, "unknown");
        const char *value = cli_value(c, argc, argv, &i, &seen);
        if (!value)
            return -1;
        int bad = 0;
        if (!strcmp(option, "--graph")) {
            s->graph_path = value;
        } else if (!strcmp(option, "--gen")) {
            s->gen_spec = value;
        } else if (!strcmp(option, "--source")) {
            bad = cli_unsigned(c, option, value, 0, UINT32_MAX, &s->source);
            s->source_given = 1;
        } else if (!strcmp(option, "--searches")) {
            bad = cli_unsigned(c, option, value, 1, 100000, &s->searches);
            searches_given = 1;
        } else if (!strcmp(option, "--weights")) {
            bad = parse_weights(value, s);
        } else if (!strcmp(option, "--render-period-ms")) {
            bad = cli_positive(c, option, value, 10000, &s->render_period_ms);
        } else if (!strcmp(option, "--light-period-ms")) {
            bad = cli_positive(c, option, value, 10000, &s->light_period_ms);
        } else if (!strcmp(option, "--light-deadline-ms")) {
            bad = cli_positive(c, option, value, 10000, &s->light_deadline_ms);
        } else if (!strcmp(option, "--frame-width")) {
            bad = cli_unsigned(c, option, value, 8, 1024, &s->frame_width);
            width_given = 1;
        } else if (!strcmp(option, "--matmult")) {
            bad = cli_unsigned(c, option, value, 1, 1024, &s->light_size);
            size_given = 1;
        } else if (!strcmp(option, "--policy")) {
            size_t index = 0;
            bad = cli_choice(c, option, value, policies, 2, &index);
            s->policy = index ? COOP_POLICY_EDF : COOP_POLICY_PRIORITY;
        } else if (!strcmp(option, "--chaos")) {
            bad = cli_unsigned(c, option, value, 1, UINT32_MAX, &s->chaos_seed);
        } else if (!strcmp(option, "--groups")) {
            bad = cli_unsigned(c, option, value, 1, 4095, &s->groups);
        } else if (!strcmp(option, "--out")) {
            s->out_dir = value;
        } else {
            s->timeline = value;
        }
        if (bad)
            return -1;
    }
    if (s->graph_path && s->gen_spec)
        return cli_bad_argument(c, "input", NULL, "give at most one of --graph FILE and --gen SPEC");
    if (!s->light_deadline_ms)
        s->light_deadline_ms = s->light_period_ms;
    s->tree_tasks = s->quick ? QUICK_TREE_TASKS : TREE_TASKS;
    if (s->quick) {
        if (!searches_given)
            s->searches = 2;
        if (!width_given)
            s->frame_width = 32;
        if (!size_given)
            s->light_size = 16;
    }
    return 0;
}

/* ---- Device ------------------------------------------------------------------------------- */

static int load_graph(multi *m)
{
    if (!m->s.graph_path && !m->s.gen_spec)
        m->s.gen_spec = m->s.quick ? QUICK_GEN : DEFAULT_GEN;
    if (graph_input_load(PROGRAM, m->s.graph_path, m->s.gen_spec, &m->g) != 0)
        return 1;
    if (m->s.source_given) {
        if (m->s.source < m->g.first_id || m->s.source - m->g.first_id >= m->g.n)
            return error_report(PROGRAM, "--source %u: the graph's nodes are %" PRIu32 " to %" PRIu64, m->s.source,
                                m->g.first_id, (uint64_t)m->g.first_id + m->g.n - 1);
        m->s.source -= m->g.first_id;
    }
    for (unsigned k = 0; k < SEARCHES; k++) {
        app *a = &m->apps[k];
        a->expected = malloc((size_t)m->g.n * sizeof *a->expected);
        a->result = malloc((size_t)m->g.n * sizeof *a->result);
        if (!a->expected || !a->result)
            return error_report(PROGRAM, "out of memory");
    }
    const graph *g = &m->g;
    if (reference_bfs(g->row, g->col, g->n, m->s.source, m->apps[MULTI_MEGA_COOP_bfs_searches].expected) != 0 ||
        reference_sssp(g->row, g->col, g->weight, g->n, m->s.source,
                       m->apps[MULTI_MEGA_COOP_sssp_searches].expected) != 0)
        return error_report(PROGRAM, "out of memory for the CPU references");
    return 0;
}

/* Sets `kernel`'s arguments of app k from argument `first` on (the tree's leaf task's buffer is
 * the caller's: it follows the other tasks'). */
static coop_status set_app_args(multi *m, unsigned k, coop_kernel *kernel, unsigned first)
{
    app *a = &m->apps[k];
    const cl_uint max_degree = graph_max_degree(&m->g);
    coop_status status = COOP_OK;
    if (k == TREE) {
        const cl_uint words[] = {a->queue_groups, m->s.tree_tasks, TREE_EVERY};
        status = coop_kernel_set_buffer(kernel, first, a->queue);
        for (unsigned i = 0; i < 3 && status == COOP_OK; i++)
            status = coop_kernel_set_arg(kernel, first + 1 + i, sizeof words[i], &words[i]);
        if (status == COOP_OK)
            status = coop_kernel_set_buffer(kernel, first + 4, a->seen);
        if (status == COOP_OK)
            status = coop_kernel_set_buffer(kernel, first + 5, a->spawned);
    } else if (k == MULTI_MEGA_COOP_bfs_searches) {
        const cl_mem buffers[] = {m->row, m->col, a->dist, a->wl[0], a->wl[1], a->counts};
        for (unsigned i = 0; i < 6 && status == COOP_OK; i++)
            status = coop_kernel_set_buffer(kernel, first + i, buffers[i]);
        if (status == COOP_OK)
            status = coop_kernel_set_arg(kernel, first + 6, sizeof max_degree, &max_degree);
    } else {
        const cl_mem buffers[] = {m->row, m->col, m->weight, a->dist, a->mark, a->wl[0], a->wl[1], a->counts};
        for (unsigned i = 0; i < 8 && status == COOP_OK; i++)
            status = coop_kernel_set_buffer(kernel, first + i, buffers[i]);
    }
    return status;
}

/* The words of the tree's queue buffer (kernels/lib/ws_layout.h). */
static size_t tree_queue_words(const multi *m)
{
    return WS_QUEUE_WORDS((size_t)m->apps[TREE].queue_groups, (size_t)TREE_DEQUE, (size_t)m->s.tree_tasks);
}

static int open_device(multi *m)
{
    if (device_open(PROGRAM, "device", &m->ctx) != 0)
        return 1;
    const coop_device_info *info = coop_context_device(m->ctx);
    m->local_size = device_default_local_size(info);
    if (m->local_size > info->max_local_size)
        m->local_size = info->max_local_size;
    app *bfs = &m->apps[MULTI_MEGA_COOP_bfs_searches], *sssp = &m->apps[MULTI_MEGA_COOP_sssp_searches];
    *bfs = (app){.name = "bfs", .alone_source = bfs_searches_mega_source, .alone_name = BFS_SEARCHES_MEGA_NAME,
                 .shared_first = MULTI_MEGA_ARG_bfs_searches_row, .expected = bfs->expected, .result = bfs->result};
    *sssp = (app){.name = "sssp", .alone_source = sssp_searches_mega_source,
                  .alone_name = SSSP_SEARCHES_MEGA_NAME, .shared_first = MULTI_MEGA_ARG_sssp_searches_row,
                  .expected = sssp->expected, .result = sssp->result};
    m->apps[TREE] = (app){.name = "tree", .alone_source = tree_spawn_mega_source, .alone_name = TREE_SPAWN_MEGA_NAME,
                          .shared_first = MULTI_MEGA_ARG_tree_spawn_queue_words,
                          .queue_groups = coop_launch_groups(m->ctx, m->local_size)};
    if (device_build(PROGRAM, m->ctx, multi_mega_source, MULTI_MEGA_NAME, &m->shared_program, &m->shared) != 0)
        return 1;
    for (unsigned k = 0; k < APPS; k++)
        if (device_build(PROGRAM, m->ctx, m->apps[k].alone_source, m->apps[k].alone_name, &m->apps[k].alone_program,
                         &m->apps[k].alone) != 0)
            return 1;
    coop_status status = coop_program_create(m->ctx, bench_tasks_plain_source, NULL, &m->plain_program);
    if (status != COOP_OK)
        return error_coop(PROGRAM, m->ctx, status, "the tasks' plain kernels");
    if (bench_task_open(&m->render, BENCH_TASK_RENDER, m->ctx, m->plain_program, m->local_size, m->s.frame_width,
                        NULL) != 0 ||
        bench_task_open(&m->light, BENCH_TASK_LIGHT, m->ctx, m->plain_program, m->local_size, m->s.light_size,
                        NULL) != 0)
        return 1;

    cl_int err = CL_SUCCESS;
    const graph *g = &m->g;
    size_t node_bytes = (size_t)g->n * sizeof(cl_uint);
    graph_input_buffers(m->ctx, g, &m->row, &m->col, &m->weight, &err);
    app *tree = &m->apps[TREE];
    size_t tree_bytes = (size_t)m->s.tree_tasks * sizeof(cl_uint);
    tree->queue = buffer_create(m->ctx, tree_queue_words(m) * sizeof(cl_uint), NULL, &err);
    tree->seen = buffer_create(m->ctx, tree_bytes, NULL, &err);
    tree->spawned = buffer_create(m->ctx, tree_bytes, NULL, &err);
    tree->leaves = buffer_create(m->ctx, tree_bytes, NULL, &err);
    for (unsigned k = 0; k < SEARCHES; k++) {
        app *a = &m->apps[k];
        a->dist = buffer_create(m->ctx, node_bytes, NULL, &err);
        a->wl[0] = buffer_create(m->ctx, node_bytes, NULL, &err);
        a->wl[1] = buffer_create(m->ctx, node_bytes, NULL, &err);
        a->counts = buffer_create(m->ctx, COUNT_WORDS * sizeof(cl_uint), NULL, &err);
        if (k == MULTI_MEGA_COOP_sssp_searches)
            a->mark = buffer_create(m->ctx, node_bytes, NULL, &err);
    }
    if (err != CL_SUCCESS)
        return error_cl(PROGRAM, err, "buffers");
    for (unsigned k = 0; k < APPS && status == COOP_OK; k++) {
        status = set_app_args(m, k, m->shared, m->apps[k].shared_first);
        if (status == COOP_OK)
            status = set_app_args(m, k, m->apps[k].alone, 0);
    }
    const struct {
        unsigned index;
        cl_mem buffer;
    } tasks[] = {{MULTI_MEGA_ARG_render_frame, m->render.c}, {MULTI_MEGA_ARG_matmult_a, m->light.a},
                 {MULTI_MEGA_ARG_matmult_b, m->light.b}, {MULTI_MEGA_ARG_matmult_c, m->light.c},
                 {MULTI_MEGA_ARG_leaf_leaves, tree->leaves}};
    for (size_t i = 0; i < sizeof tasks / sizeof *tasks && status == COOP_OK; i++)
        status = coop_kernel_set_buffer(m->shared, tasks[i].index, tasks[i].buffer);
    if (status == COOP_OK)
        status = coop_kernel_set_buffer(tree->alone, TREE_SPAWN_MEGA_ARG_leaf_leaves, tree->leaves);
    return status == COOP_OK ? 0 : error_coop(PROGRAM, m->ctx, status, "kernel arguments");
}

static void close_device(multi *m)
{
    bench_task_close(&m->render);
    bench_task_close(&m->light);
    for (unsigned k = 0; k < APPS; k++) {
        app *a = &m->apps[k];
        const cl_mem buffers[] = {a->dist,   a->mark, a->wl[0],   a->wl[1],
                                  a->counts, a->queue, a->seen, a->spawned, a->leaves};
        buffers_release(buffers, sizeof buffers / sizeof *buffers);
        coop_kernel_release(a->alone);
        coop_program_release(a->alone_program);
    }
    const cl_mem buffers[] = {m->row, m->col, m->weight};
    buffers_release(buffers, 3);
    coop_kernel_release(m->shared);
    coop_program_release(m->shared_program);
    coop_program_release(m->plain_program);
    coop_context_release(m->ctx);
}

/* ---- Runs and checks ---------------------------------------------------------------------- */

/* The tree's start (kernels/lib/ws_layout.h): a zero-filled queue seeded with the root in the
 * shared deque, no task seen, spawned or served. */
static cl_int reset_tree(multi *m)
{
    cl_command_queue queue = coop_context_queue(m->ctx);
    const app *tree = &m->apps[TREE];
    const size_t shared = WS_DEQUE_BASE((size_t)TREE_DEQUE, (size_t)tree->queue_groups);
    const cl_uint outstanding = 1, root = TREE_SEED, tail = 1;
    cl_int err = buffer_fill_words(queue, tree->queue, 0, tree_queue_words(m));
    const struct {
        size_t word;
        const cl_uint *value;
    } seeds[] = {{WS_OUTSTANDING, &outstanding}, {shared + WS_SLOTS, &root}, {shared + WS_TAIL, &tail}};
    for (size_t i = 0; i < 3 && err == CL_SUCCESS; i++)
        err = clEnqueueWriteBuffer(queue, tree->queue, CL_FALSE, seeds[i].word * sizeof(cl_uint), sizeof(cl_uint),
                                   seeds[i].value, 0, NULL, NULL);
    const cl_mem zeroed[] = {tree->seen, tree->spawned, tree->leaves};
    for (size_t i = 0; i < 3 && err == CL_SUCCESS; i++)
        err = buffer_fill_words(queue, zeroed[i], 0, m->s.tree_tasks);
    return err;
}

/* The first search's state (apps/bfs/bfs.h, apps/sssp/sssp.h, kernels/lib/searches.h): no node
 * reached but the source, alone in worklist 0. */
static int reset(multi *m)
{
    cl_command_queue queue = coop_context_queue(m->ctx);
    const cl_uint zero = 0, counts[COUNT_WORDS] = {[0] = 1, [COUNT_SEARCHES] = m->s.searches,
                                                   [COUNT_SOURCE] = m->s.source, [COUNT_NODES] = m->g.n};
    cl_int err = reset_tree(m);
    for (unsigned k = 0; k < SEARCHES && err == CL_SUCCESS; k++) {
        app *a = &m->apps[k];
        err = buffer_fill_words(queue, a->dist, DEVICE_UNREACHED, m->g.n);
        if (err == CL_SUCCESS)
            err = clEnqueueWriteBuffer(queue, a->dist, CL_FALSE, m->s.source * sizeof(cl_uint), sizeof zero, &zero, 0,
                                       NULL, NULL);
        if (err == CL_SUCCESS && a->mark)
            err = buffer_fill_words(queue, a->mark, 0, m->g.n);
        if (err == CL_SUCCESS)
            err = clEnqueueWriteBuffer(queue, a->wl[0], CL_FALSE, 0, sizeof(cl_uint), &m->s.source, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueWriteBuffer(queue, a->counts, CL_FALSE, 0, sizeof counts, counts, 0, NULL, NULL);
    }
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    if (err != CL_SUCCESS)
        return error_cl(PROGRAM, err, "resetting the buffers");
    return bench_task_clear(&m->render) != 0 || bench_task_clear(&m->light) != 0;
}

/* The last search's distances against the CPU's (BFS's levels count from the round its search
 * started at: counts[COUNT_BASE]); prints the first differences. 0, 1 (error) or 2 (differs). */
static int check_app(multi *m, unsigned k, const char *run)
{
    app *a = &m->apps[k];
    cl_command_queue queue = coop_context_queue(m->ctx);
    cl_uint counts[COUNT_WORDS];
    cl_int err = clEnqueueReadBuffer(queue, a->dist, CL_TRUE, 0, (size_t)m->g.n * sizeof(cl_uint), a->result, 0,
                                     NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, a->counts, CL_TRUE, 0, sizeof counts, counts, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(PROGRAM, err, "reading the result");
    uint32_t base = k == MULTI_MEGA_COOP_bfs_searches ? counts[COUNT_BASE] : 0;
    uint64_t wrong = 0;
    for (uint32_t v = 0; v < m->g.n; v++) {
        int64_t got = a->result[v] == DEVICE_UNREACHED ? -1 : (int64_t)(a->result[v] - base);
        if (got == a->expected[v])
            continue;
        if (wrong++ == 0)
            fprintf(stderr, "%s: %s (the %s run) differs from the CPU reference; first differences:\n", PROGRAM,
                    a->name, run);
        if (wrong <= SHOWN_DIFFERENCES)
            fprintf(stderr, "  node %" PRIu64 ": got %" PRId64 ", expected %" PRId64 "\n",
                    (uint64_t)v + m->g.first_id, got, a->expected[v]);
    }
    if (wrong)
        fprintf(stderr, "%s: %" PRIu64 " of %" PRIu32 " nodes differ\n", PROGRAM, wrong, m->g.n);
    return wrong ? 2 : 0;
}

/* The tree's run: every task seen exactly once, no task dropped by a full queue; where task t
 * spawned (t a multiple of TREE_EVERY) spawned[t] = 1 + SPAWN_OK or 1 + SPAWN_FULL, elsewhere
 * 0; leaves[t] = 1 exactly where the spawn was taken, 0 elsewhere; and the `recorded` runs of
 * the leaf task the report holds from the tree's queue as many as were taken. Counts the
 * statuses into `out`. 0, 1 (error) or 2 (differs). */
static int check_tree(multi *m, const char *run, unsigned recorded, spawns *out)
{
    const app *tree = &m->apps[TREE];
    const size_t n = m->s.tree_tasks;
    cl_command_queue queue = coop_context_queue(m->ctx);
    cl_uint *seen = malloc(3 * n * sizeof *seen), overflowed = 0;
    if (!seen)
        return error_report(PROGRAM, "out of memory");
    cl_uint *spawned = seen + n, *leaves = spawned + n;
    cl_int err = clEnqueueReadBuffer(queue, tree->seen, CL_FALSE, 0, n * sizeof *seen, seen, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, tree->spawned, CL_FALSE, 0, n * sizeof *seen, spawned, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, tree->leaves, CL_FALSE, 0, n * sizeof *seen, leaves, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, tree->queue, CL_TRUE, WS_OVERFLOWED * sizeof overflowed, sizeof overflowed,
                                  &overflowed, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        free(seen);
        return error_cl(PROGRAM, err, "reading the tree's result");
    }
    *out = (spawns){.recorded = recorded};
    uint64_t wrong = 0;
    for (size_t t = 0; t < n; t++) {
        int spawns_here = t % TREE_EVERY == 0;
        int taken = spawns_here && spawned[t] == 1 + COOP_SPAWN_OK;
        int refused = spawns_here && spawned[t] == 1 + COOP_SPAWN_FULL;
        int valid = spawns_here ? taken || refused : spawned[t] == 0;
        out->ok += taken;
        out->full += refused;
        if (seen[t] == 1 && valid && leaves[t] == (cl_uint)taken)
            continue;
        if (wrong++ == 0)
            fprintf(stderr, "%s: tree (the %s run) differs; first differences:\n", PROGRAM, run);
        if (wrong <= SHOWN_DIFFERENCES)
            fprintf(stderr, "  task %zu: seen %u times (expected 1), spawn status word %u (expected %s), %u leaf runs "
                            "(expected %u)\n", t, seen[t], spawned[t],
                    spawns_here ? "1 + SPAWN_OK or 1 + SPAWN_FULL" : "0: no spawn", leaves[t], (cl_uint)taken);
    }
    free(seen);
    if (wrong)
        fprintf(stderr, "%s: %" PRIu64 " of %zu tree tasks differ\n", PROGRAM, wrong, n);
    if (overflowed) {
        fprintf(stderr, "%s: tree (the %s run): a push found its deque and the shared one full\n", PROGRAM, run);
        wrong++;
    }
    if (recorded != out->ok) {
        fprintf(stderr, "%s: tree (the %s run): %u leaf spawns taken, but %u spawned leaf runs recorded\n", PROGRAM,
                run, out->ok, recorded);
        wrong++;
    }
    return wrong ? 2 : 0;
}

/* The report's records of runs of task `task` spawned from kernel `kernel`'s queue. */
static unsigned spawned_runs(const coop_mega_report *report, unsigned task, unsigned kernel)
{
    unsigned runs = 0;
    for (size_t i = 0; i < report->record_count; i++) {
        const coop_task_record *r = &report->records[i];
        runs += r->spawned && r->task == task && r->spawn_kernel == kernel;
    }
    return runs;
}

/* A run's parameters; --groups N: N groups, discovery waiting up to GROUPS_WINDOW_US for them
 * (on a busy machine a worker may start its group late). */
static coop_mega_params params_for(const multi *m, int shared)
{
    coop_mega_params params = {.launch = {.local_size = m->local_size}, .chaos_seed = shared ? m->s.chaos_seed : 0,
                               .tasks_in_flight = 2, .policy = m->s.policy};
    if (m->s.groups) {
        params.launch.max_groups = m->s.groups;
        params.launch.launch_groups = coop_launch_groups(m->ctx, m->local_size);
        params.launch.discovery_window_us = GROUPS_WINDOW_US;
    }
    return params;
}

/* The two plans: the frame at the highest priority, the matmult by its deadline; each on a
 * quarter of the groups. */
static void make_plans(const multi *m, coop_task_plan *plans)
{
    plans[PLAN_RENDER] = bench_task_plan(&m->render, (bench_binding){MULTI_MEGA_TASK_render, -1, -1, 0},
                                         COOP_TAKE_QUARTER, 0, m->s.render_period_ms, 0);
    plans[PLAN_RENDER].priority = COOP_PRIORITY_MAX;
    plans[PLAN_LIGHT] = bench_task_plan(&m->light, (bench_binding){MULTI_MEGA_TASK_matmult, 0, 1, 2},
                                        COOP_TAKE_QUARTER, 0, m->s.light_period_ms, 0);
    plans[PLAN_LIGHT].deadline_ms = m->s.light_deadline_ms;
}

/* App k alone in its own megakernel, checked. */
static int run_alone(multi *m, unsigned k, double *ms)
{
    char what[64];
    snprintf(what, sizeof what, "%s alone", m->apps[k].name);
    if (reset(m) != 0)
        return 1;
    coop_mega_params params = params_for(m, 0);
    coop_mega_report report;
    coop_status status = coop_mega_run(m->apps[k].alone, &params, NULL, 0, &report);
    if (status != COOP_OK)
        error_coop_exit(PROGRAM, m->ctx, status, what); /* as run_shared's */
    *ms = report.cooperative_ms;
    spawns tree;
    int rc = k == TREE ? check_tree(m, what, spawned_runs(&report, TREE_SPAWN_MEGA_TASK_leaf, 0), &tree)
                       : check_app(m, k, what);
    coop_mega_report_free(&report);
    return rc;
}

/* Both kernels in the shared megakernel (with the tasks if `tasks`, traced into `trace`), every
 * result checked. The caller frees out->report. */
static int run_shared(multi *m, int tasks, const char *trace, const char *what, outcome *out)
{
    if (reset(m) != 0)
        return 1;
    coop_mega_params params = params_for(m, 1);
    params.trace_file = trace;
    params.trace_events = 1u << 16;
    coop_task_plan plans[PLANS];
    make_plans(m, plans);
    coop_kernel_share shares[APPS];
    for (unsigned k = 0; k < APPS; k++)
        shares[k].weight = m->s.weights[k];
    coop_status status = coop_mega_run_shared(m->shared, &params, shares, APPS, tasks ? plans : NULL,
                                              tasks ? PLANS : 0, &out->report, out->kernels);
    if (status != COOP_OK) {
        /* after a timeout the megakernel may still run: releasing its buffers under it would
         * crash it, so the process ends here (as run.h's programs do) */
        char context[96];
        snprintf(context, sizeof context, "the %s run", what);
        error_coop_exit(PROGRAM, m->ctx, status, context);
    }
    out->ms = out->report.cooperative_ms;
    int rc = 0;
    for (unsigned k = 0; k < APPS && rc != 1; k++) {
        unsigned leaf_runs = spawned_runs(&out->report, MULTI_MEGA_TASK_leaf, TREE);
        int checked = k != TREE ? check_app(m, k, what) : check_tree(m, what, leaf_runs, &out->tree);
        rc = checked > rc ? checked : rc;
    }
    if (rc != 1 && tasks) {
        unsigned ran[PLANS] = {0};
        for (size_t i = 0; i < out->report.record_count; i++)
            if (!out->report.records[i].spawned)
                ran[out->report.records[i].plan]++;
        /* each task's result, from its last run (every run of a plan computes the same) */
        int frame = ran[PLAN_RENDER] ? bench_task_check(&m->render, 0, 0) : 0;
        int product = ran[PLAN_LIGHT] ? bench_task_check(&m->light, 0, 0) : 0;
        rc = frame > rc ? frame : rc;
        rc = product > rc ? product : rc;
    }
    if (rc)
        coop_mega_report_free(&out->report);
    return rc;
}

/* ---- Report ------------------------------------------------------------------------------- */

/* Median and 99th percentile of one figure of plan p's runs. */
static void figure(const coop_mega_report *report, unsigned plan, size_t offset, double *median, double *p99)
{
    double *values = malloc((report->record_count ? report->record_count : 1) * sizeof *values);
    size_t n = 0;
    for (size_t i = 0; values && i < report->record_count; i++)
        if (report->records[i].plan == plan && !report->records[i].spawned)
            values[n++] = *(const double *)((const char *)&report->records[i] + offset);
    *median = n ? stats_quantile(values, n, 0.5) : NAN;
    *p99 = n ? stats_quantile(values, n, 0.99) : NAN;
    free(values);
}

static void print_table(const multi *m, const outcome *tasks, const outcome *together, double alone_ms[APPS])
{
    const settings *s = &m->s;
    double beside_sum = 0, due_sum = 0;
    for (unsigned k = 0; k < APPS; k++) {
        beside_sum += tasks->kernels[k].group_beside_ms;
        due_sum += tasks->kernels[k].group_due_ms;
    }
    printf("\n%-6s %6s %9s %12s %11s %9s %6s %6s %9s %10s\n", "kernel", "weight", "time ms", "group-time",
           "weight's", "mean M", "kills", "forks", "moved in", "moved out");
    for (unsigned k = 0; k < APPS; k++) {
        const coop_kernel_report *r = &tasks->kernels[k];
        printf("%-6s %6u %9.2f %11.1f%% %10.1f%% %9.2f %6u %6u %9u %10u\n", m->apps[k].name, s->weights[k],
               r->finish_ms, beside_sum > 0 ? 100.0 * r->group_beside_ms / beside_sum : 0.0,
               due_sum > 0 ? 100.0 * r->group_due_ms / due_sum : 0.0, r->mean_members, r->kills, r->forks,
               r->moved_in, r->moved_out);
    }
    printf("(the run with the tasks: time from discovery until the kernel finished; its share of the\n"
           "kernels' group-time while two or more ran, against what its weight gave it of the running\n"
           "kernels' then; its mean members until it finished)\n");
    static const char *const names[PLANS] = {"render", "light"};
    printf("\n%-7s %5s %8s %21s %21s %21s %9s\n", "task", "runs", "groups", "gather us med/p99",
           "exec us med/p99", "response us med/p99", "deadlines");
    for (unsigned p = 0; p < PLANS; p++) {
        unsigned runs = 0, met = 0, groups = 0;
        for (size_t i = 0; i < tasks->report.record_count; i++) {
            const coop_task_record *r = &tasks->report.records[i];
            if (r->plan != p || r->spawned)
                continue;
            runs++;
            met += r->deadline_met != 0;
            groups = r->groups > groups ? r->groups : groups;
        }
        double g50, g99, e50, e99, r50, r99;
        figure(&tasks->report, p, offsetof(coop_task_record, gather_us), &g50, &g99);
        figure(&tasks->report, p, offsetof(coop_task_record, exec_us), &e50, &e99);
        figure(&tasks->report, p, offsetof(coop_task_record, response_us), &r50, &r99);
        printf("%-7s %5u %8u %10.1f/%-10.1f %10.1f/%-10.1f %10.1f/%-10.1f %4u of %u\n", names[p], runs, groups, g50,
               g99, e50, e99, r50, r99, met, runs);
    }
    const spawns *t = &tasks->tree;
    printf("\nspawned on the device: tree %u tasks, %u leaf runs spawned (SPAWN_OK) and run, %u refused "
           "(SPAWN_FULL), %u spawned runs recorded\n", s->tree_tasks, t->ok, t->full, t->recorded);
    double sequential = 0;
    for (unsigned k = 0; k < APPS; k++)
        sequential += alone_ms[k];
    printf("\ntogether (no planned task): %.2f ms; one after the other alone: %.2f ms (bfs %.2f + sssp %.2f + tree "
           "%.2f): %.3fx\n", together->ms, sequential, alone_ms[0], alone_ms[1], alone_ms[TREE],
           sequential > 0 ? together->ms / sequential : 0.0);
}

/* Draws the trace with the timeline script into a temporary file beside `png`, renamed over it
 * once the script succeeded (no picture, and a line saying so, where the script or
 * /usr/bin/python3 is absent). 0, or 1 when the script failed. */
static int draw(const multi *m, const char *trace, const char *png)
{
    if (access(m->s.timeline, R_OK) != 0 || access("/usr/bin/python3", X_OK) != 0) {
        printf("no picture: %s or /usr/bin/python3 is absent (draw it with: scripts/timeline %s %s)\n",
               m->s.timeline, trace, png);
        return 0;
    }
    char partial[4200];
    snprintf(partial, sizeof partial, "%s/.timeline.%ld.png", m->s.out_dir, (long)getpid());
    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        return error_report(PROGRAM, "fork: %s", strerror(errno));
    if (child == 0) {
        /* its "wrote" line would name the temporary file; its errors go to standard error */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        execl("/usr/bin/python3", "python3", m->s.timeline, trace, partial, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(partial);
        return error_report(PROGRAM, "%s %s %s failed", m->s.timeline, trace, png);
    }
    if (rename(partial, png) != 0) {
        int error = errno;
        unlink(partial);
        return error_report(PROGRAM, "%s: %s", png, strerror(error));
    }
    printf("wrote %s\n", png);
    return 0;
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_multi_cli, argc, argv))
        return CLI_EXIT_OK;
    multi m = {0};
    if (parse(argc, argv, &m.s) != 0)
        return CLI_EXIT_ERROR;
    if (mkdir(m.s.out_dir, 0777) != 0 && errno != EEXIST) {
        error_report(PROGRAM, "--out %s: %s", m.s.out_dir, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    char trace[4096], png[4096];
    snprintf(trace, sizeof trace, "%s/trace.json", m.s.out_dir);
    snprintf(png, sizeof png, "%s/timeline.png", m.s.out_dir);
    int rc = load_graph(&m);
    if (rc == 0)
        rc = open_device(&m);
    if (rc == 0) {
        const coop_device_info *info = coop_context_device(m.ctx);
        printf("%s on %s: %" PRIu32 " nodes, %" PRIu64 " arcs, source %" PRIu64 ", %u searches per kernel; "
               "weights bfs %u : sssp %u : tree %u; tree of %u tasks, a leaf spawned every %u; render %ux%u every "
               "%.0f ms (priority), matmult %ux%u every %.0f ms (deadline %.0f ms), each on a quarter of the "
               "groups%s\n",
               m.s.graph_path ? m.s.graph_path : m.s.gen_spec, info->name, m.g.n, m.g.m,
               (uint64_t)m.s.source + m.g.first_id, m.s.searches, m.s.weights[0], m.s.weights[1], m.s.weights[TREE],
               m.s.tree_tasks, TREE_EVERY, m.render.width,
               m.render.height, m.s.render_period_ms, m.light.size, m.light.size, m.s.light_period_ms,
               m.s.light_deadline_ms, m.s.chaos_seed ? "; chaos in the shared runs" : "");
    }
    double alone_ms[APPS] = {0};
    for (unsigned k = 0; k < APPS && rc == 0; k++)
        rc = run_alone(&m, k, &alone_ms[k]);
    outcome together = {0}, tasks = {0}, traced = {0};
    int have_together = 0, have_tasks = 0;
    if (rc == 0)
        have_together = (rc = run_shared(&m, 0, NULL, "together", &together)) == 0;
    if (rc == 0)
        have_tasks = (rc = run_shared(&m, 1, NULL, "tasks", &tasks)) == 0;
    if (rc == 0 && (rc = run_shared(&m, 1, trace, "traced", &traced)) == 0)
        coop_mega_report_free(&traced.report);
    if (rc == 0) {
        print_table(&m, &tasks, &together, alone_ms);
        printf("every run's bfs and sssp results (the last of its searches), frame and product equal the CPU's, "
               "and its tree saw every task once with a leaf run exactly where a spawn was taken; trace: %s\n",
               trace);
        rc = draw(&m, trace, png);
    }
    if (have_together)
        coop_mega_report_free(&together.report);
    if (have_tasks)
        coop_mega_report_free(&tasks.report);
    if (m.ctx)
        close_device(&m);
    for (unsigned k = 0; k < APPS; k++) {
        free(m.apps[k].expected);
        free(m.apps[k].result);
    }
    graph_free(&m.g);
    return rc == 2 ? CLI_EXIT_CHECK : rc ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}
