/* coop-path: the recursion study (Cao and Kalloor's recursive methods for path tracing) on a scene
 * of apps/path/path.h (spheres under a sky, or a closed room with a light, where paths run long),
 * each method's image checked against the CPU at the pixels checked:
 *   naive              path_plain.cl's path_naive: a work-item a pixel, samples and bounces looped;
 *   megaloop           path_loop.cl: persistent groups take pixels from a counter;
 *   wavefront-host     path_plain.cl's path_wave_launch, a launch a wave (path.h: a wave's
 *                      survivors topped up with new camera paths of every sample), the next
 *                      wave's size read back after each (the host round trips);
 *   wavefront-barrier  path_wave.cl: the same waves in one cooperative kernel, resizing barriers
 *                      between them;
 *   queue              path_queue.cl: bundles of paths re-enqueued by the kernel on ws_deque.h.
 * The cooperative methods (megaloop, wavefront-barrier, queue) run standalone (coop-merge's
 * persistent form) and cooperatively, as a megakernel beside a periodic matmult task, with kills
 * and forks at random under --chaos.
 *
 *   coop-path [--scene spheres|room] [--method M] [--mode all|standalone|cooperative] [--width W]
 *             [--height H] [--spp S] [--depth D] [--wave-paths N] [--chaos SEED]
 *             [--seeds S | --repeat R] [--task matmult|none] [--local-size L] [--json FILE]
 *             [--image FILE]
 *   coop-path --pick [--scene S] [--width W] [--height H] [--spp S] [--depth D] [--compute-units N]
 *
 * Times: naive and wavefront-host from the first enqueue to the end of the last command;
 * standalone, from the end of discovery to the kernel's end; cooperative, until the host saw
 * every member finish (coop_mega_report.cooperative_ms). Exit status: 0, 1 for an error, 2 for an
 * image that differs from the CPU's at a pixel checked. */
#include "buffers.h"
#include "cli.h"
#include "clock.h"
#include "coop.h"
#include "coop/kernels/ws_layout.h" /* the queue's words, as path_queue.cl has them */
#include "device.h"
#include "errors.h"
#include "json.h"
#include "matmult_task.h"
#include "output.h"
#include "path/path_ref.h"
#include "path_loop_matmult_mega.h"
#include "path_loop_standalone.h"
#include "path_queue_matmult_mega.h"
#include "path_queue_standalone.h"
#include "path_wave_matmult_mega.h"
#include "path_wave_standalone.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char path_plain_source[], path_loop_standalone_source[], path_loop_matmult_mega_source[],
    path_wave_standalone_source[], path_wave_matmult_mega_source[], path_queue_standalone_source[],
    path_queue_matmult_mega_source[];

/* path.h's limits and record size. */
enum { PATH_MAX_DEPTH = 64, PATH_MAX_SPP = 255, PATH_RECORD_WORDS = 11, PATH_WAVE_COUNTS = 3, SIDE_MAX = 16384 };
#define PATHS_MAX 2147483648.0

/* The paths a wave holds by default (192 MiB of records in each of the two buffers): the more,
 * the fewer waves, each a barrier or a host round trip. */
#define WAVE_PATHS_DEFAULT 4194304u

/* The periodic task: matmult.cl's c = a x b of order MATMULT_TASK_ORDER on TASK_GROUPS workgroups. */
enum { TASK_GROUPS = 8 };
#define TASK_PERIOD_MS 2.0

/* The queue: a deque of QUEUE_DEQUE slots a group, and BUNDLES_PER_GROUP bundles a group the
 * kernel can have, so that a group that has re-enqueued its bundle finds others to steal. */
enum { QUEUE_DEQUE = 8, BUNDLES_PER_GROUP = 2 };

/* Wrong pixels printed per run. */
enum { SHOWN_FAULTS = 10 };

/* Every division and square root correctly rounded, as the CPU's (path.h: the images are exact). */
#define PATH_BUILD_OPTIONS "-cl-fp32-correctly-rounded-divide-sqrt"

/* path.h's scenes, as PATH_SCENE's values and path_ref's. */
typedef enum scene { SPHERES = PATH_REF_SPHERES, ROOM = PATH_REF_ROOM } scene;
static const char *const scene_names[] = {"spheres", "room"};

typedef enum method { NAIVE, MEGALOOP, WAVEFRONT_HOST, WAVEFRONT_BARRIER, QUEUE, METHODS } method;
static const char *const method_names[] = {"naive", "megaloop", "wavefront-host", "wavefront-barrier", "queue"};
static const int method_cooperative[] = {0, 1, 0, 1, 1};

/* The path kernels' arguments have the same indices in both forms (set_args). */
_Static_assert(PATH_LOOP_STANDALONE_ARG_path_loop_next_pixel == PATH_LOOP_MATMULT_MEGA_ARG_path_loop_next_pixel &&
                   PATH_WAVE_STANDALONE_ARG_path_wave_capacity == PATH_WAVE_MATMULT_MEGA_ARG_path_wave_capacity &&
                   PATH_QUEUE_STANDALONE_ARG_path_queue_queue_shared ==
                       PATH_QUEUE_MATMULT_MEGA_ARG_path_queue_queue_shared,
               "the standalone and megakernel forms number the path kernel's arguments alike");

typedef enum form { FORM_PLAIN, FORM_STANDALONE, FORM_COOPERATIVE } form;
static const char *const form_names[] = {"plain", "standalone", "cooperative"};

