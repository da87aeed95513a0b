/* lbvh_ref.h: the LBVH build's scenes, its CPU build and the checks coop-lbvh runs on the
 * device's tree. A scene is n triangles, 9 floats each (three vertices x, y, z), as lbvh.cl reads
 * them; a tree is laid out as lbvh.h says (internal nodes 0 .. n - 2, leaves n - 1 .. 2n - 2). The
 * CPU build is written apart from the kernel's: a top-down split of the sorted (code, index) pairs
 * by their highest differing bit, which yields Karras's numbering. */
#ifndef APPS_LBVH_LBVH_REF_H
#define APPS_LBVH_LBVH_REF_H

#include <stdint.h>
#include <stdio.h>

#define LBVH_REF_NO_PARENT 0xffffffffu

typedef struct lbvh_tree {
    unsigned n;        /* primitives */
    uint32_t *keys;    /* n sorted Morton codes */
    uint32_t *ids;     /* n primitives in leaf order */
    uint32_t *child;   /* 2(n - 1): internal node i's children at 2i and 2i + 1 */
    uint32_t *parent;  /* 2n - 1 */
    float *box;        /* 6(2n - 1): lo x y z, hi x y z */
} lbvh_tree;

/* Arrays for n primitives (n >= 1): 0, or -1 (nothing allocated) when memory runs out. */
int lbvh_tree_alloc(lbvh_tree *tree, unsigned n);
void lbvh_tree_free(lbvh_tree *tree);

/* n triangles (9n floats into tris) from `seed`: uniform scatters small triangles uniformly over
 * the unit cube; clustered tessellates spheres of very different radii around random centres, so
 * that most triangles crowd into a few places and many share a Morton code. */
void lbvh_scene_uniform(float *tris, unsigned n, unsigned seed);
void lbvh_scene_clustered(float *tris, unsigned n, unsigned seed);

/* The CPU's tree of the scene, into an allocated tree of its n: 0, or -1 when memory runs out. */
int lbvh_ref_build(const float *tris, lbvh_tree *tree);

/* Faults of `got` against the CPU's `expected` (same keys, leaf order, children, parents, and
 * boxes equal as floats), then of `got` alone (every node reached once from the root, every
 * primitive in one leaf, every box its children's or its triangle's): the count, the first
 * `shown` of them printed to `out`. */
unsigned lbvh_ref_compare(const lbvh_tree *expected, const lbvh_tree *got, const float *tris, FILE *out,
                          unsigned shown);

/* Casts `rays` random rays (from `seed`) from inside the scene's box, each towards a random
 * triangle's centroid, and finds each one's closest hit by walking `tree` and by testing every
 * triangle; returns the rays whose answers differ, the first `shown` printed to `out`, and the
 * rays that hit something in *hits. */
unsigned lbvh_ref_rays(const float *tris, const lbvh_tree *tree, unsigned rays, unsigned seed, FILE *out,
                       unsigned shown, unsigned *hits);

#endif
