/* A cooperative kernel that learns a size and hands the work out as spawned tasks, as spawn.cl
 * does, beside chains.cl in one megakernel (tests/test_share.c): it lists the multiples of 3
 * among in[0 .. n), then member 0 spawns `square` runs over the list, `piece` items each. With
 * `flood` it then keeps its block's spawn queue full: it spawns `bump` runs, trying again after
 * each SPAWN_FULL (counted), until the queue has been full at least once and the first link of
 * each of chains.cl's `chains` chains has run (its word in `link_statuses`, 16 a chain, is set),
 * or `flood` runs went in (an agent that frees its slots early can start every chain before one
 * bump finds the queue full). `rounds` resizing
 * barriers follow, for chaos. */
kernel void hand_out(global uint *in, uint n, global uint *found, global uint *list, global uint *statuses,
                     uint piece, uint flood, global uint *link_statuses, uint chains, uint rounds)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        if (in[i] % 3u == 0u)
            list[coop_atomic_inc(found)] = in[i];
    global_barrier();
    if (get_group_id(0) == 0 && get_local_id(0) == 0) {
        uint count = found[0], spawned = 0, fulls = 0, bumps = 0;
        for (uint first = 0; first < count; first += piece) {
            uint items = count - first < piece ? count - first : piece;
            statuses[spawned++] = spawn_task("square", (items + 15u) / 16u, first, items);
        }
        /* the other kernel's runs go on while this block's queue is full: its chains begin */
        uint begun = 0;
        while (bumps < flood && (begun < chains || fulls == 0u)) {
            int status = spawn_task("bump", 1, 1u);
            fulls += status == SPAWN_FULL;
            bumps += status == SPAWN_OK;
            begun = 0;
            for (uint chain = 0; chain < chains; chain++)
                begun += coop_load_acquire(&link_statuses[chain * 16u + 1u]) != 0u;
        }
        statuses[spawned] = 0xffffffffu;
        statuses[spawned + 1] = fulls;
        statuses[spawned + 2] = bumps;
        statuses[spawned + 3] = begun;
    }
    for (uint round = 0; round < rounds; round++) {
        resizing_global_barrier();
    }
}
