/* The render task's tracer in C: a line-by-line transcription of kernels/tasks/render.cl (see
 * there for the scene and the sampling). Single precision throughout, no contraction (ISO C
 * mode), so only the math library's rounding differs from a device. */
#include "render_ref.h"

#include <math.h>

#define SAMPLES 4u
#define MAX_DEPTH 4u
#define SPHERES 5u
#define T_MIN 0.001f
#define T_FAR 1.0e30f
#define PI_F 3.14159265f

typedef struct vec {
    float x, y, z;
} vec;

typedef struct sphere {
    float cx, cy, cz, radius;
    float r, g, b;
    float fuzz;
} sphere;

static const sphere scene[SPHERES] = {
    {0.0f, -100.5f, -1.0f, 100.0f, 0.8f, 0.8f, 0.0f, -1.0f},
    {0.0f, 0.0f, -1.2f, 0.5f, 0.1f, 0.2f, 0.5f, -1.0f},
    {-1.0f, 0.0f, -1.0f, 0.5f, 0.8f, 0.8f, 0.8f, 0.05f},
    {1.0f, 0.0f, -1.0f, 0.5f, 0.8f, 0.6f, 0.2f, 0.3f},
    {0.35f, -0.35f, -0.55f, 0.15f, 0.7f, 0.2f, 0.2f, -1.0f},
};

typedef struct camera {
    vec origin, forward, right, up;
} camera;

static vec v3(float x, float y, float z)
{
    vec v = {x, y, z};
    return v;
}

