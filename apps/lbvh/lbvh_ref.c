/* lbvh_ref.c: the LBVH build's scenes, CPU build and checks (lbvh_ref.h). */
#include "lbvh_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int lbvh_tree_alloc(lbvh_tree *tree, unsigned n)
{
    size_t nodes = 2 * (size_t)n - 1;
    *tree = (lbvh_tree){.n = n,
                        .keys = malloc((size_t)n * sizeof *tree->keys),
                        .ids = malloc((size_t)n * sizeof *tree->ids),
                        /* 2n - 2 children, and a word more so that one primitive's tree
                         * allocates something */
                        .child = malloc((2 * (size_t)n - 1) * sizeof *tree->child),
                        .parent = malloc(nodes * sizeof *tree->parent),
                        .box = malloc(nodes * 6 * sizeof *tree->box)};
    if (!tree->keys || !tree->ids || !tree->child || !tree->parent || !tree->box) {
        lbvh_tree_free(tree);
        return -1;
    }
    return 0;
}

void lbvh_tree_free(lbvh_tree *tree)
{
    free(tree->keys);
    free(tree->ids);
    free(tree->child);
    free(tree->parent);
    free(tree->box);
    *tree = (lbvh_tree){0};
}

/* ---- Scenes ------------------------------------------------------------------------------- */

/* A uniform float in [0, 1) from a xorshift state. */
static float next_unit(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(x >> 8) * (1.0f / 16777216.0f);
}

/* A xorshift state from `seed`: never 0, which xorshift never leaves. */
static uint32_t seed_state(unsigned seed)
{
    uint32_t state = seed * 2654435761u + 0x9e3779b9u;
    return state ? state : 1u;
}

void lbvh_scene_uniform(float *tris, unsigned n, unsigned seed)
{
    uint32_t state = seed_state(seed);
    float size = 0.5f / cbrtf((float)n);
    for (unsigned i = 0; i < n; i++) {
        float centre[3] = {next_unit(&state), next_unit(&state), next_unit(&state)};
        for (unsigned v = 0; v < 3; v++)
            for (unsigned a = 0; a < 3; a++)
                tris[(size_t)i * 9 + v * 3 + a] = centre[a] + (next_unit(&state) - 0.5f) * size;
    }
}

static const double PI = 3.14159265358979323846;

/* Triangles per sphere of the clustered scene. */
#define CLUSTER_TRIANGLES 2048u

void lbvh_scene_clustered(float *tris, unsigned n, unsigned seed)
{
    uint32_t state = seed_state(seed);
    for (unsigned first = 0; first < n; first += CLUSTER_TRIANGLES) {
        unsigned count = n - first < CLUSTER_TRIANGLES ? n - first : CLUSTER_TRIANGLES;
        float centre[3] = {next_unit(&state), next_unit(&state), next_unit(&state)};
        /* radii from 0.3 down to about 1e-5: the smallest spheres fit in one Morton cell */
        float radius = 0.3f * powf(2.0f, -15.0f * next_unit(&state));
        /* a latitude-longitude grid of rows x columns quads, two triangles each, cut at count */
        unsigned columns = (unsigned)ceil(sqrt((double)count / 2.0)), rows = columns;
        for (unsigned t = 0; t < count; t++) {
            unsigned quad = t / 2, row = quad / columns, column = quad % columns;
            float corner[4][3];
            for (unsigned c = 0; c < 4; c++) {
                double theta = PI * (double)(row + (c >> 1)) / rows;
                double phi = 2.0 * PI * (double)(column + (c & 1)) / columns;
                corner[c][0] = centre[0] + radius * (float)(sin(theta) * cos(phi));
                corner[c][1] = centre[1] + radius * (float)(sin(theta) * sin(phi));
                corner[c][2] = centre[2] + radius * (float)cos(theta);
            }
            static const unsigned halves[2][3] = {{0, 1, 3}, {0, 3, 2}};
            for (unsigned v = 0; v < 3; v++)
                memcpy(&tris[((size_t)first + t) * 9 + v * 3], corner[halves[t & 1][v]], sizeof corner[0]);
        }
    }
}

/* ---- The CPU's build ---------------------------------------------------------------------- */

/* v's low 10 bits spread to every third bit. */
static uint32_t spread(uint32_t v)
{
    uint32_t out = 0;
    for (unsigned b = 0; b < 10; b++)
        out |= ((v >> b) & 1u) << (3 * b);
    return out;
}

