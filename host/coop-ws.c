/* coop-ws: the work-stealing apps (kernels/lib/ws_deque.h): octree partitioning of random 3-D
 * points (apps/octree/) and a connect-four game-tree search (apps/game/), each as a cooperative
 * megakernel (kill and fork offered between tasks, an optional periodic matmult task beside it)
 * or as a standalone persistent kernel, every run checked against its CPU reference.
 * Both forms are what coop-merge makes of the kernels (kernels/generated/, bound by the names of
 * the generated headers).
 *
 *   coop-ws octree|game [--points N] [--leaf-max K] [--depth D] [--mode cooperative|standalone]
 *                       [--chaos SEED] [--seeds S | --repeat R] [--task none|light] [--local-size L]
 *                       [--json FILE] [--trace FILE]   (coop_ws_cli's help says more)
 *
 * octree: N points (default 20000) from a fixed generator, leaves of at most K points (default
 * 16); the check walks the tree: every point once, in a leaf whose cell holds it, children tiling
 * their parent, and as many nodes as the CPU's own partition makes (computed first: it sizes the
 * node array). game: the negamax value of a
 * fixed opening searched D plies deep (default 5, at most 7) and the number of nodes searched,
 * both equal to the CPU's. --chaos runs the megakernel in chaos mode from seed SEED, --seeds S
 * runs S seeds from there (one line each; without --chaos, S runs; --repeat R is the same). --task
 * light submits a 64 x 64 matmult (kernels/tasks/ws_light.cl) every 5 ms on a quarter of the groups
 * and checks it too. After several runs a summary line gives the median time; --json FILE writes
 * every run's figures. Times run from the end of discovery until the kernel ended (standalone) or
 * the host saw every member finish (cooperative).
 * Exit status: 0, 1 for an error (bad arguments, device failure), 2 for a result that differs
 * from the CPU's. */
#include "buffers.h"
#include "cli.h"
#include "coop.h"
#include "coop/kernels/ws_layout.h" /* the queue's words and size, as the kernels have them */
#include "device.h"
#include "errors.h"
#include "game/game_ref.h"
#include "game_mega.h"
#include "game_standalone.h"
#include "json.h"
#include "matmult_task.h"
#include "octree/octree_ref.h"
#include "octree_mega.h"
#include "octree_standalone.h"
#include "output.h"
#include "run.h"
#include "stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char octree_mega_source[], octree_standalone_source[], game_mega_source[], game_standalone_source[];

/* apps/octree/octree.cl's node words; its work-items 0..7 each handle an octant. */
enum { OCT_NODE_WORDS = 8, OCT_FIRST = 0, OCT_COUNT = 1, OCT_CHILD = 2, OCT_LEVEL = 3, OCT_X = 4, OCT_Y = 5,
       OCT_Z = 6, OCT_MAX_LEVEL = 20, OCT_MIN_LOCAL_SIZE = 8 };

/* apps/game/game.cl's node words and scores. */
enum { GAME_NODE_WORDS = 8, GAME_PARENT = 0, GAME_BEST = 1, GAME_DEPTH = 3, GAME_MASK = 4, GAME_CUR = 6,
       GAME_MAX_DEPTH = 7 };
#define GAME_NO_PARENT 0xffffffffu
#define GAME_BIAS 0x80000000u

/* The light task: ws_light.cl's c = a x b of order MATMULT_TASK_ORDER on TASK_GROUPS workgroups. */
enum { TASK_GROUPS = 8 };
#define TASK_PERIOD_MS 5.0

/* Differences printed when a result is wrong. */
#define SHOWN_DIFFERENCES 10

typedef enum app_kind { APP_OCTREE, APP_GAME } app_kind;

typedef struct options {
    app_kind app;
    unsigned points, leaf_max, depth, chaos, seeds;
    int cooperative, task;
    size_t local_size;
    const char *json;
    const char *trace;            /* --trace: the last run's trace file */
} options;

/* One run's figures, for the summary and --json. */
typedef struct run_record {
    unsigned seed, groups, steals, spills, kills, forks, tasks;
    double ms;
    int status;                   /* 0 right, 2 wrong */
    char result[128];
} run_record;

