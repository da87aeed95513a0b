/* A cooperative kernel beside hand_out.cl in one megakernel (tests/test_share.c): member 0
 * starts `chains` chains of `chain_link` runs, each `length` runs long at most (share_tasks.cl: each
 * link spawns the next), trying again after each SPAWN_FULL; the status of each start is kept.
 * `rounds` resizing barriers follow, for chaos to kill and fork around the runs. */
kernel void chains(uint chains, uint length, global uint *starts, uint rounds)
{
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        for (uint chain = 0; chain < chains; chain++) {
            int status = spawn_task("chain_link", 1, chain, 1u, length);
            for (uint again = 0; status == SPAWN_FULL && again < 10000000u; again++)
                status = spawn_task("chain_link", 1, chain, 1u, length);
            starts[chain] = (uint)status + 1u;
        }
    for (uint round = 0; round < rounds; round++) {
        resizing_global_barrier();
    }
}
