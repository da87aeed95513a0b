/* test_render.c: the `render` task (kernels/tasks/render.h, render.cl, plain.cl) against its CPU reference
 * (host/common/render_ref.c), as an ordinary kernel and as a task beside a cooperative kernel in
 * a megakernel; how its tiles cover a frame; and the image writers (host/common/image.c), whose
 * PNG files are decoded back here with zlib.
 *
 * Two PoCL workers, as in test_scheduler.c. Frames are 96 x 64: a few milliseconds of tracing
 * per frame on one core. */
#include "testutil.h"

#include "image.h"
#include "render_ref.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include <zlib.h>

/* The tracer and render_plain, found through this include path (tests run in the repository). */
#define RENDER_OPTIONS "-I kernels/tasks"

enum {
    WORKERS = 2,
    WIDTH = 96,
    HEIGHT = 64,
    PIXELS = WIDTH * HEIGHT,
    LOCAL_SIZE = 64,
    DATA_WORDS = 256,
    MAX_ROUNDS = 1000000
};

/* With plain.cl (render.h's tracer and render_plain): a kernel that counts how often each pixel
 * falls in a tile, with the tracer's own tile arithmetic, and a megakernel whose cooperative kernel runs rounds with a
 * resizing barrier (adding one to every data word per round) until the task's tiles are done,
 * so that the task always runs beside it. Group 0, never killed, decides each round whether it
 * is the last one: it writes the decision before the barrier into a slot that the members, and
 * the groups forked at that barrier, read after it, and that is next written two rounds later. */
static const char test_source[] =
    "#include \"plain.cl\"\n"
    "\n"
    "kernel void count_tile_pixels(global uint *counts, uint pixels, uint tiles)\n"
    "{\n"
    "    for (uint tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {\n"
    "        uint end = render_tile_begin(tile + 1u, tiles, pixels);\n"
    "        for (uint i = render_tile_begin(tile, tiles, pixels) + get_local_id(0); i < end; i += get_local_size(0))\n"
    "            coop_fetch_add(&counts[i], 1u);\n"
    "    }\n"
    "}\n"
    "\n"
    "/* kernels/tasks/render.cl's task as coop-merge writes it: frame task argument 0 (the size is in\n"
    " * this megakernel's arguments), a tile per task workgroup */\n"
    "void task_render(coop_ctx *ctx, global uchar4 *frame, uint width, uint height)\n"
    "{\n"
    "    render_tile(frame, width, height, coop_task_arg(ctx, 0), coop_group_id(ctx), coop_num_groups(ctx));\n"
    "}\n"
    "\n"
    "#define PROGRESS_TILES 0\n"
    "#define PROGRESS_ROUNDS 1\n"
    "#define PROGRESS_STOP 2\n"
    "\n"
    "typedef struct until_state { uint round; } until_state;\n"
    "\n"
    "void rounds_until_frame(coop_ctx *ctx, global uint *data, uint n, global uint *progress, uint tiles,\n"
    "                        uint max_rounds)\n"
    "{\n"
    "    until_state t;\n"
    "    uint stop = 0;\n"
    "    if (coop_resume_point(ctx) == 1) {\n"
    "        coop_transmit_restore(ctx, &t, sizeof t);\n"
    "        stop = coop_load_relaxed(&progress[PROGRESS_STOP + (t.round - 1u) % 2u]);\n"
    "    } else {\n"
    "        t.round = 0;\n"
    "    }\n"
    "    uint killed = 0;\n"
    "    while (!stop && !killed) {\n"
    "        uint m = coop_num_groups(ctx), g = coop_group_id(ctx);\n"
    "        for (uint i = g * get_local_size(0) + get_local_id(0); i < n; i += m * get_local_size(0))\n"
    "            data[i] += 1;\n"
    "        if (g == 0 && get_local_id(0) == 0) {\n"
    "            uint last = coop_load_acquire(&progress[PROGRESS_TILES]) >= tiles || t.round + 1u >= max_rounds;\n"
    "            coop_store_relaxed(&progress[PROGRESS_STOP + t.round % 2u], last);\n"
    "        }\n"
    "        t.round++;\n"
    "        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);\n"
    "        stop = coop_load_relaxed(&progress[PROGRESS_STOP + (t.round - 1u) % 2u]);\n"
    "    }\n"
    "    if (!killed && coop_group_id(ctx) == 0 && get_local_id(0) == 0)\n"
    "        coop_store_relaxed(&progress[PROGRESS_ROUNDS], t.round);\n"
    "}\n"
    "\n"
    "kernel void render_mega(COOP_PARAMS, global uint *data, uint n, global uint *progress, uint tiles,\n"
    "                        uint max_rounds, global uchar4 *frame, uint width, uint height)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {\n"
    "        if (role == COOP_ROLE_COOP)\n"
    "            rounds_until_frame(&ctx, data, n, progress, tiles, max_rounds);\n"
    "        COOP_GROUP_SYNC();\n"
    "        if (role == COOP_ROLE_TASK && ctx.task == 0)\n"
    "            task_render(&ctx, frame, width, height);\n"
    "        COOP_GROUP_SYNC();\n"
    "        if (role == COOP_ROLE_TASK && get_local_id(0) == 0)\n"
    "            coop_fetch_add(&progress[PROGRESS_TILES], 1u);\n"
    "    }\n"
    "}\n";