static const cli coop_ws_cli = {
    "coop-ws",
    "Usage: coop-ws octree|game [--points N] [--leaf-max K] [--depth D] [--mode cooperative|standalone]\n"
    "                           [--chaos SEED] [--seeds S | --repeat R] [--task none|light] [--local-size L]\n"
    "                           [--json FILE] [--trace FILE]\n"
    "Runs work-stealing apps as cooperative kernels and checks them against the CPU.\n"
    "\n"
    "octree partitions random 3-D points into an octree; game searches a connect-four opening with\n"
    "negamax. Both steal work between groups through kernels/lib/ws_deque.h, as a cooperative\n"
    "megakernel (kill and fork offered between tasks) or as a standalone persistent kernel.\n"
    "\n"
    "Options:\n"
    "  --points N        octree: points, 1 to 16777216 (default 20000)\n"
    "  --leaf-max K      octree: most points in a leaf, 1 to 1073741824 (default 16)\n"
    "  --depth D         game: plies searched, 1 to 7 (default 5)\n"
    "  --mode M          cooperative (default) or standalone\n"
    "  --chaos SEED      chaos mode from SEED, 1 to 1073741824 (--mode cooperative)\n"
    "  --seeds S         runs, 1 to 1073741824 (default 1); with --chaos, seeds SEED .. SEED+S-1\n"
    "  --repeat R        the same as --seeds R\n"
    "  --task T          none (default), or light: a 64 x 64 matrix multiplication every 5 ms on a\n"
    "                    quarter of the groups, checked too (--mode cooperative)\n"
    "  --local-size L    work-items per group, 1 to 1024 (default 64); octree needs 8 (one per\n"
    "                    octant), and megakernels need 3 on PoCL\n"
    "  --json FILE       write every run's figures to FILE\n"
    "  --trace FILE      write a timeline of the last run to FILE (Chrome trace event JSON, for\n"
    "                    Perfetto or chrome://tracing, or scripts/timeline; --mode cooperative)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every run's result equals the CPU's\n"
    "  1  a bad option or environment value, or a device or OpenCL error\n"
    "  2  a result differs from the CPU's\n",
};

static int parse(int argc, char **argv, options *o)
{
    static const char *const apps[] = {"octree", "game"};
    static const char *const modes[] = {"cooperative", "standalone"};
    static const char *const tasks[] = {"none", "light"};
    const cli *c = &coop_ws_cli;
    *o = (options){.points = 20000, .leaf_max = 16, .depth = 5, .seeds = 1, .cooperative = 1, .local_size = 64};
    size_t choice = 0;
    if (argc < 2)
        return cli_fail(c, "APP: missing (octree or game)");
    if (cli_choice(c, "APP", argv[1], apps, 2, &choice) != 0)
        return -1;
    o->app = choice == 0 ? APP_OCTREE : APP_GAME;
    cli_seen seen = {0};
    int seeds_given = 0;
    for (int i = 2; i < argc; i++) {
        const char *option = argv[i];
        unsigned *field = !strcmp(option, "--points")     ? &o->points
                          : !strcmp(option, "--leaf-max") ? &o->leaf_max
                          : !strcmp(option, "--depth")    ? &o->depth
                          : !strcmp(option, "--chaos")    ? &o->chaos
                          : !strcmp(option, "--seeds")    ? &o->seeds
                          : !strcmp(option, "--repeat")   ? &o->seeds
                                                          : NULL;
        int known = field || !strcmp(option, "--mode") || !strcmp(option, "--task") ||
                    !strcmp(option, "--local-size") || !strcmp(option, "--json") || !strcmp(option, "--trace");
        if (!known)
            return cli_fail(c, "unknown option '%s'", option);
        const char *value = cli_value(c, argc, argv, &i, &seen);
        if (!value)
            return -1;
        unsigned most = field == &o->depth ? GAME_MAX_DEPTH : field == &o->points ? 1u << 24 : 1u << 30;
        unsigned local_size = 0;
        int bad = 0;
        if (field == &o->seeds && seeds_given++)
            return cli_fail(c, "%s '%s': --seeds and --repeat are one option; give it once", option, value);
        if (field) {
            bad = cli_unsigned(c, option, value, 1, most, field);
        } else if (!strcmp(option, "--mode")) {
            bad = cli_choice(c, option, value, modes, 2, &choice);
            o->cooperative = choice == 0;
        } else if (!strcmp(option, "--task")) {
            bad = cli_choice(c, option, value, tasks, 2, &choice);
            o->task = choice == 1;
        } else if (!strcmp(option, "--local-size")) {
            bad = cli_unsigned(c, option, value, o->app == APP_OCTREE ? OCT_MIN_LOCAL_SIZE : 1, 1024, &local_size);
            o->local_size = local_size;
        } else if (!strcmp(option, "--trace")) {
            o->trace = value;
        } else {
            o->json = value;
        }
        if (bad)
            return -1;
    }
    if (!o->cooperative && (o->chaos || o->task || o->trace))
        return cli_fail(c, "--chaos, --task and --trace need --mode cooperative");
    return 0;
}

