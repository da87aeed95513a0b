/* coop-demo: what cooperative kernels are for, in one run (`make demo`).
 *
 *   coop-demo [--graph FILE | --gen SPEC] [--seconds S] [--period-ms P] [--frame WxH] [--out DIR]
 *             [--trace FILE] [--quick]       (coop_demo_cli's help says more)
 *
 * A blocking BFS (global barriers between rounds) runs on a road graph while a path tracer wants a
 * frame every P ms, twice:
 *   cooperative     BFS is the cooperative kernel of a megakernel (apps/bfs/bfs.cl's rounds with
 *                   resizing barriers) and each frame is a high-priority task (task_render of
 *                   kernels/tasks/render.cl) on a quarter of the groups, taken at a barrier;
 *   no cooperation  BFS is a plain persistent kernel (global barriers) and each frame is
 *                   render_plain enqueued on a second command queue, where it waits for BFS.
 * One BFS takes milliseconds, so each run searches from one source after another: the cooperative
 * run for S seconds (a one-off task at S tells it to stop; at most 4096 searches), the baseline
 * then the same searches.
 * Every search is checked against the CPU reference (kernels here fold each search's levels into
 * a 64-bit fingerprint and its round count, which the host compares with the reference's: keeping
 * hundreds of level arrays would take gigabytes).
 *
 * Prints the chosen sizes and a table comparing the runs (frame response times, frames missed,
 * BFS time and checks), and writes DIR/frame.png (the last frame of the cooperative run) and
 * DIR/responsiveness.csv (every frame: mode, frame, due_s, response_ms, period_ms, missed), which
 * scripts/demo-plot draws. A frame's response time runs from when it was due (every P ms from the
 * start of BFS) until it was done. Without --graph or --gen the input is ../shared/graphs'
 * USA-road-NY, or a 512 x 512 grid (a road-like stand-in) when that file is absent. --quick: a
 * 32 x 32 grid unless told otherwise, and runs of 2.5 periods (for tests).
 *
 * Exit status: 0; 1 for an error (bad arguments, unreadable graph, device failure); 2 when a
 * search differs from the CPU reference. The device is chosen with COOP_DEVICE etc. */
#include "bfs/bfs_ref.h"
#include "buffers.h"
#include "cli.h"
#include "clock.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "graph.h"
#include "graph_input.h"
#include "hash.h"
#include "image.h"
#include "output.h"
#include "run.h"
#include "stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What coop-merge made of apps/demo/demo.cl (kernels/generated/), and the render task as an
 * ordinary kernel (kernels/tasks/plain.cl). */
#include "demo_mega.h"
#include "demo_standalone.h"

extern const char demo_mega_source[];
extern const char demo_standalone_source[];
extern const char bench_tasks_plain_source[];

#define DEFAULT_GRAPH "../shared/graphs/USA-road-NY.pace16.gr.xz"
#define FALLBACK_GEN "grid:512:512"
#define QUICK_GEN "grid:32:32"
#define DEVICE_UNREACHED 0xffffffffu

enum {
    MAX_SEARCHES = 4096,     /* sources prepared; the cooperative run stops at S seconds first */
    CAMERA_FRAMES = 128,     /* frames per turn of render.cl's camera */
    PROGRESS_SEARCHES = 0,   /* progress buffer (apps/demo/demo.h): searches completed */
    PROGRESS_STOP = 1,       /* set by the stop task */
    PROGRESS_WORDS = 2,
    RENDER_TIMINGS = 3       /* render_plain runs timed, best taken */
};

/* The host's copy of apps/demo/demo.cl's fingerprint terms. */
static uint32_t print_a(uint32_t v, uint32_t level)
{
    return hash_fmix32(hash_fmix32(v) ^ level);
}

static uint32_t print_b(uint32_t v, uint32_t level)
{
    return hash_fmix32(hash_fmix32(v ^ 0x9e3779b9u) ^ level ^ 0x6a09e667u);
}

typedef struct settings {
    const char *graph_path;
    const char *gen_spec;
    double seconds;
    double period_ms;
    unsigned width, height;
    const char *out_dir;
    const char *trace_path;       /* --trace: the cooperative run's trace file */
    int quick;
} settings;

/* One frame as measured, in ms. */
typedef struct frame_time {
    double due_ms;                /* since BFS started */
    double response_ms;           /* due until done */
} frame_time;

/* What one run of the searches did. */
typedef struct run_result {
    unsigned searches;            /* completed */
    uint32_t *prints;             /* 2 per search */
    uint32_t *rounds;
    double bfs_ms;                /* BFS start until the last search ended */
    double discovery_ms;          /* launch until BFS started */
    unsigned groups;
    frame_time *frames;
    size_t frame_count;
    unsigned last_frame_index;    /* cooperative: camera position of the last frame rendered */
    unsigned kills, forks;
    double gather_median_ms;      /* cooperative: a frame's request until its groups were ready */
    double exec_median_ms;        /* cooperative: groups ready until the frame was done */
} run_result;

typedef struct demo {
    settings s;
    graph g;
    uint32_t *sources;            /* internal ids */
    coop_context *ctx;
    coop_program *mega_program, *standalone_program, *render_program;
    coop_kernel *mega, *standalone, *render;
    cl_command_queue frame_queue; /* the baseline's frames, with profiling */
    cl_mem row, col, level, wl[2], counts, source_buffer, rounds, prints, progress, frame;
    size_t local_size;
    unsigned tiles;               /* one render workgroup each */
    double frame_all_ms, frame_one_ms;
} demo;

