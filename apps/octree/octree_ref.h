/* octree_ref.h: octree's input and CPU reference, which coop-ws checks the device's tree against.
 * Points are float4s (x, y, z, w; w unused) in the unit cube, as octree.cl reads them. */
#ifndef APPS_OCTREE_OCTREE_REF_H
#define APPS_OCTREE_OCTREE_REF_H

/* Fills n points in [0, 1)^3 from a fixed generator, in two clusters and a uniform background, so
 * that the tree is uneven. */
void octree_points(float *points, unsigned n);

/* The integer coordinate of p in the cells of `level` (cells 2^-level wide), as octree.cl has it. */
unsigned octree_cell(float p, unsigned level);

/* Nodes of the CPU's partition of `ids` (count of them) in a cell at `level`, splitting a cell of
 * more than leaf_max points below max_level as octree.cl does; reorders `ids`, with `scratch`
 * (count words) to scatter through. */
unsigned long octree_reference(const float *points, unsigned *ids, unsigned count, unsigned leaf_max,
                               unsigned max_level, unsigned level, unsigned *scratch);

#endif