/* The 10-bit cell of coordinate c, as lbvh.h's lbvh_cell computes it in float. */
static uint32_t cell(float c, float lo, float scale)
{
    float scaled = (c - lo) * scale;
    uint32_t q = (uint32_t)scaled;
    return q < 1023u ? q : 1023u;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static unsigned clz64(uint64_t x)
{
    return x ? (unsigned)__builtin_clzll(x) : 64u;
}

/* Builds the subtree of sorted pairs first .. last (first < last) as internal node `node`. */
static void split(const uint64_t *pairs, uint32_t *child, uint32_t *parent, unsigned n, unsigned first,
                  unsigned last, unsigned node)
{
    unsigned common = clz64(pairs[first] ^ pairs[last]), gamma = first;
    /* the last pair that shares more than `common` bits with the first: a binary search */
    for (unsigned low = first, high = last; low < high;) {
        unsigned mid = low + (high - low + 1) / 2;
        if (clz64(pairs[first] ^ pairs[mid]) > common) {
            gamma = mid;
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    unsigned left = gamma == first ? n - 1 + gamma : gamma;
    unsigned right = gamma + 1 == last ? n - 1 + gamma + 1 : gamma + 1;
    child[2 * (size_t)node] = left;
    child[2 * (size_t)node + 1] = right;
    parent[left] = node;
    parent[right] = node;
    if (gamma != first)
        split(pairs, child, parent, n, first, gamma, gamma);
    if (gamma + 1 != last)
        split(pairs, child, parent, n, gamma + 1, last, gamma + 1);
}

static void triangle_box(const float *t, float *box)
{
    for (unsigned a = 0; a < 3; a++) {
        box[a] = fminf(fminf(t[a], t[3 + a]), t[6 + a]);
        box[3 + a] = fmaxf(fmaxf(t[a], t[3 + a]), t[6 + a]);
    }
}

/* Node `node`'s box from its children's, after theirs. */
static void fit(lbvh_tree *tree, const float *tris, unsigned node)
{
    unsigned leaves = tree->n - 1;
    float *box = tree->box + (size_t)node * 6;
    if (node >= leaves) {
        triangle_box(tris + (size_t)tree->ids[node - leaves] * 9, box);
        return;
    }
    unsigned left = tree->child[2 * (size_t)node], right = tree->child[2 * (size_t)node + 1];
    fit(tree, tris, left);
    fit(tree, tris, right);
    const float *l = tree->box + (size_t)left * 6, *r = tree->box + (size_t)right * 6;
    for (unsigned a = 0; a < 3; a++) {
        box[a] = fminf(l[a], r[a]);
        box[3 + a] = fmaxf(l[3 + a], r[3 + a]);
    }
}

int lbvh_ref_build(const float *tris, lbvh_tree *tree)
{
    unsigned n = tree->n;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (unsigned p = 0; p < n; p++)
        for (unsigned a = 0; a < 3; a++) {
            const float *t = tris + (size_t)p * 9;
            float c = t[a] + t[3 + a] + t[6 + a];
            lo[a] = fminf(lo[a], c);
            hi[a] = fmaxf(hi[a], c);
        }
    float scale[3];
    for (unsigned a = 0; a < 3; a++) {
        float extent = hi[a] - lo[a];
        scale[a] = extent > 0.0f ? 1024.0f / extent : 0.0f;
    }
    uint64_t *pairs = malloc((size_t)n * sizeof *pairs);
    if (!pairs)
        return -1;
    for (unsigned p = 0; p < n; p++) {
        const float *t = tris + (size_t)p * 9;
        uint32_t code = 0;
        for (unsigned a = 0; a < 3; a++)
            code |= spread(cell(t[a] + t[3 + a] + t[6 + a], lo[a], scale[a])) << (2 - a);
        pairs[p] = (uint64_t)code << 32 | p;
    }
    qsort(pairs, n, sizeof *pairs, compare_u64);
    /* sorted by code, then primitive; the hierarchy tells equal codes apart by their position in
     * that order, as Karras does */
    for (unsigned k = 0; k < n; k++) {
        tree->keys[k] = (uint32_t)(pairs[k] >> 32);
        tree->ids[k] = (uint32_t)pairs[k];
        pairs[k] = (uint64_t)tree->keys[k] << 32 | k;
    }
    tree->parent[0] = LBVH_REF_NO_PARENT;
    if (n > 1)
        split(pairs, tree->child, tree->parent, n, 0, n - 1, 0);
    free(pairs);
    fit(tree, tris, 0);
    return 0;
}

/* ---- Checks ------------------------------------------------------------------------------- */

/* Prints a fault while fewer than `shown` were printed; counts it either way. */
#define FAULT(...)                               \
    do {                                         \
        if (out && faults < shown)               \
            fprintf(out, "lbvh: " __VA_ARGS__);  \
        faults++;                                \
    } while (0)

static unsigned compare_arrays(const char *what, const uint32_t *expected, const uint32_t *got, size_t count,
                               FILE *out, unsigned shown, unsigned faults)
{
    for (size_t i = 0; i < count; i++)
        if (expected[i] != got[i])
            FAULT("%s[%zu] = %u, the CPU's is %u\n", what, i, got[i], expected[i]);
    return faults;
}

/* Faults of `got` alone: every node reached once from the root, its box its children's (an
 * internal node) or its triangle's (a leaf), every primitive in one leaf. */
static unsigned check_structure(const lbvh_tree *got, const float *tris, FILE *out, unsigned shown, unsigned faults)
{
    unsigned n = got->n, leaves = n - 1;
    size_t nodes = 2 * (size_t)n - 1;
    unsigned char *reached = calloc(nodes, 1), *used = calloc(n, 1);
    unsigned *stack = malloc(nodes * sizeof *stack);
    if (!reached || !used || !stack) {
        FAULT("out of memory for the structure check\n");
        goto done;
    }
    for (unsigned k = 0; k < n; k++) {
        if (got->ids[k] >= n)
            FAULT("leaf %u holds primitive %u of %u\n", k, got->ids[k], n);
        else if (used[got->ids[k]]++)
            FAULT("primitive %u is in more than one leaf (again in leaf %u)\n", got->ids[k], k);
    }
    if (got->parent[0] != LBVH_REF_NO_PARENT)
        FAULT("the root has parent %u\n", got->parent[0]);
    size_t top = 0;
    stack[top++] = 0;
    while (top) {
        unsigned node = stack[--top];
        if (reached[node]++) {
            FAULT("node %u is reached twice from the root\n", node);
            continue;
        }
        const float *box = got->box + (size_t)node * 6;
        float expected[6];
        if (node >= leaves) {
            unsigned id = got->ids[node - leaves];
            if (id >= n)
                continue;
            triangle_box(tris + (size_t)id * 9, expected);
        } else {
            unsigned children[2] = {got->child[2 * (size_t)node], got->child[2 * (size_t)node + 1]};
            int bad = 0;
            for (unsigned c = 0; c < 2; c++)
                if (children[c] >= nodes || children[c] == 0 || got->parent[children[c]] != node) {
                    FAULT("node %u has child %u of %zu nodes, whose parent is %u\n", node, children[c], nodes,
                          children[c] < nodes ? got->parent[children[c]] : LBVH_REF_NO_PARENT);
                    bad = 1;
                }
            if (bad)
                continue;
            const float *l = got->box + (size_t)children[0] * 6, *r = got->box + (size_t)children[1] * 6;
            for (unsigned a = 0; a < 3; a++) {
                expected[a] = fminf(l[a], r[a]);
                expected[3 + a] = fmaxf(l[3 + a], r[3 + a]);
            }
            stack[top++] = children[0];
            stack[top++] = children[1];
        }
        for (unsigned a = 0; a < 6; a++)
            if (box[a] != expected[a]) {
                FAULT("node %u's box is (%.9g %.9g %.9g)-(%.9g %.9g %.9g), its %s give (%.9g %.9g %.9g)-(%.9g %.9g "
                      "%.9g)\n",
                      node, box[0], box[1], box[2], box[3], box[4], box[5],
                      node >= leaves ? "triangle's vertices" : "children", expected[0], expected[1], expected[2],
                      expected[3], expected[4], expected[5]);
                break;
            }
    }
    for (size_t node = 0; node < nodes; node++)
        if (!reached[node])
            FAULT("node %zu is not reached from the root\n", node);
done:
    free(reached);
    free(used);
    free(stack);
    return faults;
}

unsigned lbvh_ref_compare(const lbvh_tree *expected, const lbvh_tree *got, const float *tris, FILE *out,
                          unsigned shown)
{
    unsigned n = expected->n, faults = 0;
    size_t nodes = 2 * (size_t)n - 1;
    faults = compare_arrays("key", expected->keys, got->keys, n, out, shown, faults);
    faults = compare_arrays("leaf", expected->ids, got->ids, n, out, shown, faults);
    faults = compare_arrays("child", expected->child, got->child, 2 * (size_t)n - 2, out, shown, faults);
    faults = compare_arrays("parent", expected->parent, got->parent, nodes, out, shown, faults);
    for (size_t i = 0; i < nodes * 6; i++)
        if (expected->box[i] != got->box[i])
            FAULT("node %zu's box %s %c = %.9g, the CPU's is %.9g\n", i / 6, i % 6 < 3 ? "lo" : "hi", "xyz"[i % 3],
                  got->box[i], expected->box[i]);
    return check_structure(got, tris, out, shown, faults);
}

/* ---- Rays --------------------------------------------------------------------------------- */

typedef struct hit {
    float t;
    uint32_t id;  /* LBVH_REF_NO_PARENT: none */
} hit;

/* Moller-Trumbore: the ray's distance to triangle t, or 0 for a miss. */
static float intersect(const float *t, const float *o, const float *d)
{
    float e1[3], e2[3], s[3], p[3], q[3];
    for (unsigned a = 0; a < 3; a++) {
        e1[a] = t[3 + a] - t[a];
        e2[a] = t[6 + a] - t[a];
        s[a] = o[a] - t[a];
    }
    p[0] = d[1] * e2[2] - d[2] * e2[1];
    p[1] = d[2] * e2[0] - d[0] * e2[2];
    p[2] = d[0] * e2[1] - d[1] * e2[0];
    float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (fabsf(det) < 1e-20f)
        return 0.0f;
    float inv = 1.0f / det, u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    if (u < 0.0f || u > 1.0f)
        return 0.0f;
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    float v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return 0.0f;
    float distance = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
    return distance > 0.0f ? distance : 0.0f;
}

/* Keeps the nearer of the best hit and triangle id's, the smaller id on a tie. */
static void consider(hit *best, const float *tris, uint32_t id, const float *o, const float *d)
{
    float t = intersect(tris + (size_t)id * 9, o, d);
    if (t > 0.0f && (t < best->t || (t == best->t && id < best->id)))
        *best = (hit){t, id};
}

/* 1 if the ray may meet `box` grown by `margin` at a distance of at most `limit`: a slab test
 * made conservative by the margin, so that rounding never hides a triangle the brute force hits. */
static int box_reached(const float *box, float margin, const float *o, const float *d, float limit)
{
    float near = 0.0f, far = limit;
    for (unsigned a = 0; a < 3; a++) {
        float lo = box[a] - margin, hi = box[3 + a] + margin;
        if (d[a] == 0.0f) {
            if (o[a] < lo || o[a] > hi)
                return 0;
            continue;
        }
        float t1 = (lo - o[a]) / d[a], t2 = (hi - o[a]) / d[a];
        near = fmaxf(near, fminf(t1, t2));
        far = fminf(far, fmaxf(t1, t2));
    }
    return near <= far;
}

unsigned lbvh_ref_rays(const float *tris, const lbvh_tree *tree, unsigned rays, unsigned seed, FILE *out,
                       unsigned shown, unsigned *hits)
{
    unsigned n = tree->n, leaves = n - 1, faults = 0;
    const float *scene = tree->box;
    float extent = fmaxf(fmaxf(scene[3] - scene[0], scene[4] - scene[1]), scene[5] - scene[2]);
    float margin = 1e-4f * extent + 1e-30f;
    uint32_t state = seed_state(seed);
    unsigned *stack = malloc((2 * (size_t)n) * sizeof *stack);
    *hits = 0;
    if (!stack) {
        FAULT("out of memory for the ray check\n");
        return faults;
    }
    for (unsigned r = 0; r < rays; r++) {
        float o[3], d[3], length = 0.0f;
        for (unsigned a = 0; a < 3; a++)
            o[a] = scene[a] + next_unit(&state) * (scene[3 + a] - scene[a]);
        /* aimed at a random triangle's centroid, so that most rays hit something */
        for (unsigned tries = 0; !(length > 0.0f) && tries < 16; tries++) {
            const float *t = tris + (size_t)(next_unit(&state) * (float)n) % n * 9;
            for (unsigned a = 0; a < 3; a++)
                d[a] = (t[a] + t[3 + a] + t[6 + a]) / 3.0f - o[a];
            length = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        }
        if (!(length > 0.0f)) {
            d[0] = 1.0f;
            d[1] = d[2] = 0.0f;
            length = 1.0f;
        }
        for (unsigned a = 0; a < 3; a++)
            d[a] /= length;
        hit brute = {INFINITY, LBVH_REF_NO_PARENT}, walked = brute;
        for (uint32_t id = 0; id < n; id++)
            consider(&brute, tris, id, o, d);
        size_t top = 0;
        stack[top++] = 0;
        while (top) {
            unsigned node = stack[--top];
            if (!box_reached(tree->box + (size_t)node * 6, margin, o, d, walked.t))
                continue;
            if (node >= leaves) {
                consider(&walked, tris, tree->ids[node - leaves], o, d);
            } else {
                stack[top++] = tree->child[2 * (size_t)node];
                stack[top++] = tree->child[2 * (size_t)node + 1];
            }
        }
        *hits += brute.id != LBVH_REF_NO_PARENT;
        if (brute.id != walked.id || brute.t != walked.t)
            FAULT("ray %u from (%.9g %.9g %.9g) along (%.9g %.9g %.9g): the tree's closest hit is %s %u at %.9g, "
                  "every triangle's is %u at %.9g\n",
                  r, o[0], o[1], o[2], d[0], d[1], d[2], walked.id == LBVH_REF_NO_PARENT ? "none" : "triangle",
                  walked.id, walked.t, brute.id, brute.t);
    }
    free(stack);
    return faults;
}
