/* A cooperative kernel that has more runs done than an agent's record ring holds while its host
 * reads none of the ring (tests/test_merge.c, records_outlast_a_slow_host): member 0 spawns
 * `runs` tally runs, each of which spawns a leaf, and waits until `wait_for` runs have run (the
 * tallies' counts and the leaves' `done`). It spawns the next tally once the last one spawned its
 * leaf, so that the queue never fills; once `wait_for` runs have run, it spawns the rest at once.
 * An agent that reused a slot only once the host recorded its last run would run as many as it
 * has slots, and this kernel would wait for ever. */
uint runs_done(global uint *tally_runs, uint runs, global uint *done)
{
    uint sum = coop_load_acquire(done);
    for (uint k = 0; k < runs; k++)
        sum += coop_load_acquire(&tally_runs[k]);
    return sum;
}

kernel void burst(global uint *statuses, global uint *tally_runs, global uint *leaf_statuses, global uint *done,
                  uint runs, uint wait_for)
{
    if (get_group_id(0) == 0 && get_local_id(0) == 0) {
        for (uint k = 0; k < runs; k++) {
            int status = spawn_task("tally", 1, k);
            for (uint again = 0; status == SPAWN_FULL && again < 10000000u; again++)
                status = spawn_task("tally", 1, k);
            statuses[k] = status;
            while (status == SPAWN_OK && !coop_load_acquire(&leaf_statuses[k]) &&
                   runs_done(tally_runs, runs, done) < wait_for)
                ;
        }
        while (runs_done(tally_runs, runs, done) < wait_for)
            ;
    }
}
