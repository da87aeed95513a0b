/* Group 1 spins on a flag that nothing sets, so the other groups wait at the second global barrier
 * for ever: the watchdog (megakernel) and the time limit (standalone) name that barrier's line. */
kernel void stall(global uint *flag)
{
    global_barrier();
    if (get_group_id(0) == 1)
        while (!coop_load_relaxed(flag))
            ;
    global_barrier();
}
