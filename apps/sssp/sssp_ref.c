/* SSSP's CPU reference (sssp_ref.h): Dijkstra with a binary heap. */
#include "sssp_ref.h"

#include <stdlib.h>

typedef struct heap_entry {
    int64_t dist;
    uint32_t node;
} heap_entry;

/* A min-heap with lazy deletion: a node may be in it several times; stale entries are skipped. */
typedef struct heap {
    heap_entry *items;
    size_t size, capacity;
} heap;

static int heap_push(heap *h, int64_t dist, uint32_t node)
{
    if (h->size == h->capacity) {
        size_t capacity = h->capacity ? 2 * h->capacity : 1024;
        heap_entry *grown = realloc(h->items, capacity * sizeof *grown);
        if (!grown)
            return -1;
        h->items = grown;
        h->capacity = capacity;
    }
    size_t i = h->size++;
    while (i > 0 && h->items[(i - 1) / 2].dist > dist) {
        h->items[i] = h->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->items[i] = (heap_entry){dist, node};
    return 0;
}

static heap_entry heap_pop(heap *h)
{
    heap_entry top = h->items[0], last = h->items[--h->size];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= h->size)
            break;
        if (child + 1 < h->size && h->items[child + 1].dist < h->items[child].dist)
            child++;
        if (h->items[child].dist >= last.dist)
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (h->size)
        h->items[i] = last;
    return top;
}

int reference_sssp(const uint32_t *row, const uint32_t *col, const uint32_t *weight, uint32_t n, uint32_t source,
                   int64_t *dist)
{
    for (uint32_t v = 0; v < n; v++)
        dist[v] = -1;
    heap h = {0};
    dist[source] = 0;
    int rc = heap_push(&h, 0, source);
    while (rc == 0 && h.size) {
        heap_entry top = heap_pop(&h);
        if (top.dist != dist[top.node])
            continue;
        for (uint32_t e = row[top.node]; e < row[top.node + 1] && rc == 0; e++) {
            uint32_t v = col[e];
            int64_t through = top.dist + weight[e];
            if (dist[v] < 0 || through < dist[v]) {
                dist[v] = through;
                rc = heap_push(&h, through, v);
            }
        }
    }
    free(h.items);
    return rc;
}
