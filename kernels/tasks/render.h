/* render.h: the path tracer of the `render` high-priority task (render.cl, and render_plain in
 * plain.cl), in the spirit of "Ray Tracing in One Weekend": five spheres (a large ground sphere,
 * diffuse and metal ones), up to RENDER_MAX_DEPTH bounces, a sky gradient, RENDER_SAMPLES
 * jittered samples per pixel.
 *
 * A frame is width x height RGBA pixels, rows top to bottom, alpha 255. The camera circles the
 * scene, one turn every 128 frames, so consecutive frames differ. Random numbers are a hash of
 * (frame, pixel, sample, bounce, dimension): no state, so any split of the work gives the same
 * image. host/common/render_ref.c is the same tracer in C, operation for operation; change both
 * together.
 *
 * The pixels, in row-major order, are cut into `tiles` contiguous spans of equal size (within
 * one pixel), one per workgroup; the work-items of a group take every local-size-th pixel of its
 * span. Any tile count and local size cover every pixel exactly once. */
#ifndef KERNELS_TASKS_RENDER_H
#define KERNELS_TASKS_RENDER_H

/* Contraction into fma would round differently from the C reference; restored at the end of
 * the file for the code after it. */
#pragma OPENCL FP_CONTRACT OFF

#define RENDER_SAMPLES 4u
#define RENDER_MAX_DEPTH 4u
#define RENDER_SPHERES 5u
#define RENDER_T_MIN 0.001f
#define RENDER_T_FAR 1.0e30f
#define RENDER_PI 3.14159265f

typedef struct render_vec {
    float x, y, z;
} render_vec;

typedef struct render_sphere {
    float cx, cy, cz, radius;
    float r, g, b;          /* albedo */
    float fuzz;             /* < 0: diffuse; >= 0: metal with this fuzz */
} render_sphere;

constant render_sphere render_scene[RENDER_SPHERES] = {
    {0.0f, -100.5f, -1.0f, 100.0f, 0.8f, 0.8f, 0.0f, -1.0f},  /* ground */
    {0.0f, 0.0f, -1.2f, 0.5f, 0.1f, 0.2f, 0.5f, -1.0f},       /* centre, diffuse blue */
    {-1.0f, 0.0f, -1.0f, 0.5f, 0.8f, 0.8f, 0.8f, 0.05f},      /* left, polished metal */
    {1.0f, 0.0f, -1.0f, 0.5f, 0.8f, 0.6f, 0.2f, 0.3f},        /* right, brushed gold */
    {0.35f, -0.35f, -0.55f, 0.15f, 0.7f, 0.2f, 0.2f, -1.0f},  /* small, diffuse red */
};

typedef struct render_camera {
    render_vec origin, forward, right, up;  /* right and up span the viewport */
} render_camera;

render_vec render_v(float x, float y, float z)
{
    render_vec v = {x, y, z};
    return v;
}

