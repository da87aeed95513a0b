/* lbvh.h: the passes of Karras's LBVH build (Karras 2012, "Maximizing parallelism in the
 * construction of BVHs, octrees and k-d trees"), shared by the cooperative kernel (lbvh.cl, one
 * kernel with a global barrier between passes) and the chain baseline (lbvh_step.cl, one launch
 * per pass). Every pass takes the group's number and the number of groups, so that it splits its
 * work by whatever groups there are between two barriers.
 *
 * Input: n >= 1 triangles, 9 floats each (three vertices x, y, z). A primitive's point is the sum
 * of its three vertices (three times its centroid: no division, so the CPU gets the same floats);
 * the scene box is the box of those points. Passes, in order:
 *   bounds     each group's box of its points into partial[group * 6] (lo x y z, hi x y z);
 *   morton     every group reduces the groups' boxes and writes each primitive's 30-bit Morton
 *              code (10 bits an axis, x highest) into keys and its index into ids;
 *   count p    radix pass p (LBVH_RADIX_BITS bits from bit p * LBVH_RADIX_BITS): each group counts
 *              the digits of its block of the keys into hist[digit * groups + group];
 *   scatter p  each group scatters its block, stable, to digit base + the groups before it + the
 *              work-items before it + its own count: keys and ids go to keys_tmp and ids_tmp on
 *              even passes, back on odd ones (LBVH_PASSES is even: the sorted keys end in keys);
 *   hierarchy  internal node i (0 .. n - 2) gets its children from the common prefixes of the
 *              sorted keys, equal keys told apart by their position; visits[i] = 0;
 *   fit        every leaf's box is its triangle's; the second child to reach a parent boxes it.
 * A count pass and its scatter pass must see the same number of groups: only a plain global
 * barrier (no offer) may stand between them.
 *
 * Nodes: internal nodes 0 .. n - 2 (the root is node 0), leaves n - 1 .. 2n - 2 (leaf k holds
 * primitive ids[k]; with one primitive the root is its leaf). child[2i], child[2i + 1]: internal
 * node i's children; parent[node]: LBVH_NO_PARENT for the root; box[node * 6]: lo x y z, hi x y z.
 * lbvh_ref.h builds the same tree on the CPU. */
#ifndef APPS_LBVH_LBVH_H
#define APPS_LBVH_LBVH_H

#define LBVH_RADIX_BITS 4u
#define LBVH_DIGITS 16u
#define LBVH_PASSES 8u
#define LBVH_MAX_LOCAL 256u
#define LBVH_NO_PARENT 0xffffffffu

/* Local memory the passes share: LBVH_DIGITS counts per work-item, a box per work-item, and a
 * digit's base and total; the box after the work-items' boxes is the group's. */
#define LBVH_COUNT_WORDS (LBVH_DIGITS * LBVH_MAX_LOCAL)
#define LBVH_BOX_FLOATS (6u * LBVH_MAX_LOCAL + 6u)
#define LBVH_BASE_WORDS (2u * LBVH_DIGITS)

/* The first item of block `group` of `groups` over `count` items (blocks differ by at most one). */
inline uint lbvh_block_start(uint group, uint groups, uint count)
{
    return (uint)(((ulong)count * group) / groups);
}

/* Primitive p's point: the sum of its vertices. */
inline float3 lbvh_point(global const float *tris, uint p)
{
    global const float *t = tris + (size_t)p * 9u;
    return (float3)(t[0] + t[3] + t[6], t[1] + t[4] + t[7], t[2] + t[5] + t[8]);
}

/* Reduces every work-item's box (lo, hi) into box_out[0..5] (local), which the whole group reads
 * after the call. */
