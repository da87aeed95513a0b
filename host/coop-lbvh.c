/* coop-lbvh: Karras's LBVH build (apps/lbvh/) of a generated scene or an .obj file, on the device
 * in three forms, every tree checked against the CPU's build and by closest hits of random rays:
 *   standalone   lbvh.cl as one persistent kernel (coop-merge's standalone form);
 *   cooperative  lbvh.cl as a megakernel beside a periodic matmult task (kernels/tasks/matmult.cl),
 *                with kills and forks at its resizing barriers (--chaos);
 *   chain        the baseline: lbvh_step.cl, an ordinary kernel, launched once per pass (19
 *                launches enqueued together, in order), then once per round of the fit, each
 *                round's count of the next read back, until a round appends nothing.
 *
 *   coop-lbvh --gen uniform:N|clustered:N | --obj FILE [--mode all|standalone|cooperative|chain]
 *             [--chaos SEED] [--seeds S | --repeat R] [--task matmult|none] [--rays R] [--local-size L]
 *             [--json FILE]
 *
 * With --repeat R every form builds R times and a line gives its median; --json FILE writes every
 * build's figures. Times: standalone, from the end of discovery to the kernel's end; cooperative,
 * until the host saw every member finish (coop_mega_report.cooperative_ms); chain, from the first
 * enqueue to the end of clFinish. A line after each build gives each pass's time: in the
 * persistent forms from group 0's device clock after each global barrier (apps/lbvh/lbvh.h; "no
 * device clock" where there is none), in the chain from each launch's profiling events. Exit
 * status: 0, 1 for an error, 2 for a tree that differs from the CPU's or a ray whose closest hit
 * through the tree is not every triangle's. */
#include "buffers.h"
#include "cli.h"
#include "clock.h"
#include "coop.h"
#include "device.h"
#include "errors.h"
#include "json.h"
#include "lbvh/lbvh_ref.h"
#include "lbvh_matmult_mega.h"
#include "lbvh_standalone.h"
#include "matmult_task.h"
#include "mesh.h"
#include "output.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char lbvh_standalone_source[], lbvh_matmult_mega_source[], lbvh_step_source[];

/* apps/lbvh/lbvh.h's limits: work-items a group, the passes of the 4-bit sort (2 * 8 + 4, also the
 * chain's launches, lbvh_step.cl); the chain's step argument (after lbvh.cl's). */
enum { LBVH_MAX_LOCAL = 256, LBVH_MAX_STEPS = 20, LBVH_ARG_STEP = 13 };
/* The word of hist where the persistent kernel leaves the fit's rounds (apps/lbvh/lbvh.h). */
enum { LBVH_FIT_ROUNDS = 3 };

/* Keys a work-item sorts when the groups are chosen: a group's share of a pass is then worth a
 * global barrier over the groups, whose cost grows with their number. With 8-bit digits, 4 times
 * as many: every group of a scatter reads the digits x groups words of the histograms, so 16
 * times the digits on a quarter of the groups read as many words. */
/* --groups auto: a group per KEYS_PER_ITEM x L triangles, at least one per compute unit. The H200
 * (local size 256, 4-bit digits): 132 groups build 25K triangles in 0.107 ms against 0.384 on 13
 * and 0.174 on 528 (each barrier waits for every group); 250K take 0.287 ms on 528, 0.448 on 132;
 * with 8-bit digits fewer groups do better (250K: 0.498 ms on 132, 0.631 on 528). */
enum { KEYS_PER_ITEM = 2, KEYS_PER_ITEM_8BIT = 8, GROUPS_MAX = 1u << 16 };

/* The periodic task: matmult.cl's c = a x b of order MATMULT_TASK_ORDER on TASK_GROUPS workgroups. */
enum { TASK_GROUPS = 8 };
#define TASK_PERIOD_MS 2.0

/* Differences printed when a tree is wrong; the most generated triangles. */
enum { SHOWN_FAULTS = 10, GEN_MAX = 1u << 24 };

/* The build's options: float division correctly rounded, as the CPU's, so that the Morton codes'
 * scale (lbvh.h) is the same float on both. */
#define LBVH_BUILD_OPTIONS "-cl-fp32-correctly-rounded-divide-sqrt"

typedef enum mode { MODE_STANDALONE, MODE_COOPERATIVE, MODE_CHAIN, MODES } mode;
static const char *const mode_names[] = {"standalone", "cooperative", "chain"};

typedef struct options {
    int gen;                 /* 0: --obj, 1: uniform, 2: clustered */
    unsigned count;          /* --gen's N */
    const char *obj;
    int modes[MODES];
    unsigned chaos, seeds, rays;
    int task;
    size_t local_size;       /* 0: the device's default, at most LBVH_MAX_LOCAL */
    unsigned groups;         /* --groups: 0 chooses them from the scene */
    unsigned digit_bits;     /* 4 or 8 */
    const char *json;
} options;

