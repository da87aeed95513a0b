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
 *              the digits of its block of the keys into hist[group * LBVH_DIGITS + digit];
 *   scatter p  each group scatters its block, stable, to digit base + the groups before it + its
 *              own count, tile by tile (a key a work-item): keys and ids go to keys_tmp and ids_tmp
 *              on even passes, back on odd ones (LBVH_PASSES is even: the sorted keys end in keys);
 *   hierarchy  internal node i (0 .. n - 2) gets its children from the common prefixes of the
 *              sorted keys, equal keys told apart by their position; visits[i] = 0, and the
 *              fit's first list count 0;
 *   fit        every leaf's box is its triangle's; the second child to reach a parent boxes it, in
 *              rounds up the tree (lbvh_fit_round), a barrier between rounds.
 * A count pass and its scatter pass must see the same number of groups: only a plain global
 * barrier (no offer) may stand between them. Every step inside a group is parallel over its
 * work-items: reductions and scans take log2(local size) steps, so that no pass waits on a loop
 * over the group or over the groups in one work-item.
 *
 * LBVH_RADIX_BITS is 4 (8 passes, the default) or 8 (4 passes: -DLBVH_RADIX_BITS=8); the tree is
 * the same. The local memory is sized for 8 either way, since coop-merge writes the sizes of the
 * kernel's local arrays into the programs it makes.
 *
 * Nodes: internal nodes 0 .. n - 2 (the root is node 0), leaves n - 1 .. 2n - 2 (leaf k holds
 * primitive ids[k]; with one primitive the root is its leaf). child[2i], child[2i + 1]: internal
 * node i's children; parent[node]: LBVH_NO_PARENT for the root; box[node * 6]: lo x y z, hi x y z.
 * lbvh_ref.h builds the same tree on the CPU.
 *
 * Clock (where the device has one, COOP_HAS_CLOCK): clock_ns[0] is the build's start and
 * clock_ns[1 + k] the end of pass k's barrier on group 0's clock; clock_ns[LBVH_FIT_END + g] is
 * group g's end of the fit. Without a clock nothing is written. */
#ifndef APPS_LBVH_LBVH_H
#define APPS_LBVH_LBVH_H

#ifndef LBVH_RADIX_BITS
#define LBVH_RADIX_BITS 4u
#endif
#if LBVH_RADIX_BITS != 4 && LBVH_RADIX_BITS != 8
#error "LBVH_RADIX_BITS must be 4 or 8"
#endif
#define LBVH_DIGITS (1u << LBVH_RADIX_BITS)
#define LBVH_PASSES (32u / LBVH_RADIX_BITS)
#define LBVH_MAX_LOCAL 256u
#define LBVH_NO_PARENT 0xffffffffu
/* clock_ns: the start, a stamp after each of the 2 * LBVH_PASSES + 3 barriers, then a word a group */
#define LBVH_FIT_END (2u * LBVH_PASSES + 4u)

/* A scatter ranks a key among the keys of its digit before it in its row of LBVH_ROW work-items
 * (a loop over at most LBVH_ROW - 1 of them) and places the rows by their counts. */
#define LBVH_ROW 32u
#define LBVH_MAX_ROWS (LBVH_MAX_LOCAL / LBVH_ROW)

/* The sort's local words (lbvh_count, lbvh_scatter): each row's count of each digit in a tile,
 * the tile's digits, each digit's next place, and two buffers for the scans over digits. Sized
 * for 8-bit digits (3584 words). */
#define LBVH_SORT_WORDS 4096u
#define LBVH_SORT_ROWS 0u
#define LBVH_SORT_TILE (256u * LBVH_MAX_ROWS)
#define LBVH_SORT_NEXT (LBVH_SORT_TILE + LBVH_MAX_LOCAL)
#define LBVH_SORT_TOTAL (LBVH_SORT_NEXT + 256u)
#define LBVH_SORT_BEFORE (LBVH_SORT_TOTAL + 256u)
#define LBVH_SORT_SCAN (LBVH_SORT_BEFORE + 256u)
#if LBVH_SORT_SCAN + 256u > LBVH_SORT_WORDS
#error "the sort's local words do not fit LBVH_SORT_WORDS"
#endif
/* The boxes' local floats: a box per work-item; the box after them is the group's. */
#define LBVH_BOX_FLOATS (6u * LBVH_MAX_LOCAL + 6u)