inline void lbvh_group_box(float3 lo, float3 hi, local float *boxes, local float *box_out)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    boxes[lid * 6u + 0u] = lo.x;
    boxes[lid * 6u + 1u] = lo.y;
    boxes[lid * 6u + 2u] = lo.z;
    boxes[lid * 6u + 3u] = hi.x;
    boxes[lid * 6u + 4u] = hi.y;
    boxes[lid * 6u + 5u] = hi.z;
    coop_group_sync();
    for (uint a = lid; a < 6u; a += size) {
        float v = boxes[a];
        for (uint j = 1; j < size; j++)
            v = a < 3u ? fmin(v, boxes[j * 6u + a]) : fmax(v, boxes[j * 6u + a]);
        box_out[a] = v;
    }
    coop_group_sync();
}

/* Pass bounds: this group's box of its points. */
inline void lbvh_bounds(uint group, uint groups, global const float *tris, uint n, global float *partial,
                        local float *boxes)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    float3 lo = (float3)(INFINITY), hi = (float3)(-INFINITY);
    for (uint p = group * size + lid; p < n; p += groups * size) {
        float3 c = lbvh_point(tris, p);
        lo = fmin(lo, c);
        hi = fmax(hi, c);
    }
    lbvh_group_box(lo, hi, boxes, boxes + 6u * size);
    for (uint a = lid; a < 6u; a += size)
        partial[group * 6u + a] = boxes[6u * size + a];
}

/* v's low 10 bits spread to every third bit. */
inline uint lbvh_spread(uint v)
{
    v = (v * 0x00010001u) & 0xff0000ffu;
    v = (v * 0x00000101u) & 0x0f00f00fu;
    v = (v * 0x00000011u) & 0xc30c30c3u;
    v = (v * 0x00000005u) & 0x49249249u;
    return v;
}

/* A coordinate's 10-bit cell: (c - lo) * scale, scale = 1024 / (hi - lo) or 0 for a flat axis. */
inline uint lbvh_cell(float c, float lo, float scale)
{
    return min((uint)((c - lo) * scale), 1023u);
}

/* Pass morton: the scene box from the `groups` partial boxes, then this group's codes. */
inline void lbvh_morton(uint group, uint groups, global const float *tris, uint n, global const float *partial,
                        global uint *keys, global uint *ids, local float *boxes)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    float3 lo = (float3)(INFINITY), hi = (float3)(-INFINITY);
    for (uint g = lid; g < groups; g += size) {
        global const float *b = partial + g * 6u;
        lo = fmin(lo, (float3)(b[0], b[1], b[2]));
        hi = fmax(hi, (float3)(b[3], b[4], b[5]));
    }
    local float *scene = boxes + 6u * size;
    lbvh_group_box(lo, hi, boxes, scene);
    float3 low = (float3)(scene[0], scene[1], scene[2]), extent = (float3)(scene[3], scene[4], scene[5]) - low;
    float3 scale = (float3)(extent.x > 0.0f ? 1024.0f / extent.x : 0.0f, extent.y > 0.0f ? 1024.0f / extent.y : 0.0f,
                            extent.z > 0.0f ? 1024.0f / extent.z : 0.0f);
    for (uint p = group * size + lid; p < n; p += groups * size) {
        float3 c = lbvh_point(tris, p);
        keys[p] = lbvh_spread(lbvh_cell(c.x, low.x, scale.x)) << 2 | lbvh_spread(lbvh_cell(c.y, low.y, scale.y)) << 1 |
                  lbvh_spread(lbvh_cell(c.z, low.z, scale.z));
        ids[p] = p;
    }
}

/* This work-item's part [*first, *end) of this group's block of the n keys: consecutive runs,
 * so that the scatter keeps the order. */
inline void lbvh_part(uint group, uint groups, uint n, uint *first, uint *end)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    uint start = lbvh_block_start(group, groups, n), items = lbvh_block_start(group + 1u, groups, n) - start;
    *first = start + lbvh_block_start(lid, size, items);
    *end = start + lbvh_block_start(lid + 1u, size, items);
}

