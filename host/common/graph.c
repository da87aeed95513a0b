/*
 * graph.c - reads graph files into CSR form and generates synthetic graphs.
 *
 * Layers, bottom up: a byte source (plain, gzip or xz), a line reader over the
 * decoded text, one parser per format filling an edge list, and a CSR builder
 * (a radix sort) shared by the parsers and the generators. Large graphs are
 * sorted, and R-MAT's edges drawn, by a thread per processor (parallel_run).
 */
#include "graph.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>

enum {
    RAW_CHUNK_BYTES = 1 << 18,
    LINE_MAX_BYTES = 1 << 20,
    /* Room for a whole maximal line plus one more read, and the NUL. */
    TEXT_BUF_BYTES = 2 * LINE_MAX_BYTES + 1,
    /* Bytes looked at to tell text from binary junk. */
    SNIFF_BYTES = 4096,
    MSG_BYTES = 256,
    QUOTE_BYTES = 48,
    MAX_FIELDS = 6,
};

#ifdef __GNUC__
#define PRINTF_LIKE(fmt_pos, arg_pos) __attribute__((format(printf, fmt_pos, arg_pos)))
#else
#define PRINTF_LIKE(fmt_pos, arg_pos)
#endif

static void set_err(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Copies text from the input into dst for an error message: printable ASCII
 * kept, anything else as \xNN, long text cut with "...". */
static void quote(char *dst, size_t cap, const char *src, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t out = 0;

    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)src[i];
        if (out + 8 >= cap) {
            memcpy(dst + out, "...", 3);
            out += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            dst[out++] = (char)c;
        } else {
            dst[out++] = '\\';
            dst[out++] = 'x';
            dst[out++] = hex[c >> 4];
            dst[out++] = hex[c & 15];
        }
    }
    dst[out] = '\0';
}

/* ---------------------------------------------------------------- input -- */

enum compression { PLAIN, GZIP, XZ };

struct reader {
    const char *path;
    char *err;
    size_t errlen;

    FILE *file;
    enum compression kind;
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
    int held;                 /* next_line() returns the same line again */
    char *line;
    size_t line_len;
};