render_vec render_add(render_vec a, render_vec b) { return render_v(a.x + b.x, a.y + b.y, a.z + b.z); }
render_vec render_sub(render_vec a, render_vec b) { return render_v(a.x - b.x, a.y - b.y, a.z - b.z); }
render_vec render_scale(render_vec a, float s) { return render_v(a.x * s, a.y * s, a.z * s); }
render_vec render_mul(render_vec a, render_vec b) { return render_v(a.x * b.x, a.y * b.y, a.z * b.z); }
float render_dot(render_vec a, render_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

render_vec render_cross(render_vec a, render_vec b)
{
    return render_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

render_vec render_unit(render_vec a)
{
    float length = sqrt(render_dot(a, a));
    return render_v(a.x / length, a.y / length, a.z / length);
}

/* lowbias32 (Chris Wellons' hash prospector): a full-avalanche 32-bit mix. */
uint render_hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* A uniform number in [0, 1) for draw `dimension` of `bounce` of `sample` of the pixel whose
 * seed is `pixel_seed`; 24 bits, so the conversion is exact. */
float render_random(uint pixel_seed, uint sample, uint bounce, uint dimension)
{
    uint key = (sample << 16) | (bounce << 8) | dimension;
    uint h = render_hash(pixel_seed + render_hash(key));
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

render_vec render_random_unit(uint pixel_seed, uint sample, uint bounce)
{
    float z = 1.0f - 2.0f * render_random(pixel_seed, sample, bounce, 2u);
    float ring = sqrt(fmax(0.0f, 1.0f - z * z));
    float phi = 2.0f * RENDER_PI * render_random(pixel_seed, sample, bounce, 3u);
    return render_v(ring * cos(phi), ring * sin(phi), z);
}

render_camera render_camera_at(uint frame_index, uint width, uint height)
{
    float angle = (float)(frame_index % 128u) * (2.0f * RENDER_PI / 128.0f);
    render_vec target = render_v(0.0f, 0.0f, -1.0f);
    render_camera camera;
    camera.origin = render_v(target.x + 2.0f * sin(angle), 0.4f, target.z + 2.0f * cos(angle));
    render_vec back = render_unit(render_sub(camera.origin, target));
    render_vec right = render_unit(render_cross(render_v(0.0f, 1.0f, 0.0f), back));
    render_vec up = render_cross(back, right);
    float viewport_height = 1.2f;
    float viewport_width = viewport_height * (float)width / (float)height;
    camera.forward = render_scale(back, -1.0f);
    camera.right = render_scale(right, viewport_width);
    camera.up = render_scale(up, viewport_height);
    return camera;
}

/* The nearest hit of the ray along t in (RENDER_T_MIN, RENDER_T_FAR): its sphere, or
 * RENDER_SPHERES for none. */
uint render_hit(render_vec origin, render_vec direction, float *t_hit)
{
    uint nearest = RENDER_SPHERES;
    float t_max = RENDER_T_FAR;
    float a = render_dot(direction, direction);
    for (uint s = 0; s < RENDER_SPHERES; s++) {
        render_vec oc = render_sub(render_v(render_scene[s].cx, render_scene[s].cy, render_scene[s].cz), origin);
        float h = render_dot(direction, oc);
        float c = render_dot(oc, oc) - render_scene[s].radius * render_scene[s].radius;
        float discriminant = h * h - a * c;
        if (discriminant < 0.0f)
            continue;
        float root = sqrt(discriminant);
        float t = (h - root) / a;
        if (t <= RENDER_T_MIN || t >= t_max)
            t = (h + root) / a;
        if (t <= RENDER_T_MIN || t >= t_max)
            continue;
        t_max = t;
        nearest = s;
    }
    *t_hit = t_max;
    return nearest;
}

render_vec render_sky(render_vec direction)
{
    float a = 0.5f * (render_unit(direction).y + 1.0f);
    return render_add(render_scale(render_v(1.0f, 1.0f, 1.0f), 1.0f - a), render_scale(render_v(0.5f, 0.7f, 1.0f), a));
}

/* The light one camera sample brings back: the sky times the albedos on the way, or black when
 * a metal absorbs the ray or the bounces run out. */
render_vec render_trace(render_vec origin, render_vec direction, uint pixel_seed, uint sample)
{
    render_vec throughput = render_v(1.0f, 1.0f, 1.0f);
    render_vec light = render_v(0.0f, 0.0f, 0.0f);
    uint live = 1;
    for (uint bounce = 0; bounce < RENDER_MAX_DEPTH && live; bounce++) {
        float t = 0.0f;
        uint s = render_hit(origin, direction, &t);
        if (s == RENDER_SPHERES) {
            light = render_mul(throughput, render_sky(direction));
            live = 0;
        } else {
            render_vec centre = render_v(render_scene[s].cx, render_scene[s].cy, render_scene[s].cz);
            render_vec point = render_add(origin, render_scale(direction, t));
            render_vec normal = render_scale(render_sub(point, centre), 1.0f / render_scene[s].radius);
            if (render_dot(direction, normal) > 0.0f)
                normal = render_scale(normal, -1.0f);
            render_vec scattered;
            if (render_scene[s].fuzz < 0.0f) {
                scattered = render_add(normal, render_random_unit(pixel_seed, sample, bounce));
                if (fabs(scattered.x) < 1e-8f && fabs(scattered.y) < 1e-8f && fabs(scattered.z) < 1e-8f)
                    scattered = normal;
            } else {
                render_vec incoming = render_unit(direction);
                render_vec reflected = render_sub(incoming, render_scale(normal, 2.0f * render_dot(incoming, normal)));
                scattered = render_add(render_unit(reflected),
                                       render_scale(render_random_unit(pixel_seed, sample, bounce), render_scene[s].fuzz));
                if (render_dot(scattered, normal) <= 0.0f)
                    live = 0;
            }
            throughput = render_mul(throughput, render_v(render_scene[s].r, render_scene[s].g, render_scene[s].b));
            origin = point;
            direction = scattered;
        }
    }
    return light;
}

/* An averaged colour channel to 8 bits, gamma 2 as in the book. */
uint render_byte(float linear)
{
    float value = sqrt(linear > 0.0f ? linear : 0.0f);
    return (uint)(256.0f * (value < 0.999f ? value : 0.999f));
}

uchar4 render_pixel(const render_camera *camera, uint x, uint y, uint width, uint height, uint frame_index)
{
    uint pixel_seed = render_hash(y * width + x + render_hash(frame_index));
    render_vec sum = render_v(0.0f, 0.0f, 0.0f);
    for (uint sample = 0; sample < RENDER_SAMPLES; sample++) {
        float s = ((float)x + render_random(pixel_seed, sample, 0u, 0u)) / (float)width - 0.5f;
        float t = 0.5f - ((float)y + render_random(pixel_seed, sample, 0u, 1u)) / (float)height;
        render_vec direction =
            render_add(camera->forward, render_add(render_scale(camera->right, s), render_scale(camera->up, t)));
        sum = render_add(sum, render_trace(camera->origin, direction, pixel_seed, sample));
    }
    float scale = 1.0f / (float)RENDER_SAMPLES;
    return (uchar4)((uchar)render_byte(sum.x * scale), (uchar)render_byte(sum.y * scale),
                    (uchar)render_byte(sum.z * scale), (uchar)255);
}

/* The first pixel of tile `tile` of `tiles` (tile == tiles gives the end). */
uint render_tile_begin(uint tile, uint tiles, uint pixels)
{
    return (uint)((ulong)tile * pixels / tiles);
}

/* Tile `tile` of `tiles` of frame `frame_index`, by the calling workgroup. */
void render_tile(global uchar4 *frame, uint width, uint height, uint frame_index, uint tile, uint tiles)
{
    render_camera camera = render_camera_at(frame_index, width, height);
    uint pixels = width * height;
    uint end = render_tile_begin(tile + 1u, tiles, pixels);
    for (uint i = render_tile_begin(tile, tiles, pixels) + get_local_id(0); i < end; i += get_local_size(0))
        frame[i] = render_pixel(&camera, i % width, i / width, width, height, frame_index);
}

#pragma OPENCL FP_CONTRACT ON

#endif