enum { PROGRESS_TILES, PROGRESS_ROUNDS, PROGRESS_STOP, PROGRESS_WORDS = PROGRESS_STOP + 2 };

/* ---- Helpers ------------------------------------------------------------------------------- */

/* A PoCL context with the tracer and the test kernels built. */
typedef struct render_env {
    coop_context *ctx;
    coop_program *program;
} render_env;

static render_env env_open(void)
{
    render_env env = {0};
    env.ctx = tu_context(WORKERS);
    TU_ASSERT_OK(env.ctx, coop_program_create(env.ctx, test_source, RENDER_OPTIONS, &env.program));
    return env;
}

static void env_close(render_env *env)
{
    coop_program_release(env->program);
    coop_context_release(env->ctx);
}

static coop_kernel *env_kernel(render_env *env, const char *name)
{
    coop_kernel *kernel = NULL;
    TU_ASSERT_OK(env->ctx, coop_kernel_create(env->program, name, &kernel));
    return kernel;
}

static void set_uint(render_env *env, coop_kernel *kernel, unsigned index, cl_uint value)
{
    TU_ASSERT_OK(env->ctx, coop_kernel_set_arg(kernel, index, sizeof value, &value));
}

/* Runs an ordinary kernel on `groups` groups of `local_size` and waits for it. */
static void run_plain(render_env *env, coop_kernel *kernel, size_t groups, size_t local_size)
{
    size_t global = groups * local_size;
    cl_command_queue queue = coop_context_queue(env->ctx);
    cl_int err = clEnqueueNDRangeKernel(queue, coop_kernel_cl(kernel), 1, NULL, &global, &local_size, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueNDRangeKernel: %s", coop_cl_error_name(err));
    err = clFinish(queue);
    ck_assert_msg(err == CL_SUCCESS, "clFinish: %s", coop_cl_error_name(err));
}

/* Frame `frame_index` from render_plain, cut into `tiles`, on `groups` groups of `local_size`,
 * into rgba (PIXELS * 4 bytes). The frame buffer starts zeroed: alpha 0 marks a pixel never
 * written. */
static void render_plain_frame(render_env *env, cl_uint frame_index, cl_uint tiles, size_t groups, size_t local_size,
                               uint8_t *rgba)
{
    coop_kernel *kernel = env_kernel(env, "render_plain");
    cl_mem frame = tu_buffer(env->ctx, PIXELS);
    TU_ASSERT_OK(env->ctx, coop_kernel_set_buffer(kernel, 0, frame));
    set_uint(env, kernel, 1, WIDTH);
    set_uint(env, kernel, 2, HEIGHT);
    set_uint(env, kernel, 3, frame_index);
    set_uint(env, kernel, 4, tiles);
    run_plain(env, kernel, groups, local_size);
    tu_read(env->ctx, frame, (cl_uint *)rgba, PIXELS);
    clReleaseMemObject(frame);
    coop_kernel_release(kernel);
}

static void assert_every_pixel_written(const uint8_t *rgba, const char *what)
{
    for (size_t p = 0; p < PIXELS; p++)
        ck_assert_msg(rgba[4 * p + 3] == 255, "%s: pixel (%zu, %zu) was never written", what, p % WIDTH, p / WIDTH);
}

/* The frame equals the CPU reference within render_ref.h's tolerance. */
static void assert_matches_reference(const uint8_t *rgba, cl_uint frame_index, const char *what)
{
    static uint8_t expected[PIXELS * 4];
    render_ref_frame(WIDTH, HEIGHT, frame_index, expected);
    render_ref_diff diff = render_ref_compare(rgba, expected, PIXELS);
    size_t worst = diff.worst_pixel;
    ck_assert_msg(render_ref_frames_match(&diff),
                  "%s: frame %u differs from the reference: mean %.3f levels, %.2f%% within %d, %zu alpha "
                  "mismatches, worst %u at (%zu, %zu): got %u %u %u, expected %u %u %u",
                  what, frame_index, diff.mean_abs, 100.0 * diff.within, RENDER_REF_TOLERANCE,
                  diff.alpha_mismatches, diff.max_abs, worst % WIDTH, worst / WIDTH, rgba[4 * worst],
                  rgba[4 * worst + 1], rgba[4 * worst + 2], expected[4 * worst], expected[4 * worst + 1],
                  expected[4 * worst + 2]);
}

/* ---- The tracer as an ordinary kernel ----------------------------------------------------- */

START_TEST(plain_kernel_equals_reference)
{
    render_env env = env_open();
    static uint8_t first[PIXELS * 4], later[PIXELS * 4];
    render_plain_frame(&env, 0, 6, 6, LOCAL_SIZE, first);
    assert_every_pixel_written(first, "frame 0");
    assert_matches_reference(first, 0, "render_plain, 6 tiles");
    render_plain_frame(&env, 37, 6, 6, LOCAL_SIZE, later);
    assert_matches_reference(later, 37, "render_plain, 6 tiles");
    /* The camera moves: frame 37 is another view. */
    render_ref_diff apart = render_ref_compare(first, later, PIXELS);
    ck_assert_msg(apart.mean_abs > 5.0, "frames 0 and 37 differ by only %.2f levels on average", apart.mean_abs);
    env_close(&env);
}
END_TEST

/* Tile counts that do not divide the frame, more tiles than pixels, local sizes that divide
 * nothing, fewer groups than tiles: the tracer's tile arithmetic on the device counts every pixel
 * exactly once, and render_plain then writes every pixel, each with the reference's colour. */
START_TEST(tiles_cover_every_pixel_once)
{
    static const struct {
        cl_uint tiles;
        size_t groups, local_size;
    } cuts[] = {
        {1, 1, 64}, {7, 7, 5}, {37, 37, 64}, {37, 4, 13}, {1000, 1000, 1}, {PIXELS - 1, 64, 3},
        {PIXELS, 96, 1}, {PIXELS + 5, 64, 16},
    };
    render_env env = env_open();
    coop_kernel *count = env_kernel(&env, "count_tile_pixels");
    cl_mem counts = tu_buffer(env.ctx, PIXELS);
    static cl_uint got[PIXELS], zeros[PIXELS];
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        tu_write(env.ctx, counts, zeros, PIXELS);
        TU_ASSERT_OK(env.ctx, coop_kernel_set_buffer(count, 0, counts));
        set_uint(&env, count, 1, PIXELS);
        set_uint(&env, count, 2, cuts[k].tiles);
        run_plain(&env, count, cuts[k].groups, cuts[k].local_size);
        tu_read(env.ctx, counts, got, PIXELS);
        for (size_t p = 0; p < PIXELS; p++)
            ck_assert_msg(got[p] == 1, "%u tiles on %zu groups of %zu: pixel %zu counted %u times", cuts[k].tiles,
                          cuts[k].groups, cuts[k].local_size, p, got[p]);
    }
    clReleaseMemObject(counts);
    coop_kernel_release(count);

    static const size_t rendered[] = {1, 3, 7};
    static uint8_t rgba[PIXELS * 4];
    for (size_t r = 0; r < sizeof rendered / sizeof rendered[0]; r++) {
        size_t k = rendered[r];
        char what[96];
        snprintf(what, sizeof what, "render_plain, %u tiles on %zu groups of %zu", cuts[k].tiles, cuts[k].groups,
                 cuts[k].local_size);
        render_plain_frame(&env, 5, cuts[k].tiles, cuts[k].groups, cuts[k].local_size, rgba);
        assert_every_pixel_written(rgba, what);
        assert_matches_reference(rgba, 5, what);
    }
    env_close(&env);
}
END_TEST