static const cli coop_demo_cli = {
    "coop-demo",
    "Usage: coop-demo [--graph FILE | --gen rmat:SCALE:EF | --gen grid:W:H] [--seconds S] [--period-ms P]\n"
    "                 [--frame WxH] [--out DIR] [--trace FILE] [--quick]\n"
    "Shows what cooperative kernels are for: BFS beside a path tracer that wants a frame every period.\n"
    "\n"
    "BFS searches from one source after another while a frame is due every P ms, twice: as a\n"
    "cooperative megakernel (each frame a high-priority task on a quarter of the groups, taken at a\n"
    "barrier), then with no cooperation (BFS a plain persistent kernel, the frames queued on a second\n"
    "queue). It prints a table comparing the two, checks every search against the CPU, and writes\n"
    "DIR/frame.png and DIR/responsiveness.csv (which scripts/demo-plot draws).\n"
    "\n"
    "Options:\n"
    "  --graph FILE      the graph (default ../shared/graphs/USA-road-NY.pace16.gr.xz, or a 512 x 512\n"
    "                    grid where that file is absent)\n"
    "  --gen SPEC        a generated graph instead: rmat:SCALE:EF[:SEED] or grid:W:H\n"
    "  --seconds S       how long the cooperative run searches, above 0 and at most 600 (default 12)\n"
    "  --period-ms P     a frame is due every P ms, above 0 and at most 10000 (default 40)\n"
    "  --frame WxH       the frame's size, each 1 to 4096 (default 96x72)\n"
    "  --out DIR         where the PNG and the CSV go (default demo)\n"
    "  --trace FILE      write a timeline of the cooperative run to FILE (Chrome trace event JSON,\n"
    "                    for Perfetto or chrome://tracing, or scripts/timeline): its first events,\n"
    "                    4096 per group, which cover the first frames\n"
    "  --quick           a 32 x 32 grid unless told otherwise, and runs of 2.5 periods (for tests)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  both runs done and every search equals the CPU reference\n"
    "  1  a bad option or environment value, an unreadable graph, or a device or OpenCL error\n"
    "  2  a search differs from the CPU reference\n",
};

/* ---- Arguments ---------------------------------------------------------------------------- */

/* WIDTHxHEIGHT, each strictly a number from 1 to 4096. */
static int parse_frame(const char *value, settings *s)
{
    char width[16];
    const char *cross = strchr(value, 'x');
    size_t length = cross ? (size_t)(cross - value) : 0;
    if (!cross || length >= sizeof width)
        return cli_bad_argument(&coop_demo_cli, "--frame", value, "is not WIDTHxHEIGHT");
    memcpy(width, value, length);
    width[length] = '\0';
    if (cli_unsigned(&coop_demo_cli, "--frame width", width, 1, 4096, &s->width) != 0 ||
        cli_unsigned(&coop_demo_cli, "--frame height", cross + 1, 1, 4096, &s->height) != 0)
        return -1;
    return 0;
}

static int parse(int argc, char **argv, settings *s)
{
    const cli *c = &coop_demo_cli;
    *s = (settings){.seconds = 12.0, .period_ms = 40.0, .width = 96, .height = 72, .out_dir = "demo"};
    int seconds_given = 0;
    cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (!strcmp(option, "--quick")) {
            s->quick = 1;
            continue;
        }
        if (strncmp(option, "--", 2) != 0)
            return cli_bad_argument(&coop_demo_cli, "argument", option, "unexpected");
        if (strcmp(option, "--graph") && strcmp(option, "--gen") && strcmp(option, "--seconds") &&
            strcmp(option, "--period-ms") && strcmp(option, "--frame") && strcmp(option, "--out") &&
            strcmp(option, "--trace"))
            return cli_bad_argument(&coop_demo_cli, "option", option, "unknown");
        const char *value = cli_value(c, argc, argv, &i, &seen);
        if (!value)
            return -1;
        if (!strcmp(option, "--graph")) {
            s->graph_path = value;
        } else if (!strcmp(option, "--gen")) {
            s->gen_spec = value;
        } else if (!strcmp(option, "--seconds")) {
            if (cli_positive(c, option, value, 600, &s->seconds) != 0)
                return -1;
            seconds_given = 1;
        } else if (!strcmp(option, "--period-ms")) {
            if (cli_positive(c, option, value, 10000, &s->period_ms) != 0)
                return -1;
        } else if (!strcmp(option, "--frame")) {
            if (parse_frame(value, s) != 0)
                return -1;
        } else if (!strcmp(option, "--trace")) {
            s->trace_path = value;
        } else {
            s->out_dir = value;
        }
    }
    if (s->graph_path && s->gen_spec)
        return cli_bad_argument(&coop_demo_cli, "input", NULL, "give at most one of --graph FILE and --gen SPEC");
    if (s->quick && !seconds_given)
        s->seconds = 2.5 * s->period_ms / 1e3;
    return 0;
}

/* ---- Graph and sources -------------------------------------------------------------------- */

static int file_exists(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0;
}

static const char *input_name(const demo *d)
{
    return d->s.graph_path ? d->s.graph_path : d->s.gen_spec;
}

