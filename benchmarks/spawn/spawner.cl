/* spawn-bench's cooperative kernel: member 0 spawns `runs` runs of `spawned`, one after another,
 * each once the last one has started (its first work-item marks done[r]), so that every spawn
 * finds the queue empty and the other groups idle; the other members finish at once and wait in
 * the pool for the spawned runs. A refused spawn is counted in done[runs]. */
kernel void spawner(global uint *done, uint runs, uint workgroups)
{
    if (get_group_id(0) == 0 && get_local_id(0) == 0) {
        for (uint r = 0; r < runs; r++) {
            if (spawn_task("spawned", workgroups, r) != SPAWN_OK) {
                done[runs] += 1u;
                continue;
            }
            while (coop_load_acquire(&done[r]) == 0u) {
            }
        }
    }
}
