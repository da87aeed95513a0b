/* octree's input and CPU partition (octree_ref.h). */
#include "octree_ref.h"

#include <stdint.h>
#include <string.h>

void octree_points(float *points, unsigned n)
{
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (unsigned i = 0; i < n; i++) {
        float c[3];
        for (unsigned d = 0; d < 3; d++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            c[d] = (float)(x >> 40) * (1.0f / 16777216.0f);
        }
        if (i % 3 == 1)
            for (unsigned d = 0; d < 3; d++)
                c[d] = 0.25f + c[d] * 0.0625f;
        for (unsigned d = 0; d < 3; d++)
            points[i * 4 + d] = c[d];
        points[i * 4 + 3] = 0.0f;
    }
}

unsigned octree_cell(float p, unsigned level)
{
    return (unsigned)(p * (float)(1u << level));
}

/* The octant of `level`'s cell that point p falls in at level + 1. */
static unsigned octant(const float *p, unsigned level)
{
    return (octree_cell(p[0], level + 1) & 1) | (octree_cell(p[1], level + 1) & 1) << 1 |
           (octree_cell(p[2], level + 1) & 1) << 2;
}

unsigned long octree_reference(const float *points, unsigned *ids, unsigned count, unsigned leaf_max,
                               unsigned max_level, unsigned level, unsigned *scratch)
{
    if (count <= leaf_max || level >= max_level)
        return 1;
    unsigned counts[8] = {0}, start[8];
    for (unsigned i = 0; i < count; i++)
        counts[octant(points + ids[i] * 4, level)]++;
    for (unsigned o = 0, at = 0; o < 8; o++) {
        start[o] = at;
        at += counts[o];
    }
    unsigned cursor[8];
    memcpy(cursor, start, sizeof cursor);
    for (unsigned i = 0; i < count; i++)
        scratch[cursor[octant(points + ids[i] * 4, level)]++] = ids[i];
    memcpy(ids, scratch, count * sizeof *ids);
    unsigned long nodes = 1;
    for (unsigned o = 0; o < 8; o++)
        nodes += octree_reference(points, ids + start[o], counts[o], leaf_max, max_level, level + 1, scratch);
    return nodes;
}