static int load_graph(demo *d)
{
    if (!d->s.graph_path && !d->s.gen_spec) {
        if (d->s.quick) {
            d->s.gen_spec = QUICK_GEN;
        } else if (file_exists(DEFAULT_GRAPH)) {
            d->s.graph_path = DEFAULT_GRAPH;
        } else {
            printf("%s is absent: a %s road-like grid stands in for it\n", DEFAULT_GRAPH, FALLBACK_GEN);
            d->s.gen_spec = FALLBACK_GEN;
        }
    }
    if (graph_input_load(coop_demo_cli.name, d->s.graph_path, d->s.gen_spec, &d->g) != 0)
        return 1;
    d->sources = malloc(MAX_SEARCHES * sizeof *d->sources);
    if (!d->sources)
        return error_report(coop_demo_cli.name, "out of memory");
    /* Sources spread over the graph, the same in every run. */
    for (uint32_t i = 0; i < MAX_SEARCHES; i++)
        d->sources[i] = (uint32_t)(((uint64_t)hash_fmix32(i + 1u) * d->g.n) >> 32);
    return 0;
}

/* ---- Device ------------------------------------------------------------------------------- */

static int build(demo *d)
{
    const struct {
        const char *source, *name;
        coop_program **program;
        coop_kernel **kernel;
    } kernels[] = {{demo_mega_source, DEMO_MEGA_NAME, &d->mega_program, &d->mega},
                   {demo_standalone_source, DEMO_STANDALONE_NAME, &d->standalone_program, &d->standalone},
                   {bench_tasks_plain_source, "render_plain", &d->render_program, &d->render}};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (device_build(coop_demo_cli.name, d->ctx, kernels[i].source, kernels[i].name, kernels[i].program,
                         kernels[i].kernel) != 0)
            return 1;
    return 0;
}

static int open_device(demo *d)
{
    if (device_open(coop_demo_cli.name, "device", &d->ctx) != 0)
        return 1;
    const coop_device_info *info = coop_context_device(d->ctx);
    d->local_size = device_default_local_size(info);
    if (d->local_size > info->max_local_size)
        d->local_size = info->max_local_size;
    /* Enough tiles that a frame spreads over the groups a task takes. */
    d->tiles = info->is_gpu ? 64 : 4;
    if (build(d) != 0)
        return 1;

    cl_int err = CL_SUCCESS;
    d->frame_queue = device_profiling_queue(d->ctx, &err);
    if (err != CL_SUCCESS)
        return error_cl(coop_demo_cli.name, err, "the frame queue");

    const graph *g = &d->g;
    size_t node_bytes = (size_t)g->n * sizeof(cl_uint);
    graph_input_buffers(d->ctx, g, &d->row, &d->col, NULL, &err);
    d->level = buffer_create(d->ctx, node_bytes, NULL, &err);
    d->wl[0] = buffer_create(d->ctx, node_bytes, NULL, &err);
    d->wl[1] = buffer_create(d->ctx, node_bytes, NULL, &err);
    d->counts = buffer_create(d->ctx, 4 * sizeof(cl_uint), NULL, &err);
    d->source_buffer = buffer_create(d->ctx, MAX_SEARCHES * sizeof(cl_uint), d->sources, &err);
    d->rounds = buffer_create(d->ctx, MAX_SEARCHES * sizeof(cl_uint), NULL, &err);
    d->prints = buffer_create(d->ctx, 2 * MAX_SEARCHES * sizeof(cl_uint), NULL, &err);
    d->progress = buffer_create(d->ctx, PROGRESS_WORDS * sizeof(cl_uint), NULL, &err);
    d->frame = buffer_create(d->ctx, (size_t)d->s.width * d->s.height * 4, NULL, &err);
    if (err != CL_SUCCESS)
        return error_cl(coop_demo_cli.name, err, "buffers");

    const cl_uint nodes = g->n, max_degree = graph_max_degree(g), width = d->s.width, height = d->s.height;
    const cl_uint tiles = d->tiles;
    const struct {
        coop_kernel *kernel;
        unsigned index;
        cl_mem buffer;   /* NULL: the value */
        cl_uint value;
    } args[] = {
        {d->mega, DEMO_MEGA_ARG_demo_row, d->row, 0},
        {d->mega, DEMO_MEGA_ARG_demo_col, d->col, 0},
        {d->mega, DEMO_MEGA_ARG_demo_level, d->level, 0},
        {d->mega, DEMO_MEGA_ARG_demo_nodes, NULL, nodes},
        {d->mega, DEMO_MEGA_ARG_demo_max_degree, NULL, max_degree},
        {d->mega, DEMO_MEGA_ARG_demo_wl0, d->wl[0], 0},
        {d->mega, DEMO_MEGA_ARG_demo_wl1, d->wl[1], 0},
        {d->mega, DEMO_MEGA_ARG_demo_counts, d->counts, 0},
        {d->mega, DEMO_MEGA_ARG_demo_sources, d->source_buffer, 0},
        {d->mega, DEMO_MEGA_ARG_demo_rounds, d->rounds, 0},
        {d->mega, DEMO_MEGA_ARG_demo_prints, d->prints, 0},
        {d->mega, DEMO_MEGA_ARG_demo_progress, d->progress, 0},
        {d->mega, DEMO_MEGA_ARG_render_frame, d->frame, 0},
        {d->mega, DEMO_MEGA_ARG_demo_stop_progress, d->progress, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_row, d->row, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_col, d->col, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_level, d->level, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_nodes, NULL, nodes},
        {d->standalone, DEMO_STANDALONE_ARG_demo_max_degree, NULL, max_degree},
        {d->standalone, DEMO_STANDALONE_ARG_demo_wl0, d->wl[0], 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_wl1, d->wl[1], 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_counts, d->counts, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_sources, d->source_buffer, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_rounds, d->rounds, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_prints, d->prints, 0},
        {d->standalone, DEMO_STANDALONE_ARG_demo_progress, d->progress, 0},
        /* render_plain(frame, width, height, frame_index, tiles) (kernels/tasks/plain.cl) */
        {d->render, 0, d->frame, 0},
        {d->render, 1, NULL, width},
        {d->render, 2, NULL, height},
        {d->render, 4, NULL, tiles},
    };
    coop_status status = COOP_OK;
    for (size_t i = 0; i < sizeof args / sizeof args[0] && status == COOP_OK; i++)
        status = args[i].buffer ? coop_kernel_set_buffer(args[i].kernel, args[i].index, args[i].buffer)
                                : coop_kernel_set_arg(args[i].kernel, args[i].index, sizeof args[i].value,
                                                      &args[i].value);
    return status == COOP_OK ? 0 : error_coop(coop_demo_cli.name, d->ctx, status, "kernel arguments");
}