/* One build's figures, for the median lines and --json. */
typedef struct build_record {
    mode form;
    unsigned seed, groups, kills, forks, tasks;
    unsigned rounds;         /* the fit's rounds (apps/lbvh/lbvh.h), a pass each */
    double ms;
    int status;              /* 0 right, 2 wrong */
    int timed;               /* pass_ms holds each pass's time (no device clock: 0) */
    double pass_ms[LBVH_MAX_STEPS];
} build_record;

static const cli coop_lbvh_cli = {
    "coop-lbvh",
    "Usage: coop-lbvh --gen uniform:N|clustered:N | --obj FILE [--mode all|standalone|cooperative|chain]\n"
    "                 [--chaos SEED] [--seeds S | --repeat R] [--task matmult|none] [--rays R]\n"
    "                 [--local-size L] [--groups N|auto] [--digit-bits 4|8] [--json FILE]\n"
    "Builds a bounding volume hierarchy (Karras's LBVH) on the device and checks it against the CPU.\n"
    "\n"
    "One cooperative kernel computes the scene's box, the triangles' 30-bit Morton codes, sorts them\n"
    "(radix sort, 4 or 8 bits a pass), builds Karras's hierarchy and fits the boxes bottom-up in rounds\n"
    "(a level of the wavefront each), with global barriers between the passes and rounds. Forms:\n"
    "standalone (a persistent kernel), cooperative (a megakernel beside a periodic matmult task, groups\n"
    "killed and forked at its resizing barriers), chain (an ordinary kernel launched once per pass and\n"
    "once per round of the fit, reading each round's count back: the baseline). Every tree must equal\n"
    "the CPU's build (leaf order, children, exact boxes), reach every triangle once, and give every\n"
    "random ray the closest hit that testing every triangle gives. Each build prints its fit's rounds\n"
    "and its passes' times (the fit's rounds as one pass): the device\n"
    "clock's stamps after each barrier in the persistent forms (\"no device clock\" where there is\n"
    "none, as on PoCL), each launch's profiling events in the chain.\n"
    "\n"
    "Options:\n"
    "  --gen KIND:N      N generated triangles, 1 to 16777216: uniform (small triangles scattered over\n"
    "                    the unit cube) or clustered (tessellated spheres of very different sizes)\n"
    "  --obj FILE        the triangles of a Wavefront .obj file (v and f lines; polygons are fanned)\n"
    "  --mode M          all (default: every form), standalone, cooperative or chain\n"
    "  --chaos SEED      cooperative: chaos mode from SEED, 1 to 1073741824 (kills and forks at random)\n"
    "  --seeds S         builds of each form, 1 to 1073741824 (default 1); with --chaos, the cooperative\n"
    "                    ones take seeds SEED .. SEED+S-1; after several, a line gives each form's median\n"
    "  --repeat R        the same as --seeds R\n"
    "  --task T          cooperative: matmult (default; a 64 x 64 matrix multiplication every 2 ms on\n"
    "                    a quarter of the groups, checked too) or none\n"
    "  --rays R          random rays checked against every triangle per tree, 0 to 16777216 (default\n"
    "                    1000); the check costs R x triangles intersection tests on the host\n"
    "  --local-size L    work-items per group, 1 to 256 (default: the device's, at most 256)\n"
    "  --groups N|auto   standalone and cooperative: at most N groups, 1 to 65536; auto (default): a\n"
    "                    group per 2 x L triangles (8 x L with 8-bit digits), at least one per\n"
    "                    compute unit and at most the co-resident ones (the chain keeps a group\n"
    "                    per L triangles)\n"
    "  --digit-bits B    the radix sort's digit: 4 (default, 8 passes) or 8 (4 passes)\n"
    "  --json FILE       write every build's figures and each form's median to FILE\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every tree equals the CPU's and every ray's closest hit is right\n"
    "  1  a bad option, an unreadable or malformed .obj file, or a device or OpenCL error\n"
    "  2  a tree or a ray's hit differs\n",
};

/* --gen KIND:N. */
static int parse_gen(const char *value, options *o)
{
    static const char *const kinds[] = {"uniform", "clustered"};
    const cli *c = &coop_lbvh_cli;
    const char *colon = strchr(value, ':');
    if (!colon)
        return cli_bad_argument(c, "--gen", value, "expected KIND:N, KIND uniform or clustered");
    char kind[16];
    size_t length = (size_t)(colon - value);
    if (length >= sizeof kind)
        length = sizeof kind - 1;
    memcpy(kind, value, length);
    kind[length] = '\0';
    size_t choice = 0;
    if (cli_choice(c, "--gen", kind, kinds, 2, &choice) != 0)
        return -1;
    o->gen = (int)choice + 1;
    return cli_unsigned(c, "--gen", colon + 1, 1, GEN_MAX, &o->count);
}