/* ---- Device buffers -------------------------------------------------------------------------- */

typedef struct ws_env {
    coop_context *ctx;
    coop_program *program;
    coop_kernel *kernel;
    cl_mem buffers[16];
    unsigned buffer_count;
    unsigned queue_groups, queue_capacity, queue_shared;
    cl_mem queue;
    matmult_task task;
} ws_env;

static cl_mem make_buffer(ws_env *env, size_t bytes)
{
    cl_int err = CL_SUCCESS;
    cl_mem buffer = buffer_create(env->ctx, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        error_report(coop_ws_cli.name, "clCreateBuffer of %zu bytes: %s", bytes, coop_cl_error_name(err));
        return NULL;
    }
    env->buffers[env->buffer_count++] = buffer;
    return buffer;
}

static int write_words(ws_env *env, cl_mem buffer, size_t offset_words, const void *words, size_t bytes)
{
    cl_int err = clEnqueueWriteBuffer(coop_context_queue(env->ctx), buffer, CL_TRUE, offset_words * 4, bytes, words, 0,
                                      NULL, NULL);
    return err == CL_SUCCESS ? 0 : error_cl(coop_ws_cli.name, err, "clEnqueueWriteBuffer");
}

static int read_words(ws_env *env, cl_mem buffer, void *words, size_t bytes)
{
    cl_int err = clEnqueueReadBuffer(coop_context_queue(env->ctx), buffer, CL_TRUE, 0, bytes, words, 0, NULL, NULL);
    return err == CL_SUCCESS ? 0 : error_cl(coop_ws_cli.name, err, "clEnqueueReadBuffer");
}

static int zero_words(ws_env *env, cl_mem buffer, size_t words)
{
    cl_int err = buffer_fill_words(coop_context_queue(env->ctx), buffer, 0, words);
    if (err == CL_SUCCESS)
        err = clFinish(coop_context_queue(env->ctx));
    return err == CL_SUCCESS ? 0 : error_cl(coop_ws_cli.name, err, "clEnqueueFillBuffer");
}

/* Slots of a group's deque: more than a group holds at once in either app (a depth-first
 * order keeps at most 7 per level); a fuller deque spills to the shared one. */
#define QUEUE_GROUP_SLOTS 1024u

static size_t queue_words(const ws_env *env)
{
    return WS_QUEUE_WORDS((size_t)env->queue_groups, env->queue_capacity, env->queue_shared);
}

/* The task queue, seeded with task 0 (the root) in the shared deque. */
static int queue_reset(ws_env *env)
{
    if (zero_words(env, env->queue, queue_words(env)))
        return 1;
    size_t shared = WS_DEQUE_BASE(env->queue_capacity, (size_t)env->queue_groups);
    cl_uint one = 1;
    return write_words(env, env->queue, WS_OUTSTANDING, &one, 4) ||
           write_words(env, env->queue, shared + WS_TAIL, &one, 4);
}

/* A queue for every group the launch may have; the shared deque holds every task there can be. */
static int queue_open(ws_env *env, size_t local_size, unsigned tasks)
{
    env->queue_groups = coop_launch_groups(env->ctx, local_size);
    env->queue_capacity = tasks < QUEUE_GROUP_SLOTS ? tasks : QUEUE_GROUP_SLOTS;
    env->queue_shared = tasks;
    env->queue = make_buffer(env, queue_words(env) * 4);
    return env->queue ? 0 : 1;
}