/* ---- The tracer as a task of a megakernel ------------------------------------------------- */

/* Runs render_mega once: task_render as `workgroups` task workgroups on the one group the task
 * takes, frame `frame_index`, under chaos seed `seed` (0: none); checks the frame, that the
 * cooperative kernel ran throughout and computed its result, and the report. */
static void task_once(render_env *env, unsigned workgroups, cl_uint frame_index, unsigned seed)
{
    char what[64];
    snprintf(what, sizeof what, "%u task workgroups, seed %u", workgroups, seed);
    coop_kernel *kernel = env_kernel(env, "render_mega");
    cl_mem data = tu_buffer(env->ctx, DATA_WORDS);
    cl_mem progress = tu_buffer(env->ctx, PROGRESS_WORDS);
    cl_mem frame = tu_buffer(env->ctx, PIXELS);
    TU_ASSERT_OK(env->ctx, coop_kernel_set_buffer(kernel, 0, data));
    set_uint(env, kernel, 1, DATA_WORDS);
    TU_ASSERT_OK(env->ctx, coop_kernel_set_buffer(kernel, 2, progress));
    set_uint(env, kernel, 3, workgroups);
    set_uint(env, kernel, 4, MAX_ROUNDS);
    TU_ASSERT_OK(env->ctx, coop_kernel_set_buffer(kernel, 5, frame));
    set_uint(env, kernel, 6, WIDTH);
    set_uint(env, kernel, 7, HEIGHT);

    coop_task_plan plan = {.task = 0, .workgroups = workgroups, .take = COOP_TAKE_ONE, .args = {frame_index}};
    /* The task takes one of the two groups, so discovery is pinned to both. */
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE}, .chaos_seed = seed, .watchdog_s = 20};
    tu_pin_groups(&params.launch, env->ctx, WORKERS);
    coop_mega_report report;
    TU_ASSERT_OK(env->ctx, coop_mega_run(kernel, &params, &plan, 1, &report));

    static uint8_t rgba[PIXELS * 4];
    tu_read(env->ctx, frame, (cl_uint *)rgba, PIXELS);
    assert_every_pixel_written(rgba, what);
    assert_matches_reference(rgba, frame_index, what);

    cl_uint words[PROGRESS_WORDS], result[DATA_WORDS];
    tu_read(env->ctx, progress, words, PROGRESS_WORDS);
    tu_read(env->ctx, data, result, DATA_WORDS);
    ck_assert_msg(words[PROGRESS_TILES] == workgroups, "%s: %u task workgroups ran", what, words[PROGRESS_TILES]);
    cl_uint rounds = words[PROGRESS_ROUNDS];
    ck_assert_msg(rounds >= 1 && rounds < MAX_ROUNDS, "%s: the cooperative kernel ran %u rounds", what, rounds);
    for (unsigned i = 0; i < DATA_WORDS; i++)
        ck_assert_msg(result[i] == rounds, "%s: data[%u] = %u after %u rounds", what, i, result[i], rounds);

    ck_assert_uint_eq(report.groups, WORKERS);
    ck_assert_uint_eq(report.record_count, 1);
    ck_assert_uint_eq(report.tasks, 1);
    ck_assert_uint_eq(report.records[0].groups, 1);
    /* Both groups are members until the frame is done: without chaos the task's group comes
     * from a kill. */
    if (!seed)
        ck_assert_uint_ge(report.kills, 1);
    coop_mega_report_free(&report);
    clReleaseMemObject(frame);
    clReleaseMemObject(progress);
    clReleaseMemObject(data);
    coop_kernel_release(kernel);
}

