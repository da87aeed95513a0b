/*
 * test_graph.c - tests for the graph readers and generators (graph.h, host/common/graph*.c).
 *
 * Run from the repository root: the hand-written inputs are read from
 * tests/data/graphs/, the real graphs from ../shared/graphs/ (skipped with a
 * note when that folder is absent). Compressed and binary inputs are made at
 * test time in a temporary folder, with zlib and liblzma.
 */
#define _POSIX_C_SOURCE 200809L

#include "graph.h"

#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <lzma.h>
#include <zlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DATA "tests/data/graphs/"
#define BAD DATA "bad/"
#define REAL "../shared/graphs/"

enum { ERR_BYTES = 512, PATH_BYTES = 256 };

/* ------------------------------------------------------------ helpers -- */

/* Per-test scratch folder (the fixture runs in each forked test). */
static char scratch[PATH_BYTES];

static void scratch_create(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/test_graph.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void scratch_remove(void)
{
    DIR *dir = opendir(scratch);
    struct dirent *entry;
    char path[2 * PATH_BYTES];

    if (dir == NULL)
        return;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", scratch, entry->d_name);
        unlink(path);
    }
    closedir(dir);
    rmdir(scratch);
}

static void scratch_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", scratch, name);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}


static unsigned char *gzip_bytes(const unsigned char *in, size_t len, size_t *out_len)
{
    z_stream z;
    unsigned char *out;
    size_t cap;

    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    cap = deflateBound(&z, (uLong)len) + 32;
    out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

static unsigned char *xz_bytes(const unsigned char *in, size_t len, size_t *out_len)
{
    size_t cap = lzma_stream_buffer_bound(len);
    unsigned char *out = malloc(cap);

    ck_assert_ptr_nonnull(out);
    *out_len = 0;
    ck_assert_int_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, in, len, out, out_len, cap),
                     LZMA_OK);
    return out;
}

/* Writes the file at src, compressed with compress, to the scratch file name. */
static void write_compressed(const char *src, const char *name, char *path, size_t cap,
                             unsigned char *(*compress)(const unsigned char *, size_t, size_t *))
{
    size_t len, packed_len;
    unsigned char *plain = (unsigned char *)tu_read_file(src, &len);
    unsigned char *packed = compress(plain, len, &packed_len);

    scratch_path(path, cap, name);
    write_bytes(path, packed, packed_len);
    free(plain);
    free(packed);
}

static void read_ok(const char *path, graph *g)
{
    char err[ERR_BYTES];
    int rc = graph_read(path, g, err, sizeof err);

    ck_assert_msg(rc == 0, "graph_read(%s) failed: %s", path, err);
    ck_assert_str_eq(err, "");
}

/* Reads path, which must fail with exactly "<path><what>" and leave g zeroed. */
static void expect_read_error(const char *path, const char *what)
{
    graph g;
    char err[ERR_BYTES], expected[ERR_BYTES];

    memset(&g, 0xab, sizeof g);
    snprintf(expected, sizeof expected, "%s%s", path, what);
    ck_assert_int_eq(graph_read(path, &g, err, sizeof err), -1);
    ck_assert_str_eq(err, expected);
    ck_assert_ptr_null(g.row);
    ck_assert_ptr_null(g.col);
    ck_assert_ptr_null(g.weight);
    ck_assert_uint_eq(g.n, 0);
    ck_assert_uint_eq(g.m, 0);
}

