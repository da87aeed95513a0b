/*
 * graph_csr.c - the CSR builder that the readers and the generators share: an edge list, a
 * radix sort of its arcs by a thread per processor (parallel_run), parallel arcs merged, and
 * default weights (graph_default_weight()) where the input has none.
 */
#include "graph_csr.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------- edge list -- */

int edges_reserve(struct edge_list *e, size_t cap)
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

int edges_push(struct edge_list *e, uint32_t u, uint32_t v, uint32_t weight)
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

void edges_free(struct edge_list *e)
{
    free(e->src);
    free(e->dst);
    free(e->weight);
    memset(e, 0, sizeof *e);
}

/* ----------------------------------------------------------- parallel -- */

unsigned parallel_parts(uint64_t items)
{
    long processors = sysconf(_SC_NPROCESSORS_ONLN);

    if (items < PARALLEL_MIN_ITEMS || processors <= 1)
        return 1;
    return processors > MAX_PARTS ? MAX_PARTS : (unsigned)processors;
}

uint64_t parallel_part_start(uint64_t count, unsigned part, unsigned parts)
{
    return count * part / parts;
}

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

void parallel_run(parallel_work *work, void *context, unsigned parts)
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

enum {
    /* The radix sort's digits are at most this wide: a pass's 2048 buckets stay in cache. */
    RADIX_BITS = 11,
    RADIX_BUCKETS = 1 << RADIX_BITS,
    /* A key holds two 32-bit ids; the bits below its top digit take this many digits at most:
     * (64 - RADIX_BITS) / RADIX_BITS, rounded up. */
    RADIX_MAX_LOW_PASSES = (64 - 1) / RADIX_BITS,
};

uint64_t graph_machine_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);

    return pages > 0 && page_bytes > 0 ? (uint64_t)pages * (uint64_t)page_bytes : 0;
}

void *graph_alloc_u32(uint64_t count)
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
        own[part].spare_weights = weights != NULL ? graph_alloc_u32(largest) : NULL;
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
    uint32_t first = (uint32_t)parallel_part_start(d->m, part, parts);
    uint32_t end = (uint32_t)parallel_part_start(d->m, part + 1, parts);
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
enum build_status build_csr(graph *g, uint32_t n, struct edge_list *e, int undirected)
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
    row = graph_alloc_u32((uint64_t)n + 1);
    keys = alloc_u64(arcs);
    weights = weighted ? graph_alloc_u32(arcs) : NULL;
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

    col = graph_alloc_u32(arcs);
    weight = graph_alloc_u32(arcs);
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

uint32_t graph_default_weight(uint32_t u, uint32_t v)
{
    uint32_t a = u < v ? u : v, b = u < v ? v : u;

    return 1 + (uint32_t)(mix64(((uint64_t)a << 32) | b) % 255);
}
