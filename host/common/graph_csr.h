/*
 * graph_csr.h - the edge list, the parallel runner and the CSR builder that the graph readers and
 * generators share (graph_csr.c). Private to host/common/graph*.c.
 */
#ifndef GRAPH_CSR_H
#define GRAPH_CSR_H

#include "graph.h"

#include <stddef.h>
#include <stdint.h>

/* The edges as read or drawn. weight is kept only when the input gives weights (`weighted`);
 * otherwise every arc gets graph_default_weight() when the CSR is built. */
struct edge_list {
    uint32_t *src, *dst, *weight;
    size_t len, cap;
    int weighted;
};

/* Makes room for cap edges; -1 when out of memory. */
int edges_reserve(struct edge_list *e, size_t cap);

/* Adds u->v (weight is ignored unless e->weighted); self-loops are dropped here. Returns -1
 * when out of memory. */
int edges_push(struct edge_list *e, uint32_t u, uint32_t v, uint32_t weight);

void edges_free(struct edge_list *e);

enum {
    /* Parts (threads) at the most, and the least work (edges, arcs) worth splitting. */
    MAX_PARTS = 64,
    PARALLEL_MIN_ITEMS = 1 << 20,
};

/* How many parts to split `items` of work into: one per processor, or one for little work. */
unsigned parallel_parts(uint64_t items);

/* The first of `count` items that part `part` of `parts` takes (part == parts: the end). */
uint64_t parallel_part_start(uint64_t count, unsigned part, unsigned parts);

typedef void parallel_work(void *context, unsigned part, unsigned parts);

/* Runs work(context, part, parts) for every part at once: parts 1.. on threads of their own,
 * part 0 on the caller's, and there too a part whose thread could not start. Each part writes
 * only its own share, so the result is the same for any number of parts. */
void parallel_run(parallel_work *work, void *context, unsigned parts);

/* The machine's memory in bytes (0 when unknown): what a graph may need at the most. */
uint64_t graph_machine_bytes(void);

/* An array of count 32-bit words (room for one when count is 0), or NULL. */
void *graph_alloc_u32(uint64_t count);

enum build_status { BUILD_OK, BUILD_NO_MEMORY, BUILD_TOO_MANY_ARCS };

/* Builds g's CSR from e (adding v->u for every u->v when undirected), and frees e's arrays.
 * Sets n, m, row, col, weight and directed. Every id in e is below n. */
enum build_status build_csr(graph *g, uint32_t n, struct edge_list *e, int undirected);

/* splitmix64's finaliser: graph_default_weight()'s hash and the generators' random numbers. */
static inline uint64_t mix64(uint64_t k)
{
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ULL;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebULL;
    k ^= k >> 31;
    return k;
}

#endif