static vec add(vec a, vec b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec sub(vec a, vec b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec scale(vec a, float s) { return v3(a.x * s, a.y * s, a.z * s); }
static vec mul(vec a, vec b) { return v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static float dot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static vec cross(vec a, vec b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static vec unit(vec a)
{
    float length = sqrtf(dot(a, a));
    return v3(a.x / length, a.y / length, a.z / length);
}

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static float random01(uint32_t pixel_seed, uint32_t sample, uint32_t bounce, uint32_t dimension)
{
    uint32_t key = (sample << 16) | (bounce << 8) | dimension;
    uint32_t h = hash(pixel_seed + hash(key));
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

static vec random_unit(uint32_t pixel_seed, uint32_t sample, uint32_t bounce)
{
    float z = 1.0f - 2.0f * random01(pixel_seed, sample, bounce, 2u);
    float ring = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    float phi = 2.0f * PI_F * random01(pixel_seed, sample, bounce, 3u);
    return v3(ring * cosf(phi), ring * sinf(phi), z);
}

static camera camera_at(uint32_t frame_index, uint32_t width, uint32_t height)
{
    float angle = (float)(frame_index % 128u) * (2.0f * PI_F / 128.0f);
    vec target = v3(0.0f, 0.0f, -1.0f);
    camera cam;
    cam.origin = v3(target.x + 2.0f * sinf(angle), 0.4f, target.z + 2.0f * cosf(angle));
    vec back = unit(sub(cam.origin, target));
    vec right = unit(cross(v3(0.0f, 1.0f, 0.0f), back));
    vec up = cross(back, right);
    float viewport_height = 1.2f;
    float viewport_width = viewport_height * (float)width / (float)height;
    cam.forward = scale(back, -1.0f);
    cam.right = scale(right, viewport_width);
    cam.up = scale(up, viewport_height);
    return cam;
}

static uint32_t hit(vec origin, vec direction, float *t_hit)
{
    uint32_t nearest = SPHERES;
    float t_max = T_FAR;
    float a = dot(direction, direction);
    for (uint32_t s = 0; s < SPHERES; s++) {
        vec oc = sub(v3(scene[s].cx, scene[s].cy, scene[s].cz), origin);
        float h = dot(direction, oc);
        float c = dot(oc, oc) - scene[s].radius * scene[s].radius;
        float discriminant = h * h - a * c;
        if (discriminant < 0.0f)
            continue;
        float root = sqrtf(discriminant);
        float t = (h - root) / a;
        if (t <= T_MIN || t >= t_max)
            t = (h + root) / a;
        if (t <= T_MIN || t >= t_max)
            continue;
        t_max = t;
        nearest = s;
    }
    *t_hit = t_max;
    return nearest;
}

static vec sky(vec direction)
{
    float a = 0.5f * (unit(direction).y + 1.0f);
    return add(scale(v3(1.0f, 1.0f, 1.0f), 1.0f - a), scale(v3(0.5f, 0.7f, 1.0f), a));
}

static vec trace(vec origin, vec direction, uint32_t pixel_seed, uint32_t sample)
{
    vec throughput = v3(1.0f, 1.0f, 1.0f);
    vec light = v3(0.0f, 0.0f, 0.0f);
    uint32_t live = 1;
    for (uint32_t bounce = 0; bounce < MAX_DEPTH && live; bounce++) {
        float t = 0.0f;
        uint32_t s = hit(origin, direction, &t);
        if (s == SPHERES) {
            light = mul(throughput, sky(direction));
            live = 0;
        } else {
            vec centre = v3(scene[s].cx, scene[s].cy, scene[s].cz);
            vec point = add(origin, scale(direction, t));
            vec normal = scale(sub(point, centre), 1.0f / scene[s].radius);
            if (dot(direction, normal) > 0.0f)
                normal = scale(normal, -1.0f);
            vec scattered;
            if (scene[s].fuzz < 0.0f) {
                scattered = add(normal, random_unit(pixel_seed, sample, bounce));
                if (fabsf(scattered.x) < 1e-8f && fabsf(scattered.y) < 1e-8f && fabsf(scattered.z) < 1e-8f)
                    scattered = normal;
            } else {
                vec incoming = unit(direction);
                vec reflected = sub(incoming, scale(normal, 2.0f * dot(incoming, normal)));
                scattered = add(unit(reflected), scale(random_unit(pixel_seed, sample, bounce), scene[s].fuzz));
                if (dot(scattered, normal) <= 0.0f)
                    live = 0;
            }
            throughput = mul(throughput, v3(scene[s].r, scene[s].g, scene[s].b));
            origin = point;
            direction = scattered;
        }
    }
    return light;
}

static uint8_t to_byte(float linear)
{
    float value = sqrtf(linear > 0.0f ? linear : 0.0f);
    return (uint8_t)(uint32_t)(256.0f * (value < 0.999f ? value : 0.999f));
}

static void pixel(const camera *cam, uint32_t x, uint32_t y, uint32_t width, uint32_t height, uint32_t frame_index,
                  uint8_t *rgba)
{
    uint32_t pixel_seed = hash(y * width + x + hash(frame_index));
    vec sum = v3(0.0f, 0.0f, 0.0f);
    for (uint32_t sample = 0; sample < SAMPLES; sample++) {
        float s = ((float)x + random01(pixel_seed, sample, 0u, 0u)) / (float)width - 0.5f;
        float t = 0.5f - ((float)y + random01(pixel_seed, sample, 0u, 1u)) / (float)height;
        vec direction = add(cam->forward, add(scale(cam->right, s), scale(cam->up, t)));
        sum = add(sum, trace(cam->origin, direction, pixel_seed, sample));
    }
    float weight = 1.0f / (float)SAMPLES;
    rgba[0] = to_byte(sum.x * weight);
    rgba[1] = to_byte(sum.y * weight);
    rgba[2] = to_byte(sum.z * weight);
    rgba[3] = 255;
}

void render_ref_frame(unsigned width, unsigned height, unsigned frame_index, uint8_t *rgba)
{
    camera cam = camera_at(frame_index, width, height);
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++)
            pixel(&cam, x, y, width, height, frame_index, rgba + 4 * ((size_t)y * width + x));
}

void render_ref_pixel(unsigned width, unsigned height, unsigned frame_index, unsigned x, unsigned y, uint8_t *rgba)
{
    camera cam = camera_at(frame_index, width, height);
    pixel(&cam, x, y, width, height, frame_index, rgba);
}

render_ref_diff render_ref_compare(const uint8_t *got, const uint8_t *expected, size_t pixels)
{
    render_ref_diff diff = {0};
    double total = 0;
    size_t within = 0;
    for (size_t p = 0; p < pixels; p++) {
        for (unsigned c = 0; c < 3; c++) {
            unsigned a = got[4 * p + c], b = expected[4 * p + c];
            unsigned d = a > b ? a - b : b - a;
            total += d;
            within += d <= RENDER_REF_TOLERANCE;
            if (d > diff.max_abs) {
                diff.max_abs = d;
                diff.worst_pixel = p;
            }
        }
        diff.alpha_mismatches += got[4 * p + 3] != expected[4 * p + 3];
    }
    diff.mean_abs = pixels ? total / (3.0 * (double)pixels) : 0.0;
    diff.within = pixels ? (double)within / (3.0 * (double)pixels) : 1.0;
    return diff;
}

int render_ref_frames_match(const render_ref_diff *diff)
{
    return diff->mean_abs < RENDER_REF_MAX_MEAN && diff->within >= RENDER_REF_MIN_WITHIN &&
           diff->alpha_mismatches == 0;
}