/* The first item of block `group` of `groups` over `count` items (blocks differ by at most one). */
inline uint lbvh_block_start(uint group, uint groups, uint count)
{
    return (uint)(((ulong)count * group) / groups);
}

/* Group 0 stamps the clock into clock_ns[at]. */
inline void lbvh_stamp(uint group, global ulong *clock_ns, uint at)
{
#if COOP_HAS_CLOCK
    if (group == 0u && get_local_id(0) == 0u)
        clock_ns[at] = coop_clock_ns();
#endif
}

/* The group stamps the clock at its end of the fit. */
inline void lbvh_stamp_fit(uint group, global ulong *clock_ns)
{
#if COOP_HAS_CLOCK
    coop_group_sync();
    if (get_local_id(0) == 0u)
        clock_ns[LBVH_FIT_END + group] = coop_clock_ns();
#endif
}

/* Primitive p's point: the sum of its vertices. */
inline float3 lbvh_point(global const float *tris, uint p)
{
    global const float *t = tris + (size_t)p * 9u;
    return (float3)(t[0] + t[3] + t[6], t[1] + t[4] + t[7], t[2] + t[5] + t[8]);
}

/* Reduces every work-item's box (lo, hi) into box_out[0..5] (local), which the whole group reads
 * after the call: pairs of boxes merged in log2(local size) steps. */
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
    for (uint stride = 1u; stride < size; stride *= 2u) {
        if (lid % (2u * stride) == 0u && lid + stride < size)
            for (uint a = 0; a < 3u; a++) {
                boxes[lid * 6u + a] = fmin(boxes[lid * 6u + a], boxes[(lid + stride) * 6u + a]);
                boxes[lid * 6u + 3u + a] = fmax(boxes[lid * 6u + 3u + a], boxes[(lid + stride) * 6u + 3u + a]);
            }
        coop_group_sync();
    }
    for (uint a = lid; a < 6u; a += size)
        box_out[a] = boxes[a];
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

/* Exclusive prefix sums of words[0 .. count), count <= 256, in place, by the whole group in
 * log2(count) steps (Hillis and Steele); other: 256 words of scratch. */
inline void lbvh_group_scan(local uint *words, local uint *other, uint count)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    local uint *from = words, *to = other;
    for (uint offset = 1u; offset < count; offset *= 2u) {
        for (uint e = lid; e < count; e += size)
            to[e] = from[e] + (e >= offset ? from[e - offset] : 0u);
        coop_group_sync();
        local uint *swap = from;
        from = to;
        to = swap;
    }
    /* from holds the inclusive sums; shift them by one into the other buffer, then back if that
     * is not `words` */
    for (uint e = lid; e < count; e += size)
        to[e] = e ? from[e - 1u] : 0u;
    coop_group_sync();
    if (to != words) {
        for (uint e = lid; e < count; e += size)
            words[e] = to[e];
        coop_group_sync();
    }
}

/* Pass count `pass`: the group's digit counts of its block into hist[group * LBVH_DIGITS + digit],
 * by local atomics (the order does not matter here). Even passes read keys, odd ones keys_tmp. */
inline void lbvh_count(uint group, uint groups, uint n, uint pass, global const uint *keys, global const uint *keys_tmp,
                       global uint *hist, local uint *sort)
{
    uint lid = get_local_id(0), size = get_local_size(0), shift = pass * LBVH_RADIX_BITS;
    global const uint *keys_in = pass & 1u ? keys_tmp : keys;
    local uint *counts = sort + LBVH_SORT_TOTAL;
    for (uint d = lid; d < LBVH_DIGITS; d += size)
        counts[d] = 0;
    coop_group_sync();
    uint end = lbvh_block_start(group + 1u, groups, n);
    for (uint i = lbvh_block_start(group, groups, n) + lid; i < end; i += size)
        atomic_inc(&counts[(keys_in[i] >> shift) & (LBVH_DIGITS - 1u)]);
    coop_group_sync();
    for (uint d = lid; d < LBVH_DIGITS; d += size)
        hist[group * LBVH_DIGITS + d] = counts[d];
    /* the scatter overwrites `sort` */
    coop_group_sync();
}