START_TEST(task_renders_beside_a_cooperative_kernel)
{
    render_env env = env_open();
    task_once(&env, 6, 3, 0);
    env_close(&env);
}
END_TEST

START_TEST(task_renders_under_chaos)
{
    static const unsigned seeds[] = {11, 4242};
    static const unsigned workgroups[] = {13, 1};
    render_env env = env_open();
    task_once(&env, workgroups[_i], 90 + (cl_uint)_i, seeds[_i]);
    env_close(&env);
}
END_TEST

/* ---- The CPU reference itself ------------------------------------------------------------- */

START_TEST(reference_is_deterministic_and_compare_counts)
{
    static uint8_t a[PIXELS * 4], b[PIXELS * 4];
    render_ref_frame(WIDTH, HEIGHT, 9, a);
    render_ref_frame(WIDTH, HEIGHT, 9, b);
    ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
    uint8_t one[4];
    render_ref_pixel(WIDTH, HEIGHT, 9, 17, 40, one);
    ck_assert_int_eq(memcmp(one, a + 4 * (40 * WIDTH + 17), 4), 0);

    /* Not a flat image: sky, spheres and shadows give many colours. */
    size_t distinct = 0;
    for (size_t p = 1; p < PIXELS; p++)
        distinct += memcmp(a + 4 * p, a + 4 * (p - 1), 3) != 0;
    ck_assert_uint_gt(distinct, PIXELS / 4);

    render_ref_diff same = render_ref_compare(a, b, PIXELS);
    ck_assert(same.mean_abs == 0.0 && same.within == 1.0 && same.max_abs == 0 && same.alpha_mismatches == 0);
    ck_assert(render_ref_frames_match(&same));

    /* 0.5% of the colour channels off by 40: within the tolerance; 2%: not. */
    size_t channels = 3 * (size_t)PIXELS;
    for (size_t k = 0; k < channels / 200; k++) {
        size_t c = k * 200 + 7;
        b[4 * (c / 3) + c % 3] = (uint8_t)(a[4 * (c / 3) + c % 3] ^ 0x28);
    }
    render_ref_diff some = render_ref_compare(b, a, PIXELS);
    ck_assert_uint_eq(some.max_abs, 40);
    ck_assert(render_ref_frames_match(&some));
    for (size_t k = 0; k < channels / 50; k++) {
        size_t c = k * 50 + 3;
        b[4 * (c / 3) + c % 3] = (uint8_t)(a[4 * (c / 3) + c % 3] ^ 0x28);
    }
    render_ref_diff many = render_ref_compare(b, a, PIXELS);
    ck_assert_msg(!render_ref_frames_match(&many), "%.4f within", many.within);

    memcpy(b, a, sizeof a);
    b[4 * 100 + 3] = 0;
    render_ref_diff alpha = render_ref_compare(b, a, PIXELS);
    ck_assert_uint_eq(alpha.alpha_mismatches, 1);
    ck_assert(!render_ref_frames_match(&alpha));
}
END_TEST

