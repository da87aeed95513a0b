/* Tasks that spawn_ring.cl spawns. */

/* Run k: counts its run and spawns leaf k one deeper (the spawn's status + 1 kept). */
kernel void tally(global uint *tally_runs, global uint *leaf_statuses)
{
    uint k = get_task_arg(0);
    if (get_local_id(0) == 0) {
        tally_runs[k] += 1u;
        leaf_statuses[k] = spawn_task("leaf", 1, k) + 1u;
    }
}

/* Leaf k: counts its run, and every leaf's in `done`. */
kernel void leaf(global uint *leaf_runs, global uint *done)
{
    if (get_local_id(0) == 0) {
        leaf_runs[get_task_arg(0)] += 1u;
        atomic_add(done, 1u);
    }
}