/* The light task's inputs, and its buffers (the megakernel's arguments a, b and c). */
static int task_open(ws_env *env, unsigned arg_a, unsigned arg_b, unsigned arg_c)
{
    matmult_task_inputs(&env->task);
    size_t bytes = MATMULT_TASK_ORDER * MATMULT_TASK_ORDER * 4;
    env->task.a = make_buffer(env, bytes);
    env->task.b = make_buffer(env, bytes);
    env->task.c = make_buffer(env, bytes);
    if (!env->task.a || !env->task.b || !env->task.c || write_words(env, env->task.a, 0, env->task.a_host, bytes) ||
        write_words(env, env->task.b, 0, env->task.b_host, bytes))
        return 1;
    coop_kernel_set_buffer(env->kernel, arg_a, env->task.a);
    coop_kernel_set_buffer(env->kernel, arg_b, env->task.b);
    coop_kernel_set_buffer(env->kernel, arg_c, env->task.c);
    return 0;
}

/* ---- octree ------------------------------------------------------------------------------- */

typedef struct octree_data {
    float *points;        /* x, y, z, w per point */
    unsigned node_bound;  /* nodes of the CPU's partition: the device's tree must have as many */
    cl_mem points_buf, perm, scratch, nodes, node_count;
} octree_data;

static int octree_open(ws_env *env, const options *o, octree_data *d)
{
    *d = (octree_data){.points = malloc((size_t)o->points * 4 * sizeof(float))};
    if (!d->points)
        return 1;
    octree_points(d->points, o->points);
    unsigned *ids = malloc((size_t)o->points * sizeof *ids), *scratch = malloc((size_t)o->points * sizeof *scratch);
    if (!ids || !scratch) {
        free(ids);
        free(scratch);
        return 1;
    }
    for (unsigned i = 0; i < o->points; i++)
        ids[i] = i;
    d->node_bound = (unsigned)octree_reference(d->points, ids, o->points, o->leaf_max, OCT_MAX_LEVEL, 0, scratch);
    free(ids);
    free(scratch);
    d->points_buf = make_buffer(env, (size_t)o->points * 16);
    d->perm = make_buffer(env, (size_t)o->points * 4);
    d->scratch = make_buffer(env, (size_t)o->points * 4);
    d->node_count = make_buffer(env, 4);
    d->nodes = make_buffer(env, (size_t)d->node_bound * OCT_NODE_WORDS * 4);
    if (!d->points_buf || !d->perm || !d->scratch || !d->node_count || !d->nodes ||
        queue_open(env, o->local_size, d->node_bound))
        return 1;
    if (write_words(env, d->points_buf, 0, d->points, (size_t)o->points * 16))
        return 1;
#define OCTREE_ARG(name) (o->cooperative ? OCTREE_MEGA_ARG_octree_##name : OCTREE_STANDALONE_ARG_octree_##name)
    coop_kernel *k = env->kernel;
    coop_kernel_set_buffer(k, OCTREE_ARG(points), d->points_buf);
    coop_kernel_set_buffer(k, OCTREE_ARG(perm), d->perm);
    coop_kernel_set_buffer(k, OCTREE_ARG(scratch), d->scratch);
    coop_kernel_set_buffer(k, OCTREE_ARG(nodes), d->nodes);
    coop_kernel_set_buffer(k, OCTREE_ARG(node_count), d->node_count);
    coop_kernel_set_arg(k, OCTREE_ARG(node_limit), sizeof(cl_uint), &d->node_bound);
    coop_kernel_set_arg(k, OCTREE_ARG(leaf_max), sizeof(cl_uint), &o->leaf_max);
    coop_kernel_set_buffer(k, OCTREE_ARG(queue_words), env->queue);
    coop_kernel_set_arg(k, OCTREE_ARG(queue_groups), sizeof(cl_uint), &env->queue_groups);
    coop_kernel_set_arg(k, OCTREE_ARG(queue_capacity), sizeof(cl_uint), &env->queue_capacity);
    coop_kernel_set_arg(k, OCTREE_ARG(queue_shared), sizeof(cl_uint), &env->queue_shared);
#undef OCTREE_ARG
    return o->cooperative ? task_open(env, OCTREE_MEGA_ARG_ws_light_a, OCTREE_MEGA_ARG_ws_light_b,
                                      OCTREE_MEGA_ARG_ws_light_c)
                          : 0;
}

static int octree_reset(ws_env *env, const options *o, octree_data *d)
{
    unsigned *perm = malloc((size_t)o->points * sizeof *perm);
    if (!perm)
        return 1;
    for (unsigned i = 0; i < o->points; i++)
        perm[i] = i;
    cl_uint root[OCT_NODE_WORDS] = {[OCT_COUNT] = o->points}, one = 1;
    int failed = write_words(env, d->perm, 0, perm, (size_t)o->points * 4) ||
                 write_words(env, d->nodes, 0, root, sizeof root) || write_words(env, d->node_count, 0, &one, 4) ||
                 queue_reset(env);
    free(perm);
    return failed;
}