/* The work-item's digit counts of its part into counts[digit * size + lid]. */
inline void lbvh_count_part(uint group, uint groups, uint n, uint shift, global const uint *keys, local uint *counts)
{
    uint lid = get_local_id(0), size = get_local_size(0), first, end;
    uint mine[LBVH_DIGITS];
    for (uint d = 0; d < LBVH_DIGITS; d++)
        mine[d] = 0;
    lbvh_part(group, groups, n, &first, &end);
    for (uint i = first; i < end; i++)
        mine[(keys[i] >> shift) & (LBVH_DIGITS - 1u)]++;
    for (uint d = 0; d < LBVH_DIGITS; d++)
        counts[d * size + lid] = mine[d];
    coop_group_sync();
}

/* Pass count `pass`: the group's digit counts into hist. Even passes read keys, odd ones keys_tmp. */
inline void lbvh_count(uint group, uint groups, uint n, uint pass, global const uint *keys, global const uint *keys_tmp,
                       global uint *hist, local uint *counts)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    lbvh_count_part(group, groups, n, pass * LBVH_RADIX_BITS, pass & 1u ? keys_tmp : keys, counts);
    for (uint d = lid; d < LBVH_DIGITS; d += size) {
        uint total = 0;
        for (uint j = 0; j < size; j++)
            total += counts[d * size + j];
        hist[d * groups + group] = total;
    }
}

/* Pass scatter `pass`: every key of the group's block to its place in the sorted order by this
 * pass's digit, stable: from keys and ids to keys_tmp and ids_tmp on even passes, back on odd ones. */
inline void lbvh_scatter(uint group, uint groups, uint n, uint pass, global uint *keys, global uint *ids,
                         global uint *keys_tmp, global uint *ids_tmp, global const uint *hist, local uint *counts,
                         local uint *base)
{
    uint lid = get_local_id(0), size = get_local_size(0), shift = pass * LBVH_RADIX_BITS;
    global const uint *keys_in = pass & 1u ? keys_tmp : keys, *ids_in = pass & 1u ? ids_tmp : ids;
    global uint *keys_out = pass & 1u ? keys : keys_tmp, *ids_out = pass & 1u ? ids : ids_tmp;
    local uint *before = base, *total = base + LBVH_DIGITS;
    for (uint w = lid; w < LBVH_BASE_WORDS; w += size)
        base[w] = 0;
    lbvh_count_part(group, groups, n, shift, keys_in, counts);
    /* hist[d * groups + g]: every digit's count over all groups, and over the groups before this one */
    uint mine_before[LBVH_DIGITS], mine_total[LBVH_DIGITS];
    for (uint d = 0; d < LBVH_DIGITS; d++)
        mine_before[d] = mine_total[d] = 0;
    for (uint e = lid; e < LBVH_DIGITS * groups; e += size) {
        uint d = e / groups, count = hist[e];
        mine_total[d] += count;
        if (e % groups < group)
            mine_before[d] += count;
    }
    for (uint d = 0; d < LBVH_DIGITS; d++) {
        if (mine_total[d])
            atomic_add(&total[d], mine_total[d]);
        if (mine_before[d])
            atomic_add(&before[d], mine_before[d]);
    }
    coop_group_sync();
    /* each digit's work-item counts become exclusive prefixes, and the digit's base is added */
    for (uint digit = lid; digit < LBVH_DIGITS; digit += size) {
        uint at = before[digit];
        for (uint d = 0; d < digit; d++)
            at += total[d];
        for (uint j = 0; j < size; j++) {
            uint count = counts[digit * size + j];
            counts[digit * size + j] = at;
            at += count;
        }
    }
    coop_group_sync();
    uint next[LBVH_DIGITS], first, end;
    for (uint d = 0; d < LBVH_DIGITS; d++)
        next[d] = counts[d * size + lid];
    lbvh_part(group, groups, n, &first, &end);
    for (uint i = first; i < end; i++) {
        uint key = keys_in[i], at = next[(key >> shift) & (LBVH_DIGITS - 1u)]++;
        keys_out[at] = key;
        ids_out[at] = ids_in[i];
    }
    /* the next pass's count overwrites `counts` */
    coop_group_sync();
}

