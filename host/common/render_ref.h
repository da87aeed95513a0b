/* render_ref.h: a CPU reference of the `render` task's path tracer (kernels/tasks/render.cl), to
 * check the frames a device renders.
 *
 * The reference is the same tracer in C: same scene, camera, hash-based random numbers and
 * operation order. Devices still round differently (fused multiply-adds, their sqrt, sin and
 * cos), and a ray that grazes a sphere can then take another path, so frames are compared with
 * a tolerance: render_ref_frames_match(). */
#ifndef RENDER_REF_H
#define RENDER_REF_H

#include <stddef.h>
#include <stdint.h>

/* Per-channel difference (in 8-bit levels) that counts as "within tolerance", and what a
 * matching frame must meet: mean absolute difference below RENDER_REF_MAX_MEAN and at least
 * RENDER_REF_MIN_WITHIN of the channels within RENDER_REF_TOLERANCE. */
#define RENDER_REF_TOLERANCE 8
#define RENDER_REF_MAX_MEAN 1.0
#define RENDER_REF_MIN_WITHIN 0.99

/* Renders frame `frame_index` at width x height into rgba (4 * width * height bytes, rows top
 * to bottom, alpha 255), as the device does. */
void render_ref_frame(unsigned width, unsigned height, unsigned frame_index, uint8_t *rgba);

/* One pixel of that frame, into rgba[0..3] (for spot checks of large frames). */
void render_ref_pixel(unsigned width, unsigned height, unsigned frame_index, unsigned x, unsigned y,
                      uint8_t *rgba);

/* How far two RGBA frames are apart, over their colour channels (alpha is compared apart). */
typedef struct render_ref_diff {
    double mean_abs;          /* mean absolute difference per colour channel, in levels */
    double within;            /* fraction of colour channels within RENDER_REF_TOLERANCE */
    unsigned max_abs;         /* largest difference */
    size_t worst_pixel;       /* a pixel (index y * width + x) with the largest difference */
    size_t alpha_mismatches;  /* pixels whose alpha differs */
} render_ref_diff;

/* Compares `pixels` RGBA pixels of `got` with `expected`. */
render_ref_diff render_ref_compare(const uint8_t *got, const uint8_t *expected, size_t pixels);

/* 1 if the difference is within the tolerance above (alpha equal everywhere), else 0. */
int render_ref_frames_match(const render_ref_diff *diff);

#endif