/* Walks the device's tree; prints the first differences and returns 2 if it is wrong. */
static int octree_check(ws_env *env, const options *o, octree_data *d, unsigned *nodes_out, unsigned *leaves_out)
{
    unsigned node_count = 0;
    if (read_words(env, d->node_count, &node_count, 4))
        return 1;
    if (node_count > d->node_bound) {
        printf("octree: %u nodes, more than the %u of the CPU's partition\n", node_count, d->node_bound);
        return 2;
    }
    size_t node_bytes = (size_t)node_count * OCT_NODE_WORDS * 4;
    cl_uint *nodes = malloc(node_bytes), *perm = malloc((size_t)o->points * 4);
    unsigned *seen = calloc(o->points, sizeof *seen), *stack = malloc((size_t)node_count * sizeof *stack);
    if (!nodes || !perm || !seen || !stack)
        return error_report(coop_ws_cli.name, "out of memory");
    int status = read_words(env, d->nodes, nodes, node_bytes) || read_words(env, d->perm, perm, (size_t)o->points * 4);
    unsigned wrong = 0, leaves = 0, reached = 0, top = 0;
    stack[top++] = 0;
    while (!status && top && wrong < SHOWN_DIFFERENCES) {
        unsigned index = stack[--top];
        const cl_uint *n = nodes + (size_t)index * OCT_NODE_WORDS;
        reached++;
        if (n[OCT_FIRST] > o->points || n[OCT_COUNT] > o->points - n[OCT_FIRST]) {
            printf("octree: node %u has the range %u + %u of %u points\n", index, n[OCT_FIRST], n[OCT_COUNT],
                   o->points);
            wrong++;
            continue;
        }
        if (n[OCT_CHILD] == 0) {
            leaves++;
            if (n[OCT_COUNT] > o->leaf_max && n[OCT_LEVEL] < OCT_MAX_LEVEL) {
                printf("octree: leaf %u holds %u points, more than %u\n", index, n[OCT_COUNT], o->leaf_max);
                wrong++;
            }
            for (unsigned i = n[OCT_FIRST]; i < n[OCT_FIRST] + n[OCT_COUNT] && wrong < SHOWN_DIFFERENCES; i++) {
                unsigned point = perm[i];
                if (point >= o->points) {
                    printf("octree: perm[%u] = %u is no point\n", i, point);
                    wrong++;
                    continue;
                }
                seen[point]++;
                const float *p = d->points + (size_t)point * 4;
                const unsigned cell[3] = {n[OCT_X], n[OCT_Y], n[OCT_Z]};
                for (unsigned k = 0; k < 3; k++)
                    if (octree_cell(p[k], n[OCT_LEVEL]) != cell[k]) {
                        printf("octree: point %u (%.7f, %.7f, %.7f) is in leaf %u, cell (%u, %u, %u) at level %u\n",
                               point, p[0], p[1], p[2], index, cell[0], cell[1], cell[2], n[OCT_LEVEL]);
                        wrong++;
                        break;
                    }
            }
            continue;
        }
        unsigned child = n[OCT_CHILD], at = n[OCT_FIRST];
        if (child + 8 > node_count || child <= index) {
            printf("octree: node %u has children %u..%u of %u nodes\n", index, child, child + 7, node_count);
            wrong++;
            continue;
        }
        for (unsigned k = 0; k < 8; k++) {
            const cl_uint *c = nodes + (size_t)(child + k) * OCT_NODE_WORDS;
            if (c[OCT_FIRST] != at || c[OCT_LEVEL] != n[OCT_LEVEL] + 1 || c[OCT_X] != n[OCT_X] * 2 + (k & 1) ||
                c[OCT_Y] != n[OCT_Y] * 2 + (k >> 1 & 1) || c[OCT_Z] != n[OCT_Z] * 2 + (k >> 2)) {
                printf("octree: child %u of node %u starts at %u (expected %u), level %u, cell (%u, %u, %u)\n", k,
                       index, c[OCT_FIRST], at, c[OCT_LEVEL], c[OCT_X], c[OCT_Y], c[OCT_Z]);
                wrong++;
            }
            at += c[OCT_COUNT];
            stack[top++] = child + k;
        }
        if (at != n[OCT_FIRST] + n[OCT_COUNT]) {
            printf("octree: the children of node %u hold %u points, it holds %u\n", index, at - n[OCT_FIRST],
                   n[OCT_COUNT]);
            wrong++;
        }
    }
    for (unsigned i = 0; !status && i < o->points && wrong < SHOWN_DIFFERENCES; i++)
        if (seen[i] != 1) {
            printf("octree: point %u is in %u leaves\n", i, seen[i]);
            wrong++;
        }
    if (!status && !wrong && (node_count != d->node_bound || reached != node_count)) {
        printf("octree: %u nodes (%u reached from the root), the CPU's partition has %u\n", node_count, reached,
               d->node_bound);
        wrong++;
    }
    *nodes_out = node_count;
    *leaves_out = leaves;
    free(nodes);
    free(perm);
    free(seen);
    free(stack);
    return status ? 1 : wrong ? 2 : 0;
}

