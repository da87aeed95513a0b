/* path.h: the recursion study's path tracer (Cao and Kalloor's naive, mega-loop, wavefront and
 * queue methods), one bounce at a time, shared by every kernel of apps/path/ and, compiled as C,
 * by the CPU reference (path_ref.c): one text, so the check is the tracer's own arithmetic.
 *
 * Two scenes (`scene`: PATH_SCENE_SPHERES or PATH_SCENE_ROOM; a kernel passes PATH_SCENE, which
 * the host sets with -DPATH_SCENE=N, so each program holds one scene's code):
 *   spheres  the render task's (kernels/tasks/render.h): a ground sphere and four diffuse and
 *            metal spheres under a sky gradient. A path ends in the sky (its light: the sky times
 *            the albedos on the way), absorbed by a metal or out of bounces (black); most end
 *            after one to three bounces.
 *   room     a closed box (red and green side walls, white floor, ceiling, back and front), a
 *            square light in the ceiling, a mirror sphere and a diffuse one. No path escapes: one
 *            ends at the light (its light: the emission times the albedos) or, after
 *            PATH_ROULETTE_FROM bounces, by Russian roulette (it survives with the probability of
 *            the surface's largest albedo channel, at most PATH_ROULETTE_MAX, its throughput divided
 *            by it), or out of bounces; path lengths spread from 1 to the depth limit (at depth 32,
 *            a mean of 9 segments and 1% of the paths at the limit).
 * A path is one camera sample of a pixel, traced for at most `depth` segments. Random numbers are
 * a hash of (pixel, sample, bounce, dimension): any order of the work gives the same paths.
 *
 * Exactness: only +, -, *, / and sqrt, no contraction into fma, and divisions and square roots
 * correctly rounded (the host builds with -cl-fp32-correctly-rounded-divide-sqrt), so a device
 * computes every path's floats as the CPU does. render.h's sphere sampling uses sin and cos, whose
 * rounding differs between math libraries; path.h samples by rejection instead. A path's light
 * goes into the image as 24-bit fixed point (path_fixed, clamped to 1), and a pixel is the integer
 * sum of its samples: the order in which a method adds the samples changes nothing, so every
 * method's image equals the CPU's exactly.
 *
 * Image: 3 words per pixel (red, green, blue sums), rows top to bottom, zero before a render.
 * Records (the wavefront's and the queue's paths in memory, kernels only): PATH_RECORD_WORDS
 * words a path, a buffer of them word-major (path_word), path_store / path_load. */
#ifndef APPS_PATH_PATH_H
#define APPS_PATH_PATH_H

/* OpenCL C (clang, coop-merge's parser, defines only the first), or C */
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define PATH_OPENCL 1
#pragma OPENCL FP_CONTRACT OFF
#define PATH_FN inline
#define PATH_CONSTANT constant
#else
#include <math.h>
#include <stdint.h>
/* gcc contracts nothing in ISO C mode (-std=c11); clang needs telling */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
typedef uint32_t uint;
#define PATH_FN static inline
#define PATH_CONSTANT static const
/* the float functions by their OpenCL names, single precision as on the device */
#define sqrt sqrtf
#define fabs fabsf
#endif

#define PATH_SCENE_SPHERES 0u
#define PATH_SCENE_ROOM 1u
#ifndef PATH_SCENE
#define PATH_SCENE PATH_SCENE_SPHERES
#endif

#define PATH_SPHERES 5u
#define PATH_ROOM_SPHERES 2u
#define PATH_ROOM_WALLS 6u
#define PATH_ROOM_CEILING 3u  /* the wall with the light */
#define PATH_NO_HIT 255u
#define PATH_T_MIN 0.001f
#define PATH_T_FAR 1.0e30f
#define PATH_MAX_DEPTH 64u    /* the bounce is 8 bits of the random key */
#define PATH_MAX_SPP 255u     /* 255 samples of at most 2^24 fit a word */
#define PATH_FIXED_ONE 16777216.0f
#define PATH_TRIES 8u         /* rejection draws for a unit vector */
#define PATH_RECORD_WORDS 11u  /* sample and bounce share a word (8 bits each at most) */
/* The room's light: a square of the ceiling, centred at (x, z), half its side across. */
#define PATH_LIGHT_X 0.0f
#define PATH_LIGHT_Z (-1.75f)
#define PATH_LIGHT_HALF 0.35f
/* Russian roulette in the room: from this bounce on, at most this survival probability, drawn
 * from this dimension (after the unit vector's 2 + 3 x PATH_TRIES). */