typedef struct options {
    int methods[METHODS];
    int standalone, cooperative;   /* --mode */
    scene scene;
    unsigned width, height, spp, depth;
    unsigned wave_paths;           /* 0: the default */
    unsigned chaos, seeds, compute_units;
    int task, pick;
    size_t local_size;             /* 0: the device's default */
    const char *json, *image;
} options;

/* One run's figures, for the median lines and --json. */
typedef struct run_record {
    method m;
    form f;
    unsigned seed, groups, kills, forks, tasks, launches;
    double ms;
    int status;                    /* 0 right, 2 wrong */
} run_record;

static const char *const name = "coop-path";

static const cli coop_path_cli = {
    "coop-path",
    "Usage: coop-path [--scene spheres|room] [--method M] [--mode all|standalone|cooperative]\n"
    "                 [--width W] [--height H] [--spp S] [--depth D] [--wave-paths N] [--chaos SEED]\n"
    "                 [--seeds S | --repeat R] [--task matmult|none] [--local-size L] [--json FILE]\n"
    "                 [--image FILE]\n"
    "       coop-path --pick [--scene S] [--width W] [--height H] [--spp S] [--depth D]\n"
    "                 [--compute-units N]\n"
    "Path-traces a scene by five recursion methods on the device and checks each image against the CPU.\n"
    "\n"
    "Methods: naive (a work-item a pixel, looping over samples and bounces), megaloop (persistent\n"
    "groups taking pixels from a counter), wavefront-host (a kernel per wave of paths launched by the\n"
    "host, which reads each wave's size back; a wave extends its paths by a bounce, keeps the\n"
    "survivors and fills up with new paths of any sample), wavefront-barrier (the same waves in one\n"
    "cooperative kernel, resizing barriers between them) and queue (bundles of paths re-enqueued by\n"
    "the kernel on a work-stealing queue). The cooperative methods (megaloop, wavefront-barrier,\n"
    "queue) run standalone and as a megakernel beside a periodic matmult task. Every image must equal\n"
    "the CPU's at the pixels checked (all up to 4096 pixels, else 1000): the tracer's arithmetic is\n"
    "exact.\n"
    "\n"
    "Options:\n"
    "  --scene S         spheres (default: five spheres under a sky, most paths end within three\n"
    "                    bounces) or room (a closed room with a light, a mirror and Russian roulette:\n"
    "                    paths of 1 to D segments, 9 on average at depth 32)\n"
    "  --method M        all (default), naive, megaloop, wavefront-host, wavefront-barrier or queue\n"
    "  --mode M          the cooperative methods' forms: all (default), standalone or cooperative\n"
    "  --width W         pixels across, 1 to 16384 (default 2048)\n"
    "  --height H        pixels down, 1 to 16384 (default 1024)\n"
    "  --spp S           samples per pixel, 1 to 255 (default 8)\n"
    "  --depth D         segments per path at most, 1 to 64 (default 32)\n"
    "  --wave-paths N    the wavefront methods: paths a wave holds, 1 to 2147483648 (default 4194304,\n"
    "                    or every path when there are fewer)\n"
    "  --chaos SEED      cooperative: chaos mode from SEED, 1 to 1073741824 (kills and forks at random)\n"
    "  --seeds S         runs of each method and form, 1 to 1073741824 (default 1); with --chaos, the\n"
    "                    cooperative ones take seeds SEED .. SEED+S-1; after several, a line gives the\n"
    "                    median\n"
    "  --repeat R        the same as --seeds R\n"
    "  --task T          cooperative: matmult (default; a 64 x 64 matrix multiplication every 2 ms on\n"
    "                    a quarter of the groups, checked too) or none\n"
    "  --local-size L    work-items per group, 1 to 1024 (default: the device's)\n"
    "  --json FILE       write every run's figures and each method's median to FILE\n"
    "  --image FILE      write the first run's image to FILE (binary PPM, gamma 2)\n"
    "  --pick            print the method the picker chooses for the configuration (scene, size,\n"
    "                    spp, depth, compute units), and exit\n"
    "  --compute-units N --pick: the device's compute units, 1 to 65536 (default: the device's)\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    CLI_HELP_ENVIRONMENT
    "\n"
    "Exit status:\n"
    "  0  every image equals the CPU's at the pixels checked\n"
    "  1  a bad option, or a device or OpenCL error\n"
    "  2  an image (or the task's product) differs\n",
};