static void octree_close(octree_data *d)
{
    free(d->points);
}

/* ---- game --------------------------------------------------------------------------------- */

/* The opening searched from (columns, 0-based). */
static const unsigned game_opening[] = {3, 3, 2, 4, 2, 1};

typedef struct game_data {
    unsigned node_bound;
    game_board root;
    cl_mem nodes, node_count;
} game_data;

static int game_open(ws_env *env, const options *o, game_data *d)
{
    *d = (game_data){.node_bound = 0};
    for (unsigned i = 0, level = 1; i <= o->depth; i++, level *= 7)
        d->node_bound += level;
    for (size_t i = 0; i < sizeof game_opening / sizeof game_opening[0]; i++)
        d->root = game_play(d->root, game_opening[i]);
    d->nodes = make_buffer(env, (size_t)d->node_bound * GAME_NODE_WORDS * 4);
    d->node_count = make_buffer(env, 4);
    if (!d->nodes || !d->node_count || queue_open(env, o->local_size, d->node_bound))
        return 1;
#define GAME_ARG(name) (o->cooperative ? GAME_MEGA_ARG_game_##name : GAME_STANDALONE_ARG_game_##name)
    coop_kernel *k = env->kernel;
    coop_kernel_set_buffer(k, GAME_ARG(nodes), d->nodes);
    coop_kernel_set_buffer(k, GAME_ARG(node_count), d->node_count);
    coop_kernel_set_buffer(k, GAME_ARG(queue_words), env->queue);
    coop_kernel_set_arg(k, GAME_ARG(queue_groups), sizeof(cl_uint), &env->queue_groups);
    coop_kernel_set_arg(k, GAME_ARG(queue_capacity), sizeof(cl_uint), &env->queue_capacity);
    coop_kernel_set_arg(k, GAME_ARG(queue_shared), sizeof(cl_uint), &env->queue_shared);
#undef GAME_ARG
    return o->cooperative ? task_open(env, GAME_MEGA_ARG_ws_light_a, GAME_MEGA_ARG_ws_light_b,
                                      GAME_MEGA_ARG_ws_light_c)
                          : 0;
}

static int game_reset(ws_env *env, const options *o, game_data *d)
{
    cl_uint root[GAME_NODE_WORDS] = {[GAME_PARENT] = GAME_NO_PARENT, [GAME_DEPTH] = o->depth}, one = 1;
    root[GAME_MASK] = (cl_uint)d->root.mask;
    root[GAME_MASK + 1] = (cl_uint)(d->root.mask >> 32);
    root[GAME_CUR] = (cl_uint)d->root.cur;
    root[GAME_CUR + 1] = (cl_uint)(d->root.cur >> 32);
    return write_words(env, d->nodes, 0, root, sizeof root) || write_words(env, d->node_count, 0, &one, 4) ||
           queue_reset(env);
}

static int game_check(ws_env *env, const options *o, game_data *d, int *value_out, unsigned *nodes_out)
{
    cl_uint root[GAME_NODE_WORDS], node_count = 0;
    if (read_words(env, d->nodes, root, sizeof root) || read_words(env, d->node_count, &node_count, 4))
        return 1;
    unsigned long expected_nodes = 0;
    int expected = game_negamax(d->root, o->depth, &expected_nodes);
    int value = (int)(root[GAME_BEST] - GAME_BIAS);
    *value_out = value;
    *nodes_out = node_count;
    if (value != expected || node_count != expected_nodes) {
        printf("game: value %d over %u nodes, the CPU's search says %d over %lu\n", value, node_count, expected,
               expected_nodes);
        return 2;
    }
    return 0;
}