#define PATH_ROULETTE_FROM 4u
#define PATH_ROULETTE_MAX 0.95f
#define PATH_ROULETTE_DIMENSION 30u

typedef struct path_vec {
    float x, y, z;
} path_vec;

typedef struct path_sphere {
    float cx, cy, cz, radius;
    float r, g, b;
    float fuzz;             /* < 0: diffuse; >= 0: metal with this fuzz */
} path_sphere;

/* A diffuse wall of the room: the plane where coordinate `axis` (0 x, 1 y, 2 z) is `position`. */
typedef struct path_wall {
    uint axis;
    float position;
    float r, g, b;
} path_wall;

PATH_CONSTANT path_sphere path_spheres[PATH_SPHERES] = {
    {0.0f, -100.5f, -1.0f, 100.0f, 0.8f, 0.8f, 0.0f, -1.0f},
    {0.0f, 0.0f, -1.2f, 0.5f, 0.1f, 0.2f, 0.5f, -1.0f},
    {-1.0f, 0.0f, -1.0f, 0.5f, 0.8f, 0.8f, 0.8f, 0.05f},
    {1.0f, 0.0f, -1.0f, 0.5f, 0.8f, 0.6f, 0.2f, 0.3f},
    {0.35f, -0.35f, -0.55f, 0.15f, 0.7f, 0.2f, 0.2f, -1.0f},
};

/* The room: x and y from -1 to 1, z from -3 to 1.5 (the camera at 1.2 looks towards -z). */
PATH_CONSTANT path_sphere path_room_spheres[PATH_ROOM_SPHERES] = {
    {-0.45f, -0.6f, -1.9f, 0.4f, 0.95f, 0.95f, 0.95f, 0.0f},
    {0.5f, -0.65f, -1.3f, 0.35f, 0.75f, 0.75f, 0.3f, -1.0f},
};

PATH_CONSTANT path_wall path_room_walls[PATH_ROOM_WALLS] = {
    {0u, -1.0f, 0.85f, 0.2f, 0.2f},
    {0u, 1.0f, 0.2f, 0.85f, 0.2f},
    {1u, -1.0f, 0.85f, 0.85f, 0.85f},
    {1u, 1.0f, 0.85f, 0.85f, 0.85f},
    {2u, -3.0f, 0.85f, 0.85f, 0.85f},
    {2u, 1.5f, 0.85f, 0.85f, 0.85f},
};

/* A path between two segments: where it goes, what it carries, whose it is. */
typedef struct path_ray {
    path_vec origin, direction, throughput;
    uint pixel, sample, bounce;
} path_ray;

PATH_FN path_vec path_v(float x, float y, float z)
{
    path_vec v = {x, y, z};
    return v;
}