static int has_arc(const graph *g, uint32_t u, uint32_t v, uint32_t *weight)
{
    uint32_t lo = g->row[u], hi = g->row[u + 1];

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->col[mid] == v) {
            *weight = g->weight[mid];
            return 1;
        }
        if (g->col[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* The first way g breaks the CSR invariants, written to why; 0 if none.
 * Every graph must have offsets rising from 0 to m, lists strictly
 * increasing (sorted, no repeats), no self-loops, default weights where the
 * file had none, and, when undirected, every arc matched by its reverse with
 * the same weight. (Checked in plain C and asserted once: a Check assertion
 * per arc costs a pipe write each in forked mode.) */
static int csr_violation(const graph *g, char *why, size_t cap)
{
    if (g->row == NULL || g->row[0] != 0 || g->row[g->n] != g->m) {
        snprintf(why, cap, "row is missing or does not run from 0 to m");
        return 1;
    }
    for (uint32_t u = 0; u < g->n; u++) {
        if (g->row[u] > g->row[u + 1]) {
            snprintf(why, cap, "row[%u] > row[%u]", u, u + 1);
            return 1;
        }
        for (uint32_t i = g->row[u]; i < g->row[u + 1]; i++) {
            uint32_t v = g->col[i], back;
            if (v >= g->n || v == u || (i > g->row[u] && g->col[i - 1] >= v)) {
                snprintf(why, cap, "arc %u->%u is out of range, a self-loop or out of order", u, v);
                return 1;
            }
            if (!g->has_weights && g->weight[i] != graph_default_weight(u, v)) {
                snprintf(why, cap, "arc %u->%u has weight %u, not the default", u, v, g->weight[i]);
                return 1;
            }
            if (!g->directed && (!has_arc(g, v, u, &back) || back != g->weight[i])) {
                snprintf(why, cap, "arc %u->%u has no reverse of the same weight", u, v);
                return 1;
            }
        }
    }
    return 0;
}

static void expect_valid(const graph *g)
{
    char why[ERR_BYTES];

    ck_assert_msg(!csr_violation(g, why, sizeof why), "%s", why);
}

static void expect_flags(const graph *g, int directed, int has_weights, uint32_t first_id)
{
    ck_assert_int_eq(g->directed, directed);
    ck_assert_int_eq(g->has_weights, has_weights);
    ck_assert_uint_eq(g->first_id, first_id);
}

/* Compares g with an expected CSR; weight NULL means default weights. */
static void expect_csr(const graph *g, uint32_t n, const uint32_t *row, const uint32_t *col,
                       const uint32_t *weight)
{
    ck_assert_uint_eq(g->n, n);
    ck_assert_uint_eq(g->m, row[n]);
    expect_valid(g);
    for (uint32_t u = 0; u <= n; u++)
        ck_assert_msg(g->row[u] == row[u], "row[%u] = %u, expected %u", u, g->row[u], row[u]);
    for (uint32_t i = 0; i < row[n]; i++) {
        ck_assert_msg(g->col[i] == col[i], "col[%u] = %u, expected %u", i, g->col[i], col[i]);
        if (weight != NULL)
            ck_assert_msg(g->weight[i] == weight[i], "weight[%u] = %u, expected %u", i,
                          g->weight[i], weight[i]);
    }
}

static void expect_same_graph(const graph *a, const graph *b)
{
    ck_assert_uint_eq(a->n, b->n);
    ck_assert_uint_eq(a->m, b->m);
    ck_assert_int_eq(a->directed, b->directed);
    ck_assert_int_eq(a->has_weights, b->has_weights);
    ck_assert_uint_eq(a->first_id, b->first_id);
    ck_assert_mem_eq(a->row, b->row, ((size_t)a->n + 1) * sizeof *a->row);
    ck_assert_mem_eq(a->col, b->col, (size_t)a->m * sizeof *a->col);
    ck_assert_mem_eq(a->weight, b->weight, (size_t)a->m * sizeof *a->weight);
}

/* ------------------------------------------------------------ formats -- */

START_TEST(test_dimacs_sp)
{
    /* 1->2 is given twice (10, then 7): the smaller weight stays; 4->4 goes. */
    static const uint32_t row[] = {0, 2, 3, 4, 5};
    static const uint32_t col[] = {1, 2, 2, 3, 0};
    static const uint32_t weight[] = {7, 4, 1, 2, 9};
    graph g;

    read_ok(DATA "tiny.sp.gr", &g);
    expect_csr(&g, 4, row, col, weight);
    expect_flags(&g, 1, 1, 1);
    graph_free(&g);
}
END_TEST

START_TEST(test_pace)
{
    static const uint32_t row[] = {0, 2, 4, 6, 7, 8};
    static const uint32_t col[] = {1, 2, 0, 2, 0, 1, 4, 3};
    graph g;

    read_ok(DATA "tiny.pace.gr", &g);
    expect_csr(&g, 5, row, col, NULL);
    expect_flags(&g, 0, 0, 1);
    graph_free(&g);
}
END_TEST

START_TEST(test_snap_crlf)
{
    /* "# Nodes: 6" gives n = 6 although the largest id is 4; the self-loop
     * 2->2 and the second 0->1 are dropped; "3 4" is space-separated. */
    static const uint32_t row[] = {0, 2, 3, 4, 5, 5, 5};
    static const uint32_t col[] = {1, 2, 2, 0, 4};
    size_t len;
    unsigned char *bytes = (unsigned char *)tu_read_file(DATA "tiny-crlf.snap.txt", &len);
    graph g;

    bytes[len] = '\0';
    ck_assert_msg(strstr((char *)bytes, "\r\n") != NULL, "tiny-crlf.snap.txt lost its CRLF line ends");
    free(bytes);

    read_ok(DATA "tiny-crlf.snap.txt", &g);
    expect_csr(&g, 6, row, col, NULL);
    expect_flags(&g, 1, 0, 0);
    graph_free(&g);
}
END_TEST

START_TEST(test_mtx_integer_symmetric)
{
    /* -3 becomes weight 3; the diagonal entry 3 3 is dropped. */
    static const uint32_t row[] = {0, 2, 3, 5, 6};
    static const uint32_t col[] = {1, 2, 0, 0, 3, 2};
    static const uint32_t weight[] = {5, 3, 5, 3, 8, 8};
    graph g;

    read_ok(DATA "tiny.int-sym.mtx", &g);
    expect_csr(&g, 4, row, col, weight);
    expect_flags(&g, 0, 1, 1);
    graph_free(&g);
}
END_TEST

START_TEST(test_mtx_real_general)
{
    /* 2.4 -> 2, 0.2 -> 1, 7.5 -> 8, -3.0e0 -> 3, 1e-3 -> 1. */
    static const uint32_t row[] = {0, 2, 3, 5};
    static const uint32_t col[] = {1, 2, 2, 0, 1};
    static const uint32_t weight[] = {2, 1, 8, 3, 1};
    graph g;

    read_ok(DATA "tiny.real-general.mtx", &g);
    expect_csr(&g, 3, row, col, weight);
    ck_assert_int_eq(g.directed, 1);
    ck_assert_int_eq(g.has_weights, 1);
    graph_free(&g);
}
END_TEST

START_TEST(test_mtx_pattern_symmetric)
{
    /* 1-2 is given from both triangles and is stored once each way. */
    static const uint32_t row[] = {0, 1, 3, 4};
    static const uint32_t col[] = {1, 0, 2, 1};
    graph g;

    read_ok(DATA "tiny.pattern-sym.mtx", &g);
    expect_csr(&g, 3, row, col, NULL);
    ck_assert_int_eq(g.directed, 0);
    ck_assert_int_eq(g.has_weights, 0);
    graph_free(&g);
}
END_TEST

START_TEST(test_mtx_body_without_header)
{
    /* n is the largest id, 5; pairs are 1-based and undirected. */
    static const uint32_t row[] = {0, 2, 3, 4, 5, 6};
    static const uint32_t col[] = {1, 2, 0, 0, 4, 3};
    graph g;

    read_ok(DATA "tiny.noheader.mtx", &g);
    expect_csr(&g, 5, row, col, NULL);
    expect_flags(&g, 0, 0, 1);
    graph_free(&g);
}
END_TEST

START_TEST(test_bare_pairs_outside_mtx_are_snap)
{
    /* The same lines as tiny.noheader.mtx, named .txt: 0-based, directed. */
    static const uint32_t row[] = {0, 0, 0, 1, 2, 2, 3};
    static const uint32_t col[] = {1, 1, 4};
    graph g;

    read_ok(DATA "tiny.pairs.txt", &g);
    expect_csr(&g, 6, row, col, NULL);
    ck_assert_int_eq(g.directed, 1);
    ck_assert_uint_eq(g.first_id, 0);
    graph_free(&g);
}
END_TEST

START_TEST(test_isolated_nodes_after_last_arc)
{
    /* Nodes past the largest id in use still get (empty) rows. */
    graph g;

    read_ok(DATA "isolated-tail.gr", &g);
    ck_assert_uint_eq(g.n, 1000000);
    ck_assert_uint_eq(g.m, 1);
    ck_assert_uint_eq(g.row[1], 1);
    ck_assert_uint_eq(g.row[2], 1);
    ck_assert_uint_eq(g.row[1000000], 1);
    ck_assert_uint_eq(g.col[0], 1);
    ck_assert_uint_eq(g.weight[0], 5);
    expect_valid(&g);
    graph_free(&g);
}
END_TEST

START_TEST(test_graph_free_zeroes)
{
    graph g;

    read_ok(DATA "tiny.pace.gr", &g);
    graph_free(&g);
    ck_assert_ptr_null(g.row);
    ck_assert_uint_eq(g.n, 0);
    graph_free(&g);
    graph_free(NULL);
}
END_TEST

START_TEST(test_undirected)
{
    /* 0 -> 1 (5), 1 -> 0 (3), 1 -> 2 (8): the pair keeps the smaller weight both ways. */
    static uint32_t row[] = {0, 1, 3, 3}, col[] = {1, 0, 2}, weight[] = {5, 3, 8};
    static const uint32_t undirected_row[] = {0, 1, 3, 4}, undirected_col[] = {1, 0, 2, 1};
    static const uint32_t undirected_weight[] = {3, 3, 8, 8};
    const graph directed = {.n = 3, .m = 3, .row = row, .col = col, .weight = weight, .has_weights = 1,
                            .directed = 1, .first_id = 1};
    char err[ERR_BYTES];
    graph g, same;

    ck_assert_int_eq(graph_undirected(&directed, &g, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    expect_csr(&g, 3, undirected_row, undirected_col, undirected_weight);
    expect_flags(&g, 0, 1, 1);
    graph_free(&g);

    /* An undirected graph stays as it is. */
    ck_assert_int_eq(graph_gen_rmat(&g, 10, 8, 1, err, sizeof err), 0);
    ck_assert_int_eq(graph_undirected(&g, &same, err, sizeof err), 0);
    expect_same_graph(&g, &same);
    graph_free(&g);
    graph_free(&same);
}
END_TEST

/* -------------------------------------------------------- compression -- */

static const char *const tiny_files[] = {
    "tiny.sp.gr",           "tiny.pace.gr",          "tiny-crlf.snap.txt",
    "tiny.int-sym.mtx",     "tiny.real-general.mtx", "tiny.pattern-sym.mtx",
    "tiny.noheader.mtx",
};

static void expect_compressed_same(const char *name, const char *suffix,
                                   unsigned char *(*compress)(const unsigned char *, size_t, size_t *))
{
    char src[PATH_BYTES], packed_name[PATH_BYTES], path[2 * PATH_BYTES];
    graph plain, packed;

    snprintf(src, sizeof src, DATA "%s", name);
    snprintf(packed_name, sizeof packed_name, "%s%s", name, suffix);
    write_compressed(src, packed_name, path, sizeof path, compress);
    read_ok(src, &plain);
    read_ok(path, &packed);
    expect_same_graph(&plain, &packed);
    graph_free(&plain);
    graph_free(&packed);
}

START_TEST(test_gzip_tiny)
{
    expect_compressed_same(tiny_files[_i], ".gz", gzip_bytes);
}
END_TEST

START_TEST(test_xz_tiny)
{
    expect_compressed_same(tiny_files[_i], ".xz", xz_bytes);
}
END_TEST

START_TEST(test_compression_found_by_content)
{
    /* No .gz/.xz in the names: the magic bytes decide. */
    char gz_path[2 * PATH_BYTES], xz_path[2 * PATH_BYTES];
    graph plain, from_gz, from_xz;

    write_compressed(DATA "tiny.sp.gr", "gz-inside.gr", gz_path, sizeof gz_path, gzip_bytes);
    write_compressed(DATA "tiny.sp.gr", "xz-inside.gr", xz_path, sizeof xz_path, xz_bytes);
    read_ok(DATA "tiny.sp.gr", &plain);
    read_ok(gz_path, &from_gz);
    read_ok(xz_path, &from_xz);
    expect_same_graph(&plain, &from_gz);
    expect_same_graph(&plain, &from_xz);
    graph_free(&plain);
    graph_free(&from_gz);
    graph_free(&from_xz);
}
END_TEST

START_TEST(test_gzip_multi_member)
{
    /* `cat a.gz b.gz` is one valid gzip file holding both texts. */
    static const char head[] = "p tw 3 2\n1 2\n";
    static const char tail[] = "2 3\n";
    static const uint32_t row[] = {0, 1, 3, 4};
    static const uint32_t col[] = {1, 0, 2, 1};
    size_t head_len, tail_len;
    unsigned char *a = gzip_bytes((const unsigned char *)head, strlen(head), &head_len);
    unsigned char *b = gzip_bytes((const unsigned char *)tail, strlen(tail), &tail_len);
    unsigned char *both = malloc(head_len + tail_len);
    char path[2 * PATH_BYTES];
    graph g;

    ck_assert_ptr_nonnull(both);
    memcpy(both, a, head_len);
    memcpy(both + head_len, b, tail_len);
    scratch_path(path, sizeof path, "two-members.gr.gz");
    write_bytes(path, both, head_len + tail_len);
    read_ok(path, &g);
    expect_csr(&g, 3, row, col, NULL);
    graph_free(&g);
    free(a);
    free(b);
    free(both);
}
END_TEST

/* Drops the last cut bytes of the file at path. */
static void truncate_file(const char *path, size_t cut)
{
    size_t len;
    unsigned char *bytes = (unsigned char *)tu_read_file(path, &len);

    ck_assert_uint_gt(len, cut);
    write_bytes(path, bytes, len - cut);
    free(bytes);
}

/* Inverts one byte of the file at path; a negative offset counts from the end. */
static void flip_byte(const char *path, long offset)
{
    size_t len;
    unsigned char *bytes = (unsigned char *)tu_read_file(path, &len);
    size_t at = offset < 0 ? len - (size_t)-offset : (size_t)offset;

    ck_assert_uint_lt(at, len);
    bytes[at] ^= 0xff;
    write_bytes(path, bytes, len);
    free(bytes);
}

START_TEST(test_truncated_gzip)
{
    char path[2 * PATH_BYTES];

    /* Only the CRC and size trailer missing. */
    write_compressed(DATA "tiny.sp.gr", "trailer.gr.gz", path, sizeof path, gzip_bytes);
    truncate_file(path, 8);
    expect_read_error(path, ": truncated gzip data");
    /* Cut in the middle of the deflate data. */
    write_compressed(DATA "tiny.sp.gr", "half.gr.gz", path, sizeof path, gzip_bytes);
    truncate_file(path, 60);
    expect_read_error(path, ": truncated gzip data");
    /* Nothing but the magic. */
    write_bytes(path, "\x1f\x8b", 2);
    expect_read_error(path, ": truncated gzip data");
}
END_TEST

START_TEST(test_corrupt_gzip)
{
    char path[2 * PATH_BYTES];

    /* Byte 2 is the compression method, 8 (deflate) in every gzip file. */
    write_compressed(DATA "tiny.sp.gr", "method.gr.gz", path, sizeof path, gzip_bytes);
    flip_byte(path, 2);
    expect_read_error(path, ": corrupt gzip data");
    /* The trailer starts with the CRC-32 of the text. */
    write_compressed(DATA "tiny.sp.gr", "crc.gr.gz", path, sizeof path, gzip_bytes);
    flip_byte(path, -8);
    expect_read_error(path, ": corrupt gzip data");
}
END_TEST

START_TEST(test_gzip_of_empty_file)
{
    char path[2 * PATH_BYTES];

    write_compressed(DATA "empty.txt", "empty.txt.gz", path, sizeof path, gzip_bytes);
    expect_read_error(path, ": empty file");
}
END_TEST

START_TEST(test_truncated_xz)
{
    char path[2 * PATH_BYTES];

    /* Only the stream footer missing. */
    write_compressed(DATA "tiny.sp.gr", "footer.gr.xz", path, sizeof path, xz_bytes);
    truncate_file(path, 12);
    expect_read_error(path, ": truncated xz data");
    /* Cut in the middle of the compressed block. */
    write_compressed(DATA "tiny.sp.gr", "half.gr.xz", path, sizeof path, xz_bytes);
    truncate_file(path, 80);
    expect_read_error(path, ": truncated xz data");
    /* Nothing but the magic. */
    write_bytes(path, "\xfd\x37\x7a\x58\x5a\x00", 6);
    expect_read_error(path, ": truncated xz data");
}
END_TEST

START_TEST(test_corrupt_xz)
{
    char path[2 * PATH_BYTES];

    /* Byte 7 is in the stream flags, which the header CRC covers. */
    write_compressed(DATA "tiny.sp.gr", "flags.gr.xz", path, sizeof path, xz_bytes);
    flip_byte(path, 7);
    expect_read_error(path, ": corrupt xz data");
    /* A byte in the middle of the compressed block. */
    write_compressed(DATA "tiny.sp.gr", "block.gr.xz", path, sizeof path, xz_bytes);
    flip_byte(path, 40);
    expect_read_error(path, ": corrupt xz data");
}
END_TEST

/* ------------------------------------------------------------- errors -- */

struct bad_input {
    const char *path;
    const char *what; /* the message after the path */
};

static const struct bad_input bad_inputs[] = {
    {BAD "wrong-header.gr", ":2: expected 'p sp N M' header"},
    {BAD "arc-before-header.gr", ":1: expected 'p sp N M' header"},
    {BAD "only-comments.gr", ":2: expected 'p sp N M' header"},
    {DATA "pairs-without-header.gr", ":1: expected 'p sp N M' header"},
    {BAD "short-pace-header.gr", ":1: expected 'p tw N M' header"},
    {BAD "missing-arcs.gr", ":2: expected 5 arcs, found 3"},
    {BAD "extra-edge.gr", ":1: expected 2 edges, found 3"},
    {BAD "bad-number.gr", ":3: bad number 'x3'"},
    {BAD "out-of-range.gr", ":3: node 70 out of range 1..5"},
    {BAD "node-zero.gr", ":2: node 0 out of range 1..3"},
    {BAD "short-arc.gr", ":2: expected 'a u v w' arc line"},
    {BAD "negative-weight.gr", ":2: bad number '-4'"},
    {BAD "huge-weight.gr", ":2: weight 4294967296 too large (at most 4294967295)"},
    {BAD "huge-node-count.gr", ":1: node count 4294967296 too large (at most 4294967295)"},
    {BAD "three-field-edge.gr", ":2: expected 'u v' edge line"},
    {BAD "bad-number.txt", ":3: bad number 'x'"},
    {BAD "three-columns.txt", ":1: expected 'u v' edge line"},
    {BAD "id-too-large.txt", ":1: node 4294967295 out of range 0..4294967294"},
    {BAD "id-overflow.txt", ":1: node 99999999999999999999999 out of range 0..4294967294"},
    {BAD "short-banner.mtx", ":1: expected '%%MatrixMarket matrix coordinate FIELD SYMMETRY' header"},
    {BAD "array.mtx", ":1: unsupported MatrixMarket format 'array', expected 'coordinate'"},
    {BAD "complex.mtx", ":1: unsupported MatrixMarket field 'complex', expected pattern, integer or real"},
    {BAD "hermitian.mtx",
     ":1: unsupported MatrixMarket symmetry 'hermitian', expected general, symmetric or skew-symmetric"},
    {BAD "no-size-line.mtx", ":3: expected 'rows cols entries' size line"},
    {BAD "not-square.mtx", ":2: matrix is 3x4, a graph needs a square one"},
    {BAD "missing-entries.mtx", ":2: expected 3 entries, found 2"},
    {BAD "out-of-range.mtx", ":4: node 5 out of range 1..4"},
    {BAD "pattern-with-value.mtx", ":3: expected 'row col'"},
    {BAD "real-without-value.mtx", ":3: expected 'row col value'"},
    {BAD "bad-real.mtx", ":3: bad number '1.5.2'"},
    {BAD "nan.mtx", ":3: bad number 'nan'"},
    {BAD "fraction-in-integer.mtx", ":3: bad number '2.5'"},
    {BAD "zero-id.noheader.mtx", ":2: node 0 out of range 1..4294967295"},
    {BAD "three-columns.noheader.mtx", ":2: expected 'row col'"},
    {DATA "empty.txt", ": empty file"},
    {DATA "blank.txt", ": no graph data"},
    {DATA "unknown.dat", ":1: unrecognised graph format (expected DIMACS, PACE, SNAP or MatrixMarket)"},
    {DATA "no-such-file.gr", ": No such file or directory"},
    {"tests/data/graphs", ": Is a directory"},
};

START_TEST(test_bad_input)
{
    expect_read_error(bad_inputs[_i].path, bad_inputs[_i].what);
}
END_TEST

START_TEST(test_binary_junk)
{
    static const unsigned char junk[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0xde, 0xad, '\n'};
    char path[2 * PATH_BYTES];

    scratch_path(path, sizeof path, "junk.gr");
    write_bytes(path, junk, sizeof junk);
    expect_read_error(path, ": binary data, not a graph file");
}
END_TEST

START_TEST(test_nul_byte_later_in_file)
{
    /* Past the first 4 KiB a NUL is reported where it is, as a bad number. */
    char path[2 * PATH_BYTES], what[64];
    size_t len = 0;
    unsigned line = 1;
    char *text = malloc(8192);

    ck_assert_ptr_nonnull(text);
    len += (size_t)sprintf(text, "p tw 2 1\n");
    while (len < 4100) {
        len += (size_t)sprintf(text + len, "1 2\n");
        line++;
    }
    memcpy(text + len, "1 \0002\n", 5);
    len += 5;
    line++;
    scratch_path(path, sizeof path, "nul.gr");
    write_bytes(path, text, len);
    snprintf(what, sizeof what, ":%u: bad number '\\x002'", line);
    expect_read_error(path, what);
    free(text);
}
END_TEST

START_TEST(test_line_too_long)
{
    char path[2 * PATH_BYTES];
    size_t len = ((size_t)1 << 20) + 10;
    char *text = malloc(len);

    ck_assert_ptr_nonnull(text);
    memset(text, 'x', len);
    memcpy(text, "# ", 2);
    text[len - 1] = '\n';
    scratch_path(path, sizeof path, "long.txt");
    write_bytes(path, text, len);
    expect_read_error(path, ":1: line longer than 1048576 bytes");
    free(text);
}
END_TEST

START_TEST(test_error_buffer_handling)
{
    graph g;
    char err[12];

    /* Messages are cut to fit, always NUL-terminated; err may be absent. */
    memset(err, 'z', sizeof err);
    ck_assert_int_eq(graph_read(BAD "bad-number.gr", &g, err, sizeof err), -1);
    ck_assert_str_eq(err, "tests/data/");
    ck_assert_int_eq(graph_read(BAD "bad-number.gr", &g, NULL, 0), -1);
    ck_assert_int_eq(graph_read(NULL, &g, err, sizeof err), -1);
    ck_assert_str_eq(err, "graph_read:");
    ck_assert_int_eq(graph_read(DATA "tiny.sp.gr", NULL, NULL, 0), -1);
}
END_TEST

/* --------------------------------------------------------- generators -- */

START_TEST(test_grid)
{
    /* 4 x 3, node y*4 + x:   0  1  2  3
     *                         4  5  6  7
     *                         8  9 10 11 */
    static const uint32_t row[] = {0, 2, 5, 8, 10, 13, 17, 21, 24, 26, 29, 32, 34};
    static const uint32_t col[] = {
        1, 4,        /* 0 */
        0, 2, 5,     /* 1 */
        1, 3, 6,     /* 2 */
        2, 7,        /* 3 */
        0, 5, 8,     /* 4 */
        1, 4, 6, 9,  /* 5 */
        2, 5, 7, 10, /* 6 */
        3, 6, 11,    /* 7 */
        4, 9,        /* 8 */
        5, 8, 10,    /* 9 */
        6, 9, 11,    /* 10 */
        7, 10,       /* 11 */
    };
    char err[ERR_BYTES];
    graph g;

    ck_assert_int_eq(graph_gen_grid(&g, 4, 3, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    expect_csr(&g, 12, row, col, NULL);
    expect_flags(&g, 0, 0, 0);
    ck_assert_uint_eq(graph_max_degree(&g), 4); /* nodes 5 and 6 */
    graph_free(&g);

    ck_assert_int_eq(graph_gen_grid(&g, 1, 1, err, sizeof err), 0);
    ck_assert_uint_eq(g.n, 1);
    ck_assert_uint_eq(g.m, 0);
    expect_valid(&g);
    ck_assert_uint_eq(graph_max_degree(&g), 0); /* no arc at all */
    graph_free(&g);

    ck_assert_int_eq(graph_gen_grid(&g, 5, 1, err, sizeof err), 0);
    ck_assert_uint_eq(graph_max_degree(&g), 2); /* a path: its inner nodes */
    graph_free(&g);
}
END_TEST

START_TEST(test_grid_errors)
{
    char err[ERR_BYTES];
    graph g;

    ck_assert_int_eq(graph_gen_grid(&g, 0, 5, err, sizeof err), -1);
    ck_assert_str_eq(err, "grid: 0x5 has no nodes (width and height must be at least 1)");
    ck_assert_ptr_null(g.row);
    ck_assert_int_eq(graph_gen_grid(&g, 65536, 65536, err, sizeof err), -1);
    ck_assert_str_eq(err, "grid: 65536x65536 has too many nodes (at most 4294967295)");
    ck_assert_int_eq(graph_gen_grid(&g, 65535, 65535, err, sizeof err), -1);
    ck_assert_str_eq(err, "grid: 65535x65535 has too many arcs (at most 4294967295)");
    ck_assert_int_eq(graph_gen_grid(NULL, 2, 2, err, sizeof err), -1);
    ck_assert_str_eq(err, "grid: g must not be NULL");
}
END_TEST

START_TEST(test_rmat_shape)
{
    char err[ERR_BYTES];
    graph g;

    ck_assert_int_eq(graph_gen_rmat(&g, 10, 8, 42, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_uint_eq(g.n, 1024);
    expect_flags(&g, 0, 0, 0);
    expect_valid(&g);
    /* 8192 drawn edges, minus self-loops and repeats, stored both ways. */
    ck_assert_uint_le(g.m, 2 * 8192);
    ck_assert_uint_gt(g.m, 2 * 4096);
    ck_assert_uint_eq(g.m % 2, 0);
    graph_free(&g);
}
END_TEST

START_TEST(test_rmat_is_skewed)
{
    /* R-MAT's point over a uniform graph: a few nodes with very high degree. */
    char err[ERR_BYTES];
    uint32_t max_degree = 0;
    graph g;

    ck_assert_int_eq(graph_gen_rmat(&g, 14, 16, 7, err, sizeof err), 0);
    for (uint32_t u = 0; u < g.n; u++)
        if (g.row[u + 1] - g.row[u] > max_degree)
            max_degree = g.row[u + 1] - g.row[u];
    ck_assert_uint_gt(max_degree, 20 * (g.m / g.n));
    graph_free(&g);
}
END_TEST

START_TEST(test_rmat_deterministic)
{
    char err[ERR_BYTES];
    graph a, b, c;

    ck_assert_int_eq(graph_gen_rmat(&a, 12, 4, 99, err, sizeof err), 0);
    ck_assert_int_eq(graph_gen_rmat(&b, 12, 4, 99, err, sizeof err), 0);
    ck_assert_int_eq(graph_gen_rmat(&c, 12, 4, 100, err, sizeof err), 0);
    expect_same_graph(&a, &b);
    ck_assert(a.m != c.m || memcmp(a.col, c.col, (size_t)a.m * sizeof *a.col) != 0);
    graph_free(&a);
    graph_free(&b);
    graph_free(&c);
}
END_TEST

START_TEST(test_rmat_errors)
{
    char err[ERR_BYTES];
    graph g;

    ck_assert_int_eq(graph_gen_rmat(&g, 0, 16, 1, err, sizeof err), -1);
    ck_assert_str_eq(err, "rmat: scale 0 out of range 1..31");
    ck_assert_int_eq(graph_gen_rmat(&g, 32, 16, 1, err, sizeof err), -1);
    ck_assert_str_eq(err, "rmat: scale 32 out of range 1..31");
    ck_assert_int_eq(graph_gen_rmat(&g, 10, 0, 1, err, sizeof err), -1);
    ck_assert_str_eq(err, "rmat: edge factor must be at least 1");
    ck_assert_int_eq(graph_gen_rmat(&g, 31, 1, 1, err, sizeof err), -1);
    ck_assert_str_eq(err, "rmat: 2147483648 edges are too many (at most 2147483647)");
    ck_assert_ptr_null(g.row);
    ck_assert_int_eq(graph_gen_rmat(NULL, 4, 4, 1, err, sizeof err), -1);
    ck_assert_str_eq(err, "rmat: g must not be NULL");
}
END_TEST

START_TEST(test_parse_gen)
{
    char err[ERR_BYTES];
    graph from_spec, direct;

    ck_assert_int_eq(graph_parse_gen("rmat:9:4", &from_spec, err, sizeof err), 0);
    ck_assert_int_eq(graph_gen_rmat(&direct, 9, 4, 1, err, sizeof err), 0);
    expect_same_graph(&from_spec, &direct);
    graph_free(&from_spec);
    graph_free(&direct);

    ck_assert_int_eq(graph_parse_gen("rmat:9:4:1234", &from_spec, err, sizeof err), 0);
    ck_assert_int_eq(graph_gen_rmat(&direct, 9, 4, 1234, err, sizeof err), 0);
    expect_same_graph(&from_spec, &direct);
    graph_free(&from_spec);
    graph_free(&direct);

    ck_assert_int_eq(graph_parse_gen("grid:7:5", &from_spec, err, sizeof err), 0);
    ck_assert_int_eq(graph_gen_grid(&direct, 7, 5, err, sizeof err), 0);
    expect_same_graph(&from_spec, &direct);
    graph_free(&from_spec);
    graph_free(&direct);
}
END_TEST

struct bad_spec {
    const char *spec;
    const char *message;
};

static const struct bad_spec bad_specs[] = {
    {"rmat:10", "bad generator spec 'rmat:10': expected 'rmat:SCALE:EF' or 'rmat:SCALE:EF:SEED'"},
    {"rmat:10:x", "bad generator spec 'rmat:10:x': expected 'rmat:SCALE:EF' or 'rmat:SCALE:EF:SEED'"},
    {"rmat:10:8:1:2",
     "bad generator spec 'rmat:10:8:1:2': expected 'rmat:SCALE:EF' or 'rmat:SCALE:EF:SEED'"},
    {"rmat:10:4294967296",
     "bad generator spec 'rmat:10:4294967296': expected 'rmat:SCALE:EF' or 'rmat:SCALE:EF:SEED'"},
    {"rmat:40:8", "rmat: scale 40 out of range 1..31"},
    {"grid:4", "bad generator spec 'grid:4': expected 'grid:W:H'"},
    {"grid::3", "bad generator spec 'grid::3': expected 'grid:W:H'"},
    {"grid:4:3:2", "bad generator spec 'grid:4:3:2': expected 'grid:W:H'"},
    {"grid:0:3", "grid: 0x3 has no nodes (width and height must be at least 1)"},
    {"torus:4:4", "bad generator spec 'torus:4:4': expected 'rmat:SCALE:EF[:SEED]' or 'grid:W:H'"},
    {"", "bad generator spec '': expected 'rmat:SCALE:EF[:SEED]' or 'grid:W:H'"},
    {"grid:4:\n", "bad generator spec 'grid:4:\\x0a': expected 'grid:W:H'"},
};

START_TEST(test_parse_gen_errors)
{
    char err[ERR_BYTES];
    graph g;

    memset(&g, 0xab, sizeof g);
    ck_assert_int_eq(graph_parse_gen(bad_specs[_i].spec, &g, err, sizeof err), -1);
    ck_assert_str_eq(err, bad_specs[_i].message);
    ck_assert_ptr_null(g.row);
}
END_TEST

START_TEST(test_parse_gen_null)
{
    char err[ERR_BYTES];
    graph g;

    ck_assert_int_eq(graph_parse_gen(NULL, &g, err, sizeof err), -1);
    ck_assert_str_eq(err, "graph_parse_gen: spec and g must not be NULL");
}
END_TEST

/* ----------------------------------------------------- default weight -- */

/* The formula as graph.h documents it, written out again. */
static uint32_t documented_weight(uint32_t u, uint32_t v)
{
    uint64_t k = ((uint64_t)(u < v ? u : v) << 32) | (u < v ? v : u);

    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ULL;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebULL;
    k ^= k >> 31;
    return 1 + (uint32_t)(k % 255);
}

START_TEST(test_default_weight)
{
    uint32_t seen_low = 0, seen_high = 0;

    for (uint32_t u = 0; u < 300; u++) {
        for (uint32_t v = 0; v < 300; v++) {
            uint32_t w = graph_default_weight(u, v);
            if (w != graph_default_weight(v, u) || w != documented_weight(u, v) || w < 1 || w > 255)
                ck_abort_msg("graph_default_weight(%u, %u) = %u", u, v, w);
            seen_low |= w == 1;
            seen_high |= w == 255;
        }
    }
    ck_assert(seen_low && seen_high);
    ck_assert_uint_eq(graph_default_weight(UINT32_MAX, 0), documented_weight(0, UINT32_MAX));
}
END_TEST

/* ------------------------------------------------------ large inputs -- */

static uint64_t fingerprint_words(uint64_t hash, const uint32_t *words, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++)
        hash = (hash ^ words[i]) * 0x100000001b3ULL;
    return hash;
}

/* FNV-1a, a 32-bit word at a time, over n, m, row, col and weight: one number that pins a CSR. */
static uint64_t csr_fingerprint(const graph *g)
{
    uint32_t sizes[3] = {g->n, (uint32_t)g->m, (uint32_t)(g->m >> 32)};
    uint64_t hash = fingerprint_words(0xcbf29ce484222325ULL, sizes, 3);

    hash = fingerprint_words(hash, g->row, (uint64_t)g->n + 1);
    hash = fingerprint_words(hash, g->col, g->m);
    return fingerprint_words(hash, g->weight, g->m);
}

struct pinned_graph {
    const char *spec;
    uint32_t n;
    uint64_t m;
    uint64_t fingerprint;
};

/* Generated graphs that tests and published results use, as the first generator built them: a
 * faster generator or CSR builder must give the same bytes. Scales that are not multiples of 4
 * use part of a random word's lanes at the last level. */
static const struct pinned_graph pinned_graphs[] = {
    {"rmat:10:8", 1024, 12092, 0x7a8311deccd56023ULL},
    {"rmat:10:8:7", 1024, 12124, 0xf4ac8434c8603c85ULL},
    {"rmat:13:4:99", 8192, 58660, 0xba311a0435edb539ULL},
    {"rmat:15:2", 32768, 125594, 0x1f0ceab185a9de73ULL},
    {"rmat:16:16", 65536, 1820244, 0xf3680c1073782b89ULL},
    {"grid:1:1", 1, 0, 0xd80d6caea7dc7eecULL},
    {"grid:30:30", 900, 3480, 0x17e6dad280ad27e5ULL},
};

/* The largest inputs scripts/scaling runs, pinned the same way (checked valid: grid:2000:2000). */
static const struct pinned_graph large_graphs[] = {
    {"grid:2000:2000", 4000000, 15992000, 0x76892c9d7341fe99ULL},
    {"rmat:20:16", 1048576, 31403118, 0x5e92afe8101401a1ULL},
    {"rmat:22:16", 4194304, 128304828, 0x3930159d44b735afULL},
};

static void expect_pinned(const struct pinned_graph *pinned, int check_valid)
{
    char err[ERR_BYTES];
    graph g;

    ck_assert_msg(graph_parse_gen(pinned->spec, &g, err, sizeof err) == 0, "%s: %s", pinned->spec, err);
    ck_assert_uint_eq(g.n, pinned->n);
    ck_assert_uint_eq(g.m, pinned->m);
    if (check_valid)
        expect_valid(&g);
    ck_assert_msg(csr_fingerprint(&g) == pinned->fingerprint, "%s: fingerprint 0x%016llx, expected 0x%016llx",
                  pinned->spec, (unsigned long long)csr_fingerprint(&g), (unsigned long long)pinned->fingerprint);
    graph_free(&g);
}

START_TEST(test_generated_graphs_unchanged)
{
    expect_pinned(&pinned_graphs[_i], 1);
}
END_TEST

START_TEST(test_large_generated_graphs)
{
    expect_pinned(&large_graphs[_i], large_graphs[_i].m < 20000000);
}
END_TEST

/* The machine's memory in GiB (0 when unknown). */
static double memory_gib(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);

    return pages > 0 && page_bytes > 0 ? (double)pages * (double)page_bytes / (1024.0 * 1024.0 * 1024.0) : 0;
}

/* A spec within the 32-bit limits that needs more memory than the machine has is refused before
 * anything is allocated, with what it needs (graph_gen.c's generator_peak_bytes: 8 bytes a node and
 * 32 an edge) and what there is. Skipped on a machine large enough to build it. */
START_TEST(test_too_large_for_memory)
{
    static const struct {
        const char *spec;
        double need_gib;
        const char *message;
    } specs[] = {
        {"rmat:26:16", 32.5, "rmat: scale 26 with edge factor 16 needs about 32.5 GiB of memory to build, more than "
                             "the %.1f GiB here"},
        {"grid:30000:30000", 60.3, "grid: 30000x30000 needs about 60.3 GiB of memory to build, more than the %.1f "
                                   "GiB here"},
    };
    char err[ERR_BYTES], expected[ERR_BYTES];
    double have = memory_gib();
    graph g;

    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        if (have == 0 || have >= specs[i].need_gib) {
            printf("test_graph: %.1f GiB of memory is enough for %s: test skipped\n", have, specs[i].spec);
            continue;
        }
        snprintf(expected, sizeof expected, specs[i].message, have);
        memset(&g, 0xab, sizeof g);
        ck_assert_int_eq(graph_parse_gen(specs[i].spec, &g, err, sizeof err), -1);
        ck_assert_str_eq(err, expected);
        ck_assert_ptr_null(g.row);
    }
}
END_TEST

/* A graph file whose size, declared or implied by an id, needs more memory than reading it and
 * running a program on it may take is refused at the line the size comes from, before the
 * reader allocates for it (graph_parse.c: 40 bytes a node and 40 an arc). */
struct oversized_file {
    const char *name;
    const char *text;
    int gzip;
    double need_gib;      /* 0: refused on any machine (sparse ids); else when the machine has less */
    const char *message;  /* after the path; %.1f: the machine's GiB */
};

static const struct oversized_file oversized_files[] = {
    /* 26 bytes that made coop-bench touch ~23 GB until the kernel killed it. */
    {"declared.gr", "p sp 2147483648 1\na 1 2 5\n", 0, 80.0,
     ":1: 2147483648 nodes and 1 arc need about 80.0 GiB of memory to read and run, more than the %.1f GiB here"},
    {"declared.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4294967295 4294967295 1\n1 2\n", 0, 160.0,
     ":2: 4294967295 nodes and 2 arcs need about 160.0 GiB of memory to read and run, more than the %.1f GiB here"},
    {"declared.txt", "# Nodes: 4294967295 Edges: 1\n0 1\n", 0, 160.0,
     ":1: 4294967295 nodes and 0 arcs need about 160.0 GiB of memory to read and run, more than the %.1f GiB here"},
    /* Compressed, the size says nothing: the edge list is checked before it grows, the first
     * time at the first edge. */
    {"growing.txt.gz", "0 4294967294\n", 1, 160.0,
     ":1: 4294967295 nodes and 1 arc so far need about 160.0 GiB of memory to read and run, more than the %.1f GiB "
     "here"},
    /* 12 bytes that made coop-bench take 6.9 GB. */
    {"sparse.txt", "0 300000000\n", 0, 0,
     ":1: node 300000000 makes 300000001 nodes, about 11.2 GiB of memory to read and run, for a file of at most 3 "
     "edges: number the nodes densely from 0 or declare them in a '# Nodes: N' comment"},
    /* Compressed, refused at the end, by the edges read. */
    {"sparse.txt.gz", "0 300000000\n", 1, 0,
     ":1: node 300000000 makes 300000001 nodes, about 11.2 GiB of memory to read and run, for a file of 1 edge: "
     "number the nodes densely from 0 or declare them in a '# Nodes: N' comment"},
    {"sparse.noheader.mtx", "1 2\n1 300000000\n", 0, 0,
     ":2: node 300000000 makes 300000000 nodes, about 11.2 GiB of memory to read and run, for a file of at most 4 "
     "edges: number the nodes densely from 1"},
    /* Just past what a file may have without declaring it (2^20 nodes). */
    {"past-free.txt", "0 1048576\n", 0, 0,
     ":1: node 1048576 makes 1048577 nodes, about 0.0 GiB of memory to read and run, for a file of at most 2 "
     "edges: number the nodes densely from 0 or declare them in a '# Nodes: N' comment"},
};

/* Reads path in a child whose address space may grow by 1 GiB at the most, so that a reader
 * that allocates what a file claims fails at once instead of taking the machine. Returns 0 when
 * it read the graph, -1 with its message in err when it did not. */
static int read_in_small_child(const char *path, char *err, size_t cap)
{
    int fds[2], status;
    size_t len = 0;
    ssize_t got;
    pid_t pid;

    ck_assert_int_eq(pipe(fds), 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char msg[ERR_BYTES] = "";
        long pages = 0;
        FILE *statm = fopen("/proc/self/statm", "r");
        struct rlimit limit;
        graph g;
        int rc;

        /* Above what the process has mapped (under AddressSanitizer, terabytes of shadow). */
        if (statm == NULL || fscanf(statm, "%ld", &pages) != 1)
            _exit(3);
        fclose(statm);
        limit.rlim_cur = limit.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
        if (setrlimit(RLIMIT_AS, &limit) != 0)
            _exit(3);
        rc = graph_read(path, &g, msg, sizeof msg);
        graph_free(&g);
        if (write(fds[1], msg, strlen(msg)) < 0)
            _exit(3);
        _exit(rc == 0 ? 0 : 1);
    }
    close(fds[1]);
    while (len + 1 < cap && (got = read(fds[0], err + len, cap - 1 - len)) > 0)
        len += (size_t)got;
    err[len] = '\0';
    close(fds[0]);
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 3, "the reading child failed (status 0x%x): %s",
                  status, err);
    return WEXITSTATUS(status) == 0 ? 0 : -1;
}

START_TEST(test_file_too_large_for_memory)
{
    const struct oversized_file *file = &oversized_files[_i];
    char path[2 * PATH_BYTES], err[ERR_BYTES], format[2 * ERR_BYTES], expected[2 * ERR_BYTES];
    double have = memory_gib();

    if (file->need_gib > 0 && (have == 0 || have >= file->need_gib)) {
        printf("test_graph: %.1f GiB of memory is enough for %s: test skipped\n", have, file->name);
        return;
    }
    scratch_path(path, sizeof path, file->name);
    if (file->gzip) {
        size_t packed_len;
        unsigned char *packed = gzip_bytes((const unsigned char *)file->text, strlen(file->text), &packed_len);
        write_bytes(path, packed, packed_len);
        free(packed);
    } else {
        write_bytes(path, file->text, strlen(file->text));
    }
    snprintf(format, sizeof format, "%s%s", path, file->message);
    snprintf(expected, sizeof expected, format, have);
    ck_assert_int_eq(read_in_small_child(path, err, sizeof err), -1);
    ck_assert_str_eq(err, expected);
}
END_TEST

/* Ids may leave gaps while every node could be on an edge, while the count stays within 2^20,
 * or when a '# Nodes: N' comment declares it. */
START_TEST(test_sparse_ids_within_bounds)
{
    char path[2 * PATH_BYTES], err[ERR_BYTES];
    FILE *f;
    graph g;

    scratch_path(path, sizeof path, "free.txt");
    write_bytes(path, "0 1048575\n", strlen("0 1048575\n"));
    ck_assert_int_eq(read_in_small_child(path, err, sizeof err), 0);
    read_ok(path, &g);
    ck_assert_uint_eq(g.n, 1048576);
    graph_free(&g);

    scratch_path(path, sizeof path, "declared.txt");
    write_bytes(path, "# Nodes: 2000000 Edges: 1\n0 1999999\n", strlen("# Nodes: 2000000 Edges: 1\n0 1999999\n"));
    ck_assert_int_eq(read_in_small_child(path, err, sizeof err), 0);
    read_ok(path, &g);
    ck_assert_uint_eq(g.n, 2000000);
    ck_assert_uint_eq(g.m, 1);
    graph_free(&g);

    /* Even ids only on the left: 1.2 million nodes for 600,000 edges, none isolated. */
    scratch_path(path, sizeof path, "pairs.txt");
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (unsigned i = 0; i < 600000; i++)
        fprintf(f, "%u %u\n", 2 * i, 2 * i + 1);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(read_in_small_child(path, err, sizeof err), 0);
    read_ok(path, &g);
    ck_assert_uint_eq(g.n, 1200000);
    ck_assert_uint_eq(g.m, 600000);
    graph_free(&g);
}
END_TEST

/* --------------------------------------------------------- real files -- */

struct real_graph {
    const char *file;
    uint32_t n;
    uint64_t m;
    int directed, has_weights;
    uint32_t first_id;
};

/* Counts from ../shared/graphs/SOURCES.md; undirected ones store 2 arcs per
 * edge. */
static const struct real_graph real_graphs[] = {
    /* 8,870 arc lines (the header count is checked on reading), 11 of them
     * parallel to another arc with the same ends: 8,859 distinct arcs. */
    {"rome99.gr.gz", 3353, 8870 - 11, 1, 1, 1},
    {"USA-road-NY.pace16.gr.xz", 264346, 2 * 365050ULL, 0, 0, 1},
    {"USA-road-BAY.pace16.gr.xz", 321270, 2 * 397415ULL, 0, 0, 1},
    {"USA-road-COL.pace16.gr.xz", 435666, 2 * 521200ULL, 0, 0, 1},
    {"USA-road-FLA.pace16.gr.xz", 1070376, 2 * 1343951ULL, 0, 0, 1},
    {"USA-road-NW.pace16.gr.xz", 1207945, 2 * 1410387ULL, 0, 0, 1},
    /* 367,662 lines = 183,831 undirected edges stored both ways. */
    {"email-Enron.txt.gz", 36692, 2 * 183831ULL, 1, 0, 0},
    {"p2p-Gnutella31.txt.gz", 62586, 147892, 1, 0, 0},
    /* 948,464 lines, 78,303 of them self-loops. */
    {"soc-Slashdot0902.txt.gz", 82168, 948464 - 78303, 1, 0, 0},
    {"luxembourg_osm.mtx.gz", 114599, 2 * 119666ULL, 0, 0, 1},
    {"rgg_n_2_16_s0.mtx.gz", 65536, 2 * 342127ULL, 0, 0, 1},
    {"delaunay_n16.noheader.mtx.gz", 65536, 2 * 196575ULL, 0, 0, 1},
};

static int real_graphs_present(void)
{
    struct stat st;

    if (stat(REAL, &st) == 0 && S_ISDIR(st.st_mode))
        return 1;
    printf("note: %s not found, real graph tests skipped\n", REAL);
    return 0;
}

START_TEST(test_real_graph)
{
    const struct real_graph *want = &real_graphs[_i];
    char path[PATH_BYTES];
    struct timespec t0, t1;
    graph g;

    if (!real_graphs_present())
        return;
    snprintf(path, sizeof path, REAL "%s", want->file);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    read_ok(path, &g);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%-30s n=%u m=%llu loaded in %.3f s\n", want->file, g.n, (unsigned long long)g.m,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    ck_assert_uint_eq(g.n, want->n);
    ck_assert_uint_eq(g.m, want->m);
    expect_flags(&g, want->directed, want->has_weights, want->first_id);
    expect_valid(&g);
    graph_free(&g);
}
END_TEST

START_TEST(test_rome99_weights)
{
    /* SOURCES.md: weights are metres, 1..12711. */
    uint32_t lo = UINT32_MAX, hi = 0;
    graph g;

    if (!real_graphs_present())
        return;
    read_ok(REAL "rome99.gr.gz", &g);
    for (uint64_t i = 0; i < g.m; i++) {
        lo = g.weight[i] < lo ? g.weight[i] : lo;
        hi = g.weight[i] > hi ? g.weight[i] : hi;
    }
    ck_assert_uint_eq(lo, 1);
    ck_assert_uint_eq(hi, 12711);
    graph_free(&g);
}
END_TEST

START_TEST(test_enron_pairs_stored_both_ways)
{
    /* Read as directed, yet every arc has its reverse: the file stores each
     * undirected edge twice. */
    graph g;
    uint32_t w;

    if (!real_graphs_present())
        return;
    read_ok(REAL "email-Enron.txt.gz", &g);
    for (uint32_t u = 0; u < g.n; u++)
        for (uint32_t i = g.row[u]; i < g.row[u + 1]; i++)
            if (!has_arc(&g, g.col[i], u, &w))
                ck_abort_msg("arc %u->%u has no reverse", u, g.col[i]);
    graph_free(&g);
}
END_TEST

/* -------------------------------------------------------------- suite -- */

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static Suite *graph_suite(void)
{
    Suite *s = suite_create("graph");
    TCase *formats = tcase_create("formats");
    TCase *compression = tcase_create("compression");
    TCase *errors = tcase_create("errors");
    TCase *generators = tcase_create("generators");
    TCase *real = tcase_create("real");
    TCase *large = tcase_create("large");
    TCase *oversized = tcase_create("oversized");

    tcase_add_test(formats, test_dimacs_sp);
    tcase_add_test(formats, test_pace);
    tcase_add_test(formats, test_snap_crlf);
    tcase_add_test(formats, test_mtx_integer_symmetric);
    tcase_add_test(formats, test_mtx_real_general);
    tcase_add_test(formats, test_mtx_pattern_symmetric);
    tcase_add_test(formats, test_mtx_body_without_header);
    tcase_add_test(formats, test_bare_pairs_outside_mtx_are_snap);
    tcase_add_test(formats, test_isolated_nodes_after_last_arc);
    tcase_add_test(formats, test_graph_free_zeroes);
    tcase_add_test(formats, test_undirected);
    suite_add_tcase(s, formats);

    tcase_add_checked_fixture(compression, scratch_create, scratch_remove);
    tcase_add_loop_test(compression, test_gzip_tiny, 0, COUNT(tiny_files));
    tcase_add_loop_test(compression, test_xz_tiny, 0, COUNT(tiny_files));
    tcase_add_test(compression, test_compression_found_by_content);
    tcase_add_test(compression, test_gzip_multi_member);
    tcase_add_test(compression, test_truncated_gzip);
    tcase_add_test(compression, test_corrupt_gzip);
    tcase_add_test(compression, test_gzip_of_empty_file);
    tcase_add_test(compression, test_truncated_xz);
    tcase_add_test(compression, test_corrupt_xz);
    suite_add_tcase(s, compression);

    tcase_add_checked_fixture(errors, scratch_create, scratch_remove);
    tcase_add_loop_test(errors, test_bad_input, 0, COUNT(bad_inputs));
    tcase_add_test(errors, test_binary_junk);
    tcase_add_test(errors, test_nul_byte_later_in_file);
    tcase_add_test(errors, test_line_too_long);
    tcase_add_test(errors, test_error_buffer_handling);
    suite_add_tcase(s, errors);

    tcase_add_test(generators, test_grid);
    tcase_add_test(generators, test_grid_errors);
    tcase_add_test(generators, test_rmat_shape);
    tcase_add_test(generators, test_rmat_is_skewed);
    tcase_add_test(generators, test_rmat_deterministic);
    tcase_add_test(generators, test_rmat_errors);
    tcase_add_test(generators, test_parse_gen);
    tcase_add_loop_test(generators, test_parse_gen_errors, 0, COUNT(bad_specs));
    tcase_add_test(generators, test_parse_gen_null);
    tcase_add_test(generators, test_default_weight);
    tcase_add_loop_test(generators, test_generated_graphs_unchanged, 0, COUNT(pinned_graphs));
    suite_add_tcase(s, generators);

    /* Generous: the largest graphs take a few seconds under sanitizers. */
    tcase_set_timeout(real, 120);
    tcase_add_loop_test(real, test_real_graph, 0, COUNT(real_graphs));
    tcase_add_test(real, test_rome99_weights);
    tcase_add_test(real, test_enron_pairs_stored_both_ways);
    suite_add_tcase(s, real);

    /* rmat:22:16 takes about 10 s (more under sanitizers) and 2 GiB. */
    tcase_set_timeout(large, 240);
    tcase_add_loop_test(large, test_large_generated_graphs, 0, COUNT(large_graphs));
    tcase_add_test(large, test_too_large_for_memory);
    suite_add_tcase(s, large);

    tcase_add_checked_fixture(oversized, scratch_create, scratch_remove);
    tcase_add_loop_test(oversized, test_file_too_large_for_memory, 0, COUNT(oversized_files));
    tcase_add_test(oversized, test_sparse_ids_within_bounds);
    suite_add_tcase(s, oversized);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(graph_suite());
    int failed;

    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