/* Each digit's first place for this group's keys into next[digit]: the digits below it over all
 * groups, plus this digit over the groups before this one. Digit d's sums over the groups are
 * split among `lanes` work-items, which read consecutive words of hist. */
inline void lbvh_digit_bases(uint group, uint groups, global const uint *hist, local uint *sort)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    local uint *next = sort + LBVH_SORT_NEXT, *total = sort + LBVH_SORT_TOTAL, *before = sort + LBVH_SORT_BEFORE;
    uint lanes = size >= LBVH_DIGITS ? size / LBVH_DIGITS : 1u;
    for (uint e = lid; e < lanes * LBVH_DIGITS; e += size) {
        uint d = e % LBVH_DIGITS, all = 0, below = 0;
        for (uint g = e / LBVH_DIGITS; g < groups; g += lanes) {
            uint count = hist[g * LBVH_DIGITS + d];
            all += count;
            below += g < group ? count : 0u;
        }
        total[e] = all;
        before[e] = below;
    }
    coop_group_sync();
    /* digit d's work-item alone reads the words of d (lane * LBVH_DIGITS + d) and writes total[d] */
    for (uint d = lid; d < LBVH_DIGITS; d += size) {
        uint all = 0, below = 0;
        for (uint lane = 0; lane < lanes; lane++) {
            all += total[lane * LBVH_DIGITS + d];
            below += before[lane * LBVH_DIGITS + d];
        }
        total[d] = all;
        next[d] = below;
    }
    coop_group_sync();
    lbvh_group_scan(total, sort + LBVH_SORT_SCAN, LBVH_DIGITS);
    for (uint d = lid; d < LBVH_DIGITS; d += size)
        next[d] += total[d];
    coop_group_sync();
}

/* Pass scatter `pass`: every key of the group's block to its place in the sorted order by this
 * pass's digit, stable: from keys and ids to keys_tmp and ids_tmp on even passes, back on odd ones.
 * The block goes in tiles of a key a work-item; within a tile a key's place is its digit's next
 * place, plus the keys of its digit in the rows before its own, plus those before it in its row. */