static void close_device(demo *d)
{
    const cl_mem buffers[] = {d->row, d->col, d->level, d->wl[0], d->wl[1], d->counts, d->source_buffer, d->rounds,
                              d->prints, d->progress, d->frame};
    buffers_release(buffers, sizeof buffers / sizeof buffers[0]);
    if (d->frame_queue)
        clReleaseCommandQueue(d->frame_queue);
    coop_kernel_release(d->mega);
    coop_kernel_release(d->standalone);
    coop_kernel_release(d->render);
    coop_program_release(d->mega_program);
    coop_program_release(d->standalone_program);
    coop_program_release(d->render_program);
    coop_context_release(d->ctx);
}

/* The state the kernels expect before search 0 (apps/demo/demo.cl), allowing `searches` searches. */
static int reset(demo *d, cl_uint searches)
{
    cl_command_queue queue = coop_context_queue(d->ctx);
    const cl_uint zero = 0, counts[4] = {1, 0, 0, 0};
    cl_int err = buffer_fill_words(queue, d->level, DEVICE_UNREACHED, d->g.n);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(queue, d->level, CL_FALSE, d->sources[0] * sizeof(cl_uint), sizeof zero, &zero,
                                   0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(queue, d->wl[0], CL_FALSE, 0, sizeof(cl_uint), &d->sources[0], 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(queue, d->counts, CL_FALSE, 0, sizeof counts, counts, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, d->prints, 0, 2 * MAX_SEARCHES);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, d->rounds, 0, MAX_SEARCHES);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, d->progress, 0, PROGRESS_WORDS);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    if (err != CL_SUCCESS)
        return error_cl(coop_demo_cli.name, err, "resetting the buffers");
    coop_status status = coop_kernel_set_arg(d->mega, DEMO_MEGA_ARG_demo_max_searches, sizeof searches, &searches);
    if (status == COOP_OK)
        status = coop_kernel_set_arg(d->standalone, DEMO_STANDALONE_ARG_demo_max_searches, sizeof searches,
                                     &searches);
    return status == COOP_OK ? 0 : error_coop(coop_demo_cli.name, d->ctx, status, "kernel arguments");
}