/* ---- Image writers ------------------------------------------------------------------------ */

/* A scratch directory, removed with its files by dir_close. */
typedef struct scratch_dir {
    char path[64];
} scratch_dir;

static scratch_dir dir_open(void)
{
    scratch_dir dir;
    snprintf(dir.path, sizeof dir.path, "%s", "/tmp/test_render.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir.path));
    return dir;
}

static void dir_file(const scratch_dir *dir, const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir->path, name);
}

static void dir_close(const scratch_dir *dir, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        char path[128];
        dir_file(dir, names[i], path, sizeof path);
        unlink(path);
    }
    rmdir(dir->path);
}

static uint32_t be32(const uint8_t *from)
{
    return (uint32_t)from[0] << 24 | (uint32_t)from[1] << 16 | (uint32_t)from[2] << 8 | from[3];
}

/* Decodes the PNG at `path` as far as this writer writes them (8-bit RGB or RGBA, filter 0,
 * no interlacing), checking every chunk's CRC, and compares it with the pixels written;
 * returns the number of IDAT chunks. */
static unsigned assert_png_holds(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                                 unsigned channels)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t size = 0;
    uint8_t *file = (uint8_t *)tu_read_file(path, &size);
    ck_assert_uint_ge(size, 8 + 25 + 12);
    ck_assert_int_eq(memcmp(file, signature, 8), 0);

    uint8_t *stream = NULL;
    size_t stream_size = 0, at = 8;
    unsigned chunks = 0, idat_chunks = 0, ended = 0;
    while (at < size) {
        ck_assert_msg(!ended, "%s: bytes after IEND", path);
        ck_assert_uint_le(at + 12, size);
        uint32_t length = be32(file + at);
        ck_assert_uint_le(at + 12 + length, size);
        const uint8_t *type = file + at + 4, *data = file + at + 8;
        uLong crc = crc32(crc32(0L, type, 4), data, length);
        ck_assert_msg(be32(data + length) == (uint32_t)crc, "%s: chunk %u (%.4s) has CRC %08x, expected %08lx", path,
                      chunks, (const char *)type, be32(data + length), crc);
        if (chunks == 0) {
            ck_assert_int_eq(memcmp(type, "IHDR", 4), 0);
            ck_assert_uint_eq(length, 13);
            ck_assert_uint_eq(be32(data), width);
            ck_assert_uint_eq(be32(data + 4), height);
            ck_assert_uint_eq(data[8], 8);
            ck_assert_uint_eq(data[9], channels == 4 ? 6 : 2);
            ck_assert_uint_eq(data[10], 0);
            ck_assert_uint_eq(data[11], 0);
            ck_assert_uint_eq(data[12], 0);
        } else if (memcmp(type, "IDAT", 4) == 0) {
            ck_assert_uint_le(length, IMAGE_PNG_IDAT_BYTES);
            stream = realloc(stream, stream_size + length);
            ck_assert_ptr_nonnull(stream);
            memcpy(stream + stream_size, data, length);
            stream_size += length;
            idat_chunks++;
        } else {
            ck_assert_msg(memcmp(type, "IEND", 4) == 0, "%s: unexpected chunk %.4s", path, (const char *)type);
            ck_assert_uint_eq(length, 0);
            ended = 1;
        }
        chunks++;
        at += 12 + length;
    }
    ck_assert_msg(ended, "%s: no IEND chunk", path);
    ck_assert_uint_ge(idat_chunks, 1);

    size_t row = (size_t)width * channels;
    uLongf raw_size = (row + 1) * height + 1;  /* one byte more: a longer stream would not fit */
    uint8_t *raw = malloc(raw_size);
    ck_assert_ptr_nonnull(raw);
    int z = uncompress(raw, &raw_size, stream, stream_size);
    ck_assert_msg(z == Z_OK, "%s: uncompress: %s", path, zError(z));
    ck_assert_uint_eq(raw_size, (row + 1) * height);
    for (unsigned y = 0; y < height; y++) {
        ck_assert_uint_eq(raw[y * (row + 1)], 0);
        ck_assert_msg(memcmp(raw + y * (row + 1) + 1, pixels + y * row, row) == 0, "%s: row %u differs", path, y);
    }
    free(raw);
    free(stream);
    free(file);
    return idat_chunks;
}

