/*
 * graph_gen.c - the generated graphs (graph.h): R-MAT, drawn by a thread per processor, and
 * grids, built into CSR form by graph_csr.c; and the --gen specs that name them.
 */
#include "graph.h"

#include "graph_csr.h"
#include "graph_text.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        graph_set_err(err, errlen, "%s: too many arcs (at most %lu)", who, (unsigned long)UINT32_MAX);
        return -1;
    }
    if (st == BUILD_NO_MEMORY) {
        graph_set_err(err, errlen, "%s: out of memory", who);
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
    uint64_t have = graph_machine_bytes(), need = generator_peak_bytes(nodes, edges);

    if (have == 0 || need <= have)
        return 0;
    graph_set_err(err, errlen, "%s: %s needs about %.1f GiB of memory to build, more than the %.1f GiB here", who, what,
                  (double)need / gib, (double)have / gib);
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
    uint64_t first = parallel_part_start(d->edges, part, parts), end = parallel_part_start(d->edges, part + 1, parts);
    uint64_t kept = first;
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
        graph_set_err(err, errlen, "rmat: g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    if (scale < 1 || scale > 31) {
        graph_set_err(err, errlen, "rmat: scale %u out of range 1..31", scale);
        return -1;
    }
    if (edgefactor < 1) {
        graph_set_err(err, errlen, "rmat: edge factor must be at least 1");
        return -1;
    }
    edges = (uint64_t)edgefactor << scale;
    if (2 * edges > UINT32_MAX) {
        graph_set_err(err, errlen, "rmat: %llu edges are too many (at most %lu)",
                      (unsigned long long)edges, (unsigned long)(UINT32_MAX / 2));
        return -1;
    }
    n = (uint32_t)1 << scale;
    snprintf(what, sizeof what, "scale %u with edge factor %u", scale, edgefactor);
    if (check_memory("rmat", what, n, edges, err, errlen) != 0)
        return -1;

    label = graph_alloc_u32(n);
    if (label == NULL || edges_reserve(&e, (size_t)edges) != 0) {
        free(label);
        edges_free(&e);
        graph_set_err(err, errlen, "rmat: out of memory");
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
        uint64_t first = parallel_part_start(edges, part, parts);
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
        graph_set_err(err, errlen, "grid: g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    if (w < 1 || h < 1) {
        graph_set_err(err, errlen, "grid: %ux%u has no nodes (width and height must be at least 1)", w, h);
        return -1;
    }
    if (nodes > UINT32_MAX) {
        graph_set_err(err, errlen, "grid: %ux%u has too many nodes (at most %lu)", w, h,
                      (unsigned long)UINT32_MAX);
        return -1;
    }
    edges = (uint64_t)(w - 1) * h + (uint64_t)w * (h - 1);
    if (2 * edges > UINT32_MAX) {
        graph_set_err(err, errlen, "grid: %ux%u has too many arcs (at most %lu)", w, h,
                      (unsigned long)UINT32_MAX);
        return -1;
    }
    snprintf(what, sizeof what, "%ux%u", w, h);
    if (check_memory("grid", what, nodes, edges, err, errlen) != 0)
        return -1;
    if (edges_reserve(&e, (size_t)(2 * edges)) != 0) {
        graph_set_err(err, errlen, "grid: out of memory");
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

        if (count == max || graph_parse_u64(s, len, &numbers[count]) != NUMBER_OK)
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
        graph_set_err(err, errlen, "graph_parse_gen: spec and g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    graph_quote(q, sizeof q, spec, strlen(spec));
    if (strncmp(spec, "rmat:", 5) == 0) {
        count = parse_spec_numbers(spec + 5, numbers, 3);
        if (count < 2 || numbers[0] > UINT_MAX || numbers[1] > UINT_MAX) {
            graph_set_err(err, errlen, "bad generator spec '%s': %s", q, rmat_usage);
            return -1;
        }
        return graph_gen_rmat(g, (unsigned)numbers[0], (unsigned)numbers[1],
                              count == 3 ? numbers[2] : 1, err, errlen);
    }
    if (strncmp(spec, "grid:", 5) == 0) {
        count = parse_spec_numbers(spec + 5, numbers, 2);
        if (count != 2 || numbers[0] > UINT_MAX || numbers[1] > UINT_MAX) {
            graph_set_err(err, errlen, "bad generator spec '%s': %s", q, grid_usage);
            return -1;
        }
        return graph_gen_grid(g, (unsigned)numbers[0], (unsigned)numbers[1], err, errlen);
    }
    graph_set_err(err, errlen, "bad generator spec '%s': expected 'rmat:SCALE:EF[:SEED]' or 'grid:W:H'", q);
    return -1;
}
