/*
 * graph_decode.h - a graph file as lines of text, whatever its compression (graph_decode.c).
 * Private to host/common/graph*.c.
 */
#ifndef GRAPH_DECODE_H
#define GRAPH_DECODE_H

#include "graph_text.h"

#include <stdint.h>
#include <stdio.h>

#include <lzma.h>
#include <zlib.h>

enum compression { PLAIN, GZIP, XZ };

struct reader {
    const char *path;
    char *err;
    size_t errlen;

    FILE *file;
    enum compression kind;
    uint64_t text_bytes_max;  /* the text is at most this long: a plain regular file's size */
    unsigned char *raw;       /* bytes as read from the file */
    size_t raw_len, raw_pos;  /* PLAIN only: how much of raw is handed out */
    int raw_eof;
    z_stream z;
    int z_live, z_done;
    lzma_stream x;
    int x_live, x_done;

    char *text;               /* decoded bytes; lines are cut out in place */
    size_t start, end;
    int text_eof;

    uint64_t lineno;
    int held;                 /* reader_next_line() returns the same line again */
    char *line;
    size_t line_len;
};

/* Opens r->path (set with r->err and r->errlen, the rest zeroed), tells its compression from
 * the magic bytes and sets r->text_bytes_max (UINT64_MAX when compressed or not a regular file).
 * Returns 0, or -1 with the message in r->err. reader_close() releases r either way. */
int reader_open(struct reader *r);

void reader_close(struct reader *r);

/* Fails on an empty input and on control bytes near the start, which text graph files never
 * have. */
int reader_check_text(struct reader *r);

/* Makes the next line available as r->line (NUL-terminated, without its '\n') and counts it in
 * r->lineno. Returns 1, 0 at end of input, -1 on error. */
int reader_next_line(struct reader *r);

/* "path: msg" into r->err; returns -1 so callers can `return reader_fail(...)`. */
int reader_fail(struct reader *r, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* "path:LINE: msg" into r->err; returns -1. */
int reader_fail_at(struct reader *r, uint64_t line, const char *fmt, ...) PRINTF_LIKE(3, 4);

#endif
