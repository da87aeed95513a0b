/*
 * graph_decode.c - a graph file as lines of text: bytes read in chunks, gzip (zlib) or xz
 * (liblzma) decoded in-process when the magic bytes say so, then cut into lines in place.
 */
#include "graph_decode.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    RAW_CHUNK_BYTES = 1 << 18,
    LINE_MAX_BYTES = 1 << 20,
    /* Room for a whole maximal line plus one more read, and the NUL. */
    TEXT_BUF_BYTES = 2 * LINE_MAX_BYTES + 1,
    /* Bytes looked at to tell text from binary junk. */
    SNIFF_BYTES = 4096,
    MSG_BYTES = 256,
};

int reader_fail(struct reader *r, const char *fmt, ...)
{
    char msg[MSG_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    graph_set_err(r->err, r->errlen, "%s: %s", r->path, msg);
    return -1;
}

int reader_fail_at(struct reader *r, uint64_t line, const char *fmt, ...)
{
    char msg[MSG_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    graph_set_err(r->err, r->errlen, "%s:%llu: %s", r->path, (unsigned long long)line, msg);
    return -1;
}

static int raw_fill(struct reader *r)
{
    size_t got = fread(r->raw, 1, RAW_CHUNK_BYTES, r->file);

    if (got < RAW_CHUNK_BYTES && ferror(r->file))
        return reader_fail(r, "%s", strerror(errno));
    r->raw_len = got;
    r->raw_pos = 0;
    if (got == 0)
        r->raw_eof = 1;
    return 0;
}

static int plain_decode(struct reader *r, unsigned char *out, size_t cap, size_t *got)
{
    size_t n;

    if (r->raw_pos == r->raw_len && !r->raw_eof && raw_fill(r) != 0)
        return -1;
    n = r->raw_len - r->raw_pos;
    if (n > cap)
        n = cap;
    memcpy(out, r->raw + r->raw_pos, n);
    r->raw_pos += n;
    *got = n;
    return 0;
}

static int gzip_decode(struct reader *r, unsigned char *out, size_t cap, size_t *got)
{
    *got = 0;
    if (r->z_done)
        return 0;
    r->z.next_out = out;
    r->z.avail_out = (uInt)cap;
    while (r->z.avail_out == cap) {
        int ret;

        if (r->z.avail_in == 0 && !r->raw_eof) {
            if (raw_fill(r) != 0)
                return -1;
            r->z.next_in = r->raw;
            r->z.avail_in = (uInt)r->raw_len;
        }
        ret = inflate(&r->z, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            if (r->z.avail_in == 0 && !r->raw_eof) {
                if (raw_fill(r) != 0)
                    return -1;
                r->z.next_in = r->raw;
                r->z.avail_in = (uInt)r->raw_len;
            }
            if (r->z.avail_in == 0) {
                r->z_done = 1;
                break;
            }
            /* Another gzip member follows, as `cat a.gz b.gz` makes. */
            if (inflateReset(&r->z) != Z_OK)
                return reader_fail(r, "corrupt gzip data");
            continue;
        }
        if (ret == Z_OK || ret == Z_BUF_ERROR) {
            if (r->z.avail_in == 0 && r->raw_eof && r->z.avail_out == cap)
                return reader_fail(r, "truncated gzip data");
            continue;
        }
        if (ret == Z_MEM_ERROR)
            return reader_fail(r, "out of memory");
        return reader_fail(r, "corrupt gzip data");
    }
    *got = cap - r->z.avail_out;
    return 0;
}

static int xz_decode(struct reader *r, unsigned char *out, size_t cap, size_t *got)
{
    *got = 0;
    if (r->x_done)
        return 0;
    r->x.next_out = out;
    r->x.avail_out = cap;
    while (r->x.avail_out == cap) {
        lzma_ret ret;

        if (r->x.avail_in == 0 && !r->raw_eof) {
            if (raw_fill(r) != 0)
                return -1;
            r->x.next_in = r->raw;
            r->x.avail_in = r->raw_len;
        }
        ret = lzma_code(&r->x, r->x.avail_in == 0 && r->raw_eof ? LZMA_FINISH : LZMA_RUN);
        if (ret == LZMA_STREAM_END) {
            r->x_done = 1;
            break;
        }
        if (ret == LZMA_OK)
            continue;
        if (ret == LZMA_BUF_ERROR)
            return reader_fail(r, "truncated xz data");
        if (ret == LZMA_MEM_ERROR)
            return reader_fail(r, "out of memory");
        return reader_fail(r, "corrupt xz data");
    }
    *got = cap - r->x.avail_out;
    return 0;
}

static int decode(struct reader *r, unsigned char *out, size_t cap, size_t *got)
{
    switch (r->kind) {
    case GZIP:
        return gzip_decode(r, out, cap, got);
    case XZ:
        return xz_decode(r, out, cap, got);
    case PLAIN:
        break;
    }
    return plain_decode(r, out, cap, got);
}

int reader_open(struct reader *r)
{
    static const unsigned char gzip_magic[] = {0x1f, 0x8b};
    static const unsigned char xz_magic[] = {0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00};
    struct stat st;

    r->file = fopen(r->path, "rb");
    if (r->file == NULL)
        return reader_fail(r, "%s", strerror(errno));
    r->text_bytes_max = UINT64_MAX;
    if (fstat(fileno(r->file), &st) == 0 && S_ISREG(st.st_mode))
        r->text_bytes_max = (uint64_t)st.st_size;
    r->raw = malloc(RAW_CHUNK_BYTES);
    r->text = malloc(TEXT_BUF_BYTES);
    if (r->raw == NULL || r->text == NULL)
        return reader_fail(r, "out of memory");
    if (raw_fill(r) != 0)
        return -1;

    if (r->raw_len >= sizeof gzip_magic && memcmp(r->raw, gzip_magic, sizeof gzip_magic) == 0) {
        r->kind = GZIP;
        r->text_bytes_max = UINT64_MAX;
        if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK)
            return reader_fail(r, "out of memory");
        r->z_live = 1;
        r->z.next_in = r->raw;
        r->z.avail_in = (uInt)r->raw_len;
    } else if (r->raw_len >= sizeof xz_magic && memcmp(r->raw, xz_magic, sizeof xz_magic) == 0) {
        lzma_stream init = LZMA_STREAM_INIT;

        r->kind = XZ;
        r->text_bytes_max = UINT64_MAX;
        r->x = init;
        if (lzma_stream_decoder(&r->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
            return reader_fail(r, "out of memory");
        r->x_live = 1;
        r->x.next_in = r->raw;
        r->x.avail_in = r->raw_len;
    }
    return 0;
}

void reader_close(struct reader *r)
{
    if (r->z_live)
        inflateEnd(&r->z);
    if (r->x_live)
        lzma_end(&r->x);
    if (r->file != NULL)
        fclose(r->file);
    free(r->raw);
    free(r->text);
}

/* Appends decoded bytes after r->end, first moving the unread part to the
 * front of the buffer. Sets text_eof when the input is used up. */
static int text_fill(struct reader *r)
{
    size_t got;

    if (r->start > 0) {
        memmove(r->text, r->text + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (decode(r, (unsigned char *)r->text + r->end, TEXT_BUF_BYTES - 1 - r->end, &got) != 0)
        return -1;
    if (got == 0)
        r->text_eof = 1;
    r->end += got;
    return 0;
}

int reader_next_line(struct reader *r)
{
    if (r->held) {
        r->held = 0;
        return 1;
    }
    for (;;) {
        char *begin = r->text + r->start;
        char *newline = memchr(begin, '\n', r->end - r->start);

        if (newline != NULL && (size_t)(newline - begin) > LINE_MAX_BYTES)
            return reader_fail_at(r, r->lineno + 1, "line longer than %d bytes", LINE_MAX_BYTES);
        if (newline != NULL) {
            *newline = '\0';
            r->line = begin;
            r->line_len = (size_t)(newline - begin);
            r->start += r->line_len + 1;
            r->lineno++;
            return 1;
        }
        if (r->end - r->start > LINE_MAX_BYTES)
            return reader_fail_at(r, r->lineno + 1, "line longer than %d bytes", LINE_MAX_BYTES);
        if (r->text_eof) {
            if (r->start == r->end)
                return 0;
            r->text[r->end] = '\0';
            r->line = begin;
            r->line_len = r->end - r->start;
            r->start = r->end;
            r->lineno++;
            return 1;
        }
        if (text_fill(r) != 0)
            return -1;
    }
}

int reader_check_text(struct reader *r)
{
    while (r->end < SNIFF_BYTES && !r->text_eof)
        if (text_fill(r) != 0)
            return -1;
    if (r->end == 0)
        return reader_fail(r, "empty file");
    for (size_t i = 0; i < r->end && i < SNIFF_BYTES; i++) {
        unsigned char c = (unsigned char)r->text[i];
        if ((c < 0x20 && !(c >= '\t' && c <= '\r')) || c == 0x7f)
            return reader_fail(r, "binary data, not a graph file");
    }
    return 0;
}
