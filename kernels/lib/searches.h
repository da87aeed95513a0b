/* searches.h: a worklist app (bfs_searches.cl, sssp_searches.cl) searching again and again from
 * its source in one run, so that a run outlasts many periods of a high-priority task
 * (coop-bench --searches K, for scripts/responsiveness: a kernel-level preemption model
 * P / (P - D) describes a kernel that runs for many periods P, not one ~13 ms search that sees
 * one task). Multikernel mode restarts from the host.
 *
 * `counts` is the app's (apps/bfs/bfs.h, apps/sssp/sssp.h), with these words after it:
 *   counts[SEARCH_COUNT]   searches to run, written by the host;
 *   counts[SEARCH_SOURCE]  the source, written by the host;
 *   counts[SEARCH_NODES]   the node count, written by the host;
 *   counts[SEARCH_BASE]    the round the last search started at (bfs's levels count from it).
 * A search ends with a round that pushed nothing; the step after it is a restart instead of a
 * round, and ends with a barrier like a round. counts[3] counts rounds and restarts. */
#ifndef KERNELS_LIB_SEARCHES_H
#define KERNELS_LIB_SEARCHES_H

#define SEARCH_COUNT 5u
#define SEARCH_SOURCE 6u
#define SEARCH_NODES 7u
#define SEARCH_BASE 8u
#define SEARCH_UNREACHED 0xffffffffu

/* Restart at step `round` (whose worklist is empty), this group's share of the nodes: every
 * node unreached but the source, which gets `source_value`, alone in round + 1's worklist.
 * Nobody reads what this writes before the barrier that ends the step: the other steps' readers
 * of counts[(round + 1) % 3], of the worklist and of the values all come after it. */
inline void search_restart(uint group, uint groups, uint round, volatile global uint *value, uint source_value,
                           global uint *wl0, global uint *wl1, volatile global uint *counts)
{
    uint local_size = get_local_size(0), source = counts[SEARCH_SOURCE], n = counts[SEARCH_NODES];
    for (uint u = group * local_size + get_local_id(0); u < n; u += groups * local_size)
        value[u] = u == source ? source_value : SEARCH_UNREACHED;
    if (group == 0 && get_local_id(0) == 0) {
        (round & 1u ? wl0 : wl1)[0] = source;
        counts[(round + 1u) % 3u] = 1;
        counts[(round + 2u) % 3u] = 0;
        counts[SEARCH_BASE] = round + 1u;
    }
}

#endif
