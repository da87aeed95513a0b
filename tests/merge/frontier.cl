/* Level-synchronous breadth-first search over a worklist, in the shape of LonestarGPU's worklist
 * BFS (written here): each work-item takes one node of the level; the group numbers its nodes'
 * edges with a group scan, gathers them into local memory a group's width at a time, and pushes
 * the nodes it reaches with a second group scan and one atomic per group. Both scans are helpers
 * with workgroup barriers, the push called inside the edge loop, and work-item values (the node
 * reached) live across their barriers. The level's work is split by shared_num_groups(), M as
 * of the last barrier read once per group. PoCL 3.1 lost those values when libcoop's resizing
 * barrier read its kill count in local id 0 just before a workgroup barrier (coop_device/resize.h,
 * COOP_RESIZE_PREFETCH). */
#define FRONTIER_WIDTH 16
#define UNREACHED 0xffffffffu

/* The exclusive prefix sum of `value` over the group; *total gets the group's sum. */
int group_scan(local int *slots, local int *sum, int value, int *total)
{
    int lid = get_local_id(0);
    slots[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int running = 0;
        for (int i = 0; i < (int)get_local_size(0); i++) {
            int v = slots[i];
            slots[i] = running;
            running += v;
        }
        *sum = running;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *total = *sum;
    return slots[lid];
}

/* Appends `node` to the list when `has`, the group's items together. */
void push(global int *list, global int *count, local int *slots, local int *sum, local int *base, int has, int node)
{
    int total;
    int offset = group_scan(slots, sum, has, &total);
    if (get_local_id(0) == 0)
        *base = atomic_add(count, total);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (has)
        list[*base + offset] = node;
}

/* level[source] = 0 and the others UNREACHED; list_a = {source}, *count_a = 1, *count_b = 0.
 * The local size must be FRONTIER_WIDTH. */
kernel void frontier(global uint *level, global const uint *first, global const uint *targets, global int *list_a,
                     global int *list_b, global int *count_a, global int *count_b)
{
    transmit global int *in = list_a;
    transmit global int *out = list_b;
    transmit global int *in_count = count_a;
    transmit global int *out_count = count_b;
    transmit uint depth = 0;
    local int edges[FRONTIER_WIDTH];
    local int slots[FRONTIER_WIDTH];
    local int sum[1];
    local int base[1];
    while (1) {
        uint threads = shared_num_groups() * get_local_size(0);
        uint items = (uint)*in_count;
        uint id = get_global_id(0);
        for (uint pass = 0; pass < (items + threads - 1) / threads; pass++, id += threads) {
            int node = id < items ? in[id] : -1;
            int begin = node >= 0 ? (int)first[node] : 0;
            int degree = node >= 0 ? (int)first[node + 1] - begin : 0;
            int group_edges;
            int start = group_scan(slots, sum, degree, &group_edges);
            for (int done = 0; done < group_edges; done += FRONTIER_WIDTH) {
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int e = max(start, done); e < min(start + degree, done + FRONTIER_WIDTH); e++)
                    edges[e - done] = begin + e - start;
                barrier(CLK_LOCAL_MEM_FENCE);
                int lid = get_local_id(0);
                int reached = -1;
                if (done + lid < group_edges) {
                    uint to = targets[edges[lid]];
                    if (atomic_cmpxchg((volatile global uint *)&level[to], UNREACHED, depth + 1) == UNREACHED)
                        reached = (int)to;
                }
                push(out, out_count, slots, sum, base, reached >= 0, reached);
            }
        }
        resizing_global_barrier();
        global int *list = in;
        global int *count = in_count;
        in = out;
        in_count = out_count;
        out = list;
        out_count = count;
        if (get_global_id(0) == 0)
            *out_count = 0;
        depth++;
        resizing_global_barrier();
        if (*in_count == 0)
            break;
    }
}
