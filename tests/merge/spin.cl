/* A work loop that never ends (nothing sets the flag) but offers kill and fork every time round:
 * tasks and chaos keep killing and forking its groups, and the watchdog must still say that it
 * makes no progress. */
kernel void spin(global uint *flag)
{
    transmit uint done = 0;
    while (!done) {
        done = flag[0] != 0;
        offer_kill();
        offer_fork();
    }
}