static int parse(int argc, char **argv, options *o)
{
    static const char *const methods[] = {"all", "naive", "megaloop", "wavefront-host", "wavefront-barrier", "queue"};
    static const char *const modes[] = {"all", "standalone", "cooperative"};
    static const char *const tasks[] = {"matmult", "none"};
    const cli *c = &coop_path_cli;
    *o = (options){.width = 2048, .height = 1024, .spp = 8, .depth = 32, .task = 1};
    /* 0 while not given, for the checks below */
    unsigned seeds = 0, local_size = 0, wave_paths = 0;
    const cli_option known[] = {
        {.name = "--method"},
        {.name = "--mode"},
        {"--width", &o->width, 1, SIDE_MAX},
        {"--height", &o->height, 1, SIDE_MAX},
        {"--spp", &o->spp, 1, PATH_MAX_SPP},
        {"--depth", &o->depth, 1, PATH_MAX_DEPTH},
        {"--chaos", &o->chaos, 1, 1u << 30},
        {"--seeds", &seeds, 1, 1u << 30},
        {"--repeat", &seeds, 1, 1u << 30},
        {.name = "--task"},
        {"--local-size", &local_size, 1, 1024},
        {.name = "--json"},
        {.name = "--image"},
        {"--compute-units", &o->compute_units, 1, 65536},
        {.name = "--scene"},
        {"--wave-paths", &wave_paths, 1, 2147483648u},
    };
    cli_seen seen = {0};
    size_t method_choice = 0;
    int method_given = 0, mode_given = 0, task_given = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pick")) {
            o->pick = 1;
            continue;
        }
        const char *value = NULL;
        int k = cli_read_option(c, known, sizeof known / sizeof known[0], argc, argv, &i, &seen, &value);
        if (k < 0)
            return -1;
        const char *option = known[k].name;
        size_t choice = 0;
        int bad = 0;
        if (!strcmp(option, "--method")) {
            bad = cli_forms(c, option, value, methods, sizeof methods / sizeof methods[0], o->methods, &method_choice);
            method_given = 1;
        } else if (!strcmp(option, "--mode")) {
            bad = cli_choice(c, option, value, modes, 3, &choice);
            o->standalone = choice != 2;
            o->cooperative = choice != 1;
            mode_given = 1;
        } else if (!strcmp(option, "--task")) {
            bad = cli_choice(c, option, value, tasks, 2, &choice);
            o->task = choice == 0;
            task_given = 1;
        } else if (!strcmp(option, "--json")) {
            o->json = value;
        } else if (!strcmp(option, "--image")) {
            o->image = value;
        } else if (!strcmp(option, "--scene")) {
            bad = cli_choice(c, option, value, scene_names, 2, &choice);
            o->scene = (scene)choice;
        }
        if (bad)
            return -1;
    }
    o->seeds = seeds ? seeds : 1;
    o->local_size = local_size;
    /* --chaos, whose seed is at least 1, and --task ask for a cooperative form */
    int cooperative_given = o->chaos || task_given;
    if (!method_given)
        for (int m = 0; m < METHODS; m++)
            o->methods[m] = 1;
    if (!mode_given)
        o->standalone = o->cooperative = 1;
    if (o->compute_units && !o->pick)
        return cli_fail(c, "--compute-units goes with --pick");
    if (o->pick && (method_given || mode_given || cooperative_given || seeds || o->local_size || o->json ||
                    o->image || wave_paths))
        return cli_fail(c, "--pick takes only --scene, --width, --height, --spp, --depth and --compute-units");
    if ((double)o->width * o->height * o->spp > PATHS_MAX)
        return cli_fail(c, "%u x %u pixels x %u samples is more than 2147483648 paths", o->width, o->height, o->spp);
    if (wave_paths && !o->methods[WAVEFRONT_HOST] && !o->methods[WAVEFRONT_BARRIER])
        return cli_fail(c, "--wave-paths goes with the wavefront methods (wavefront-host, wavefront-barrier)");
    /* fewer when there are fewer paths: a wave holds at most every path of the image */
    double paths = (double)o->width * o->height * o->spp, wave = wave_paths ? wave_paths : WAVE_PATHS_DEFAULT;
    o->wave_paths = (unsigned)(wave < paths ? wave : paths);
    int any_cooperative = 0;
    for (int m = 0; m < METHODS; m++)
        any_cooperative |= o->methods[m] && method_cooperative[m];
    if (cooperative_given && !(any_cooperative && o->cooperative))
        return cli_fail(c, "--chaos and --task need a cooperative method (megaloop, wavefront-barrier or queue) "
                           "and --mode cooperative or all");
    if (mode_given && !any_cooperative)
        return cli_fail(c, "--mode chooses the forms of megaloop, wavefront-barrier and queue; --method %s has one form",
                        method_names[method_choice - 1]);
    return 0;
}

/* ---- The picker -------------------------------------------------------------------------- */

/* The method the picker chooses: a rule fitted to the H200's table of the 14 configurations
 * scripts/path-study measures by default (benchmarks/results/h200/path/), where it is within 10%
 * of the best in all 14 (in the table it was fitted to: the study's other configurations test it).
 * `lanes` estimates the work-items a device runs at once (2048 a compute unit, an NVIDIA SM's
 * most).
 *   - fewer paths in all than lanes, or a depth of at most 8: naive; the paths do not fill the
 *     device, or are too short for a wave method's record written and read per segment to pay
 *     (H200, depth 8: naive 7-13% ahead of megaloop and both wavefronts);
 *   - 8 samples a pixel or more: wavefront-host; the waves stream every sample's paths and the
 *     last wave traces the tail in one pass, so there are few waves, and a launch and a 4-byte
 *     read per wave cost NVIDIA's OpenCL less than the persistent kernel's resizing barrier over
 *     every co-resident group and its compaction (H200, depth 32: 1.12-1.62x faster than naive,
 *     5-13% ahead of wavefront-barrier);
 *   - fewer samples: long paths of very different lengths (the room: 9 segments on average, 1%
 *     at depth 32) in few waves: wavefront-barrier (1-7% ahead of the host's); short ones (the
 *     spheres, 2 segments): naive. */