/* Karras's delta: the common prefix length of sorted keys i and j, 32 + that of i and j where
 * the keys are equal; -1 when j is outside 0 .. n - 1. */
inline int lbvh_delta(global const uint *keys, uint n, uint i, long j)
{
    if (j < 0 || j >= (long)n)
        return -1;
    uint a = keys[i], b = keys[(uint)j];
    return a != b ? (int)clz(a ^ b) : 32 + (int)clz(i ^ (uint)j);
}

/* Pass hierarchy: internal node i's range and split (Karras 2012, figure 4). */
inline void lbvh_hierarchy(uint group, uint groups, uint n, global const uint *keys, global uint *child,
                           global uint *parent, global uint *visits)
{
    uint size = get_local_size(0), leaves = n - 1u;
    if (group == 0 && get_local_id(0) == 0)
        parent[0] = LBVH_NO_PARENT;
    for (uint i = group * size + get_local_id(0); i + 1u < n; i += groups * size) {
        long d = lbvh_delta(keys, n, i, (long)i + 1) > lbvh_delta(keys, n, i, (long)i - 1) ? 1 : -1;
        int lower = lbvh_delta(keys, n, i, (long)i - d);
        long reach = 2;
        while (lbvh_delta(keys, n, i, (long)i + reach * d) > lower)
            reach *= 2;
        long length = 0;
        for (long step = reach / 2; step >= 1; step /= 2)
            if (lbvh_delta(keys, n, i, (long)i + (length + step) * d) > lower)
                length += step;
        long j = (long)i + length * d;
        int node_prefix = lbvh_delta(keys, n, i, j);
        long split = 0;
        for (long parts = 2, step = 2; step > 1; parts *= 2) {
            step = (length + parts - 1) / parts;
            if (lbvh_delta(keys, n, i, (long)i + (split + step) * d) > node_prefix)
                split += step;
        }
        uint gamma = (uint)((long)i + split * d + min(d, 0L));
        uint left = min((long)i, j) == (long)gamma ? leaves + gamma : gamma;
        uint right = max((long)i, j) == (long)gamma + 1 ? leaves + gamma + 1u : gamma + 1u;
        child[2u * i] = left;
        child[2u * i + 1u] = right;
        parent[left] = i;
        parent[right] = i;
        visits[i] = 0;
    }
}

/* Pass fit: leaf boxes, then up the tree: the second child to arrive at a parent boxes it. */
inline void lbvh_fit(uint group, uint groups, uint n, global const float *tris, global const uint *ids,
                     global const uint *child, global const uint *parent, global float *box, global uint *visits)
{
    uint size = get_local_size(0), leaves = n - 1u;
    for (uint k = group * size + get_local_id(0); k < n; k += groups * size) {
        global const float *t = tris + (size_t)ids[k] * 9u;
        global float *b = box + (size_t)(leaves + k) * 6u;
        for (uint a = 0; a < 3u; a++) {
            b[a] = fmin(fmin(t[a], t[3u + a]), t[6u + a]);
            b[3u + a] = fmax(fmax(t[a], t[3u + a]), t[6u + a]);
        }
        uint node = parent[leaves + k];
        /* the release half publishes this child's box to the sibling that arrives second; the
         * acquire half makes the sibling's box, written before its own fetch_add, visible here */
        while (node != LBVH_NO_PARENT && coop_fetch_add(&visits[node], 1u) == 1u) {
            global const float *l = box + (size_t)child[2u * node] * 6u, *r = box + (size_t)child[2u * node + 1u] * 6u;
            global float *p = box + (size_t)node * 6u;
            for (uint a = 0; a < 3u; a++) {
                p[a] = fmin(l[a], r[a]);
                p[3u + a] = fmax(l[3u + a], r[3u + a]);
            }
            node = parent[node];
        }
    }
}

#endif
