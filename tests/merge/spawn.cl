/* A cooperative kernel that learns a size and hands the work out as spawned tasks: it lists
 * the multiples of 3 among in[0 .. n), then member 0 spawns `square` runs over the list, `piece`
 * items each, and `chain` once (a task that spawns itself to the depth limit). With `flood` it
 * also spawns `count` runs `flood` times, faster than the host takes them, trying again after
 * each SPAWN_FULL (counted). Resizing barriers follow, for chaos to kill and fork around the
 * spawned runs: until the chain has ended, then `rounds` more, so that the groups the spawned
 * runs held come back while the kernel still offers forks (a fixed count of rounds could end
 * before a slow host served the chain, and no group was ever forked). */
uint chain_ended(global uint *chain_statuses)
{
    /* the chain's last run keeps its refused spawn's status + 1: 2 or more; the host's buffer
     * holds depths 0 .. 9 (the depth limit, 8, and one more) */
    for (uint d = 1; d < 10u; d++)
        if (coop_load_acquire(&chain_statuses[d]) > 1u)
            return 1u;
    return 0u;
}

kernel void learn(global uint *in, uint n, global uint *found, global uint *list, global uint *statuses,
                  uint piece, uint flood, uint rounds, global uint *chain_statuses)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        if (in[i] % 3u == 0u)
            list[coop_atomic_inc(found)] = in[i];
    global_barrier();
    if (get_group_id(0) == 0 && get_local_id(0) == 0) {
        uint count = found[0], spawned = 0;
        for (uint first = 0; first < count; first += piece) {
            uint items = count - first < piece ? count - first : piece;
            statuses[spawned++] = spawn_task("square", (items + 15u) / 16u, first, items);
        }
        statuses[spawned++] = spawn_task("chain", 1, 1u);
        /* the queue full is a status: this work-item goes on, and tries again. The host drains
         * the queue only onto groups that are free: idle ones (the test starts one member), or
         * members killed at an offer, which none reaches while the others wait at the barrier
         * below for this one; so a kernel that waits for room must leave groups idle */
        uint fulls = 0;
        for (uint k = 0; k < flood; k++) {
            int status = spawn_task("count", 1, k + 1u);
            for (uint again = 0; status == SPAWN_FULL && again < 100000u; again++) {
                fulls++;
                status = spawn_task("count", 1, k + 1u);
            }
            statuses[spawned++] = status;
        }
        statuses[spawned] = 0xffffffffu;
        statuses[spawned + 1] = fulls;
    }
    /* at most 64 x rounds in all: the chain needs groups that a kernel on every group lends only
     * at its offers, and the kernel must end even if none were lent */
    transmit uint after = 0;
    transmit uint total = 0;
    while (after < rounds && total < 64u * rounds) {
        uint ended = resizing_global_barrier_any(chain_ended(chain_statuses));
        after = ended ? after + 1u : 0u;
        total++;
    }
}