static method pick(scene s, unsigned width, unsigned height, unsigned spp, unsigned depth, unsigned compute_units)
{
    double lanes = 2048.0 * compute_units, pixels = (double)width * height;
    if (pixels * spp < lanes || depth <= 8)
        return NAIVE;
    if (spp >= 8)
        return WAVEFRONT_HOST;
    return s == SPHERES ? NAIVE : WAVEFRONT_BARRIER;
}

/* ---- The device's runs ------------------------------------------------------------------- */

typedef struct path_env {
    coop_context *ctx;
    const options *o;
    unsigned pixels, queue_groups, bundles;
    size_t local_size;
    cl_mem buffers[16];
    unsigned buffer_count;
    cl_mem image, paths_a, paths_b, counts, next, bundle_buf, bundle_live, queue;
    matmult_task task;
    uint32_t *picture;             /* the image read back */
} path_env;

static size_t queue_words(const path_env *env)
{
    return WS_QUEUE_WORDS((size_t)env->queue_groups, (size_t)QUEUE_DEQUE, (size_t)env->bundles);
}

static int open_buffers(path_env *env)
{
    const options *o = env->o;
    size_t pixels = env->pixels;
    int waves = o->methods[WAVEFRONT_HOST] || o->methods[WAVEFRONT_BARRIER], queue = o->methods[QUEUE];
    buffer_spec made[] = {
        {&env->image, pixels * 3 * 4, NULL},
        {&env->paths_a, waves ? (size_t)o->wave_paths * PATH_RECORD_WORDS * 4 : 4, NULL},
        {&env->paths_b, waves ? (size_t)o->wave_paths * PATH_RECORD_WORDS * 4 : 4, NULL},
        {&env->counts, PATH_WAVE_COUNTS * 4, NULL},
        {&env->next, 4, NULL},
        {&env->bundle_buf, queue ? (size_t)env->bundles * env->local_size * PATH_RECORD_WORDS * 4 : 4, NULL},
        {&env->bundle_live, (size_t)env->bundles * 4, NULL},
        {&env->queue, queue_words(env) * 4, NULL},
        {&env->task.a, sizeof env->task.a_host, env->task.a_host},
        {&env->task.b, sizeof env->task.b_host, env->task.b_host},
        {&env->task.c, sizeof env->task.a_host, NULL},
    };
    matmult_task_inputs(&env->task);
    cl_int err = buffers_create(env->ctx, made, sizeof made / sizeof made[0], env->buffers, &env->buffer_count);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clCreateBuffer");
    env->picture = malloc(pixels * 3 * sizeof *env->picture);
    return env->picture ? 0 : error_report(name, "out of memory for a %u-pixel image", env->pixels);
}

/* Zeroes the image and the counters, poisons nothing else (every method writes every pixel), and
 * seeds the queue with bundles 0 .. bundles - 1 in its shared deque (ws_layout.h). */