static int parse(int argc, char **argv, options *o)
{
    static const char *const modes[] = {"all", "standalone", "cooperative", "chain"};
    static const char *const tasks[] = {"matmult", "none"};
    const cli *c = &coop_lbvh_cli;
    *o = (options){.seeds = 1, .rays = 1000, .task = 1, .digit_bits = 4};
    unsigned local_size = 0;
    const cli_option known[] = {
        {.name = "--gen"},
        {.name = "--obj"},
        {.name = "--mode"},
        {"--chaos", &o->chaos, 1, 1u << 30},
        {"--seeds", &o->seeds, 1, 1u << 30},
        {"--repeat", &o->seeds, 1, 1u << 30},
        {.name = "--task"},
        {"--rays", &o->rays, 0, GEN_MAX},
        {"--local-size", &local_size, 1, LBVH_MAX_LOCAL},
        {.name = "--groups"},
        {.name = "--digit-bits"},
        {.name = "--json"},
    };
    cli_seen seen = {0};
    int mode_given = 0, cooperative_given = 0, groups_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *value = NULL;
        int k = cli_read_option(c, known, sizeof known / sizeof known[0], argc, argv, &i, &seen, &value);
        if (k < 0)
            return -1;
        const char *option = known[k].name;
        size_t choice = 0;
        int bad = 0;
        if (!strcmp(option, "--gen")) {
            bad = parse_gen(value, o);
        } else if (!strcmp(option, "--obj")) {
            o->obj = value;
        } else if (!strcmp(option, "--json")) {
            o->json = value;
        } else if (!strcmp(option, "--mode")) {
            bad = cli_forms(c, option, value, modes, sizeof modes / sizeof modes[0], o->modes, NULL);
            mode_given = 1;
        } else if (!strcmp(option, "--task")) {
            bad = cli_choice(c, option, value, tasks, 2, &choice);
            o->task = choice == 0;
            cooperative_given = 1;
        } else if (!strcmp(option, "--groups")) {
            o->groups = 0;
            groups_given = 1;
            bad = strcmp(value, "auto") ? cli_unsigned(c, option, value, 1, GROUPS_MAX, &o->groups) : 0;
        } else if (!strcmp(option, "--digit-bits")) {
            static const char *const bits[] = {"4", "8"};
            bad = cli_choice(c, option, value, bits, 2, &choice);
            o->digit_bits = choice ? 8 : 4;
        }
        if (bad)
            return -1;
    }
    o->local_size = local_size;
    if (!o->gen == !o->obj)
        return cli_fail(c, "give the scene: --gen KIND:N or --obj FILE, one of them");
    if (!mode_given)
        for (int m = 0; m < MODES; m++)
            o->modes[m] = 1;
    if (!o->modes[MODE_COOPERATIVE] && (o->chaos || cooperative_given))
        return cli_fail(c, "--chaos and --task need --mode cooperative or all");
    if (groups_given && !o->modes[MODE_STANDALONE] && !o->modes[MODE_COOPERATIVE])
        return cli_fail(c, "--groups needs --mode standalone, cooperative or all (the chain keeps a group per "
                        "--local-size triangles)");
    return 0;
}

/* ---- The device's build ------------------------------------------------------------------- */

typedef struct lbvh_env {
    coop_context *ctx;
    unsigned n, max_groups;
    unsigned groups;         /* standalone and cooperative: at most these */
    unsigned digit_bits, steps; /* steps: passes of the build, 2 * (32 / digit_bits) + 4 */
    size_t local_size;
    const float *tris;
    cl_mem buffers[16];
    unsigned buffer_count;
    cl_mem tris_buf, partial, keys, ids, keys_tmp, ids_tmp, hist, child, parent, box, visits, clock;
    cl_command_queue chain_queue; /* the chain's, with profiling */
    cl_ulong *clock_host;    /* clock's words: a stamp a pass (steps of them), then one a group */
    matmult_task task;
} lbvh_env;

static const char *const name = "coop-lbvh";

/* The words of the clock buffer (apps/lbvh/lbvh.h: LBVH_FIT_END, then one a group). */
static size_t clock_words(const lbvh_env *env)
{
    return (size_t)env->steps + env->max_groups;
}

/* Pass k's name (k < env->steps): bounds, morton, count0, scatter0, ..., hierarchy, fit. */
static const char *pass_name(const lbvh_env *env, unsigned k, char *buffer, size_t size)
{
    if (k < 2)
        return k ? "morton" : "bounds";
    if (k + 2 >= env->steps)
        return k + 2 == env->steps ? "hierarchy" : "fit";
    snprintf(buffer, size, "%s%u", (k - 2) % 2 ? "scatter" : "count", (k - 2) / 2);
    return buffer;
}