inline void lbvh_scatter(uint group, uint groups, uint n, uint pass, global uint *keys, global uint *ids,
                         global uint *keys_tmp, global uint *ids_tmp, global const uint *hist, local uint *sort)
{
    uint lid = get_local_id(0), size = get_local_size(0), shift = pass * LBVH_RADIX_BITS;
    global const uint *keys_in = pass & 1u ? keys_tmp : keys, *ids_in = pass & 1u ? ids_tmp : ids;
    global uint *keys_out = pass & 1u ? keys : keys_tmp, *ids_out = pass & 1u ? ids : ids_tmp;
    local uint *rows = sort + LBVH_SORT_ROWS, *tile = sort + LBVH_SORT_TILE, *next = sort + LBVH_SORT_NEXT;
    uint row = lid / LBVH_ROW, row_count = (size + LBVH_ROW - 1u) / LBVH_ROW;
    for (uint e = lid; e < LBVH_DIGITS * row_count; e += size)
        rows[e] = 0;
    lbvh_digit_bases(group, groups, hist, sort);
    uint start = lbvh_block_start(group, groups, n), end = lbvh_block_start(group + 1u, groups, n);
    for (uint first = start; first < end; first += size) {
        uint i = first + lid, key = 0, id = 0, digit = LBVH_DIGITS;
        if (i < end) {
            key = keys_in[i];
            id = ids_in[i];
            digit = (key >> shift) & (LBVH_DIGITS - 1u);
            atomic_inc(&rows[digit * row_count + row]);
        }
        tile[lid] = digit;
        coop_group_sync();
        uint rank = 0;
        for (uint k = row * LBVH_ROW; k < lid; k++)
            rank += tile[k] == digit;
        /* each digit's row counts become the rows' first places */
        for (uint d = lid; d < LBVH_DIGITS; d += size) {
            uint at = next[d];
            for (uint r = 0; r < row_count; r++) {
                uint count = rows[d * row_count + r];
                rows[d * row_count + r] = at;
                at += count;
            }
            next[d] = at;
        }
        coop_group_sync();
        if (i < end) {
            uint at = rows[digit * row_count + row] + rank;
            keys_out[at] = key;
            ids_out[at] = id;
        }
        coop_group_sync();
        for (uint e = lid; e < LBVH_DIGITS * row_count; e += size)
            rows[e] = 0;
        /* the next tile's counts, and the next pass's count, write `sort` */
        coop_group_sync();
    }
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
                           global uint *parent, global uint *visits, global uint *hist)
{
    uint size = get_local_size(0), leaves = n - 1u;
    if (group == 0 && get_local_id(0) == 0) {
        parent[0] = LBVH_NO_PARENT;
        /* the fit's round 0 appends to count 1 */
        hist[1] = 0;
    }
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

/* The fit's words in hist, free once the sort is done: the item counts of three lists (round r
 * reads count r % 3, appends to count (r + 1) % 3 and zeroes count (r + 2) % 3, which every group
 * read in round r - 1), then the number of rounds, which the persistent kernel writes at its end. */
#define LBVH_FIT_ROUNDS 3u

/* Pass fit, round `round` of a wavefront up the tree: round 0's items are the leaves, whose boxes
 * it writes; round r's are the nodes round r - 1 boxed, in list r % 2 (lists: keys_tmp for even
 * rounds, ids_tmp for odd ones, free once the sort is done), their count in hist[r % 3]. An item
 * counts itself at its parent; the second of the two boxes the parent and appends it to the next
 * list. Every round is a pass: rounds run until one appends nothing (at most the tree's depth + 1),
 * so that no work-item climbs alone while its warp waits. The boxes are the min and max of the same
 * floats in any order: the tree equals the CPU's. sort: two words of local scratch. */
inline void lbvh_fit_round(uint group, uint groups, uint n, uint round, global const float *tris,
                           global const uint *ids, global const uint *child, global const uint *parent,
                           global float *box, global uint *visits, global uint *list_even, global uint *list_odd,
                           global uint *hist, local uint *sort)
{
    uint lid = get_local_id(0), size = get_local_size(0), leaves = n - 1u;
    global const uint *list = round & 1u ? list_odd : list_even;
    global uint *next = round & 1u ? list_even : list_odd;
    uint items = round ? hist[round % 3u] : n;
    if (group == 0u && lid == 0u)
        hist[(round + 2u) % 3u] = 0;
    /* tile by tile, so that the group appends its parents with one global atomic a tile */
    for (uint first = group * size; first < items; first += groups * size) {
        uint i = first + lid, place = LBVH_NO_PARENT, up = LBVH_NO_PARENT;
        if (lid == 0u)
            sort[0] = 0;
        coop_group_sync();
        if (i < items) {
            uint node = round ? list[i] : leaves + i;
            if (!round) {
                global const float *t = tris + (size_t)ids[i] * 9u;
                global float *b = box + (size_t)node * 6u;
                for (uint a = 0; a < 3u; a++) {
                    b[a] = fmin(fmin(t[a], t[3u + a]), t[6u + a]);
                    b[3u + a] = fmax(fmax(t[a], t[3u + a]), t[6u + a]);
                }
            }
            up = parent[node];
            /* the release half publishes this node's box to the sibling that arrives second; the
             * acquire half makes the sibling's box, written before its own fetch_add, visible here.
             * A box written in an earlier round is ordered before this round by the barrier. */
            if (up != LBVH_NO_PARENT && coop_fetch_add(&visits[up], 1u) == 1u) {
                global const float *l = box + (size_t)child[2u * up] * 6u, *r = box + (size_t)child[2u * up + 1u] * 6u;
                global float *p = box + (size_t)up * 6u;
                for (uint a = 0; a < 3u; a++) {
                    p[a] = fmin(l[a], r[a]);
                    p[3u + a] = fmax(l[3u + a], r[3u + a]);
                }
                place = atomic_inc(&sort[0]);
            }
        }
        coop_group_sync();
        /* the next list's count is read only after the round's barrier: a relaxed add suffices */
        if (lid == 0u)
            sort[1] = sort[0] ? atomic_add(&hist[(round + 1u) % 3u], sort[0]) : 0u;
        coop_group_sync();
        if (place != LBVH_NO_PARENT)
            next[sort[1] + place] = up;
        /* the next tile's zeroing of sort[0] follows lid 0's last read of it; sort[1] is rewritten
         * only after that tile's first group sync */
    }
}

#endif