static int reset(path_env *env)
{
    cl_command_queue queue = coop_context_queue(env->ctx);
    const options *o = env->o;
    struct {
        cl_mem buffer;
        size_t words;
    } zero[] = {{env->image, (size_t)env->pixels * 3}, {env->counts, PATH_WAVE_COUNTS}, {env->next, 1},
                {env->bundle_live, env->bundles}, {env->queue, queue_words(env)},
                {env->task.c, MATMULT_TASK_ORDER * MATMULT_TASK_ORDER}};
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < sizeof zero / sizeof zero[0] && err == CL_SUCCESS; i++)
        err = buffer_fill_words(queue, zero[i].buffer, 0, zero[i].words);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "clEnqueueFillBuffer");
    if (o->methods[QUEUE]) {
        size_t shared = WS_DEQUE_BASE((size_t)QUEUE_DEQUE, (size_t)env->queue_groups);
        uint32_t *seed = malloc((size_t)env->bundles * 4);
        if (!seed)
            return error_report(name, "out of memory for %u bundles", env->bundles);
        for (unsigned b = 0; b < env->bundles; b++)
            seed[b] = b;
        uint32_t count = env->bundles;
        err = clEnqueueWriteBuffer(queue, env->queue, CL_TRUE, (shared + WS_SLOTS) * 4, (size_t)count * 4, seed, 0,
                                   NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueWriteBuffer(queue, env->queue, CL_TRUE, (shared + WS_TAIL) * 4, 4, &count, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueWriteBuffer(queue, env->queue, CL_TRUE, WS_OUTSTANDING * 4, 4, &count, 0, NULL, NULL);
        free(seed);
        if (err != CL_SUCCESS)
            return error_cl(name, err, "clEnqueueWriteBuffer");
    }
    err = clFinish(queue);
    return err == CL_SUCCESS ? 0 : error_cl(name, err, "clFinish");
}

/* Sets the arguments the path kernels begin with: image, width, height, spp, depth, then `more`
 * buffers; indices from 0 in every form (the megakernels' task arguments come after them). */
static coop_status set_args(path_env *env, coop_kernel *kernel, const cl_mem *more, unsigned more_count)
{
    const options *o = env->o;
    cl_uint words[] = {o->width, o->height, o->spp, o->depth};
    coop_status status = coop_kernel_set_buffer(kernel, 0, env->image);
    for (unsigned i = 0; i < 4 && status == COOP_OK; i++)
        status = coop_kernel_set_arg(kernel, 1 + i, sizeof words[i], &words[i]);
    for (unsigned i = 0; i < more_count && status == COOP_OK; i++)
        status = coop_kernel_set_buffer(kernel, 5 + i, more[i]);
    return status;
}

/* Sets wavefront-host's kernel for wave `wave`: `live` survivors in `in`, `fresh` camera paths
 * from number `made` on, the survivors into `out`, or with `last` each path traced to its end
 * (path_plain.cl's path_wave_launch). */
static coop_status set_wave(coop_kernel *kernel, cl_mem in, cl_mem out, cl_uint live, cl_uint fresh, cl_uint made,
                            cl_uint wave, cl_uint last)
{
    cl_uint words[] = {live, fresh, made, wave, last};
    coop_status status = coop_kernel_set_buffer(kernel, 5, in);
    if (status == COOP_OK)
        status = coop_kernel_set_buffer(kernel, 6, out);
    for (unsigned i = 0; i < 5 && status == COOP_OK; i++)
        status = coop_kernel_set_arg(kernel, 8 + i, sizeof words[i], &words[i]);
    return status;
}

/* PoCL compiles an ordinary kernel at its first launch: one launch of a group with nothing to do
 * (no rows, no paths) keeps that out of the first run's time. */
static int warm_up(path_env *env, run_kernel *p, method m)
{
    cl_uint rows = env->o->height, none = 0;
    coop_status status = m == NAIVE ? coop_kernel_set_arg(p->kernel, 2, sizeof none, &none)
                                    : set_wave(p->kernel, env->paths_a, env->paths_b, 0, 0, 0, 0, 0);
    if (status != COOP_OK)
        return error_coop(name, env->ctx, status, "warming up");
    cl_command_queue queue = coop_context_queue(env->ctx);
    cl_int err = device_enqueue_plain(queue, p->kernel, 1, env->local_size, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    if (err != CL_SUCCESS)
        return error_cl(name, err, "warming up");
    status = m == NAIVE ? coop_kernel_set_arg(p->kernel, 2, sizeof rows, &rows) : COOP_OK;
    return status == COOP_OK ? 0 : error_coop(name, env->ctx, status, "warming up");
}

static int program_open(path_env *env, method m, form f, run_kernel *p)
{
    static const char *const standalone_names[] = {NULL, PATH_LOOP_STANDALONE_NAME, NULL, PATH_WAVE_STANDALONE_NAME,
                                                   PATH_QUEUE_STANDALONE_NAME};
    static const char *const mega_names[] = {NULL, PATH_LOOP_MATMULT_MEGA_NAME, NULL, PATH_WAVE_MATMULT_MEGA_NAME,
                                             PATH_QUEUE_MATMULT_MEGA_NAME};
    const char *standalone_sources[] = {NULL, path_loop_standalone_source, NULL, path_wave_standalone_source,
                                        path_queue_standalone_source};
    const char *mega_sources[] = {NULL, path_loop_matmult_mega_source, NULL, path_wave_matmult_mega_source,
                                  path_queue_matmult_mega_source};
    const char *source = f == FORM_PLAIN ? path_plain_source
                         : f == FORM_STANDALONE ? standalone_sources[m] : mega_sources[m];
    const char *kernel = m == NAIVE ? "path_naive" : m == WAVEFRONT_HOST ? "path_wave_launch"
                         : f == FORM_STANDALONE ? standalone_names[m] : mega_names[m];
    char options[96];
    snprintf(options, sizeof options, "%s -DPATH_SCENE=%d", PATH_BUILD_OPTIONS, (int)env->o->scene);
    coop_status status = coop_program_create(env->ctx, source, options, &p->program);
    if (status == COOP_OK)
        status = coop_kernel_create(p->program, kernel, &p->kernel);
    if (status != COOP_OK)
        return error_coop(name, env->ctx, status, method_names[m]);
    cl_uint queue_args[] = {env->queue_groups, QUEUE_DEQUE, env->bundles};
    cl_uint capacity = env->o->wave_paths;
    if (m == NAIVE) {
        status = set_args(env, p->kernel, NULL, 0);
    } else if (m == MEGALOOP) {
        status = set_args(env, p->kernel, &env->next, 1);
    } else if (m == WAVEFRONT_HOST) {
        cl_mem more[] = {env->paths_a, env->paths_b, env->counts};
        status = set_args(env, p->kernel, more, 3);
        if (status == COOP_OK)
            status = coop_kernel_set_arg(p->kernel, 13, sizeof capacity, &capacity);
    } else if (m == WAVEFRONT_BARRIER) {
        cl_mem more[] = {env->paths_a, env->paths_b, env->counts};
        status = set_args(env, p->kernel, more, 3);
        if (status == COOP_OK)
            status = coop_kernel_set_arg(p->kernel, PATH_WAVE_STANDALONE_ARG_path_wave_capacity, sizeof capacity,
                                         &capacity);
    } else if (m == QUEUE) {
        cl_mem more[] = {env->bundle_buf, env->bundle_live, env->next, env->queue};
        status = set_args(env, p->kernel, more, 4);
        for (unsigned i = 0; i < 3 && status == COOP_OK; i++)
            status = coop_kernel_set_arg(p->kernel, PATH_QUEUE_STANDALONE_ARG_path_queue_queue_groups + i,
                                         sizeof queue_args[i], &queue_args[i]);
    }
    /* wavefront-host's wave arguments change every launch (run_wavefront_host) */
    if (status == COOP_OK && f == FORM_COOPERATIVE) {
        unsigned first = m == MEGALOOP ? PATH_LOOP_MATMULT_MEGA_ARG_matmult_a
                         : m == WAVEFRONT_BARRIER ? PATH_WAVE_MATMULT_MEGA_ARG_matmult_a
                                                  : PATH_QUEUE_MATMULT_MEGA_ARG_matmult_a;
        cl_mem task[] = {env->task.a, env->task.b, env->task.c};
        for (unsigned i = 0; i < 3 && status == COOP_OK; i++)
            status = coop_kernel_set_buffer(p->kernel, first + i, task[i]);
    }
    if (status != COOP_OK)
        return error_coop(name, env->ctx, status, "setting the kernel's arguments");
    return f == FORM_PLAIN ? warm_up(env, p, m) : 0;
}

static size_t groups_for(size_t items, size_t local_size)
{
    return (items + local_size - 1) / local_size;
}

static int run_naive(path_env *env, run_kernel *p, double *ms, unsigned *launches)
{
    cl_command_queue queue = coop_context_queue(env->ctx);
    double start = clock_now_ms();
    cl_int err = device_enqueue_plain(queue, p->kernel, groups_for(env->pixels, env->local_size), env->local_size,
                                      NULL);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    *ms = clock_now_ms() - start;
    *launches = 1;
    return err == CL_SUCCESS ? 0 : error_cl(name, err, "naive: clEnqueueNDRangeKernel");
}

/* A launch a wave (path.h's waves), until the last: the host reads the wave's survivors back
 * after each, the next launch's size; the counter the next wave counts on is zeroed by the
 * kernel, so a wave costs one launch and one 4-byte read. The last wave is the barrier kernel's
 * (path_wave_last), for as many work-items as the cooperative methods get (queue_groups groups),
 * so that both forms run the same waves. */
static int run_wavefront_host(path_env *env, run_kernel *p, double *ms, unsigned *launches)
{
    const options *o = env->o;
    cl_command_queue queue = coop_context_queue(env->ctx);
    cl_uint total = env->pixels * o->spp, made = 0, live = 0, lanes = env->queue_groups * (cl_uint)env->local_size;
    coop_status status = COOP_OK;
    cl_int err = CL_SUCCESS;
    *launches = 0;
    double start = clock_now_ms();
    for (cl_uint wave = 0; (live || made < total) && status == COOP_OK && err == CL_SUCCESS; wave++) {
        cl_uint room = o->wave_paths - live, fresh = room < total - made ? room : total - made;
        cl_uint last = made + fresh == total && live + fresh <= lanes;
        status = set_wave(p->kernel, wave % 2 ? env->paths_b : env->paths_a, wave % 2 ? env->paths_a : env->paths_b,
                          live, fresh, made, wave, last);
        if (status != COOP_OK)
            break;
        err = device_enqueue_plain(queue, p->kernel, groups_for(live + fresh, env->local_size), env->local_size, NULL);
        ++*launches;
        made += fresh;
        if (last) {
            live = 0;
            if (err == CL_SUCCESS)
                err = clFinish(queue);
        } else if (err == CL_SUCCESS) {
            err = clEnqueueReadBuffer(queue, env->counts, CL_TRUE, (size_t)(wave % PATH_WAVE_COUNTS) * 4, 4, &live, 0,
                                      NULL, NULL);
        }
    }
    *ms = clock_now_ms() - start;
    if (status != COOP_OK)
        return error_coop(name, env->ctx, status, "wavefront-host: setting the kernel's arguments");
    return err == CL_SUCCESS ? 0 : error_cl(name, err, "wavefront-host: a launch or its count");
}

/* The image as a binary PPM, each channel's mean through gamma 2. */
static int write_image(const path_env *env, const char *path)
{
    const options *o = env->o;
    coop_outfile file;
    if (output_open(&file, name, path) != 0)
        return 1;
    fprintf(file.stream, "P6\n%u %u\n255\n", o->width, o->height);
    for (size_t i = 0; i < (size_t)env->pixels * 3; i++)
        fputc((int)path_ref_byte(env->picture[i], o->spp), file.stream);
    return output_commit(&file, name) ? 1 : 0;
}

/* The checked pixels and the CPU's sums there. */
typedef struct check {
    uint32_t *pixels, *expected;
    unsigned count;
} check;

/* One run of method m in form f (chaos seed `seed`, 0: none), checked; prints a line and gives
 * its figures in *record; 0, 1 or 2. */
static int run_once(path_env *env, method m, form f, run_kernel *p, unsigned seed, const check *c, run_record *record)
{
    const options *o = env->o;
    if (reset(env))
        return 1;
    coop_mega_report report = {0};
    double ms = 0;
    unsigned groups = 0, launches = 0;
    int status = 0;
    if (m == NAIVE) {
        status = run_naive(env, p, &ms, &launches);
        groups = (unsigned)groups_for(env->pixels, env->local_size);
    } else if (m == WAVEFRONT_HOST) {
        status = run_wavefront_host(env, p, &ms, &launches);
        groups = (unsigned)groups_for(env->pixels, env->local_size);
    } else if (f == FORM_STANDALONE) {
        coop_launch launch = {.local_size = env->local_size};
        coop_run_stats stats = {0};
        status = run_persistent(name, env->ctx, p->kernel, &launch, &stats, method_names[m]) != COOP_OK;
        ms = stats.run_ms - stats.discovery_ms;
        groups = stats.groups;
        launches = 1;
    } else {
        coop_mega_params params = {.launch = {.local_size = env->local_size}, .chaos_seed = seed, .watchdog_s = 60};
        unsigned task = m == MEGALOOP ? PATH_LOOP_MATMULT_MEGA_TASK_matmult
                        : m == WAVEFRONT_BARRIER ? PATH_WAVE_MATMULT_MEGA_TASK_matmult
                                                 : PATH_QUEUE_MATMULT_MEGA_TASK_matmult;
        coop_task_plan plan = {.task = task, .workgroups = TASK_GROUPS, .take = COOP_TAKE_QUARTER,
                               .period_ms = TASK_PERIOD_MS, .args = {MATMULT_TASK_ORDER}};
        status = run_megakernel(name, env->ctx, p->kernel, &params, &plan, o->task ? 1 : 0, &report,
                                method_names[m]) != COOP_OK;
        ms = report.cooperative_ms;
        groups = report.groups;
        launches = 1;
    }
    if (status) {
        coop_mega_report_free(&report);
        return 1;
    }
    cl_int err = clEnqueueReadBuffer(coop_context_queue(env->ctx), env->image, CL_TRUE, 0,
                                     (size_t)env->pixels * 3 * 4, env->picture, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        coop_mega_report_free(&report);
        return error_cl(name, err, "clEnqueueReadBuffer");
    }
    char label[64];
    if (f == FORM_PLAIN)
        snprintf(label, sizeof label, "%s", method_names[m]);
    else if (f == FORM_STANDALONE)
        snprintf(label, sizeof label, "%s standalone", method_names[m]);
    else
        snprintf(label, sizeof label, "%s cooperative seed %u", method_names[m], seed);
    unsigned wrong = path_ref_compare(env->picture, o->width, c->pixels, c->count, c->expected, label, stdout,
                                      SHOWN_FAULTS);
    status = wrong ? 2 : 0;
    if (!status && f == FORM_COOPERATIVE && report.record_count)
        status = matmult_task_check(&env->task, env->ctx, name);
    printf("%s", label);
    printf(": %.3f ms on %u groups", ms, groups);
    if (m == WAVEFRONT_HOST)
        printf(", %u launches", launches);
    if (f == FORM_COOPERATIVE)
        printf(", %u kills, %u forks, %u task runs", report.kills, report.forks, report.tasks);
    if (status == 1)
        printf(": error\n");
    else if (wrong)
        printf(": image WRONG at %u of %u pixels checked\n", wrong, c->count);
    else if (status)
        printf(": image equal to the CPU's; task WRONG\n");
    else
        printf(": %u pixels checked equal the CPU's: ok\n", c->count);
    *record = (run_record){.m = m, .f = f, .seed = seed, .groups = groups, .kills = report.kills,
                           .forks = report.forks, .tasks = report.tasks, .launches = launches, .ms = ms,
                           .status = status};
    coop_mega_report_free(&report);
    return status;
}

/* The median time of the `count` records of method m in form f; NAN for none. */
static double median_of(const run_record *records, unsigned count, method m, form f, double *times)
{
    unsigned found = 0;
    for (unsigned i = 0; i < count; i++)
        if (records[i].m == m && records[i].f == f)
            times[found++] = records[i].ms;
    return found ? stats_quantile(times, found, 0.5) : NAN;
}

/* Every run's figures and each method and form's median as one JSON object. */
static int write_json(const path_env *env, const run_record *records, unsigned count, double *times)
{
    const options *o = env->o;
    coop_outfile file;
    if (output_open(&file, name, o->json) != 0)
        return CLI_EXIT_ERROR;
    FILE *out = file.stream;
    const coop_device_info *info = coop_context_device(env->ctx);
    fprintf(out, "{\n  \"program\": \"coop-path\",\n  \"device\": ");
    json_string(out, info->name);
    fprintf(out, ",\n  \"platform\": ");
    json_string(out, info->platform);
    fprintf(out, ",\n  \"compute_units\": %u,\n  \"scene\": \"%s\",\n  \"width\": %u,\n  \"height\": %u,\n"
            "  \"spp\": %u,\n  \"depth\": %u,\n  \"wave_paths\": %u,\n  \"local_size\": %zu,\n  \"chaos_seed\": %u,\n"
            "  \"task\": %s,\n  \"pick\": \"%s\",\n  \"runs\": [\n", info->compute_units, scene_names[o->scene],
            o->width, o->height, o->spp, o->depth, o->wave_paths, env->local_size, o->chaos,
            o->task ? "\"matmult\"" : "null",
            method_names[pick(o->scene, o->width, o->height, o->spp, o->depth, info->compute_units)]);
    for (unsigned i = 0; i < count; i++) {
        const run_record *r = &records[i];
        fprintf(out, "    {\"method\": \"%s\", \"form\": \"%s\", \"seed\": %u, \"time_ms\": %.6f, \"groups\": %u, "
                "\"launches\": %u, \"kills\": %u, \"forks\": %u, \"task_runs\": %u, \"check\": \"%s\"}%s\n",
                method_names[r->m], form_names[r->f], r->seed, r->ms, r->groups, r->launches, r->kills, r->forks,
                r->tasks, r->status ? "wrong" : "ok", i + 1 < count ? "," : "");
    }
    fprintf(out, "  ],\n  \"median_ms\": {");
    int first = 1;
    for (int m = 0; m < METHODS; m++)
        for (int f = 0; f < 3; f++) {
            if ((f == FORM_PLAIN) == method_cooperative[m])
                continue;
            fprintf(out, "%s\"%s%s%s\": ", first ? "" : ", ", method_names[m], f == FORM_PLAIN ? "" : " ",
                    f == FORM_PLAIN ? "" : form_names[f]);
            json_number(out, median_of(records, count, (method)m, (form)f, times));
            first = 0;
        }
    fprintf(out, "}\n}\n");
    return output_commit(&file, name);
}

/* Runs every method and form asked for, o->seeds times each; 0, 1 or 2. */
static int run_all(path_env *env, const check *c)
{
    const options *o = env->o;
    unsigned most = o->seeds * 8;
    double *times = malloc((size_t)most * sizeof *times);
    run_record *records = calloc(most, sizeof *records);
    unsigned recorded = 0, wrong = 0;
    int result = !times || !records ? error_report(name, "out of memory for %u runs' figures", most) : 0;
    int image_written = !o->image;
    for (int m = 0; !result && m < METHODS; m++) {
        for (int f = 0; !result && f < 3; f++) {
            if (!o->methods[m] || (f == FORM_PLAIN) == method_cooperative[m] ||
                (f == FORM_STANDALONE && !o->standalone) || (f == FORM_COOPERATIVE && !o->cooperative))
                continue;
            run_kernel p = {0};
            result = program_open(env, (method)m, (form)f, &p);
            unsigned first = recorded;
            for (unsigned i = 0; !result && i < o->seeds; i++) {
                unsigned seed = f == FORM_COOPERATIVE && o->chaos ? o->chaos + i : 0;
                int run = run_once(env, (method)m, (form)f, &p, seed, c, &records[recorded]);
                if (run == 1) {
                    result = 1;
                    break;
                }
                times[recorded - first] = records[recorded].ms;
                recorded++;
                wrong += run == 2;
                if (!image_written) {
                    result = write_image(env, o->image);
                    image_written = 1;
                }
            }
            unsigned done = recorded - first;
            if (!result && done > 1)
                printf("%s%s%s: median %.3f ms over %u runs (min %.3f, max %.3f)\n", method_names[m],
                       f == FORM_PLAIN ? "" : " ", f == FORM_PLAIN ? "" : form_names[f],
                       stats_quantile(times, done, 0.5), done, stats_quantile(times, done, 0.0),
                       stats_quantile(times, done, 1.0));
            run_kernel_release(&p);
        }
    }
    if (!result && wrong)
        result = CLI_EXIT_CHECK;
    if (o->json && result != 1 && write_json(env, records, recorded, times) != 0)
        result = 1;
    free(times);
    free(records);
    return result;
}

static int print_pick(const options *o, unsigned compute_units)
{
    printf("pick: %s (%s, %u x %u, %u spp, depth %u, %u compute units)\n",
           method_names[pick(o->scene, o->width, o->height, o->spp, o->depth, compute_units)], scene_names[o->scene],
           o->width, o->height, o->spp, o->depth, compute_units);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (cli_info_requested(&coop_path_cli, argc, argv))
        return CLI_EXIT_OK;
    options o;
    if (parse(argc, argv, &o) != 0)
        return CLI_EXIT_ERROR;
    path_env env = {.o = &o, .pixels = o.width * o.height};
    if (o.pick && o.compute_units)
        return print_pick(&o, o.compute_units);
    /* a line per run, in order with libcoop's messages on standard error */
    setvbuf(stdout, NULL, _IOLBF, 0);
    output_catch_signals();
    int result = device_open(name, NULL, &env.ctx);
    if (!result && o.pick) {
        result = print_pick(&o, coop_context_device(env.ctx)->compute_units);
        coop_context_release(env.ctx);
        return result;
    }
    check c = {0};
    if (!result) {
        const coop_device_info *info = coop_context_device(env.ctx);
        env.local_size = o.local_size ? o.local_size : device_default_local_size(info);
        result = device_check_local_size(name, info, env.local_size);
        env.queue_groups = coop_launch_groups(env.ctx, env.local_size);
        env.bundles = BUNDLES_PER_GROUP * env.queue_groups;
    }
    if (!result)
        result = open_buffers(&env);
    if (!result) {
        unsigned room = env.pixels <= PATH_REF_ALL_UP_TO ? env.pixels : PATH_REF_SAMPLED;
        c.pixels = malloc((size_t)room * sizeof *c.pixels);
        c.expected = malloc((size_t)room * 3 * sizeof *c.expected);
        if (!c.pixels || !c.expected)
            result = error_report(name, "out of memory for the pixels checked");
    }
    if (!result) {
        c.count = path_ref_checked(o.width, o.height, c.pixels);
        path_ref_expect(o.scene, o.width, o.height, o.spp, o.depth, c.pixels, c.count, c.expected);
        printf("path: %s, %u x %u pixels, %u spp, depth %u, local size %zu, %u paths a wave, %u pixels checked\n",
               scene_names[o.scene], o.width, o.height, o.spp, o.depth, env.local_size, o.wave_paths, c.count);
        result = run_all(&env, &c);
    }
    free(c.pixels);
    free(c.expected);
    free(env.picture);
    buffers_release(env.buffers, env.buffer_count);
    coop_context_release(env.ctx);
    return result;
}