START_TEST(png_decodes_to_the_pixels)
{
    static uint8_t rgba[PIXELS * 4], rgb[PIXELS * 3];
    render_ref_frame(WIDTH, HEIGHT, 2, rgba);
    for (size_t p = 0; p < PIXELS; p++)
        memcpy(rgb + 3 * p, rgba + 4 * p, 3);
    /* Noise does not compress: more than one IDAT chunk. */
    enum { NOISE_W = 700, NOISE_H = 500 };
    uint8_t *noise = malloc((size_t)NOISE_W * NOISE_H * 4);
    ck_assert_ptr_nonnull(noise);
    uint32_t state = 12345;
    for (size_t i = 0; i < (size_t)NOISE_W * NOISE_H * 4; i++) {
        state = state * 1664525u + 1013904223u;
        noise[i] = (uint8_t)(state >> 24);
    }
    uint8_t dot[3] = {1, 2, 3};

    static const char *const names[] = {"frame.png", "frame-rgb.png", "noise.png", "dot.png"};
    scratch_dir dir = dir_open();
    char path[128], err[256];
    dir_file(&dir, names[0], path, sizeof path);
    ck_assert_msg(image_write_png(path, rgba, WIDTH, HEIGHT, 4, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(assert_png_holds(path, rgba, WIDTH, HEIGHT, 4), 1);
    dir_file(&dir, names[1], path, sizeof path);
    ck_assert_msg(image_write_png(path, rgb, WIDTH, HEIGHT, 3, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(assert_png_holds(path, rgb, WIDTH, HEIGHT, 3), 1);
    dir_file(&dir, names[2], path, sizeof path);
    ck_assert_msg(image_write_png(path, noise, NOISE_W, NOISE_H, 4, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(assert_png_holds(path, noise, NOISE_W, NOISE_H, 4), 2);
    dir_file(&dir, names[3], path, sizeof path);
    ck_assert_msg(image_write_png(path, dot, 1, 1, 3, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(assert_png_holds(path, dot, 1, 1, 3), 1);
    dir_close(&dir, names, 4);
    free(noise);
}
END_TEST

START_TEST(ppm_has_header_and_rgb_bytes)
{
    static uint8_t rgba[PIXELS * 4], rgb[PIXELS * 3];
    render_ref_frame(WIDTH, HEIGHT, 2, rgba);
    for (size_t p = 0; p < PIXELS; p++)
        memcpy(rgb + 3 * p, rgba + 4 * p, 3);
    static const char *const names[] = {"frame.ppm", "frame-rgb.ppm"};
    static const char header[] = "P6\n96 64\n255\n";
    scratch_dir dir = dir_open();
    for (unsigned k = 0; k < 2; k++) {
        char path[128], err[256];
        dir_file(&dir, names[k], path, sizeof path);
        ck_assert_msg(image_write_ppm(path, k ? rgb : rgba, WIDTH, HEIGHT, k ? 3 : 4, err, sizeof err) == 0, "%s", err);
        size_t size = 0;
        char *file = tu_read_file(path, &size);
        ck_assert_uint_eq(size, strlen(header) + sizeof rgb);
        ck_assert_int_eq(memcmp(file, header, strlen(header)), 0);
        ck_assert_int_eq(memcmp(file + strlen(header), rgb, sizeof rgb), 0);
        free(file);
    }
    dir_close(&dir, names, 2);
}
END_TEST

typedef int (*image_writer)(const char *, const uint8_t *, unsigned, unsigned, unsigned, char *, size_t);

/* The writer fails with a message that starts with the path and contains `fragment`. */
static void assert_write_fails(image_writer writer, const char *path, const uint8_t *pixels, unsigned width,
                               unsigned height, unsigned channels, const char *fragment)
{
    char err[256];
    memset(err, 'x', sizeof err);
    ck_assert_int_eq(writer(path, pixels, width, height, channels, err, sizeof err), -1);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, fragment) != NULL,
                  "message \"%s\" lacks the path %s or \"%s\"", err, path, fragment);
}

START_TEST(unwritable_paths_and_bad_images_are_reported)
{
    static const image_writer writers[] = {image_write_png, image_write_ppm};
    uint8_t pixels[4 * 4] = {0};
    scratch_dir dir = dir_open();
    for (unsigned w = 0; w < 2; w++) {
        image_writer writer = writers[w];
        assert_write_fails(writer, "/nonexistent-render-test/frame.img", pixels, 2, 2, 4,
                           "cannot open for writing: No such file or directory");
        assert_write_fails(writer, dir.path, pixels, 2, 2, 4, "cannot open for writing: Is a directory");
        if (access("/dev/full", W_OK) == 0)
            assert_write_fails(writer, "/dev/full", pixels, 2, 2, 4, "write failed: No space left on device");
        assert_write_fails(writer, "bad.img", pixels, 2, 2, 2, "2 channels per pixel");
        assert_write_fails(writer, "bad.img", pixels, 0, 2, 3, "0 x 2 pixels cannot be written");
        assert_write_fails(writer, "bad.img", pixels, 2, 0x80000000u, 3, "2 x 2147483648 pixels cannot be written");
        assert_write_fails(writer, "bad.img", NULL, 2, 2, 3, "no pixels");
        /* A short buffer gets a truncated, terminated message; none at all is allowed. */
        char err[8];
        ck_assert_int_eq(writer("/nonexistent-render-test/frame.img", pixels, 2, 2, 4, err, sizeof err), -1);
        ck_assert_str_eq(err, "/nonexi");
        ck_assert_int_eq(writer("/nonexistent-render-test/frame.img", pixels, 2, 2, 4, NULL, 0), -1);
        ck_assert_int_eq(writer(NULL, pixels, 2, 2, 4, NULL, 0), -1);
    }
    ck_assert_int_eq(access("bad.img", F_OK), -1);
    dir_close(&dir, NULL, 0);
}
END_TEST

static Suite *render_suite(void)
{
    Suite *suite = suite_create("render");
    TCase *tracer = tu_tcase("tracer", 60);
    tcase_add_test(tracer, plain_kernel_equals_reference);
    tcase_add_test(tracer, tiles_cover_every_pixel_once);
    tcase_add_test(tracer, reference_is_deterministic_and_compare_counts);
    suite_add_tcase(suite, tracer);

    TCase *task = tu_tcase("task in a megakernel", 60);
    tcase_add_test(task, task_renders_beside_a_cooperative_kernel);
    tcase_add_loop_test(task, task_renders_under_chaos, 0, 2);
    suite_add_tcase(suite, task);

    TCase *images = tu_tcase("image writers", 30);
    tcase_add_test(images, png_decodes_to_the_pixels);
    tcase_add_test(images, ppm_has_header_and_rgb_bytes);
    tcase_add_test(images, unwritable_paths_and_bad_images_are_reported);
    suite_add_tcase(suite, images);
    return suite;
}

int main(void)
{
    return tu_run(render_suite());
}
