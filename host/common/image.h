/* image.h: 8-bit images written as binary PPM (P6) or PNG, for rendered frames.
 *
 * Pixels are `channels` bytes each, 3 (RGB) or 4 (RGBA), rows top to bottom without padding.
 * PPM has no alpha: it is dropped. PNG keeps it (colour type 6; RGB is colour type 2), one
 * zlib-compressed stream cut into IDAT chunks of at most IMAGE_PNG_IDAT_BYTES.
 *
 * Errors are reported like graph.h's: the functions return 0, or -1 with a NUL-terminated
 * message "path: what is wrong" of at most errlen bytes in err (err may be NULL when errlen is
 * 0). A file is written whole or not at all (libcoop/src/outfile.h): on failure an existing one
 * stays as it was. */
#ifndef IMAGE_H
#define IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define IMAGE_PNG_IDAT_BYTES (1u << 20)

/* Writes a width x height image as binary PPM (P6, maxval 255). */
int image_write_ppm(const char *path, const uint8_t *pixels, unsigned width, unsigned height, unsigned channels,
                    char *err, size_t errlen);

/* Writes a width x height image as PNG (8 bits per channel, no interlacing, filter 0). */
int image_write_png(const char *path, const uint8_t *pixels, unsigned width, unsigned height, unsigned channels,
                    char *err, size_t errlen);

#endif