static int open_buffers(lbvh_env *env)
{
    size_t n = env->n, nodes = 2 * n - 1;
    buffer_spec made[] = {
        {&env->tris_buf, n * 9 * sizeof(float), env->tris},
        {&env->partial, (size_t)env->max_groups * 6 * sizeof(float), NULL},
        {&env->keys, n * 4, NULL},
        {&env->ids, n * 4, NULL},
        {&env->keys_tmp, n * 4, NULL},
        {&env->ids_tmp, n * 4, NULL},
        {&env->hist, ((size_t)env->max_groups << env->digit_bits) * 4, NULL},
        {&env->child, (2 * n - 2) * 4, NULL},
        {&env->parent, nodes * 4, NULL},
        {&env->box, nodes * 6 * sizeof(float), NULL},
        {&env->visits, (n - 1) * 4, NULL},
        {&env->clock, clock_words(env) * sizeof(cl_ulong), NULL},
        {&env->task.a, sizeof env->task.a_host, env->task.a_host},
        {&env->task.b, sizeof env->task.b_host, env->task.b_host},
        {&env->task.c, sizeof env->task.a_host, NULL},
    };
    matmult_task_inputs(&env->task);
    cl_int err = buffers_create(env->ctx, made, sizeof made / sizeof made[0], env->buffers, &env->buffer_count);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clCreateBuffer");
    return 0;
}

/* Sets lbvh's thirteen arguments, in lbvh.cl's order, which the megakernel's header and
 * lbvh_step.cl share: indices 0..12 in all three forms. */
static int set_lbvh_args(lbvh_env *env, coop_kernel *kernel)
{
    cl_mem order[] = {env->tris_buf, NULL,         env->partial, env->keys, env->ids,    env->keys_tmp, env->ids_tmp,
                      env->hist,     env->child,   env->parent,  env->box,  env->visits, env->clock};
    cl_uint n = env->n;
    coop_status status = COOP_OK;
    for (unsigned i = 0; i < sizeof order / sizeof order[0] && status == COOP_OK; i++)
        status = i == LBVH_STANDALONE_ARG_lbvh_n ? coop_kernel_set_arg(kernel, i, sizeof n, &n)
                                                 : coop_kernel_set_buffer(kernel, i, order[i]);
    return status == COOP_OK ? 0 : error_coop(name, env->ctx, status, "setting the kernel's arguments");
}

static int read_back(lbvh_env *env, lbvh_tree *tree)
{
    cl_command_queue queue = coop_context_queue(env->ctx);
    size_t n = env->n, nodes = 2 * n - 1;
    struct {
        cl_mem buffer;
        size_t bytes;
        void *host;
    } reads[] = {{env->keys, n * 4, tree->keys},
                 {env->ids, n * 4, tree->ids},
                 {env->child, (2 * n - 2) * 4, tree->child},
                 {env->parent, nodes * 4, tree->parent},
                 {env->box, nodes * 6 * sizeof(float), tree->box}};
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        if (!reads[i].bytes)
            continue;
        cl_int err = clEnqueueReadBuffer(queue, reads[i].buffer, CL_TRUE, 0, reads[i].bytes, reads[i].host, 0, NULL,
                                         NULL);
        if (err != CL_SUCCESS)
            return error_cl(name, err, "clEnqueueReadBuffer");
    }
    return 0;
}

/* Fills the outputs with a pattern no build leaves, so that a pass that wrote nothing shows. */
static int poison(lbvh_env *env)
{
    cl_command_queue queue = coop_context_queue(env->ctx);
    size_t n = env->n, nodes = 2 * n - 1;
    cl_mem outputs[] = {env->keys, env->ids, env->child, env->parent, env->box};
    size_t words[] = {n, n, 2 * n - 2, nodes, nodes * 6};
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0] && err == CL_SUCCESS; i++)
        if (words[i])
            err = buffer_fill_words(queue, outputs[i], 0xdeadbeefu, words[i]);
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->task.c, 0, MATMULT_TASK_ORDER * MATMULT_TASK_ORDER);
    /* a build without a device clock leaves the stamps 0 */
    if (err == CL_SUCCESS)
        err = buffer_fill_words(queue, env->clock, 0, clock_words(env) * 2);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    return err == CL_SUCCESS ? 0 : error_cl(name, err, "clEnqueueFillBuffer");
}

static int form_open(lbvh_env *env, mode m, run_kernel *f)
{
    static const char *const kernels[] = {LBVH_STANDALONE_NAME, LBVH_MATMULT_MEGA_NAME, "lbvh_step"};
    const char *sources[] = {lbvh_standalone_source, lbvh_matmult_mega_source, lbvh_step_source};
    const char *options = env->digit_bits == 8 ? LBVH_BUILD_OPTIONS " -DLBVH_RADIX_BITS=8" : LBVH_BUILD_OPTIONS;
    coop_status status = coop_program_create(env->ctx, sources[m], options, &f->program);
    if (status == COOP_OK)
        status = coop_kernel_create(f->program, kernels[m], &f->kernel);
    if (status != COOP_OK)
        return error_coop(name, env->ctx, status, mode_names[m]);
    if (set_lbvh_args(env, f->kernel))
        return 1;
    if (m == MODE_COOPERATIVE) {
        status = matmult_task_set_args(&env->task, f->kernel, LBVH_MATMULT_MEGA_ARG_matmult_a,
                                       LBVH_MATMULT_MEGA_ARG_matmult_b, LBVH_MATMULT_MEGA_ARG_matmult_c);
        if (status != COOP_OK)
            return error_coop(name, env->ctx, status, "setting the task's arguments");
    }
    return 0;
}