PATH_FN path_vec path_add(path_vec a, path_vec b) { return path_v(a.x + b.x, a.y + b.y, a.z + b.z); }
PATH_FN path_vec path_sub(path_vec a, path_vec b) { return path_v(a.x - b.x, a.y - b.y, a.z - b.z); }
PATH_FN path_vec path_scale(path_vec a, float s) { return path_v(a.x * s, a.y * s, a.z * s); }
PATH_FN path_vec path_mul(path_vec a, path_vec b) { return path_v(a.x * b.x, a.y * b.y, a.z * b.z); }
PATH_FN float path_dot(path_vec a, path_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

PATH_FN float path_axis(path_vec a, uint axis) { return axis == 0u ? a.x : axis == 1u ? a.y : a.z; }

PATH_FN path_vec path_cross(path_vec a, path_vec b)
{
    return path_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

PATH_FN path_vec path_unit(path_vec a)
{
    float length = sqrt(path_dot(a, a));
    return path_v(a.x / length, a.y / length, a.z / length);
}

/* lowbias32 (Chris Wellons' hash prospector), as render.h's. */
PATH_FN uint path_hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* A uniform number in [0, 1) for draw `dimension` of `bounce` of `sample` of `pixel`; 24 bits,
 * so the conversion is exact. */
PATH_FN float path_random(uint pixel, uint sample, uint bounce, uint dimension)
{
    uint key = (sample << 16) | (bounce << 8) | dimension;
    uint h = path_hash(path_hash(pixel + 0x9e3779b9u) + path_hash(key));
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* A direction on the unit sphere: the first of PATH_TRIES points of the cube inside the ball,
 * scaled to length 1 (straight up when none is). */
PATH_FN path_vec path_random_unit(uint pixel, uint sample, uint bounce)
{
    for (uint draw = 0; draw < PATH_TRIES; draw++) {
        path_vec p = path_v(2.0f * path_random(pixel, sample, bounce, 2u + 3u * draw) - 1.0f,
                            2.0f * path_random(pixel, sample, bounce, 3u + 3u * draw) - 1.0f,
                            2.0f * path_random(pixel, sample, bounce, 4u + 3u * draw) - 1.0f);
        float length2 = path_dot(p, p);
        if (length2 > 1.0e-6f && length2 <= 1.0f)
            return path_scale(p, 1.0f / sqrt(length2));
    }
    return path_v(0.0f, 1.0f, 0.0f);
}

/* Sample `sample` of `pixel`'s camera ray: the spheres seen as the render task's first frame,
 * or the room from near its front wall, jittered in the pixel. */
PATH_FN path_ray path_camera(uint scene, uint width, uint height, uint pixel, uint sample)
{
    path_vec target = path_v(0.0f, 0.0f, -1.0f);
    path_vec origin = scene == PATH_SCENE_ROOM ? path_v(0.0f, 0.0f, 1.2f) : path_v(0.0f, 0.4f, 1.0f);
    path_vec back = path_unit(path_sub(origin, target));
    path_vec right = path_unit(path_cross(path_v(0.0f, 1.0f, 0.0f), back));
    path_vec up = path_cross(back, right);
    float viewport_height = 1.2f;
    float viewport_width = viewport_height * (float)width / (float)height;
    uint x = pixel % width, y = pixel / width;
    float s = ((float)x + path_random(pixel, sample, 0u, 0u)) / (float)width - 0.5f;
    float t = 0.5f - ((float)y + path_random(pixel, sample, 0u, 1u)) / (float)height;
    path_ray ray;
    ray.origin = origin;
    ray.direction = path_add(path_scale(back, -1.0f),
                             path_add(path_scale(right, viewport_width * s), path_scale(up, viewport_height * t)));
    ray.throughput = path_v(1.0f, 1.0f, 1.0f);
    ray.pixel = pixel;
    ray.sample = sample;
    ray.bounce = 0;
    return ray;
}

/* Whether the ray meets `sphere` for t in (PATH_T_MIN, *t_max); then *t_max is where. `a`: the
 * direction's squared length. */
PATH_FN uint path_sphere_hit(path_sphere sphere, path_vec origin, path_vec direction, float a, float *t_max)
{
    path_vec oc = path_sub(path_v(sphere.cx, sphere.cy, sphere.cz), origin);
    float h = path_dot(direction, oc);
    float c = path_dot(oc, oc) - sphere.radius * sphere.radius;
    float discriminant = h * h - a * c;
    if (discriminant < 0.0f)
        return 0;
    float root = sqrt(discriminant);
    float t = (h - root) / a;
    if (t <= PATH_T_MIN || t >= *t_max)
        t = (h + root) / a;
    if (t <= PATH_T_MIN || t >= *t_max)
        return 0;
    *t_max = t;
    return 1;
}

/* The nearest surface along the ray for t in (PATH_T_MIN, PATH_T_FAR), or PATH_NO_HIT: a sphere
 * of the scene's, or (the room) PATH_ROOM_SPHERES + a wall. */
PATH_FN uint path_hit(uint scene, path_vec origin, path_vec direction, float *t_hit)
{
    uint nearest = PATH_NO_HIT;
    float t_max = PATH_T_FAR;
    float a = path_dot(direction, direction);
    if (scene == PATH_SCENE_ROOM) {
        for (uint s = 0; s < PATH_ROOM_SPHERES; s++)
            if (path_sphere_hit(path_room_spheres[s], origin, direction, a, &t_max))
                nearest = s;
        for (uint w = 0; w < PATH_ROOM_WALLS; w++) {
            float d = path_axis(direction, path_room_walls[w].axis);
            if (d == 0.0f)
                continue;
            float t = (path_room_walls[w].position - path_axis(origin, path_room_walls[w].axis)) / d;
            if (t <= PATH_T_MIN || t >= t_max)
                continue;
            t_max = t;
            nearest = PATH_ROOM_SPHERES + w;
        }
    } else {
        for (uint s = 0; s < PATH_SPHERES; s++)
            if (path_sphere_hit(path_spheres[s], origin, direction, a, &t_max))
                nearest = s;
    }
    *t_hit = t_max;
    return nearest;
}

PATH_FN path_vec path_sky(path_vec direction)
{
    float a = 0.5f * (path_unit(direction).y + 1.0f);
    return path_add(path_scale(path_v(1.0f, 1.0f, 1.0f), 1.0f - a), path_scale(path_v(0.5f, 0.7f, 1.0f), a));
}

/* One segment of the path: 1 when it goes on (*ray is its next segment), else 0 with its light
 * in *light. */
PATH_FN uint path_bounce(uint scene, path_ray *ray, uint depth, path_vec *light)
{
    float t = 0.0f;
    uint room = scene == PATH_SCENE_ROOM;
    uint s = path_hit(scene, ray->origin, ray->direction, &t);
    *light = path_v(0.0f, 0.0f, 0.0f);
    if (s == PATH_NO_HIT) {
        /* no ray leaves the room; one that slips through a corner's rounding is black */
        if (!room)
            *light = path_mul(ray->throughput, path_sky(ray->direction));
        return 0;
    }
    path_vec point = path_add(ray->origin, path_scale(ray->direction, t));
    path_vec normal, albedo;
    float fuzz;
    if (room && s >= PATH_ROOM_SPHERES) {
        path_wall wall = path_room_walls[s - PATH_ROOM_SPHERES];
        if (s - PATH_ROOM_SPHERES == PATH_ROOM_CEILING && fabs(point.x - PATH_LIGHT_X) < PATH_LIGHT_HALF &&
            fabs(point.z - PATH_LIGHT_Z) < PATH_LIGHT_HALF) {
            *light = path_mul(ray->throughput, path_v(4.0f, 3.6f, 3.0f));
            return 0;
        }
        normal = path_v(wall.axis == 0u ? 1.0f : 0.0f, wall.axis == 1u ? 1.0f : 0.0f, wall.axis == 2u ? 1.0f : 0.0f);
        albedo = path_v(wall.r, wall.g, wall.b);
        fuzz = -1.0f;
    } else {
        path_sphere sphere = room ? path_room_spheres[s] : path_spheres[s];
        normal = path_scale(path_sub(point, path_v(sphere.cx, sphere.cy, sphere.cz)), 1.0f / sphere.radius);
        albedo = path_v(sphere.r, sphere.g, sphere.b);
        fuzz = sphere.fuzz;
    }
    if (path_dot(ray->direction, normal) > 0.0f)
        normal = path_scale(normal, -1.0f);
    path_vec scattered;
    uint absorbed = 0;
    if (fuzz < 0.0f) {
        scattered = path_add(normal, path_random_unit(ray->pixel, ray->sample, ray->bounce));
        if (fabs(scattered.x) < 1e-8f && fabs(scattered.y) < 1e-8f && fabs(scattered.z) < 1e-8f)
            scattered = normal;
    } else {
        path_vec incoming = path_unit(ray->direction);
        path_vec reflected = path_sub(incoming, path_scale(normal, 2.0f * path_dot(incoming, normal)));
        scattered = path_add(path_unit(reflected),
                             path_scale(path_random_unit(ray->pixel, ray->sample, ray->bounce), fuzz));
        absorbed = path_dot(scattered, normal) <= 0.0f;
    }
    if (absorbed || ray->bounce + 1u >= depth)
        return 0;
    ray->throughput = path_mul(ray->throughput, albedo);
    if (room && ray->bounce + 1u >= PATH_ROULETTE_FROM) {
        float survive = albedo.x > albedo.y ? albedo.x : albedo.y;
        survive = survive > albedo.z ? survive : albedo.z;
        survive = survive < PATH_ROULETTE_MAX ? survive : PATH_ROULETTE_MAX;
        if (path_random(ray->pixel, ray->sample, ray->bounce, PATH_ROULETTE_DIMENSION) >= survive)
            return 0;
        path_vec w = ray->throughput;
        ray->throughput = path_v(w.x / survive, w.y / survive, w.z / survive);
    }
    ray->origin = point;
    ray->direction = scattered;
    ray->bounce++;
    return 1;
}

/* A light channel as 24-bit fixed point, clamped to 1 (the room's light is brighter). */
PATH_FN uint path_fixed(float channel)
{
    return (uint)((channel < 1.0f ? channel : 1.0f) * PATH_FIXED_ONE);
}

/* Pixel `pixel`'s sums over its `spp` samples into sum[0..2]: the naive and mega-loop methods and
 * the CPU. */
PATH_FN void path_pixel(uint scene, uint width, uint height, uint spp, uint depth, uint pixel, uint *sum)
{
    sum[0] = sum[1] = sum[2] = 0;
    for (uint sample = 0; sample < spp; sample++) {
        path_ray ray = path_camera(scene, width, height, pixel, sample);
        path_vec light;
        while (path_bounce(scene, &ray, depth, &light))
            ;
        sum[0] += path_fixed(light.x);
        sum[1] += path_fixed(light.y);
        sum[2] += path_fixed(light.z);
    }
}

#ifdef PATH_OPENCL
/* Word `word` of path `index` in a buffer of records for `stride` paths: word after word, each a
 * run of `stride` words, so that neighbouring work-items read and write neighbouring words. */
inline size_t path_word(uint stride, uint index, uint word)
{
    return (size_t)word * stride + index;
}

inline void path_store(global uint *records, uint stride, uint index, const path_ray *ray)
{
    records[path_word(stride, index, 0)] = as_uint(ray->origin.x);
    records[path_word(stride, index, 1)] = as_uint(ray->origin.y);
    records[path_word(stride, index, 2)] = as_uint(ray->origin.z);
    records[path_word(stride, index, 3)] = as_uint(ray->direction.x);
    records[path_word(stride, index, 4)] = as_uint(ray->direction.y);
    records[path_word(stride, index, 5)] = as_uint(ray->direction.z);
    records[path_word(stride, index, 6)] = as_uint(ray->throughput.x);
    records[path_word(stride, index, 7)] = as_uint(ray->throughput.y);
    records[path_word(stride, index, 8)] = as_uint(ray->throughput.z);
    records[path_word(stride, index, 9)] = ray->pixel;
    records[path_word(stride, index, 10)] = ray->sample << 8 | ray->bounce;
}

inline path_ray path_load(global const uint *records, uint stride, uint index)
{
    path_ray ray;
    ray.origin = path_v(as_float(records[path_word(stride, index, 0)]), as_float(records[path_word(stride, index, 1)]),
                        as_float(records[path_word(stride, index, 2)]));
    ray.direction = path_v(as_float(records[path_word(stride, index, 3)]),
                           as_float(records[path_word(stride, index, 4)]),
                           as_float(records[path_word(stride, index, 5)]));
    ray.throughput = path_v(as_float(records[path_word(stride, index, 6)]),
                            as_float(records[path_word(stride, index, 7)]),
                            as_float(records[path_word(stride, index, 8)]));
    ray.pixel = records[path_word(stride, index, 9)];
    uint sample_bounce = records[path_word(stride, index, 10)];
    ray.sample = sample_bounce >> 8;
    ray.bounce = sample_bounce & 0xffu;
    return ray;
}

/* A finished path's light into the image; other paths of its pixel may add at the same time. */
inline void path_accumulate(global uint *image, uint pixel, path_vec light)
{
    atomic_add(&image[pixel * 3u], path_fixed(light.x));
    atomic_add(&image[pixel * 3u + 1u], path_fixed(light.y));
    atomic_add(&image[pixel * 3u + 2u], path_fixed(light.z));
}

/* A workgroup barrier that orders global and local memory: coop_group_sync() in the cooperative
 * kernels (libcoop's kernel header); path_plain.cl, an ordinary program, defines its own. */
#ifndef PATH_GROUP_SYNC
#define PATH_GROUP_SYNC() coop_group_sync()
#endif

/* The wavefront's waves (path_wave.cl, path_plain.cl): a wave holds at most `capacity` paths,
 * the survivors of the wave before it first, then new camera paths up to `capacity`, numbered
 * sample-major from the paths made so far (path p is sample p / pixels of pixel p % pixels), so
 * the samples of every pixel flow through one stream of waves and a wave stays full until the last
 * camera paths are made. Wave `wave` counts its survivors in counts[wave % 3] and zeroes
 * counts[(wave + 1) % 3] for the next wave: that word was last read as the size of wave `wave` -
 * 1, before the barrier (or launch) that began this wave. The last wave, once every camera path
 * is made and the wave's paths fit one pass of the device's work-items (path_wave_last), traces
 * each path to its end where it is: the tail of long paths costs no barrier or launch a bounce. */
#define PATH_WAVE_COUNTS 3u

/* New camera paths for a wave that carries `live` survivors, `made` of `total` paths made. */
PATH_FN uint path_wave_fresh(uint capacity, uint live, uint made, uint total)
{
    uint room = capacity - live, left = total - made;
    return room < left ? room : left;
}

/* Whether the wave of `live` survivors and `fresh` new paths is the last: the paths made with it
 * are all `total`, and `lanes` work-items take them in one pass. */
PATH_FN uint path_wave_last(uint live, uint fresh, uint made, uint total, uint lanes)
{
    return made + fresh == total && live + fresh <= lanes;
}

/* Path `index` of a wave: a survivor read from `in` (records for `capacity` paths) below `live`,
 * else camera path number made + index - live. */
inline path_ray path_wave_path(uint scene, uint width, uint height, global const uint *in, uint capacity,
                               uint index, uint live, uint made)
{
    if (index < live)
        return path_load(in, capacity, index);
    uint path = made + (index - live), pixels = width * height;
    return path_camera(scene, width, height, path % pixels, path / pixels);
}

/* Path `index` of the last wave (path_wave_last), traced to its end, its light into the image. */
inline void path_wave_finish(uint scene, uint width, uint height, uint depth, global const uint *in,
                             uint capacity, uint index, uint live, uint made, global uint *image)
{
    path_ray ray = path_wave_path(scene, width, height, in, capacity, index, live, made);
    path_vec light;
    while (path_bounce(scene, &ray, depth, &light))
        ;
    path_accumulate(image, ray.pixel, light);
}

/* One wave step by the whole group (every work-item calls it) on the wave's paths first + local
 * id: those below `live` read from `in`, the next `fresh` camera paths from number `made` on; each
 * is extended by a bounce; a finished path adds its light to the image, the survivors take
 * consecutive slots of `out` from one atomic of the group on *out_count, so that a wave of a
 * million paths does not queue a million atomics on one word. `share`: 2 local words. */
inline void path_wave_group(uint scene, uint width, uint height, uint depth, global const uint *in,
                            uint capacity, uint first, uint live, uint fresh, uint made, global uint *out,
                            global uint *out_count, global uint *image, local uint *share)
{
    uint index = first + get_local_id(0), rank = 0, goes_on = 0;
    if (get_local_id(0) == 0)
        share[0] = 0;
    PATH_GROUP_SYNC();
    path_ray ray;
    if (index < live + fresh) {
        path_vec light;
        ray = path_wave_path(scene, width, height, in, capacity, index, live, made);
        goes_on = path_bounce(scene, &ray, depth, &light);
        if (goes_on)
            rank = atomic_inc(&share[0]);
        else
            path_accumulate(image, ray.pixel, light);
    }
    PATH_GROUP_SYNC();
    if (get_local_id(0) == 0)
        share[1] = share[0] ? atomic_add(out_count, share[0]) : 0u;
    PATH_GROUP_SYNC();
    if (goes_on)
        path_store(out, capacity, share[1] + rank, &ray);
    PATH_GROUP_SYNC();   /* share read by all before the next call's local id 0 writes it */
}

#pragma OPENCL FP_CONTRACT ON
#else
#undef sqrt
#undef fabs
#endif

#endif
