/* fuzz/graph_read.c: a fuzz target for graph_read() (host/common/graph.c), for libFuzzer
 * (make fuzz) and for fuzz/replay.c (make check, make sanitize).
 *
 * The input is the content of a graph file, possibly gzip- or xz-compressed. graph_read goes by
 * content and, for bare numbers, by the file name, so the input is written once and read under
 * each name that makes a difference. A graph that is read must hold graph.h's invariants; a
 * broken one aborts, as a crash would. */
#include "graph.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Allocations above 64 MB fail (graph_read then reports "out of memory") instead of ending the
 * run: a header may declare 4 billion nodes, which graph_read honours with 4 bytes each. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:max_allocation_size_mb=64";
}

static void broken(const char *name, const char *what, uint32_t node)
{
    fprintf(stderr, "fuzz graph_read: %s: %s (node %u)\n", name, what, node);
    abort();
}

/* Is v -> u in g, with weight w? (Lists are sorted by target.) */
static int has_arc(const graph *g, uint32_t v, uint32_t u, uint32_t w)
{
    uint32_t lo = g->row[v], hi = g->row[v + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->col[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->row[v + 1] && g->col[lo] == u && g->weight[lo] == w;
}

static void check_graph(const graph *g, const char *name)
{
    if (g->row[0] != 0 || g->row[g->n] != g->m)
        broken(name, "row[0] is not 0 or row[n] is not m", g->n);
    if (g->first_id > 1 || (g->directed != 0 && g->directed != 1))
        broken(name, "first_id or directed out of range", 0);
    for (uint32_t u = 0; u < g->n; u++) {
        if (g->row[u] > g->row[u + 1])
            broken(name, "row offsets decrease", u);
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            if (v >= g->n)
                broken(name, "arc to a node beyond n", u);
            if (v == u)
                broken(name, "self-loop", u);
            if (e > g->row[u] && g->col[e - 1] >= v)
                broken(name, "adjacency list not sorted or with a repeated target", u);
            if (!g->has_weights && g->weight[e] != graph_default_weight(u, v))
                broken(name, "an unweighted arc without the default weight", u);
            if (!g->directed && !has_arc(g, v, u, g->weight[e]))
                broken(name, "undirected arc without its reverse of the same weight", u);
        }
    }
}

/* The folder the input is written to, made at the first input and removed at exit. */
static char directory[256];

static void remove_directory(void)
{
    rmdir(directory);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* .gr: DIMACS/PACE; .mtx: a MatrixMarket body; .txt: SNAP; no suffix: by content only. */
    static const char *const suffixes[] = {".gr", ".mtx", ".txt", ""};
    if (!directory[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(directory, sizeof directory, "%s/fuzz-graph.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(directory))
            abort();
        atexit(remove_directory);
    }
    char path[sizeof directory + 16], previous[sizeof path];
    snprintf(path, sizeof path, "%s/input%s", directory, suffixes[0]);
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0)
        abort();
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        if (i > 0) {
            snprintf(previous, sizeof previous, "%s", path);
            snprintf(path, sizeof path, "%s/input%s", directory, suffixes[i]);
            if (rename(previous, path) != 0)
                abort();
        }
        graph g;
        char err[512];
        if (graph_read(path, &g, err, sizeof err) == 0) {
            check_graph(&g, path);
            graph_free(&g);
        } else if (!err[0] || g.row || g.col || g.weight || g.n || g.m) {
            broken(path, "a failure without a message or with a graph left behind", 0);
        }
    }
    unlink(path);
    return 0;
}