/* Reads back how many searches completed, their fingerprints and rounds. */
static int read_searches(demo *d, run_result *r)
{
    cl_command_queue queue = coop_context_queue(d->ctx);
    cl_uint progress[PROGRESS_WORDS];
    cl_int err = clEnqueueReadBuffer(queue, d->progress, CL_TRUE, 0, sizeof progress, progress, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(coop_demo_cli.name, err, "reading the progress");
    r->searches = progress[PROGRESS_SEARCHES];
    if (r->searches == 0 || r->searches > MAX_SEARCHES)
        return error_report(coop_demo_cli.name, "the kernel reports %u searches completed", r->searches);
    r->prints = malloc(2 * (size_t)r->searches * sizeof *r->prints);
    r->rounds = malloc((size_t)r->searches * sizeof *r->rounds);
    if (!r->prints || !r->rounds)
        return error_report(coop_demo_cli.name, "out of memory");
    err = clEnqueueReadBuffer(queue, d->prints, CL_TRUE, 0, 2 * (size_t)r->searches * sizeof(cl_uint), r->prints, 0,
                              NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, d->rounds, CL_TRUE, 0, (size_t)r->searches * sizeof(cl_uint), r->rounds, 0,
                                  NULL, NULL);
    return err == CL_SUCCESS ? 0 : error_cl(coop_demo_cli.name, err, "reading the fingerprints");
}

/* ---- Frames ------------------------------------------------------------------------------- */

/* Enqueues render_plain for camera position `frame_index` on `groups` groups; *event (if not
 * NULL) receives its event. */
static cl_int enqueue_frame(demo *d, cl_uint frame_index, size_t groups, cl_event *event)
{
    cl_int err = clSetKernelArg(coop_kernel_cl(d->render), 3, sizeof frame_index, &frame_index);
    return err == CL_SUCCESS ? device_enqueue_plain(d->frame_queue, d->render, groups, d->local_size, event) : err;
}

static cl_int event_ms(cl_event event, cl_profiling_info from, cl_profiling_info to, double *ms)
{
    double ns = 0;
    cl_int err = device_event_ns(event, from, to, &ns);
    *ms = ns / 1e6;
    return err;
}

/* How long one frame takes alone, on all the tiles' groups and on one group (the kernel is
 * compiled at its first launch, which this also gets out of the way). */
static int time_frames(demo *d)
{
    const size_t groups[2] = {d->tiles, 1};
    double *best[2] = {&d->frame_all_ms, &d->frame_one_ms};
    for (int k = 0; k < 2; k++) {
        *best[k] = INFINITY;
        for (int i = 0; i < RENDER_TIMINGS; i++) {
            cl_event event = NULL;
            double ms = 0;
            cl_int err = enqueue_frame(d, 0, groups[k], &event);
            if (err == CL_SUCCESS)
                err = clWaitForEvents(1, &event);
            if (err == CL_SUCCESS)
                err = event_ms(event, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END, &ms);
            if (event)
                clReleaseEvent(event);
            if (err != CL_SUCCESS)
                return error_cl(coop_demo_cli.name, err, "timing a frame");
            if (ms < *best[k])
                *best[k] = ms;
        }
    }
    return 0;
}

static int write_frame_png(demo *d, const char *path)
{
    size_t bytes = (size_t)d->s.width * d->s.height * 4;
    uint8_t *pixels = malloc(bytes);
    if (!pixels)
        return error_report(coop_demo_cli.name, "out of memory");
    cl_int err = clEnqueueReadBuffer(coop_context_queue(d->ctx), d->frame, CL_TRUE, 0, bytes, pixels, 0, NULL, NULL);
    char message[512];
    int rc = 0;
    if (err != CL_SUCCESS)
        rc = error_cl(coop_demo_cli.name, err, "reading the frame");
    else if (image_write_png(path, pixels, d->s.width, d->s.height, 4, message, sizeof message) != 0)
        rc = error_report(coop_demo_cli.name, "%s", message);
    free(pixels);
    return rc;
}

/* ---- The cooperative run ------------------------------------------------------------------ */

/* Frames as task plans. A plan's arguments are the same at every submission, so camera position
 * k of the turn is plan k, due k periods after BFS starts and then once a turn; together they ask
 * for a frame every period. Plan CAMERA_FRAMES stops the searches at the time given. */
static void plan_tasks(const demo *d, coop_task_plan *plans)
{
    for (unsigned k = 0; k < CAMERA_FRAMES; k++)
        plans[k] = (coop_task_plan){.task = DEMO_MEGA_TASK_render, .workgroups = d->tiles, .take = COOP_TAKE_QUARTER,
                                    .start_ms = k * d->s.period_ms, .period_ms = CAMERA_FRAMES * d->s.period_ms,
                                    .args = {k, d->s.width, d->s.height}};   /* kernels/tasks/render.cl */
    plans[CAMERA_FRAMES] = (coop_task_plan){.task = DEMO_MEGA_TASK_demo_stop, .workgroups = 1, .take = COOP_TAKE_ONE,
                                            .start_ms = d->s.seconds * 1e3};
}

/* The frames among the task records, with their due times (plan k's n-th submission). */
static int collect_task_frames(const demo *d, const coop_mega_report *report, run_result *r)
{
    r->frames = calloc(report->record_count ? report->record_count : 1, sizeof *r->frames);
    if (!r->frames)
        return error_report(coop_demo_cli.name, "out of memory");
    double *gather_ms = calloc(report->record_count ? report->record_count : 1, sizeof *gather_ms);
    double *exec_ms = calloc(report->record_count ? report->record_count : 1, sizeof *exec_ms);
    if (!gather_ms || !exec_ms) {
        free(gather_ms);
        free(exec_ms);
        return error_report(coop_demo_cli.name, "out of memory");
    }
    unsigned sent[CAMERA_FRAMES] = {0};
    for (size_t i = 0; i < report->record_count; i++) {
        const coop_task_record *record = &report->records[i];
        if (record->plan >= CAMERA_FRAMES)
            continue;
        double due_ms = (record->plan + (double)sent[record->plan]++ * CAMERA_FRAMES) * d->s.period_ms;
        gather_ms[r->frame_count] = record->gather_us / 1e3;
        exec_ms[r->frame_count] = record->exec_us / 1e3;
        r->frames[r->frame_count++] =
            (frame_time){.due_ms = due_ms, .response_ms = record->request_ms + record->response_us / 1e3 - due_ms};
        r->last_frame_index = record->plan;
    }
    r->gather_median_ms = stats_quantile(gather_ms, r->frame_count, 0.5);
    r->exec_median_ms = stats_quantile(exec_ms, r->frame_count, 0.5);
    free(gather_ms);
    free(exec_ms);
    return 0;
}

/* `searches` searches (with frames and the stop task when `tasks`), as a megakernel. */
static int run_cooperative(demo *d, cl_uint searches, int tasks, run_result *r)
{
    if (reset(d, searches) != 0)
        return 1;
    coop_task_plan plans[CAMERA_FRAMES + 1];
    plan_tasks(d, plans);
    coop_mega_params params = {.launch = {.local_size = d->local_size}, .trace_file = tasks ? d->s.trace_path : NULL};
    coop_mega_report report;
    coop_status status = run_megakernel(coop_demo_cli.name, d->ctx, d->mega, &params, plans,
                                        tasks ? CAMERA_FRAMES + 1 : 0, &report, "cooperative run");
    if (status != COOP_OK)
        return 1;
    r->bfs_ms = report.cooperative_ms;
    r->discovery_ms = report.discovery_ms;
    r->groups = report.groups;
    r->kills = report.kills;
    r->forks = report.forks;
    if (params.trace_file)
        printf("  trace: %s (%lu events, %lu dropped once the groups' buffers were full)\n", params.trace_file,
               report.trace_events, report.trace_dropped);
    int rc = collect_task_frames(d, &report, r);
    coop_mega_report_free(&report);
    return rc == 0 ? read_searches(d, r) : rc;
}

/* ---- The baseline ------------------------------------------------------------------------- */

typedef struct pending_frame {
    double due_ms;                /* since the feed started */
    double enqueued_ms;
    cl_event event;
} pending_frame;

/* The baseline's frame source: a thread that enqueues a frame every period until told to stop,
 * the first one at start_ms whatever happens (so that every run has one). */
typedef struct frame_feed {
    demo *d;
    double start_ms;              /* when BFS is expected to start */
    atomic_int stop;
    pending_frame *frames;
    size_t count, capacity;
    cl_int error;
} frame_feed;

static void *feed_frames(void *arg)
{
    frame_feed *feed = arg;
    const double period_ms = feed->d->s.period_ms;
    for (unsigned i = 0;; i++) {
        double due_ms = i * period_ms;
        /* One wake-up per frame: on a CPU device every wake-up takes a core from a worker. */
        clock_sleep_ms(feed->start_ms + due_ms - clock_now_ms());
        if (i && atomic_load(&feed->stop))
            break;
        if (feed->count == feed->capacity) {
            size_t capacity = feed->capacity ? 2 * feed->capacity : 256;
            pending_frame *grown = realloc(feed->frames, capacity * sizeof *grown);
            if (!grown) {
                feed->error = CL_OUT_OF_HOST_MEMORY;
                break;
            }
            feed->frames = grown;
            feed->capacity = capacity;
        }
        pending_frame *frame = &feed->frames[feed->count];
        frame->due_ms = due_ms;
        frame->enqueued_ms = clock_now_ms() - feed->start_ms;
        frame->event = NULL;
        if ((feed->error = enqueue_frame(feed->d, i % CAMERA_FRAMES, feed->d->tiles, &frame->event)) != CL_SUCCESS)
            break;
        feed->count++;
    }
    return NULL;
}

/* Response times of the baseline's frames; BFS started `late_ms` after the feed did. The wait in
 * the queue and the run are timed by the device's profiling clock. */
static int collect_queued_frames(frame_feed *feed, double late_ms, run_result *r)
{
    cl_int err = clFinish(feed->d->frame_queue);
    r->frames = calloc(feed->count ? feed->count : 1, sizeof *r->frames);
    if (!r->frames)
        return error_report(coop_demo_cli.name, "out of memory");
    for (size_t i = 0; i < feed->count && err == CL_SUCCESS; i++) {
        const pending_frame *frame = &feed->frames[i];
        double queued_ms = 0;
        err = event_ms(frame->event, CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_END, &queued_ms);
        r->frames[i] = (frame_time){.due_ms = frame->due_ms - late_ms,
                                    .response_ms = frame->enqueued_ms - frame->due_ms + queued_ms};
        r->frame_count++;
    }
    return err == CL_SUCCESS ? 0 : error_cl(coop_demo_cli.name, err, "timing the queued frames");
}

/* `searches` searches as a plain persistent kernel, with frames enqueued beside it from
 * `discovery_ms` after the launch (when BFS should start) if `frames`. */
static int run_standalone(demo *d, cl_uint searches, int frames, double discovery_ms, double expected_ms,
                          run_result *r)
{
    if (reset(d, searches) != 0)
        return 1;
    frame_feed feed = {.d = d};
    atomic_init(&feed.stop, 0);
    pthread_t feeder;
    double launch_ms = clock_now_ms();
    feed.start_ms = launch_ms + discovery_ms;
    if (frames && pthread_create(&feeder, NULL, feed_frames, &feed) != 0)
        return error_report(coop_demo_cli.name, "cannot start the frame thread");
    /* Well beyond the time the cooperative run took for these searches: on PoCL this run, its
     * frames queued beside it, slows down far more on a busy CPU than the megakernel's run does (2
     * groups on 2 cores beside 8 busy processes and make check: 0.7 to 6.7 s against 0.14 to 0.20
     * s for the same searches, once more than 60 s), so the limit is generous: it counts hangs. */
    coop_launch launch = {.local_size = d->local_size, .timeout_s = fmax(300.0, 100 * expected_ms / 1e3)};
    coop_run_stats stats;
    coop_status status = run_persistent(coop_demo_cli.name, d->ctx, d->standalone, &launch, &stats, "standalone run");
    int rc = 0;
    if (frames) {
        atomic_store(&feed.stop, 1);
        pthread_join(feeder, NULL);
        if (feed.error != CL_SUCCESS)
            rc = error_cl(coop_demo_cli.name, feed.error, "enqueueing a frame");
        if (rc == 0 && status == COOP_OK)
            rc = collect_queued_frames(&feed, stats.discovery_ms - discovery_ms, r);
        for (size_t i = 0; i < feed.count; i++)
            clReleaseEvent(feed.frames[i].event);
        free(feed.frames);
    }
    if (status != COOP_OK)
        return 1;
    r->bfs_ms = stats.run_ms - stats.discovery_ms;
    r->discovery_ms = stats.discovery_ms;
    r->groups = stats.groups;
    return rc == 0 ? read_searches(d, r) : rc;
}

/* ---- Checks ------------------------------------------------------------------------------- */

/* The fingerprints and round counts of the CPU reference's searches 0 .. count-1. */
static int reference_prints(const demo *d, unsigned count, uint32_t *prints, uint32_t *rounds)
{
    int64_t *dist = malloc((size_t)d->g.n * sizeof *dist);
    if (!dist)
        return error_report(coop_demo_cli.name, "out of memory");
    for (unsigned s = 0; s < count; s++) {
        if (reference_bfs(d->g.row, d->g.col, d->g.n, d->sources[s], dist) != 0) {
            free(dist);
            return error_report(coop_demo_cli.name, "out of memory in the CPU reference");
        }
        uint32_t a = 0, b = 0;
        int64_t deepest = 0;
        for (uint32_t v = 0; v < d->g.n; v++) {
            uint32_t level = dist[v] < 0 ? DEVICE_UNREACHED : (uint32_t)dist[v];
            a += print_a(v, level);
            b += print_b(v, level);
            if (dist[v] > deepest)
                deepest = dist[v];
        }
        prints[2 * s] = a;
        prints[2 * s + 1] = b;
        rounds[s] = (uint32_t)deepest + 1;
    }
    free(dist);
    return 0;
}

/* Searches of run `r` that differ from the reference (printing the first few). */
static unsigned count_wrong(const demo *d, const char *mode, const run_result *r, const uint32_t *prints,
                            const uint32_t *rounds)
{
    unsigned wrong = 0;
    for (unsigned s = 0; s < r->searches; s++) {
        if (r->prints[2 * s] == prints[2 * s] && r->prints[2 * s + 1] == prints[2 * s + 1] &&
            r->rounds[s] == rounds[s])
            continue;
        if (wrong++ < 5)
            fprintf(stderr, "coop-demo: %s run, search %u from node %" PRIu64 " differs from the CPU reference: "
                    "level fingerprint %08" PRIx32 "%08" PRIx32 ", expected %08" PRIx32 "%08" PRIx32 "; %u rounds, "
                    "expected %u\n", mode, s, (uint64_t)d->sources[s] + d->g.first_id, r->prints[2 * s],
                    r->prints[2 * s + 1], prints[2 * s], prints[2 * s + 1], r->rounds[s], rounds[s]);
    }
    return wrong;
}

/* ---- Report ------------------------------------------------------------------------------- */

typedef struct frame_summary {
    size_t count, missed;
    double median_ms, p99_ms, max_ms;
} frame_summary;

static frame_summary summarise_frames(const run_result *r, double period_ms)
{
    frame_summary sum = {.count = r->frame_count};
    double *response = malloc((r->frame_count ? r->frame_count : 1) * sizeof *response);
    if (!response)
        return sum;
    for (size_t i = 0; i < r->frame_count; i++) {
        response[i] = r->frames[i].response_ms;
        sum.missed += response[i] > period_ms;
    }
    sum.median_ms = stats_quantile(response, r->frame_count, 0.5);
    sum.p99_ms = stats_quantile(response, r->frame_count, 0.99);
    sum.max_ms = stats_quantile(response, r->frame_count, 1.0);
    free(response);
    return sum;
}

static void print_table(const demo *d, const run_result runs[2], const unsigned wrong[2])
{
    frame_summary sums[2] = {summarise_frames(&runs[0], d->s.period_ms), summarise_frames(&runs[1], d->s.period_ms)};
    char label[64];
    printf("\n%-30s %16s %16s\n", "", "cooperative", "no cooperation");
    printf("%-30s %16zu %16zu\n", "frames", sums[0].count, sums[1].count);
    printf("%-30s %16.1f %16.1f\n", "frame response median (ms)", sums[0].median_ms, sums[1].median_ms);
    printf("%-30s %16.1f %16.1f\n", "frame response p99 (ms)", sums[0].p99_ms, sums[1].p99_ms);
    printf("%-30s %16.1f %16.1f\n", "frame response max (ms)", sums[0].max_ms, sums[1].max_ms);
    snprintf(label, sizeof label, "frames missed (> %g ms)", d->s.period_ms);
    printf("%-30s %16zu %16zu\n", label, sums[0].missed, sums[1].missed);
    printf("%-30s %16u %16u\n", "BFS searches", runs[0].searches, runs[1].searches);
    printf("%-30s %16.2f %16.2f\n", "BFS time (s)", runs[0].bfs_ms / 1e3, runs[1].bfs_ms / 1e3);
    printf("%-30s %16.2f %16.2f\n", "BFS time per search (ms)", runs[0].bfs_ms / runs[0].searches,
           runs[1].bfs_ms / runs[1].searches);
    char checked[2][32];
    for (int k = 0; k < 2; k++)
        snprintf(checked[k], sizeof checked[k], "%u/%u equal", runs[k].searches - wrong[k], runs[k].searches);
    printf("%-30s %16s %16s\n", "BFS results checked", checked[0], checked[1]);
}

static int write_csv(const demo *d, const char *path, const run_result runs[2])
{
    coop_outfile file;
    if (output_open(&file, coop_demo_cli.name, path) != 0)
        return CLI_EXIT_ERROR;
    FILE *out = file.stream;
    static const char *const modes[2] = {"cooperative", "no-cooperation"};
    fprintf(out, "mode,frame,due_s,response_ms,period_ms,missed\n");
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < runs[k].frame_count; i++) {
            const frame_time *f = &runs[k].frames[i];
            fprintf(out, "%s,%zu,%.4f,%.3f,%g,%d\n", modes[k], i, f->due_ms / 1e3, f->response_ms, d->s.period_ms,
                    f->response_ms > d->s.period_ms);
        }
    return output_commit(&file, coop_demo_cli.name);
}