static int fail(struct reader *r, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int fail_at(struct reader *r, uint64_t line, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* "path: msg"; returns -1 so callers can `return fail(...)`. */
static int fail(struct reader *r, const char *fmt, ...)
{
    char msg[MSG_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    set_err(r->err, r->errlen, "%s: %s", r->path, msg);
    return -1;
}

/* "path:LINE: msg"; returns -1. */
static int fail_at(struct reader *r, uint64_t line, const char *fmt, ...)
{
    char msg[MSG_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    set_err(r->err, r->errlen, "%s:%llu: %s", r->path, (unsigned long long)line, msg);
    return -1;
}

static int raw_fill(struct reader *r)
{
    size_t got = fread(r->raw, 1, RAW_CHUNK_BYTES, r->file);

    if (got < RAW_CHUNK_BYTES && ferror(r->file))
        return fail(r, "%s", strerror(errno));
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
                return fail(r, "corrupt gzip data");
            continue;
        }
        if (ret == Z_OK || ret == Z_BUF_ERROR) {
            if (r->z.avail_in == 0 && r->raw_eof && r->z.avail_out == cap)
                return fail(r, "truncated gzip data");
            continue;
        }
        if (ret == Z_MEM_ERROR)
            return fail(r, "out of memory");
        return fail(r, "corrupt gzip data");
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
            return fail(r, "truncated xz data");
        if (ret == LZMA_MEM_ERROR)
            return fail(r, "out of memory");
        return fail(r, "corrupt xz data");
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

static int reader_open(struct reader *r)
{
    static const unsigned char gzip_magic[] = {0x1f, 0x8b};
    static const unsigned char xz_magic[] = {0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00};

    r->file = fopen(r->path, "rb");
    if (r->file == NULL)
        return fail(r, "%s", strerror(errno));
    r->raw = malloc(RAW_CHUNK_BYTES);
    r->text = malloc(TEXT_BUF_BYTES);
    if (r->raw == NULL || r->text == NULL)
        return fail(r, "out of memory");
    if (raw_fill(r) != 0)
        return -1;

    if (r->raw_len >= sizeof gzip_magic && memcmp(r->raw, gzip_magic, sizeof gzip_magic) == 0) {
        r->kind = GZIP;
        if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK)
            return fail(r, "out of memory");
        r->z_live = 1;
        r->z.next_in = r->raw;
        r->z.avail_in = (uInt)r->raw_len;
    } else if (r->raw_len >= sizeof xz_magic && memcmp(r->raw, xz_magic, sizeof xz_magic) == 0) {
        lzma_stream init = LZMA_STREAM_INIT;

        r->kind = XZ;
        r->x = init;
        if (lzma_stream_decoder(&r->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
            return fail(r, "out of memory");
        r->x_live = 1;
        r->x.next_in = r->raw;
        r->x.avail_in = r->raw_len;
    }
    return 0;
}

static void reader_close(struct reader *r)
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

/* Makes the next line available as r->line (NUL-terminated, without its
 * '\n') and counts it in r->lineno. Returns 1, 0 at end of input, -1 on
 * error. */
static int next_line(struct reader *r)
{
    if (r->held) {
        r->held = 0;
        return 1;
    }
    for (;;) {
        char *begin = r->text + r->start;
        char *newline = memchr(begin, '\n', r->end - r->start);

        if (newline != NULL && (size_t)(newline - begin) > LINE_MAX_BYTES)
            return fail_at(r, r->lineno + 1, "line longer than %d bytes", LINE_MAX_BYTES);
        if (newline != NULL) {
            *newline = '\0';
            r->line = begin;
            r->line_len = (size_t)(newline - begin);
            r->start += r->line_len + 1;
            r->lineno++;
            return 1;
        }
        if (r->end - r->start > LINE_MAX_BYTES)
            return fail_at(r, r->lineno + 1, "line longer than %d bytes", LINE_MAX_BYTES);
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

/* ------------------------------------------------------------- tokens -- */

struct fields {
    int count;                    /* MAX_FIELDS means "that many or more" */
    const char *s[MAX_FIELDS];
    size_t len[MAX_FIELDS];
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void split(const char *line, size_t len, struct fields *f)
{
    const char *p = line, *end = line + len;

    f->count = 0;
    while (f->count < MAX_FIELDS) {
        while (p < end && is_blank(*p))
            p++;
        if (p == end)
            break;
        f->s[f->count] = p;
        while (p < end && !is_blank(*p))
            p++;
        f->len[f->count] = (size_t)(p - f->s[f->count]);
        f->count++;
    }
}

static int field_is(const struct fields *f, int i, const char *word)
{
    size_t n = strlen(word);

    return f->count > i && f->len[i] == n && memcmp(f->s[i], word, n) == 0;
}

static int field_is_nocase(const struct fields *f, int i, const char *word)
{
    size_t n = strlen(word);

    if (f->count <= i || f->len[i] != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        char c = f->s[i][k];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[k])
            return 0;
    }
    return 1;
}

enum number_status { NUMBER_OK, NUMBER_BAD, NUMBER_TOO_LARGE };

static enum number_status parse_u64(const char *s, size_t len, uint64_t *value)
{
    uint64_t v = 0;

    if (len == 0)
        return NUMBER_BAD;
    for (size_t i = 0; i < len; i++) {
        unsigned digit = (unsigned)(unsigned char)s[i] - '0';
        if (digit > 9)
            return NUMBER_BAD;
        if (v > (UINT64_MAX - digit) / 10) {
            for (i++; i < len; i++)
                if ((unsigned)(unsigned char)s[i] - '0' > 9)
                    return NUMBER_BAD;
            return NUMBER_TOO_LARGE;
        }
        v = v * 10 + digit;
    }
    *value = v;
    return NUMBER_OK;
}

static int bad_number(struct reader *r, const struct fields *f, int i)
{
    char q[QUOTE_BYTES];

    quote(q, sizeof q, f->s[i], f->len[i]);
    return fail_at(r, r->lineno, "bad number '%s'", q);
}

/* A count from a header line, at most max; what names it in messages. */
static int get_count(struct reader *r, const struct fields *f, int i, uint64_t max,
                     const char *what, uint64_t *value)
{
    char q[QUOTE_BYTES];
    enum number_status st = parse_u64(f->s[i], f->len[i], value);

    if (st == NUMBER_BAD)
        return bad_number(r, f, i);
    if (st == NUMBER_TOO_LARGE || *value > max) {
        quote(q, sizeof q, f->s[i], f->len[i]);
        return fail_at(r, r->lineno, "%s %s too large (at most %llu)", what, q,
                       (unsigned long long)max);
    }
    return 0;
}

/* A node id in lo..hi as the file writes it; *id gets it minus lo. */
static int get_node(struct reader *r, const struct fields *f, int i, uint64_t lo, uint64_t hi,
                    uint32_t *id)
{
    char q[QUOTE_BYTES];
    uint64_t v = 0;
    enum number_status st = parse_u64(f->s[i], f->len[i], &v);

    if (st == NUMBER_BAD)
        return bad_number(r, f, i);
    if (st == NUMBER_TOO_LARGE || v < lo || v > hi) {
        quote(q, sizeof q, f->s[i], f->len[i]);
        return fail_at(r, r->lineno, "node %s out of range %llu..%llu", q, (unsigned long long)lo,
                       (unsigned long long)hi);
    }
    *id = (uint32_t)(v - lo);
    return 0;
}

/* A MatrixMarket value turned into a weight: magnitude rounded to the
 * nearest integer, clamped to 1..UINT32_MAX. */
static int get_mtx_weight(struct reader *r, const struct fields *f, int i, int is_integer,
                          uint32_t *weight)
{
    const char *s = f->s[i];
    size_t len = f->len[i];
    double magnitude;

    if (is_integer) {
        uint64_t v = 0;
        size_t sign = (len > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
        enum number_status st = parse_u64(s + sign, len - sign, &v);

        if (st == NUMBER_BAD)
            return bad_number(r, f, i);
        magnitude = st == NUMBER_TOO_LARGE ? (double)UINT64_MAX : (double)v;
    } else {
        char *endp;
        double x = strtod(s, &endp);

        /* Also rejects hex floats, inf and nan: values are plain decimals. */
        if (endp != s + len || !(x - x == 0.0) || memchr(s, 'x', len) || memchr(s, 'X', len))
            return bad_number(r, f, i);
        magnitude = x < 0 ? -x : x;
    }
    if (magnitude >= (double)UINT32_MAX)
        *weight = UINT32_MAX;
    else if (magnitude < 1.5)
        *weight = 1;
    else
        *weight = (uint32_t)(magnitude + 0.5);
    return 0;
}

static const char *skip_blanks(const char *s)
{
    while (is_blank(*s))
        s++;
    return s;
}

/* ---------------------------------------------------------- edge list -- */

/* The edges as read or drawn. weight is kept only when the input gives weights (`weighted`);
 * otherwise every arc gets graph_default_weight() when the CSR is built. */
struct edge_list {
    uint32_t *src, *dst, *weight;
    size_t len, cap;
    int weighted;
};

static int edges_reserve(struct edge_list *e, size_t cap)
{
    uint32_t *src, *dst, *weight;

    if (cap <= e->cap)
        return 0;
    if (cap > SIZE_MAX / sizeof(uint32_t))
        return -1;
    src = realloc(e->src, cap * sizeof *src);
    if (src == NULL)
        return -1;
    e->src = src;
    dst = realloc(e->dst, cap * sizeof *dst);
    if (dst == NULL)
        return -1;
    e->dst = dst;
    if (e->weighted) {
        weight = realloc(e->weight, cap * sizeof *weight);
        if (weight == NULL)
            return -1;
        e->weight = weight;
    }
    e->cap = cap;
    return 0;
}

/* Adds u->v (weight is ignored unless e->weighted); self-loops are dropped here. Returns -1
 * when out of memory. */
static int edges_push(struct edge_list *e, uint32_t u, uint32_t v, uint32_t weight)
{
    if (u == v)
        return 0;
    if (e->len == e->cap && edges_reserve(e, e->cap < 1024 ? 1024 : 2 * e->cap) != 0)
        return -1;
    e->src[e->len] = u;
    e->dst[e->len] = v;
    if (e->weighted)
        e->weight[e->len] = weight;
    e->len++;
    return 0;
}

static void edges_free(struct edge_list *e)
{
    free(e->src);
    free(e->dst);
    free(e->weight);
    memset(e, 0, sizeof *e);
}

/* ----------------------------------------------------------- parallel -- */

enum {
    /* Parts (threads) at the most, and the least work (edges, arcs) worth splitting. */
    MAX_PARTS = 64,
    PARALLEL_MIN_ITEMS = 1 << 20,
};

/* How many parts to split `items` of work into: one per processor, or one for little work. */
static unsigned parallel_parts(uint64_t items)
{
    long processors = sysconf(_SC_NPROCESSORS_ONLN);

    if (items < PARALLEL_MIN_ITEMS || processors <= 1)
        return 1;
    return processors > MAX_PARTS ? MAX_PARTS : (unsigned)processors;
}

/* The first of `count` items that part `part` of `parts` takes (part == parts: the end). */
static uint64_t part_start(uint64_t count, unsigned part, unsigned parts)
{
    return count * part / parts;
}

typedef void parallel_work(void *context, unsigned part, unsigned parts);

struct parallel_call {
    parallel_work *work;
    void *context;
    unsigned part, parts;
};

static void *parallel_thread(void *arg)
{
    struct parallel_call *call = arg;

    call->work(call->context, call->part, call->parts);
    return NULL;
}

/* Runs work(context, part, parts) for every part at once: parts 1.. on threads of their own,
 * part 0 on the caller's, and there too a part whose thread could not start. Each part writes
 * only its own share, so the result is the same for any number of parts. */
static void parallel_run(parallel_work *work, void *context, unsigned parts)
{
    pthread_t threads[MAX_PARTS];
    struct parallel_call calls[MAX_PARTS];
    int started[MAX_PARTS] = {0};

    for (unsigned part = 1; part < parts; part++) {
        calls[part] = (struct parallel_call){work, context, part, parts};
        started[part] = pthread_create(&threads[part], NULL, parallel_thread, &calls[part]) == 0;
    }
    work(context, 0, parts);
    for (unsigned part = 1; part < parts; part++) {
        if (started[part])
            pthread_join(threads[part], NULL);
        else
            work(context, part, parts);
    }
}

/* ---------------------------------------------------------------- CSR -- */

enum build_status { BUILD_OK, BUILD_NO_MEMORY, BUILD_TOO_MANY_ARCS };

enum {
    /* The radix sort's digits are at most this wide: a pass's 2048 buckets stay in cache. */
    RADIX_BITS = 11,
    RADIX_BUCKETS = 1 << RADIX_BITS,
    /* A key holds two 32-bit ids; the bits below its top digit take this many digits at most:
     * (64 - RADIX_BITS) / RADIX_BITS, rounded up. */
    RADIX_MAX_LOW_PASSES = (64 - 1) / RADIX_BITS,
};

static void *alloc_u32(uint64_t count)
{
    if (count > SIZE_MAX / sizeof(uint32_t))
        return NULL;
    return malloc(count == 0 ? sizeof(uint32_t) : (size_t)count * sizeof(uint32_t));
}

static uint64_t *alloc_u64(uint64_t count)
{
    if (count > SIZE_MAX / sizeof(uint64_t))
        return NULL;
    return malloc(count == 0 ? sizeof(uint64_t) : (size_t)count * sizeof(uint64_t));
}

/*
 * How the arcs are sorted by key = source << id_bits | target: first into buckets by the key's
 * top digit (its top RADIX_BITS bits at most), read from the edge list; then each bucket, a
 * small part of the whole and so mostly in cache, by the bits below with an LSD radix sort
 * (low_passes digits of low_digit_bits, least significant first).
 */
struct radix {
    unsigned id_bits, top_shift, low_digit_bits, low_passes;
    uint32_t top_start[RADIX_BUCKETS];   /* where each top digit's bucket starts */
};

/* What one part of the bucket sort works with: spare room as large as its largest bucket, and
 * where each digit's bucket starts in the bucket it sorts, per pass. */
struct bucket_part {
    uint64_t *spare_keys;
    uint32_t *spare_weights;
    uint32_t low_start[RADIX_MAX_LOW_PASSES][RADIX_BUCKETS];
};

static void radix_plan(struct radix *x, uint32_t n)
{
    unsigned key_bits;

    x->id_bits = 1;
    while (x->id_bits < 32 && ((uint64_t)1 << x->id_bits) < n)
        x->id_bits++;
    key_bits = 2 * x->id_bits;
    x->top_shift = key_bits > RADIX_BITS ? key_bits - RADIX_BITS : 0;
    x->low_passes = (x->top_shift + RADIX_BITS - 1) / RADIX_BITS;
    x->low_digit_bits = x->low_passes ? (x->top_shift + x->low_passes - 1) / x->low_passes : 0;
    memset(x->top_start, 0, sizeof x->top_start);
}

static uint64_t arc_key(const struct radix *x, uint32_t source, uint32_t target)
{
    return (uint64_t)source << x->id_bits | target;
}

static uint32_t top_digit(const struct radix *x, uint64_t key)
{
    return (uint32_t)(key >> x->top_shift);
}

/* A digit below the top one; the last may reach into the top digit, the same in a bucket. */
static uint32_t low_digit(const struct radix *x, uint64_t key, unsigned pass)
{
    return (uint32_t)(key >> (pass * x->low_digit_bits)) & (((uint32_t)1 << x->low_digit_bits) - 1);
}

/* Turns counts into where each bucket starts. */
static void starts_from_counts(uint32_t *start)
{
    for (uint32_t d = 0, sum = 0; d < RADIX_BUCKETS; d++) {
        uint32_t count = start[d];
        start[d] = sum;
        sum += count;
    }
}

/* Puts an arc, read from the edge list, in its top digit's bucket of keys (and weights). */
static void place_top(struct radix *x, uint32_t source, uint32_t target, const uint32_t *weight, uint64_t *keys,
                      uint32_t *weights)
{
    uint64_t key = arc_key(x, source, target);
    uint32_t at = x->top_start[top_digit(x, key)]++;

    keys[at] = key;
    if (weights != NULL)
        weights[at] = *weight;
}

/* Sorts one bucket of `len` keys (and their weights, when weights is not NULL) by the digits
 * below the top one, through own's spare room; a sorted bucket (a generated grid's, a file
 * listing its arcs in order) is left as it is. */
static void sort_bucket(const struct radix *x, struct bucket_part *own, uint64_t *keys, uint32_t *weights,
                        uint32_t len)
{
    uint64_t *from = keys, *to = own->spare_keys;
    uint32_t *from_weights = weights, *to_weights = weights ? own->spare_weights : NULL, sorted = 1;

    for (uint32_t i = 1; i < len && sorted; i++)
        sorted = keys[i - 1] <= keys[i];
    if (sorted)
        return;
    memset(own->low_start, 0, x->low_passes * sizeof own->low_start[0]);
    for (uint32_t i = 0; i < len; i++)
        for (unsigned pass = 0; pass < x->low_passes; pass++)
            own->low_start[pass][low_digit(x, keys[i], pass)]++;
    for (unsigned pass = 0; pass < x->low_passes; pass++) {
        starts_from_counts(own->low_start[pass]);
        for (uint32_t i = 0; i < len; i++) {
            uint32_t at = own->low_start[pass][low_digit(x, from[i], pass)]++;
            to[at] = from[i];
            if (weights != NULL)
                to_weights[at] = from_weights[i];
        }
        uint64_t *swap_keys = from;
        uint32_t *swap_weights = from_weights;
        from = to;
        to = swap_keys;
        from_weights = to_weights;
        to_weights = swap_weights;
    }
    if (from != keys) {
        memcpy(keys, from, len * sizeof *keys);
        if (weights != NULL)
            memcpy(weights, from_weights, len * sizeof *weights);
    }
}

/* The buckets after the top digit's pass, sorted in parallel: part p takes buckets p, p + parts,
 * p + 2 parts... */
struct bucket_sort {
    const struct radix *x;
    const uint32_t *end;   /* where each bucket ends */
    uint64_t *keys;
    uint32_t *weights;
    struct bucket_part *parts;
};

static uint32_t bucket_begin(const uint32_t *end, uint32_t d)
{
    return d > 0 ? end[d - 1] : 0;
}

static void sort_buckets_part(void *context, unsigned part, unsigned parts)
{
    const struct bucket_sort *b = context;

    for (uint32_t d = part; d < RADIX_BUCKETS; d += parts) {
        uint32_t begin = bucket_begin(b->end, d), len = b->end[d] - begin;
        if (len > 1)
            sort_bucket(b->x, &b->parts[part], b->keys + begin, b->weights ? b->weights + begin : NULL, len);
    }
}

/* Sorts every bucket, each part through its own room; -1 when out of memory. */
static int sort_buckets(const struct radix *x, uint64_t *keys, uint32_t *weights, uint64_t arcs)
{
    unsigned parts = parallel_parts(arcs);
    struct bucket_part *own = calloc(parts, sizeof *own);
    struct bucket_sort b = {x, x->top_start, keys, weights, own};
    int rc = own == NULL ? -1 : 0;

    for (unsigned part = 0; part < parts && rc == 0; part++) {
        uint32_t largest = 0;
        for (uint32_t d = part; d < RADIX_BUCKETS; d += parts)
            if (x->top_start[d] - bucket_begin(x->top_start, d) > largest)
                largest = x->top_start[d] - bucket_begin(x->top_start, d);
        own[part].spare_keys = alloc_u64(largest);
        own[part].spare_weights = weights != NULL ? alloc_u32(largest) : NULL;
        if (own[part].spare_keys == NULL || (weights != NULL && own[part].spare_weights == NULL))
            rc = -1;
    }
    if (rc == 0)
        parallel_run(sort_buckets_part, &b, parts);
    for (unsigned part = 0; own != NULL && part < parts; part++) {
        free(own[part].spare_keys);
        free(own[part].spare_weights);
    }
    free(own);
    return rc;
}

/* Default weights for a CSR's arcs, in parallel: each part takes a range of arcs. */
struct default_weights {
    const uint32_t *row, *col;
    uint32_t *weight;
    uint32_t n, m;
};

static void default_weights_part(void *context, unsigned part, unsigned parts)
{
    const struct default_weights *d = context;
    uint32_t first = (uint32_t)part_start(d->m, part, parts), end = (uint32_t)part_start(d->m, part + 1, parts);
    uint32_t u = 0, hi = d->n - 1;

    if (first == end)
        return;
    /* u: the last node whose list starts at or before `first`, the node of arc `first` */
    while (u < hi) {
        uint32_t mid = u + (hi - u + 1) / 2;
        if (d->row[mid] <= first)
            u = mid;
        else
            hi = mid - 1;
    }
    for (uint32_t i = first; i < end; i++) {
        while (d->row[u + 1] <= i)
            u++;
        d->weight[i] = graph_default_weight(u, d->col[i]);
    }
}

/*
 * Builds g's CSR from e (adding v->u for every u->v when undirected), and frees e's arrays.
 * A radix sort (struct radix) orders the arcs by source and target; parallel arcs are then
 * merged keeping the smallest weight. Without weights in e, each arc then gets
 * graph_default_weight(). Sets n, m, row, col, weight and directed. Every id in e is below n.
 *
 * Memory: row (4 bytes per node, the only part that grows with n, so a header declaring many
 * isolated nodes costs little); a key per arc (8 bytes, 12 with weights) beside e, then beside
 * spare room for the largest bucket of each part; then the sorted keys and the result (8 bytes
 * per arc). The buckets are sorted and default weights computed by as many threads as there are
 * processors (parallel_run); the result is the same for any number.
 */
static enum build_status build_csr(graph *g, uint32_t n, struct edge_list *e, int undirected)
{
    uint64_t arcs = undirected ? 2 * (uint64_t)e->len : (uint64_t)e->len;
    struct radix *x = malloc(sizeof *x);
    uint64_t *keys = NULL;
    uint32_t *weights = NULL, *row = NULL, *col = NULL, *weight = NULL;
    int weighted = e->weighted;
    uint32_t out = 0;
    uint64_t next_node = 0;   /* row[0..next_node) are set */
    enum build_status st = BUILD_NO_MEMORY;

    if (arcs > UINT32_MAX) {
        st = BUILD_TOO_MANY_ARCS;
        goto done;
    }
    row = alloc_u32((uint64_t)n + 1);
    keys = alloc_u64(arcs);
    weights = weighted ? alloc_u32(arcs) : NULL;
    if (x == NULL || row == NULL || keys == NULL || (weighted && weights == NULL))
        goto done;

    radix_plan(x, n);
    for (size_t i = 0; i < e->len; i++) {
        x->top_start[top_digit(x, arc_key(x, e->src[i], e->dst[i]))]++;
        if (undirected)
            x->top_start[top_digit(x, arc_key(x, e->dst[i], e->src[i]))]++;
    }
    starts_from_counts(x->top_start);
    for (size_t i = 0; i < e->len; i++) {
        const uint32_t *w = weighted ? &e->weight[i] : NULL;
        place_top(x, e->src[i], e->dst[i], w, keys, weights);
        if (undirected)
            place_top(x, e->dst[i], e->src[i], w, keys, weights);
    }
    edges_free(e);
    /* top_start[d] is now where bucket d ends. */
    if (x->low_passes > 0 && sort_buckets(x, keys, weights, arcs) != 0)
        goto done;

    col = alloc_u32(arcs);
    weight = alloc_u32(arcs);
    if (col == NULL || weight == NULL)
        goto done;
    for (uint64_t i = 0; i < arcs; i++) {
        uint64_t key = keys[i];
        uint32_t source = (uint32_t)(key >> x->id_bits), target = (uint32_t)(key & ((1ULL << x->id_bits) - 1));

        if (out > 0 && key == keys[i - 1]) {
            if (weighted && weights[i] < weight[out - 1])
                weight[out - 1] = weights[i];
            continue;
        }
        while (next_node <= source)
            row[next_node++] = out;
        col[out] = target;
        if (weighted)
            weight[out] = weights[i];
        out++;
    }
    while (next_node <= n)
        row[next_node++] = out;
    if (!weighted) {
        struct default_weights d = {row, col, weight, n, out};
        parallel_run(default_weights_part, &d, parallel_parts(out));
    }
    if (out < arcs && out > 0) {
        uint32_t *smaller_col = realloc(col, (size_t)out * sizeof *col);
        uint32_t *smaller_weight = realloc(weight, (size_t)out * sizeof *weight);
        if (smaller_col != NULL)
            col = smaller_col;
        if (smaller_weight != NULL)
            weight = smaller_weight;
    }
    g->n = n;
    g->m = out;
    g->row = row;
    g->col = col;
    g->weight = weight;
    g->directed = !undirected;
    row = col = weight = NULL;
    st = BUILD_OK;
done:
    edges_free(e);
    free(x);
    free(keys);
    free(weights);
    free(row);
    free(col);
    free(weight);
    return st;
}

static int build_from_file(struct reader *r, graph *g, uint32_t n, struct edge_list *e,
                           int undirected)
{
    enum build_status st = build_csr(g, n, e, undirected);

    if (st == BUILD_TOO_MANY_ARCS)
        return fail(r, "too many arcs (at most %lu)", (unsigned long)UINT32_MAX);
    if (st == BUILD_NO_MEMORY)
        return fail(r, "out of memory");
    return 0;
}

/* ------------------------------------------------------------ formats -- */

/* Reads the next line that is not blank and not a comment (a line whose
 * first non-blank character is comment_char), split into f. */
static int next_data_line(struct reader *r, char comment_char, struct fields *f)
{
    int rc;

    while ((rc = next_line(r)) == 1) {
        if (*skip_blanks(r->line) == comment_char)
            continue;
        split(r->line, r->line_len, f);
        if (f->count > 0)
            return 1;
    }
    return rc;
}

static int push_or_fail(struct reader *r, struct edge_list *e, uint32_t u, uint32_t v,
                        uint32_t weight)
{
    if (edges_push(e, u, v, weight) != 0)
        return fail(r, "out of memory");
    return 0;
}

/* Edge-list capacity to start with: the declared count, within reason, since
 * a header may lie. */
static size_t initial_capacity(uint64_t declared)
{
    return declared < ((size_t)1 << 22) ? (size_t)declared : (size_t)1 << 22;
}

/* DIMACS shortest path ("p sp", directed, weighted) and PACE 2016 ("p tw",
 * undirected, unweighted). */
static int read_dimacs(struct reader *r, graph *g, struct edge_list *e)
{
    struct fields f;
    uint64_t header_line, nodes, declared, found = 0;
    int rc, pace;

    rc = next_data_line(r, 'c', &f);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return fail_at(r, r->lineno + 1, "expected 'p sp N M' header");
    pace = field_is(&f, 0, "p") && field_is(&f, 1, "tw");
    if (f.count != 4 || !field_is(&f, 0, "p") || !(pace || field_is(&f, 1, "sp")))
        return fail_at(r, r->lineno, pace ? "expected 'p tw N M' header" : "expected 'p sp N M' header");
    header_line = r->lineno;
    if (get_count(r, &f, 2, UINT32_MAX, "node count", &nodes) != 0 ||
        get_count(r, &f, 3, UINT64_MAX, "arc count", &declared) != 0)
        return -1;
    e->weighted = !pace;
    if (edges_reserve(e, initial_capacity(declared)) != 0)
        return fail(r, "out of memory");

    while ((rc = next_data_line(r, 'c', &f)) == 1) {
        uint32_t u, v;
        uint64_t w = 0;

        if (pace) {
            if (f.count != 2)
                return fail_at(r, r->lineno, "expected 'u v' edge line");
            if (get_node(r, &f, 0, 1, nodes, &u) != 0 || get_node(r, &f, 1, 1, nodes, &v) != 0)
                return -1;
        } else {
            if (f.count != 4 || !field_is(&f, 0, "a"))
                return fail_at(r, r->lineno, "expected 'a u v w' arc line");
            if (get_node(r, &f, 1, 1, nodes, &u) != 0 || get_node(r, &f, 2, 1, nodes, &v) != 0 ||
                get_count(r, &f, 3, UINT32_MAX, "weight", &w) != 0)
                return -1;
        }
        found++;
        if (push_or_fail(r, e, u, v, (uint32_t)w) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (found != declared)
        return fail_at(r, header_line, "expected %llu %s, found %llu", (unsigned long long)declared,
                       pace ? "edges" : "arcs", (unsigned long long)found);
    g->has_weights = !pace;
    g->first_id = 1;
    return build_from_file(r, g, (uint32_t)nodes, e, pace);
}

/* The N of a SNAP "# Nodes: N Edges: M" comment, or 0. */
static uint64_t snap_declared_nodes(const char *comment)
{
    const char *p = strstr(comment, "Nodes:");
    uint64_t v = 0;
    size_t len = 0;

    if (p == NULL)
        return 0;
    p = skip_blanks(p + strlen("Nodes:"));
    while (p[len] >= '0' && p[len] <= '9')
        len++;
    if (parse_u64(p, len, &v) != NUMBER_OK || v > UINT32_MAX)
        return 0;
    return v;
}

static int read_snap(struct reader *r, graph *g, struct edge_list *e)
{
    struct fields f;
    uint64_t declared_nodes = 0, n = 0;
    int rc;

    while ((rc = next_line(r)) == 1) {
        uint32_t u, v;

        if (*skip_blanks(r->line) == '#') {
            uint64_t declared = snap_declared_nodes(r->line);
            if (declared > declared_nodes)
                declared_nodes = declared;
            continue;
        }
        split(r->line, r->line_len, &f);
        if (f.count == 0)
            continue;
        if (f.count != 2)
            return fail_at(r, r->lineno, "expected 'u v' edge line");
        if (get_node(r, &f, 0, 0, UINT32_MAX - 1, &u) != 0 ||
            get_node(r, &f, 1, 0, UINT32_MAX - 1, &v) != 0)
            return -1;
        if ((uint64_t)u + 1 > n)
            n = (uint64_t)u + 1;
        if ((uint64_t)v + 1 > n)
            n = (uint64_t)v + 1;
        if (push_or_fail(r, e, u, v, 0) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (declared_nodes > n)
        n = declared_nodes;
    g->first_id = 0;
    return build_from_file(r, g, (uint32_t)n, e, 0);
}

/* MatrixMarket body with neither banner nor size line: "row col" lines,
 * 1-based, undirected, n the largest id. */
static int read_mtx_body(struct reader *r, graph *g, struct edge_list *e)
{
    struct fields f;
    uint32_t n = 0;
    int rc;

    while ((rc = next_data_line(r, '%', &f)) == 1) {
        uint32_t u, v;

        if (f.count != 2)
            return fail_at(r, r->lineno, "expected 'row col'");
        if (get_node(r, &f, 0, 1, UINT32_MAX, &u) != 0 || get_node(r, &f, 1, 1, UINT32_MAX, &v) != 0)
            return -1;
        if (u + 1 > n)
            n = u + 1;
        if (v + 1 > n)
            n = v + 1;
        if (push_or_fail(r, e, u, v, 0) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    g->first_id = 1;
    return build_from_file(r, g, n, e, 1);
}

static int read_mtx(struct reader *r, graph *g, struct edge_list *e)
{
    char q[QUOTE_BYTES];
    struct fields f;
    uint64_t rows, cols, declared, found = 0, size_line;
    int rc, pattern, integer, undirected;

    if (next_line(r) < 0)
        return -1;
    split(r->line, r->line_len, &f);
    if (f.count != 5 || !field_is_nocase(&f, 0, "%%matrixmarket") || !field_is_nocase(&f, 1, "matrix"))
        return fail_at(r, r->lineno,
                       "expected '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY' header");
    if (!field_is_nocase(&f, 2, "coordinate")) {
        quote(q, sizeof q, f.s[2], f.len[2]);
        return fail_at(r, r->lineno, "unsupported MatrixMarket format '%s', expected 'coordinate'", q);
    }
    pattern = field_is_nocase(&f, 3, "pattern");
    integer = field_is_nocase(&f, 3, "integer");
    if (!pattern && !integer && !field_is_nocase(&f, 3, "real") && !field_is_nocase(&f, 3, "double")) {
        quote(q, sizeof q, f.s[3], f.len[3]);
        return fail_at(r, r->lineno,
                       "unsupported MatrixMarket field '%s', expected pattern, integer or real", q);
    }
    undirected = field_is_nocase(&f, 4, "symmetric") || field_is_nocase(&f, 4, "skew-symmetric");
    if (!undirected && !field_is_nocase(&f, 4, "general")) {
        quote(q, sizeof q, f.s[4], f.len[4]);
        return fail_at(r, r->lineno,
                       "unsupported MatrixMarket symmetry '%s', expected general, symmetric or "
                       "skew-symmetric", q);
    }

    rc = next_data_line(r, '%', &f);
    if (rc < 0)
        return -1;
    if (rc == 0 || f.count != 3)
        return fail_at(r, rc == 0 ? r->lineno + 1 : r->lineno, "expected 'rows cols entries' size line");
    size_line = r->lineno;
    if (get_count(r, &f, 0, UINT32_MAX, "row count", &rows) != 0 ||
        get_count(r, &f, 1, UINT32_MAX, "column count", &cols) != 0 ||
        get_count(r, &f, 2, UINT64_MAX, "entry count", &declared) != 0)
        return -1;
    if (rows != cols)
        return fail_at(r, r->lineno, "matrix is %llux%llu, a graph needs a square one",
                       (unsigned long long)rows, (unsigned long long)cols);
    e->weighted = !pattern;
    if (edges_reserve(e, initial_capacity(declared)) != 0)
        return fail(r, "out of memory");

    while ((rc = next_data_line(r, '%', &f)) == 1) {
        uint32_t u = 0, v = 0, w = 0;

        if (f.count != (pattern ? 2 : 3))
            return fail_at(r, r->lineno, pattern ? "expected 'row col'" : "expected 'row col value'");
        if (get_node(r, &f, 0, 1, rows, &u) != 0 || get_node(r, &f, 1, 1, rows, &v) != 0)
            return -1;
        if (!pattern && get_mtx_weight(r, &f, 2, integer, &w) != 0)
            return -1;
        found++;
        if (push_or_fail(r, e, u, v, w) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (found != declared)
        return fail_at(r, size_line, "expected %llu entries, found %llu",
                       (unsigned long long)declared, (unsigned long long)found);
    g->has_weights = !pattern;
    g->first_id = 1;
    return build_from_file(r, g, (uint32_t)rows, e, undirected);
}

/* ---------------------------------------------------------- detection -- */

enum format { DIMACS, SNAP, MTX, MTX_BODY };

static int ends_with_nocase(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);

    if (len < n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[len - n + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != suffix[i])
            return 0;
    }
    return 1;
}

/* Sets *hint to the format the file name suggests, ignoring a .gz or .xz
 * suffix; returns 0 when the name suggests none. */
static int name_hint(const char *path, enum format *hint)
{
    size_t len = strlen(path);

    if (ends_with_nocase(path, len, ".gz") || ends_with_nocase(path, len, ".xz"))
        len -= 3;
    if (ends_with_nocase(path, len, ".gr"))
        *hint = DIMACS;
    else if (ends_with_nocase(path, len, ".mtx"))
        *hint = MTX;
    else if (ends_with_nocase(path, len, ".txt") || ends_with_nocase(path, len, ".edges") ||
             ends_with_nocase(path, len, ".el"))
        *hint = SNAP;
    else
        return 0;
    return 1;
}

/* Fails on an empty input and on control bytes near the start, which text
 * graph files never have. */
static int check_text(struct reader *r)
{
    while (r->end < SNIFF_BYTES && !r->text_eof)
        if (text_fill(r) != 0)
            return -1;
    if (r->end == 0)
        return fail(r, "empty file");
    for (size_t i = 0; i < r->end && i < SNIFF_BYTES; i++) {
        unsigned char c = (unsigned char)r->text[i];
        if ((c < 0x20 && !(c >= '\t' && c <= '\r')) || c == 0x7f)
            return fail(r, "binary data, not a graph file");
    }
    return 0;
}

/* Chooses the format from the first non-blank line (hinted by the name when
 * that line is bare numbers or unknown), leaving the line to be read again. */
static int detect(struct reader *r, enum format *format)
{
    enum format hint = SNAP;
    int hinted = name_hint(r->path, &hint);
    struct fields f;
    const char *first;
    int rc;

    do {
        rc = next_line(r);
        if (rc <= 0)
            return rc < 0 ? -1 : fail(r, "no graph data");
        split(r->line, r->line_len, &f);
    } while (f.count == 0);
    r->held = 1;

    first = f.s[0];
    if (first[0] == '%')
        *format = (first[1] == '%') ? MTX : MTX_BODY;
    else if (first[0] == '#')
        *format = SNAP;
    else if (first[0] == 'c' || field_is(&f, 0, "p") || field_is(&f, 0, "a"))
        *format = DIMACS;
    else if (first[0] >= '0' && first[0] <= '9')
        *format = hint == DIMACS ? DIMACS : hint == MTX ? MTX_BODY : SNAP;
    else if (hinted)
        *format = hint;
    else
        return fail_at(r, r->lineno,
                       "unrecognised graph format (expected DIMACS, PACE, SNAP or MatrixMarket)");
    return 0;
}

int graph_read(const char *path, graph *g, char *err, size_t errlen)
{
    struct reader r;
    struct edge_list e = {0};
    enum format format = SNAP;
    int rc;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (path == NULL || g == NULL) {
        set_err(err, errlen, "graph_read: path and g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    memset(&r, 0, sizeof r);
    r.path = path;
    r.err = err;
    r.errlen = errlen;

    rc = reader_open(&r);
    if (rc == 0)
        rc = check_text(&r);
    if (rc == 0)
        rc = detect(&r, &format);
    if (rc == 0) {
        switch (format) {
        case DIMACS:
            rc = read_dimacs(&r, g, &e);
            break;
        case SNAP:
            rc = read_snap(&r, g, &e);
            break;
        case MTX:
            rc = read_mtx(&r, g, &e);
            break;
        case MTX_BODY:
            rc = read_mtx_body(&r, g, &e);
            break;
        }
    }
    edges_free(&e);
    reader_close(&r);
    if (rc != 0)
        graph_free(g);
    return rc;
}

int graph_undirected(const graph *g, graph *out, char *err, size_t errlen)
{
    struct edge_list e = {.weighted = g->has_weights};
    enum build_status st = BUILD_NO_MEMORY;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    memset(out, 0, sizeof *out);
    if (edges_reserve(&e, (size_t)g->m) == 0) {
        /* The room is there and a CSR has no self-loops: every push succeeds. */
        for (uint32_t u = 0; u < g->n; u++)
            for (uint32_t i = g->row[u]; i < g->row[u + 1]; i++)
                edges_push(&e, u, g->col[i], g->weight[i]);
        st = build_csr(out, g->n, &e, 1);
    }
    edges_free(&e);
    if (st == BUILD_TOO_MANY_ARCS)
        set_err(err, errlen, "too many arcs (at most %lu)", (unsigned long)UINT32_MAX);
    else if (st == BUILD_NO_MEMORY)
        set_err(err, errlen, "out of memory");
    if (st != BUILD_OK)
        return -1;
    out->has_weights = g->has_weights;
    out->first_id = g->first_id;
    return 0;
}

uint32_t graph_max_degree(const graph *g)
{
    uint32_t most = 0;
    for (uint32_t v = 0; v < g->n; v++)
        if (g->row[v + 1] - g->row[v] > most)
            most = g->row[v + 1] - g->row[v];
    return most;
}

void graph_free(graph *g)
{
    if (g == NULL)
        return;
    free(g->row);
    free(g->col);
    free(g->weight);
    memset(g, 0, sizeof *g);
}

/* --------------------------------------------------------- generators -- */

static uint64_t mix64(uint64_t k)
{
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ULL;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebULL;
    k ^= k >> 31;
    return k;
}

uint32_t graph_default_weight(uint32_t u, uint32_t v)
{
    uint32_t a = u < v ? u : v, b = u < v ? v : u;

    return 1 + (uint32_t)(mix64(((uint64_t)a << 32) | b) % 255);
}

/* splitmix64's step: the state before draw k is the seed plus k steps. */
#define RANDOM_STEP 0x9e3779b97f4a7c15ULL

/* splitmix64: small, fast, and the same sequence on every platform. */
static uint64_t next_random(uint64_t *state)
{
    *state += RANDOM_STEP;
    return mix64(*state);
}

/* Builds an undirected generated graph from e, which lists each edge once or, with
 * `both_ways`, as both its arcs. */
static int build_generated(graph *g, uint32_t n, struct edge_list *e, int both_ways, const char *who, char *err,
                           size_t errlen)
{
    enum build_status st = build_csr(g, n, e, !both_ways);

    if (st == BUILD_TOO_MANY_ARCS) {
        set_err(err, errlen, "%s: too many arcs (at most %lu)", who, (unsigned long)UINT32_MAX);
        return -1;
    }
    if (st == BUILD_NO_MEMORY) {
        set_err(err, errlen, "%s: out of memory", who);
        return -1;
    }
    g->directed = 0;
    g->first_id = 0;
    return 0;
}

/* Bytes a generated graph takes at the most while it is built: per node a label and a row
 * offset; per edge its two ids in the list, then two arcs of 16 bytes each in build_csr. */
static uint64_t generator_peak_bytes(uint64_t nodes, uint64_t edges)
{
    return 8 * nodes + 32 * edges;
}

/* Fails, saying so, when a generated graph (`what`) needs more memory to build than the machine
 * has: better than being killed by the system halfway. */
static int check_memory(const char *who, const char *what, uint64_t nodes, uint64_t edges, char *err,
                        size_t errlen)
{
    const double gib = 1024.0 * 1024.0 * 1024.0;
    long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
    uint64_t need = generator_peak_bytes(nodes, edges);

    if (pages <= 0 || page_bytes <= 0 || need <= (uint64_t)pages * (uint64_t)page_bytes)
        return 0;
    set_err(err, errlen, "%s: %s needs about %.1f GiB of memory to build, more than the %.1f GiB here", who, what,
            (double)need / gib, (double)pages * (double)page_bytes / gib);
    return -1;
}

/* Graph500 quadrant probabilities in 1/65536ths, cumulative: a, a+b, a+b+c. */
enum { RMAT_A_END = 37356, RMAT_B_END = 49807, RMAT_C_END = 62259, RMAT_LEVELS_PER_DRAW = 4 };

/* What adds 2^16 - end to both 32-bit halves of a word. */
static uint64_t rmat_past(uint32_t end)
{
    return ((uint64_t)(0x10000 - end) << 32) | (0x10000 - end);
}

/*
 * Four levels of the recursion from one random word, whose 16-bit lanes (lowest first) are the
 * draws of the four levels. A draw below a_end picks quadrant a (neither bit), below b_end b
 * (v's bit), below c_end c (u's bit), else d (both). Sets bit i of *u_bits and *v_bits for
 * level i. Branch-free: the lanes are spread two by two into 32-bit halves, where adding
 * 2^16 - end carries into bit 16 exactly when the draw is at least end.
 */
static void rmat_levels(uint64_t random, uint32_t *u_bits, uint32_t *v_bits)
{
    const uint64_t lanes = 0x0000ffff0000ffffULL, carries = 0x0001000000010000ULL;
    const uint64_t past_a = rmat_past(RMAT_A_END), past_b = rmat_past(RMAT_B_END), past_c = rmat_past(RMAT_C_END);
    uint64_t even = random & lanes, odd = (random >> 16) & lanes; /* levels 0 and 2, 1 and 3 */
    uint64_t u = ((even + past_b) & carries) >> 16 | ((odd + past_b) & carries) >> 15;
    uint64_t v = (((even + past_a) ^ (even + past_b) ^ (even + past_c)) & carries) >> 16 |
                 (((odd + past_a) ^ (odd + past_b) ^ (odd + past_c)) & carries) >> 15;

    /* Levels 0 and 1 are in bits 0 and 1, levels 2 and 3 in bits 32 and 33. */
    *u_bits = (uint32_t)((u | u >> 30) & 0xf);
    *v_bits = (uint32_t)((v | v >> 30) & 0xf);
}

/* The edges of an R-MAT graph, drawn in parallel: part p draws its share of the edges (the
 * generator's state at its first edge is known: every edge takes the same number of draws), drops
 * self-loops and relabels the rest, in place at the start of its share. */
struct rmat_draws {
    unsigned scale;
    uint64_t state;                  /* before the first edge's draws */
    uint64_t edges;
    const uint32_t *label;
    uint32_t *src, *dst;
    uint64_t kept[MAX_PARTS];        /* edges each part kept */
};

static void rmat_draw_part(void *context, unsigned part, unsigned parts)
{
    struct rmat_draws *d = context;
    uint64_t first = part_start(d->edges, part, parts), end = part_start(d->edges, part + 1, parts), kept = first;
    uint64_t draws_per_edge = (d->scale + RMAT_LEVELS_PER_DRAW - 1) / RMAT_LEVELS_PER_DRAW;
    uint64_t state = d->state + first * draws_per_edge * RANDOM_STEP;

    for (uint64_t k = first; k < end; k++) {
        uint32_t u = 0, v = 0;

        for (unsigned level = 0; level < d->scale; level += RMAT_LEVELS_PER_DRAW) {
            unsigned left = d->scale - level;
            uint32_t keep = left >= RMAT_LEVELS_PER_DRAW ? 0xf : ((uint32_t)1 << left) - 1, u_bits, v_bits;

            rmat_levels(next_random(&state), &u_bits, &v_bits);
            u |= (u_bits & keep) << level;
            v |= (v_bits & keep) << level;
        }
        if (u != v) {
            d->src[kept] = u;
            d->dst[kept] = v;
            kept++;
        }
    }
    /* Labels last: the lookups are independent, so their cache misses overlap. */
    for (uint64_t i = first; i < kept; i++) {
        d->src[i] = d->label[d->src[i]];
        d->dst[i] = d->label[d->dst[i]];
    }
    d->kept[part] = kept - first;
}

int graph_gen_rmat(graph *g, unsigned scale, unsigned edgefactor, uint64_t seed, char *err,
                   size_t errlen)
{
    struct edge_list e = {0};
    struct rmat_draws draws;
    uint64_t state = seed, edges;
    uint32_t n, *label;
    unsigned parts;
    char what[64];
    int rc;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (g == NULL) {
        set_err(err, errlen, "rmat: g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    if (scale < 1 || scale > 31) {
        set_err(err, errlen, "rmat: scale %u out of range 1..31", scale);
        return -1;
    }
    if (edgefactor < 1) {
        set_err(err, errlen, "rmat: edge factor must be at least 1");
        return -1;
    }
    edges = (uint64_t)edgefactor << scale;
    if (2 * edges > UINT32_MAX) {
        set_err(err, errlen, "rmat: %llu edges are too many (at most %lu)",
                (unsigned long long)edges, (unsigned long)(UINT32_MAX / 2));
        return -1;
    }
    n = (uint32_t)1 << scale;
    snprintf(what, sizeof what, "scale %u with edge factor %u", scale, edgefactor);
    if (check_memory("rmat", what, n, edges, err, errlen) != 0)
        return -1;

    label = alloc_u32(n);
    if (label == NULL || edges_reserve(&e, (size_t)edges) != 0) {
        free(label);
        edges_free(&e);
        set_err(err, errlen, "rmat: out of memory");
        return -1;
    }
    /* Shuffled labels, so that node id says nothing about degree. */
    for (uint32_t i = 0; i < n; i++)
        label[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(((next_random(&state) >> 32) * ((uint64_t)i + 1)) >> 32);
        uint32_t t = label[i];
        label[i] = label[j];
        label[j] = t;
    }
    draws = (struct rmat_draws){.scale = scale, .state = state, .edges = edges, .label = label, .src = e.src,
                                .dst = e.dst};
    parts = parallel_parts(edges);
    parallel_run(rmat_draw_part, &draws, parts);
    /* Each part's edges after the last part's: the order one part would have drawn them in. */
    for (unsigned part = 0; part < parts; part++) {
        uint64_t first = part_start(edges, part, parts);
        memmove(e.src + e.len, e.src + first, draws.kept[part] * sizeof *e.src);
        memmove(e.dst + e.len, e.dst + first, draws.kept[part] * sizeof *e.dst);
        e.len += draws.kept[part];
    }
    free(label);
    rc = build_generated(g, n, &e, 0, "rmat", err, errlen);
    edges_free(&e);
    return rc;
}

int graph_gen_grid(graph *g, unsigned w, unsigned h, char *err, size_t errlen)
{
    struct edge_list e = {0};
    uint64_t nodes = (uint64_t)w * h, edges;
    char what[64];
    int rc;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (g == NULL) {
        set_err(err, errlen, "grid: g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    if (w < 1 || h < 1) {
        set_err(err, errlen, "grid: %ux%u has no nodes (width and height must be at least 1)", w, h);
        return -1;
    }
    if (nodes > UINT32_MAX) {
        set_err(err, errlen, "grid: %ux%u has too many nodes (at most %lu)", w, h,
                (unsigned long)UINT32_MAX);
        return -1;
    }
    edges = (uint64_t)(w - 1) * h + (uint64_t)w * (h - 1);
    if (2 * edges > UINT32_MAX) {
        set_err(err, errlen, "grid: %ux%u has too many arcs (at most %lu)", w, h,
                (unsigned long)UINT32_MAX);
        return -1;
    }
    snprintf(what, sizeof what, "%ux%u", w, h);
    if (check_memory("grid", what, nodes, edges, err, errlen) != 0)
        return -1;
    if (edges_reserve(&e, (size_t)(2 * edges)) != 0) {
        set_err(err, errlen, "grid: out of memory");
        return -1;
    }
    /* Both arcs of every edge, in the CSR's order: the sort finds every bucket sorted. */
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t u = y * w + x;
            if (y > 0)
                edges_push(&e, u, u - w, 0);
            if (x > 0)
                edges_push(&e, u, u - 1, 0);
            if (x + 1 < w)
                edges_push(&e, u, u + 1, 0);
            if (y + 1 < h)
                edges_push(&e, u, u + w, 0);
        }
    }
    rc = build_generated(g, (uint32_t)nodes, &e, 1, "grid", err, errlen);
    edges_free(&e);
    return rc;
}

/* Splits "a:b:c" after the prefix into up to max decimal numbers; returns
 * how many, or -1 when a part is empty, not decimal or too large. */
static int parse_spec_numbers(const char *s, uint64_t *numbers, int max)
{
    int count = 0;

    for (;;) {
        size_t len = strcspn(s, ":");

        if (count == max || parse_u64(s, len, &numbers[count]) != NUMBER_OK)
            return -1;
        count++;
        if (s[len] == '\0')
            return count;
        s += len + 1;
    }
}

int graph_parse_gen(const char *spec, graph *g, char *err, size_t errlen)
{
    static const char rmat_usage[] = "expected 'rmat:SCALE:EF' or 'rmat:SCALE:EF:SEED'";
    static const char grid_usage[] = "expected 'grid:W:H'";
    char q[QUOTE_BYTES];
    uint64_t numbers[3];
    int count;

    if (spec == NULL || g == NULL) {
        set_err(err, errlen, "graph_parse_gen: spec and g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    quote(q, sizeof q, spec, strlen(spec));
    if (strncmp(spec, "rmat:", 5) == 0) {
        count = parse_spec_numbers(spec + 5, numbers, 3);
        if (count < 2 || numbers[0] > UINT_MAX || numbers[1] > UINT_MAX) {
            set_err(err, errlen, "bad generator spec '%s': %s", q, rmat_usage);
            return -1;
        }
        return graph_gen_rmat(g, (unsigned)numbers[0], (unsigned)numbers[1],
                              count == 3 ? numbers[2] : 1, err, errlen);
    }
    if (strncmp(spec, "grid:", 5) == 0) {
        count = parse_spec_numbers(spec + 5, numbers, 2);
        if (count != 2 || numbers[0] > UINT_MAX || numbers[1] > UINT_MAX) {
            set_err(err, errlen, "bad generator spec '%s': %s", q, grid_usage);
            return -1;
        }
        return graph_gen_grid(g, (unsigned)numbers[0], (unsigned)numbers[1], err, errlen);
    }
    set_err(err, errlen, "bad generator spec '%s': expected 'rmat:SCALE:EF[:SEED]' or 'grid:W:H'", q);
    return -1;
}
