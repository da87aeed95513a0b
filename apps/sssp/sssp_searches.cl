/* sssp_searches.cl: sssp.cl searching counts[SEARCH_COUNT] times from its source in one run
 * (kernels/lib/searches.h, coop-bench --searches K). Marks need no restart: they hold round
 * numbers, which only grow from search to search. */
#include "sssp.h"
#include "searches.h"

kernel void sssp_searches(global const uint *row, global const uint *col, global const uint *weight,
                          global uint *dist, global uint *mark, global uint *wl0, global uint *wl1,
                          global uint *counts)
{
    local uint scratch[EXPAND_WORDS];
    transmit uint round = 0;
    transmit uint search = 1;
    transmit uint searches = counts[SEARCH_COUNT];
    for (uint in_count = counts[round % 3u]; in_count || search < searches; in_count = counts[round % 3u]) {
        uint group = get_group_id(0), groups = shared_num_groups();
        if (in_count) {
            sssp_round(group, groups, round, in_count, row, col, weight, dist, mark, wl0, wl1, counts, scratch);
        } else {
            search_restart(group, groups, round, dist, 0u, wl0, wl1, counts);
            search++;
        }
        round++;
        resizing_global_barrier();
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        counts[3] = round;
}