static void free_run(run_result *r)
{
    free(r->prints);
    free(r->rounds);
    free(r->frames);
    *r = (run_result){0};
}

/* ---- Main --------------------------------------------------------------------------------- */

static int make_out_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    return error_report(coop_demo_cli.name, "%s: %s", dir, strerror(errno));
}

static int run_demo(demo *d)
{
    if (load_graph(d) != 0 || make_out_dir(d->s.out_dir) != 0 || open_device(d) != 0)
        return 1;
    const coop_device_info *info = coop_context_device(d->ctx);
    printf("coop-demo on %s (%s), local size %zu\n", info->name, info->platform, d->local_size);
    printf("graph %s: %" PRIu32 " nodes, %" PRIu64 " arcs\n", input_name(d), d->g.n, d->g.m);
    if (time_frames(d) != 0)
        return 1;
    printf("frame %ux%u in %u tiles, one every %g ms: %.1f ms alone on one group, %.1f ms on %u groups\n",
           d->s.width, d->s.height, d->tiles, d->s.period_ms, d->frame_one_ms, d->frame_all_ms, d->tiles);

    /* Warm-ups: PoCL compiles a kernel at its first launch. They are checked like the rest. */
    run_result warm[2] = {{0}}, runs[2] = {{0}};
    int rc = run_cooperative(d, 1, 0, &warm[0]);
    if (rc == 0)
        rc = run_standalone(d, 1, 0, 0, 1e3, &warm[1]);
    if (rc == 0) {
        printf("warm-up, one search each (checked too): %.1f ms as a megakernel on %u groups, %.1f ms as a "
               "persistent kernel\n", warm[0].bfs_ms, warm[0].groups, warm[1].bfs_ms);
        printf("cooperative: searches from one source after another for %g s, a frame every %g ms on a quarter "
               "of the groups...\n", d->s.seconds, d->s.period_ms);
        rc = run_cooperative(d, MAX_SEARCHES, 1, &runs[0]);
    }
    if (rc == 0) {
        printf("  %u searches in %.2f s; %zu frames: gather median %.2f ms, render median %.2f ms; %u kills, "
               "%u forks\n", runs[0].searches, runs[0].bfs_ms / 1e3, runs[0].frame_count, runs[0].gather_median_ms,
               runs[0].exec_median_ms, runs[0].kills, runs[0].forks);
        char path[4096];
        snprintf(path, sizeof path, "%s/frame.png", d->s.out_dir);
        rc = runs[0].frame_count ? write_frame_png(d, path) : 0;
    }
    if (rc == 0) {
        printf("no cooperation: the same %u searches as a plain persistent kernel, a frame every %g ms on a "
               "second queue...\n", runs[0].searches, d->s.period_ms);
        rc = run_standalone(d, runs[0].searches, 1, runs[0].discovery_ms, runs[0].bfs_ms, &runs[1]);
    }
    if (rc == 0)
        printf("  %u searches in %.2f s; %zu frames waited for it\n", runs[1].searches, runs[1].bfs_ms / 1e3,
               runs[1].frame_count);

    unsigned wrong[2] = {0, 0};
    if (rc == 0) {
        printf("checking %u searches of each run against the CPU reference...\n", runs[0].searches);
        uint32_t *prints = malloc(2 * (size_t)runs[0].searches * sizeof *prints);
        uint32_t *rounds = malloc((size_t)runs[0].searches * sizeof *rounds);
        if (!prints || !rounds) {
            rc = error_report(coop_demo_cli.name, "out of memory");
        } else {
            rc = reference_prints(d, runs[0].searches, prints, rounds);
        }
        if (rc == 0) {
            unsigned warm_wrong = count_wrong(d, "warm-up cooperative", &warm[0], prints, rounds) +
                                  count_wrong(d, "warm-up standalone", &warm[1], prints, rounds);
            wrong[0] = count_wrong(d, "cooperative", &runs[0], prints, rounds);
            wrong[1] = count_wrong(d, "no-cooperation", &runs[1], prints, rounds);
            print_table(d, runs, wrong);
            if (wrong[0] || wrong[1] || warm_wrong)
                rc = 2;
        }
        free(prints);
        free(rounds);
    }
    if (rc == 0 || rc == 2) {
        char path[4096];
        snprintf(path, sizeof path, "%s/responsiveness.csv", d->s.out_dir);
        if (write_csv(d, path, runs) != 0)
            rc = 1;
        else if (runs[0].frame_count)
            printf("wrote %s/frame.png (camera position %u of %u) and %s\n", d->s.out_dir, runs[0].last_frame_index,
                   CAMERA_FRAMES, path);
        else
            printf("wrote %s (no frame was rendered in the cooperative run)\n", path);
    }
    for (int k = 0; k < 2; k++) {
        free_run(&warm[k]);
        free_run(&runs[k]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_demo_cli, argc, argv))
        return CLI_EXIT_OK;
    /* Progress lines show as they come under make, and survive a crash in the OpenCL compiler. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    demo d = {0};
    if (parse(argc, argv, &d.s) != 0)
        return CLI_EXIT_ERROR;
    output_catch_signals();
    int rc = run_demo(&d);
    close_device(&d);
    graph_free(&d.g);
    free(d.sources);
    return rc;
}
