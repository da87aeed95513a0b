/* path_ref.h: the recursion study's CPU reference and the check of a device's image. The CPU runs
 * path.h itself, compiled as C, so a right image equals the CPU's exactly (path.h says why): the
 * check has no tolerance. An image is 3 words a pixel (red, green, blue sums of the samples' 24-bit
 * fixed-point light), rows top to bottom. */
#ifndef APPS_PATH_PATH_REF_H
#define APPS_PATH_PATH_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The scenes (path.h's PATH_SCENE_SPHERES and PATH_SCENE_ROOM). */
enum { PATH_REF_SPHERES = 0, PATH_REF_ROOM = 1 };

/* Pixels up to which every pixel is checked; above, PATH_REF_SAMPLED of them. */
#define PATH_REF_ALL_UP_TO 4096u
#define PATH_REF_SAMPLED 1000u

/* Pixel `pixel`'s three sums over `spp` samples of at most `depth` segments in scene `scene`. */
void path_ref_pixel(unsigned scene, unsigned width, unsigned height, unsigned spp, unsigned depth, unsigned pixel,
                    uint32_t *sum);

/* The pixels checked of a width x height image, into `pixels` (room for PATH_REF_SAMPLED or
 * width x height, whichever is fewer), in increasing order: all of them up to PATH_REF_ALL_UP_TO,
 * else the four corners and pixels picked by a hash, the same every run. Returns their number. */
unsigned path_ref_checked(unsigned width, unsigned height, uint32_t *pixels);

/* The CPU's sums at the `count` pixels, 3 words each, into `expected`. */
void path_ref_expect(unsigned scene, unsigned width, unsigned height, unsigned spp, unsigned depth,
                     const uint32_t *pixels, unsigned count, uint32_t *expected);

/* The pixels of `image` that differ from `expected`; the first `shown` are printed to `out` as
 * "METHOD: pixel (x, y): got r g b, expected r g b". Returns their number. */
unsigned path_ref_compare(const uint32_t *image, unsigned width, const uint32_t *pixels, unsigned count,
                          const uint32_t *expected, const char *method, FILE *out, unsigned shown);

/* The 8-bit value of a channel's sum over `spp` samples, gamma 2 (render.h's), for a picture. */
unsigned path_ref_byte(uint32_t sum, unsigned spp);

#endif
