/* bfs_searches.cl: bfs.cl searching counts[SEARCH_COUNT] times from its source in one run
 * (kernels/lib/searches.h, coop-bench --searches K). Levels count from the round the search
 * started at (the source's level), so the host subtracts counts[SEARCH_BASE]. */
#include "bfs.h"
#include "searches.h"

kernel void bfs_searches(global const uint *row, global const uint *col, global uint *level, global uint *wl0,
                         global uint *wl1, global uint *counts, uint max_degree)
{
    local uint scratch[EXPAND_WORDS];
    transmit uint round = 0;
    transmit uint search = 1;
    transmit uint searches = counts[SEARCH_COUNT];
    for (uint in_count = counts[round % 3u]; in_count || search < searches; in_count = counts[round % 3u]) {
        uint group = get_group_id(0), groups = shared_num_groups();
        if (in_count) {
            bfs_round(group, groups, round, in_count, row, col, level, wl0, wl1, counts, scratch, max_degree);
        } else {
            search_restart(group, groups, round, level, round + 1u, wl0, wl1, counts);
            search++;
        }
        round++;
        resizing_global_barrier();
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        counts[3] = round;
}