/* ---- Runs --------------------------------------------------------------------------------- */

/* One run (chaos seed `seed`, 0: none; traced into `trace` unless NULL) of the open app; prints a
 * line and returns 0, 1 or 2. */
static int run_once(ws_env *env, const options *o, void *data, unsigned seed, const char *trace,
                    run_record *record)
{
    int status = o->app == APP_OCTREE ? octree_reset(env, o, data) : game_reset(env, o, data);
    if (status)
        return 1;
    coop_mega_report report = {0};
    coop_run_stats stats = {0};
    coop_status run;
    if (o->cooperative) {
        coop_mega_params params = {.launch = {.local_size = o->local_size}, .chaos_seed = seed, .watchdog_s = 20,
                                   .trace_file = trace};
        coop_task_plan plan = {.task = o->app == APP_OCTREE ? OCTREE_MEGA_TASK_ws_light : GAME_MEGA_TASK_ws_light,
                               .workgroups = TASK_GROUPS, .take = COOP_TAKE_QUARTER, .period_ms = TASK_PERIOD_MS,
                               .args = {MATMULT_TASK_ORDER}};
        if (o->task && zero_words(env, env->task.c, MATMULT_TASK_ORDER * MATMULT_TASK_ORDER))
            return 1;
        run = run_megakernel(coop_ws_cli.name, env->ctx, env->kernel, &params, &plan, o->task ? 1 : 0, &report,
                             NULL);
    } else {
        coop_launch launch = {.local_size = o->local_size};
        run = run_persistent(coop_ws_cli.name, env->ctx, env->kernel, &launch, &stats, NULL);
    }
    if (run != COOP_OK) {
        coop_mega_report_free(&report);
        return 1;
    }
    cl_uint header[WS_HEADER_WORDS];
    if (read_words(env, env->queue, header, sizeof header)) {
        coop_mega_report_free(&report);
        return 1;
    }
    char result[128];
    if (o->app == APP_OCTREE) {
        unsigned nodes = 0, leaves = 0;
        status = octree_check(env, o, data, &nodes, &leaves);
        snprintf(result, sizeof result, "%u nodes, %u leaves", nodes, leaves);
    } else {
        int value = 0;
        unsigned nodes = 0;
        status = game_check(env, o, data, &value, &nodes);
        snprintf(result, sizeof result, "value %d over %u nodes", value, nodes);
    }
    if (!status && header[WS_OVERFLOWED]) {
        printf("the task queue overflowed\n");
        status = 2;
    }
    if (!status && o->cooperative && report.record_count)
        status = matmult_task_check(&env->task, env->ctx, coop_ws_cli.name);
    double ms = o->cooperative ? report.cooperative_ms : stats.run_ms - stats.discovery_ms;
    unsigned groups = o->cooperative ? report.groups : stats.groups;
    *record = (run_record){.seed = seed, .groups = groups, .steals = header[WS_STEALS], .spills = header[WS_SPILLS],
                           .kills = report.kills, .forks = report.forks, .tasks = report.tasks, .ms = ms,
                           .status = status};
    snprintf(record->result, sizeof record->result, "%s", result);
    printf("%s %s seed %u: %s; %.1f ms on %u groups, %u steals, %u spills", o->app == APP_OCTREE ? "octree" : "game",
           o->cooperative ? "cooperative" : "standalone", seed, result, ms, groups, header[WS_STEALS],
           header[WS_SPILLS]);
    if (o->cooperative)
        printf(", %u kills, %u forks, %u tasks", report.kills, report.forks, report.tasks);
    printf(": %s\n", status == 0 ? "ok" : status == 2 ? "WRONG" : "error");
    if (trace)
        printf("trace: %s (%lu events, %lu dropped)\n", trace, report.trace_events, report.trace_dropped);
    coop_mega_report_free(&report);
    return status;
}

