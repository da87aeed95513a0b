/* PPM and PNG writers (PNG: the chunks by hand, zlib for the compressed stream and the CRCs). */
#include "image.h"

#include "outfile.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int fail(char *err, size_t errlen, const char *path, const char *format, ...)
{
    if (errlen) {
        int used = snprintf(err, errlen, "%s: ", path ? path : "(null)");
        if (used >= 0 && (size_t)used < errlen) {
            va_list args;
            va_start(args, format);
            vsnprintf(err + used, errlen - (size_t)used, format, args);
            va_end(args);
        }
    }
    return -1;
}

/* The checks both formats share; *row_bytes receives width * channels. PNG limits each side to
 * 2^31 - 1, which also keeps every size below in range. */
static int check_image(const char *path, const uint8_t *pixels, unsigned width, unsigned height, unsigned channels,
                       size_t *row_bytes, char *err, size_t errlen)
{
    if (!path)
        return fail(err, errlen, path, "no file name");
    if (!pixels)
        return fail(err, errlen, path, "no pixels");
    if (channels != 3 && channels != 4)
        return fail(err, errlen, path, "%u channels per pixel (expected 3 for RGB or 4 for RGBA)", channels);
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu)
        return fail(err, errlen, path, "an image of %u x %u pixels cannot be written (each side 1 .. 2^31-1)", width,
                    height);
    if ((size_t)width > (SIZE_MAX - 1) / channels || (size_t)height > SIZE_MAX / ((size_t)width * channels + 1))
        return fail(err, errlen, path, "an image of %u x %u pixels is too large for memory", width, height);
    *row_bytes = (size_t)width * channels;
    return 0;
}

/* Opens the image's file (outfile.h: the old file stays until the new one is complete). */
static FILE *open_for_writing(coop_outfile *out, const char *path, char *err, size_t errlen)
{
    int error = coop_outfile_open(out, path);
    if (error) {
        char reason[256];
        fail(err, errlen, path, "cannot open for writing: %s", coop_outfile_reason(out, error, reason, sizeof reason));
        return NULL;
    }
    return out->stream;
}

/* Puts the file in place; reports a write error seen on the way, at the close or the rename. */
static int finish(coop_outfile *out, const char *path, char *err, size_t errlen)
{
    int error = coop_outfile_commit(out);
    char reason[256];
    if (error)
        return fail(err, errlen, path, "write failed: %s", coop_outfile_reason(out, error, reason, sizeof reason));
    return 0;
}

int image_write_ppm(const char *path, const uint8_t *pixels, unsigned width, unsigned height, unsigned channels,
                    char *err, size_t errlen)
{
    size_t row_bytes = 0;
    if (check_image(path, pixels, width, height, channels, &row_bytes, err, errlen) != 0)
        return -1;
    uint8_t *row = malloc((size_t)width * 3);
    if (!row)
        return fail(err, errlen, path, "out of memory");
    coop_outfile out;
    FILE *file = open_for_writing(&out, path, err, errlen);
    if (!file) {
        free(row);
        return -1;
    }
    fprintf(file, "P6\n%u %u\n255\n", width, height);
    for (unsigned y = 0; y < height && !ferror(file); y++) {
        const uint8_t *from = pixels + (size_t)y * row_bytes;
        for (unsigned x = 0; x < width; x++)
            memcpy(row + 3 * (size_t)x, from + (size_t)x * channels, 3);
        fwrite(row, 3, width, file);
    }
    free(row);
    return finish(&out, path, err, errlen);
}

static void put_be32(uint8_t *to, uint32_t value)
{
    to[0] = (uint8_t)(value >> 24);
    to[1] = (uint8_t)(value >> 16);
    to[2] = (uint8_t)(value >> 8);
    to[3] = (uint8_t)value;
}

/* One chunk: length, type, data, CRC-32 of type and data. */
static void put_chunk(FILE *file, const char *type, const uint8_t *data, uint32_t length)
{
    uint8_t word[4];
    put_be32(word, length);
    fwrite(word, 1, 4, file);
    fwrite(type, 1, 4, file);
    if (length)
        fwrite(data, 1, length, file);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (length)
        crc = crc32(crc, data, length);
    put_be32(word, (uint32_t)crc);
    fwrite(word, 1, 4, file);
}

int image_write_png(const char *path, const uint8_t *pixels, unsigned width, unsigned height, unsigned channels,
                    char *err, size_t errlen)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t row_bytes = 0;
    if (check_image(path, pixels, width, height, channels, &row_bytes, err, errlen) != 0)
        return -1;

    /* Each row is filter byte 0 (none) and the row's bytes. */
    size_t raw_size = (row_bytes + 1) * height;
    uLong packed_bound = compressBound((uLong)raw_size);
    uint8_t *raw = malloc(raw_size);
    uint8_t *packed = malloc(packed_bound);
    if (!raw || !packed) {
        free(raw);
        free(packed);
        return fail(err, errlen, path, "out of memory");
    }
    for (unsigned y = 0; y < height; y++) {
        uint8_t *to = raw + (size_t)y * (row_bytes + 1);
        to[0] = 0;
        memcpy(to + 1, pixels + (size_t)y * row_bytes, row_bytes);
    }
    uLongf packed_size = packed_bound;
    int z = compress2(packed, &packed_size, raw, (uLong)raw_size, Z_DEFAULT_COMPRESSION);
    free(raw);
    if (z != Z_OK) {
        free(packed);
        return fail(err, errlen, path, "zlib compress2 failed: %s", zError(z));
    }

    coop_outfile out;
    FILE *file = open_for_writing(&out, path, err, errlen);
    if (!file) {
        free(packed);
        return -1;
    }
    uint8_t header[13];
    put_be32(header, width);
    put_be32(header + 4, height);
    header[8] = 8;                      /* bits per channel */
    header[9] = channels == 4 ? 6 : 2;  /* colour type: RGBA or RGB */
    header[10] = 0;                     /* deflate */
    header[11] = 0;                     /* adaptive filtering (every row uses filter 0) */
    header[12] = 0;                     /* no interlacing */
    fwrite(signature, 1, sizeof signature, file);
    put_chunk(file, "IHDR", header, sizeof header);
    for (uLongf at = 0; at < packed_size && !ferror(file); at += IMAGE_PNG_IDAT_BYTES) {
        uLongf left = packed_size - at;
        put_chunk(file, "IDAT", packed + at, (uint32_t)(left < IMAGE_PNG_IDAT_BYTES ? left : IMAGE_PNG_IDAT_BYTES));
    }
    put_chunk(file, "IEND", NULL, 0);
    free(packed);
    return finish(&out, path, err, errlen);
}