/* The chain: every pass a launch of lbvh_step on the same groups, in order on one queue; the fit
 * a launch per round, each followed by a blocking read of the next round's item count, until a
 * round appends nothing (the host's round trip that the persistent forms do without). Pass k's
 * time in pass_ms[k]: from the end of launch k - 1 (the start of launch 0) to the end of launch
 * k, by their profiling events, so that the gaps between launches count as the persistent forms'
 * barriers do; the fit's from the end of the hierarchy's launch to the end of its last round's,
 * read-backs included. */
static int run_chain(lbvh_env *env, run_kernel *f, double *ms, unsigned *groups_out, unsigned *rounds_out,
                     double *pass_ms)
{
    size_t groups = ((size_t)env->n + env->local_size - 1) / env->local_size;
    if (groups > env->max_groups)
        groups = env->max_groups;
    *groups_out = (unsigned)groups;
    cl_command_queue queue = env->chain_queue;
    cl_event events[LBVH_MAX_STEPS] = {0};
    int result = 0;
    unsigned fit = env->steps - 1, rounds = 0;
    double start = clock_now_ms();
    for (cl_uint step = 0; !result; step++) {
        coop_status status = coop_kernel_set_arg(f->kernel, LBVH_ARG_STEP, sizeof step, &step);
        if (status != COOP_OK) {
            result = error_coop(name, env->ctx, status, "chain: step");
            break;
        }
        cl_event *event = &events[step < fit ? step : fit];
        if (*event)
            clReleaseEvent(*event), *event = NULL;
        cl_int err = device_enqueue_plain(queue, f->kernel, groups, env->local_size, event);
        if (err != CL_SUCCESS) {
            result = error_cl(name, err, "chain: clEnqueueNDRangeKernel");
            break;
        }
        if (step < fit)
            continue;
        cl_uint appended = 0;
        err = clEnqueueReadBuffer(queue, env->hist, CL_TRUE, (size_t)(++rounds % 3) * sizeof appended,
                                  sizeof appended, &appended, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            result = error_cl(name, err, "chain: clEnqueueReadBuffer");
        if (!appended)
            break;
    }
    cl_int err = clFinish(queue);
    *ms = clock_now_ms() - start;
    *rounds_out = rounds;
    if (!result && err != CL_SUCCESS)
        result = error_cl(name, err, "chain: clFinish");
    cl_ulong previous_end = 0;
    for (cl_uint k = 0; k < env->steps && !result; k++) {
        cl_ulong start_ns = 0, end_ns = 0;
        err = clGetEventProfilingInfo(events[k], CL_PROFILING_COMMAND_START, sizeof start_ns, &start_ns, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(events[k], CL_PROFILING_COMMAND_END, sizeof end_ns, &end_ns, NULL);
        if (err != CL_SUCCESS)
            result = error_cl(name, err, "chain: clGetEventProfilingInfo");
        else
            pass_ms[k] = (double)(end_ns - (k ? previous_end : start_ns)) / 1e6, previous_end = end_ns;
    }
    for (cl_uint k = 0; k < env->steps; k++)
        if (events[k])
            clReleaseEvent(events[k]);
    return result;
}

/* The fit's rounds that a persistent build wrote (apps/lbvh/lbvh.h: hist[LBVH_FIT_ROUNDS]): 0, or
 * 1 for an error. */
static int read_rounds(lbvh_env *env, unsigned *rounds)
{
    cl_uint word = 0;
    cl_int err = clEnqueueReadBuffer(coop_context_queue(env->ctx), env->hist, CL_TRUE, LBVH_FIT_ROUNDS * sizeof word,
                                     sizeof word, &word, 0, NULL, NULL);
    *rounds = word;
    return err == CL_SUCCESS ? 0 : error_cl(name, err, "clEnqueueReadBuffer");
}

/* A persistent form's pass times from the device clock's stamps (apps/lbvh/lbvh.h): 0, or 1 for
 * an error; *timed 0 where the kernel wrote no stamp (no device clock). */
static int read_passes(lbvh_env *env, int *timed, double *pass_ms)
{
    cl_int err = clEnqueueReadBuffer(coop_context_queue(env->ctx), env->clock, CL_TRUE, 0,
                                     clock_words(env) * sizeof(cl_ulong), env->clock_host, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clEnqueueReadBuffer");
    const cl_ulong *stamp = env->clock_host;
    *timed = stamp[0] != 0;
    if (!*timed)
        return 0;
    cl_ulong fit_end = 0;
    for (unsigned g = 0; g < env->max_groups; g++)
        if (stamp[env->steps + g] > fit_end)
            fit_end = stamp[env->steps + g];
    for (unsigned k = 0; k < env->steps; k++) {
        cl_ulong end = k + 1 < env->steps ? stamp[k + 1] : fit_end;
        pass_ms[k] = end >= stamp[k] ? (double)(end - stamp[k]) / 1e6 : NAN;
    }
    return 0;
}

/* "LABEL (CLOCK, ms): PASS MS ..." for every pass, or "LABEL: no device clock". */
static void print_passes(const lbvh_env *env, const build_record *r, const char *label)
{
    printf("%s %s", mode_names[r->form], label);
    if (!r->timed) {
        printf(": no device clock\n");
        return;
    }
    printf(" (%s, ms):", r->form == MODE_CHAIN ? "profiling events" : "device clock");
    char buffer[24];
    for (unsigned k = 0; k < env->steps; k++)
        printf(" %s %.4f", pass_name(env, k, buffer, sizeof buffer), r->pass_ms[k]);
    printf("\n");
}

/* One build in form m (chaos seed `seed`, 0: none), checked; prints a line and gives its figures
 * in *record; 0, 1 or 2. */
static int build_once(lbvh_env *env, const options *o, mode m, run_kernel *f, unsigned seed, const lbvh_tree *expected,
                      lbvh_tree *got, build_record *record)
{
    if (poison(env))
        return 1;
    coop_mega_report report = {0};
    double ms = 0;
    unsigned groups = 0;
    *record = (build_record){.form = m, .seed = seed};
    if (m == MODE_CHAIN) {
        if (run_chain(env, f, &ms, &groups, &record->rounds, record->pass_ms))
            return 1;
        record->timed = 1;
    } else if (m == MODE_STANDALONE) {
        coop_launch launch = {.local_size = env->local_size, .max_groups = env->groups};
        coop_run_stats stats = {0};
        if (run_persistent(name, env->ctx, f->kernel, &launch, &stats, NULL) != COOP_OK)
            return 1;
        ms = stats.run_ms - stats.discovery_ms;
        groups = stats.groups;
    } else {
        coop_mega_params params = {.launch = {.local_size = env->local_size, .max_groups = env->groups},
                                   .chaos_seed = seed, .watchdog_s = 60};
        coop_task_plan plan = {.task = LBVH_MATMULT_MEGA_TASK_matmult, .workgroups = TASK_GROUPS,
                               .take = COOP_TAKE_QUARTER, .period_ms = TASK_PERIOD_MS, .args = {MATMULT_TASK_ORDER}};
        if (run_megakernel(name, env->ctx, f->kernel, &params, &plan, o->task ? 1 : 0, &report, NULL) != COOP_OK) {
            coop_mega_report_free(&report);
            return 1;
        }
        ms = report.cooperative_ms;
        groups = report.groups;
    }
    if (m != MODE_CHAIN && (read_passes(env, &record->timed, record->pass_ms) || read_rounds(env, &record->rounds))) {
        coop_mega_report_free(&report);
        return 1;
    }
    int status = read_back(env, got);
    unsigned faults = 0, ray_faults = 0, hits = 0;
    if (!status) {
        faults = lbvh_ref_compare(expected, got, env->tris, stdout, SHOWN_FAULTS);
        if (!faults && o->rays)
            ray_faults = lbvh_ref_rays(env->tris, got, o->rays, seed + 1, stdout, SHOWN_FAULTS, &hits);
        if (faults || ray_faults)
            status = 2;
    }
    if (!status && m == MODE_COOPERATIVE && report.record_count)
        status = matmult_task_check(&env->task, env->ctx, name);
    printf("%s", mode_names[m]);
    if (m == MODE_COOPERATIVE)
        printf(" seed %u", seed);
    printf(": %.3f ms on %u groups, %u fit rounds", ms, groups, record->rounds);
    if (m == MODE_CHAIN)
        printf(", %u launches", env->steps - 1 + record->rounds);
    if (m == MODE_COOPERATIVE)
        printf(", %u kills, %u forks, %u task runs", report.kills, report.forks, report.tasks);
    if (status == 1)
        printf(": error\n");
    else if (faults)
        printf(": tree WRONG (%u faults)\n", faults);
    else if (ray_faults)
        printf(": tree equal to the CPU's; %u of %u rays WRONG\n", ray_faults, o->rays);
    else if (status)
        printf(": tree equal to the CPU's; task WRONG\n");
    else if (o->rays)
        printf(": tree equal to the CPU's, %u rays' closest hits (%u hits) equal every triangle's: ok\n", o->rays,
               hits);
    else
        printf(": tree equal to the CPU's (no rays cast): ok\n");
    record->groups = groups;
    record->kills = report.kills;
    record->forks = report.forks;
    record->tasks = report.tasks;
    record->ms = ms;
    record->status = status;
    print_passes(env, record, "passes");
    coop_mega_report_free(&report);
    return status;
}

/* The median time of the `count` records of form m (pass k's with pass >= 0, over the timed
 * ones); NAN for none. */
static double form_median(const build_record *records, unsigned count, mode m, int pass, double *times)
{
    unsigned found = 0;
    for (unsigned i = 0; i < count; i++)
        if (records[i].form == m && (pass < 0 || records[i].timed))
            times[found++] = pass < 0 ? records[i].ms : records[i].pass_ms[pass];
    return found ? stats_quantile(times, found, 0.5) : NAN;
}

/* The passes' times of one build, or each pass's median over a form's builds: {"bounds": MS, ...}. */
static void json_passes(FILE *out, const lbvh_env *env, const double *pass_ms)
{
    char buffer[24];
    fprintf(out, "{");
    for (unsigned k = 0; k < env->steps; k++) {
        fprintf(out, "%s\"%s\": ", k ? ", " : "", pass_name(env, k, buffer, sizeof buffer));
        json_number(out, pass_ms[k]);
    }
    fprintf(out, "}");
}

/* Every build's figures and each form's median as one JSON object. */
static int write_json(const options *o, const lbvh_env *env, const build_record *records, unsigned count,
                      double *times)
{
    coop_outfile file;
    if (output_open(&file, name, o->json) != 0)
        return CLI_EXIT_ERROR;
    FILE *out = file.stream;
    const coop_device_info *info = coop_context_device(env->ctx);
    fprintf(out, "{\n  \"program\": \"coop-lbvh\",\n  \"device\": ");
    json_string(out, info->name);
    fprintf(out, ",\n  \"platform\": ");
    json_string(out, info->platform);
    fprintf(out, ",\n  \"scene\": ");
    json_string(out, o->obj ? o->obj : o->gen == 1 ? "uniform" : "clustered");
    fprintf(out, ",\n  \"triangles\": %u,\n  \"local_size\": %zu,\n  \"groups\": ", env->n, env->local_size);
    if (o->groups)
        fprintf(out, "%u", o->groups);
    else
        fprintf(out, "\"auto\"");
    fprintf(out, ",\n  \"digit_bits\": %u,\n  \"rays\": %u,\n  \"chaos_seed\": %u,\n  \"task\": %s,\n  \"passes\": [",
            env->digit_bits, o->rays, o->chaos, o->task ? "\"matmult\"" : "null");
    char buffer[24];
    for (unsigned k = 0; k < env->steps; k++)
        fprintf(out, "%s\"%s\"", k ? ", " : "", pass_name(env, k, buffer, sizeof buffer));
    fprintf(out, "],\n  \"builds\": [\n");
    for (unsigned i = 0; i < count; i++) {
        const build_record *r = &records[i];
        fprintf(out, "    {\"form\": \"%s\", \"seed\": %u, \"time_ms\": %.6f, \"groups\": %u, \"kills\": %u, "
                "\"forks\": %u, \"task_runs\": %u, \"fit_rounds\": %u, \"check\": \"%s\", \"pass_clock\": \"%s\", "
                "\"pass_ms\": ",
                mode_names[r->form], r->seed, r->ms, r->groups, r->kills, r->forks, r->tasks, r->rounds,
                r->status ? "wrong" : "ok",
                !r->timed ? "no device clock" : r->form == MODE_CHAIN ? "profiling events" : "device clock");
        if (r->timed)
            json_passes(out, env, r->pass_ms);
        else
            fprintf(out, "null");
        fprintf(out, "}%s\n", i + 1 < count ? "," : "");
    }
    fprintf(out, "  ],\n  \"median_ms\": {");
    for (int m = 0; m < MODES; m++) {
        fprintf(out, "%s\"%s\": ", m ? ", " : "", mode_names[m]);
        json_number(out, form_median(records, count, (mode)m, -1, times));
    }
    fprintf(out, "},\n  \"median_pass_ms\": {");
    for (int m = 0; m < MODES; m++) {
        fprintf(out, "%s\"%s\": ", m ? ", " : "", mode_names[m]);
        double medians[LBVH_MAX_STEPS];
        for (unsigned k = 0; k < env->steps; k++)
            medians[k] = form_median(records, count, (mode)m, (int)k, times);
        if (isnan(medians[0]))
            fprintf(out, "null");
        else
            json_passes(out, env, medians);
    }
    fprintf(out, "}\n}\n");
    return output_commit(&file, name);
}

static int load_scene(const options *o, float **tris, unsigned *n)
{
    if (o->obj) {
        char err[512];
        return mesh_read_obj(o->obj, tris, n, err, sizeof err) ? error_report(name, "%s", err) : 0;
    }
    *n = o->count;
    *tris = malloc((size_t)*n * 9 * sizeof **tris);
    if (!*tris)
        return error_report(name, "out of memory for %u triangles", *n);
    if (o->gen == 1)
        lbvh_scene_uniform(*tris, *n, 1);
    else
        lbvh_scene_clustered(*tris, *n, 1);
    return 0;
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_lbvh_cli, argc, argv))
        return CLI_EXIT_OK;
    options o;
    if (parse(argc, argv, &o) != 0)
        return CLI_EXIT_ERROR;
    float *tris = NULL;
    unsigned n = 0;
    if (load_scene(&o, &tris, &n))
        return CLI_EXIT_ERROR;
    lbvh_tree expected = {0}, got = {0};
    if (lbvh_tree_alloc(&expected, n) || lbvh_tree_alloc(&got, n) || lbvh_ref_build(tris, &expected)) {
        lbvh_tree_free(&expected);
        free(tris);
        return error_report(name, "out of memory for the trees of %u triangles", n);
    }
    /* a line per build, in order with libcoop's messages on standard error */
    setvbuf(stdout, NULL, _IOLBF, 0);
    output_catch_signals();
    lbvh_env env = {.n = n, .tris = tris, .digit_bits = o.digit_bits, .steps = 2 * (32 / o.digit_bits) + 4};
    int result = device_open(name, NULL, &env.ctx);
    if (!result) {
        const coop_device_info *info = coop_context_device(env.ctx);
        env.local_size = o.local_size ? o.local_size : device_default_local_size(info);
        if (env.local_size > LBVH_MAX_LOCAL)
            env.local_size = LBVH_MAX_LOCAL;
        result = device_check_local_size(name, info, env.local_size);
        env.max_groups = coop_launch_groups(env.ctx, env.local_size);
    }
    if (!result && o.groups > env.max_groups)
        result = error_report(name, "--groups %u: at most %u groups can be co-resident at local size %zu on this "
                              "device", o.groups, env.max_groups, env.local_size);
    if (!result) {
        size_t per_group = env.local_size * (env.digit_bits == 8 ? KEYS_PER_ITEM_8BIT : KEYS_PER_ITEM);
        size_t needed = ((size_t)n + per_group - 1) / per_group, units = coop_context_device(env.ctx)->compute_units;
        if (needed < units)
            needed = units;
        env.groups = o.groups ? o.groups : needed < env.max_groups ? (unsigned)needed : env.max_groups;
        env.clock_host = malloc(clock_words(&env) * sizeof *env.clock_host);
        if (!env.clock_host)
            result = error_report(name, "out of memory for the device clock's stamps");
    }
    if (!result)
        result = open_buffers(&env);
    if (!result && o.modes[MODE_CHAIN]) {
        cl_int err = CL_SUCCESS;
        env.chain_queue = device_profiling_queue(env.ctx, &err);
        if (!env.chain_queue)
            result = error_cl(name, err, "chain: clCreateCommandQueueWithProperties");
    }
    if (!result)
        printf("lbvh: %u triangles (%s), local size %zu, at most %u groups (%s), %u-bit digits\n", n,
               o.obj ? o.obj : o.gen == 1 ? "uniform" : "clustered", env.local_size, env.groups,
               o.groups ? "--groups" : "auto", env.digit_bits);
    unsigned wrong = 0;
    double *times = malloc((size_t)o.seeds * MODES * sizeof *times);
    build_record *records = calloc((size_t)o.seeds * MODES, sizeof *records);
    unsigned recorded = 0;
    if (!result && (!times || !records))
        result = error_report(name, "out of memory for %u builds' figures", o.seeds);
    for (int m = 0; !result && m < MODES; m++) {
        if (!o.modes[m])
            continue;
        run_kernel f = {0};
        result = form_open(&env, (mode)m, &f);
        unsigned first = recorded;
        for (unsigned i = 0; !result && i < o.seeds; i++) {
            int run = build_once(&env, &o, (mode)m, &f, m == MODE_COOPERATIVE && o.chaos ? o.chaos + i : 0,
                                 &expected, &got, &records[recorded]);
            if (run == 1)
                result = 1;
            else
                times[recorded - first] = records[recorded].ms, recorded++;
            wrong += run == 2;
        }
        unsigned done = recorded - first;
        if (!result && done > 1) {
            printf("%s: median %.3f ms over %u builds (min %.3f, max %.3f)\n", mode_names[m],
                   stats_quantile(times, done, 0.5), done, stats_quantile(times, done, 0.0),
                   stats_quantile(times, done, 1.0));
            build_record median = {.form = (mode)m, .timed = records[first].timed};
            for (unsigned k = 0; median.timed && k < env.steps; k++)
                median.pass_ms[k] = form_median(records + first, done, (mode)m, (int)k, times);
            print_passes(&env, &median, "median passes");
        }
        run_kernel_release(&f);
    }
    if (!result && wrong)
        result = CLI_EXIT_CHECK;
    if (o.json && result != 1 && write_json(&o, &env, records, recorded, times) != 0)
        result = 1;
    free(times);
    free(records);
    buffers_release(env.buffers, env.buffer_count);
    if (env.chain_queue)
        clReleaseCommandQueue(env.chain_queue);
    free(env.clock_host);
    coop_context_release(env.ctx);
    lbvh_tree_free(&expected);
    lbvh_tree_free(&got);
    free(tris);
    return result;
}