/* Every run's figures as one JSON object. */
static int write_json(const options *o, coop_context *ctx, const run_record *records, unsigned count)
{
    coop_outfile file;
    if (output_open(&file, coop_ws_cli.name, o->json) != 0)
        return CLI_EXIT_ERROR;
    FILE *out = file.stream;
    const coop_device_info *info = coop_context_device(ctx);
    fprintf(out, "{\n  \"app\": \"%s\",\n  \"mode\": \"%s\",\n  \"device\": ", o->app == APP_OCTREE ? "octree" : "game",
            o->cooperative ? "cooperative" : "standalone");
    json_string(out, info->name);
    fprintf(out, ",\n  \"points\": %u,\n  \"leaf_max\": %u,\n  \"depth\": %u,\n  \"local_size\": %zu,\n"
            "  \"chaos_seed\": %u,\n  \"task\": %s,\n  \"runs\": [\n", o->points, o->leaf_max, o->depth,
            o->local_size, o->chaos, o->task ? "\"light\"" : "null");
    for (unsigned i = 0; i < count; i++) {
        const run_record *r = &records[i];
        fprintf(out, "    {\"seed\": %u, \"time_ms\": %.6f, \"groups\": %u, \"steals\": %u, \"spills\": %u, "
                "\"kills\": %u, \"forks\": %u, \"tasks\": %u, \"result\": ", r->seed, r->ms, r->groups, r->steals,
                r->spills, r->kills, r->forks, r->tasks);
        json_string(out, r->result);
        fprintf(out, ", \"check\": \"%s\"}%s\n", r->status ? "wrong" : "ok", i + 1 < count ? "," : "");
    }
    fprintf(out, "  ]\n}\n");
    return output_commit(&file, coop_ws_cli.name);
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_ws_cli, argc, argv))
        return CLI_EXIT_OK;
    options o;
    if (parse(argc, argv, &o) != 0)
        return CLI_EXIT_ERROR;
    output_catch_signals();
    ws_env env = {0};
    const char *kernel = o.app == APP_OCTREE ? (o.cooperative ? OCTREE_MEGA_NAME : OCTREE_STANDALONE_NAME)
                                             : (o.cooperative ? GAME_MEGA_NAME : GAME_STANDALONE_NAME);
    const char *source = o.app == APP_OCTREE ? (o.cooperative ? octree_mega_source : octree_standalone_source)
                                             : (o.cooperative ? game_mega_source : game_standalone_source);
    if (device_open(coop_ws_cli.name, NULL, &env.ctx) != 0)
        return 1;
    coop_status status = coop_program_create(env.ctx, source, NULL, &env.program);
    if (status == COOP_OK)
        status = coop_kernel_create(env.program, kernel, &env.kernel);
    if (status != COOP_OK) {
        error_coop(coop_ws_cli.name, env.ctx, status, NULL);
        coop_context_release(env.ctx);
        return 1;
    }
    octree_data octree = {0};
    game_data game = {0};
    void *data = o.app == APP_OCTREE ? (void *)&octree : (void *)&game;
    int result = o.app == APP_OCTREE ? octree_open(&env, &o, &octree) : game_open(&env, &o, &game);
    if (!result) {
        if (o.app == APP_OCTREE)
            printf("octree: %u points, leaves of at most %u\n", o.points, o.leaf_max);
        else
            printf("game: connect four, %u plies deep\n", o.depth);
    }
    unsigned wrong = 0, done = 0;
    run_record *records = calloc(o.seeds, sizeof *records);
    if (!records)
        result = 1;
    for (unsigned i = 0; !result && i < o.seeds; i++) {
        int run = run_once(&env, &o, data, o.chaos ? o.chaos + i : 0, i + 1 == o.seeds ? o.trace : NULL,
                           &records[i]);
        if (run == 1)
            result = 1;
        else
            done++;
        wrong += run == 2;
    }
    if (!result && wrong)
        result = 2;
    if (o.seeds > 1 && result != 1) {
        double *times = calloc(done, sizeof *times);
        for (unsigned i = 0; times && i < done; i++)
            times[i] = records[i].ms;
        if (times)
            printf("time median %.3f ms over %u runs (min %.3f, max %.3f)\n", stats_quantile(times, done, 0.5), done,
                   stats_quantile(times, done, 0.0), stats_quantile(times, done, 1.0));
        free(times);
        printf("%u of %u runs wrong\n", wrong, o.seeds);
    }
    if (o.json && result != 1 && write_json(&o, env.ctx, records, done) != 0)
        result = 1;
    free(records);
    octree_close(&octree);
    buffers_release(env.buffers, env.buffer_count);
    coop_kernel_release(env.kernel);
    coop_program_release(env.program);
    coop_context_release(env.ctx);
    return result;
}
