/* Fork points at the top level, in an if inside a do-while loop, a barrier in the other branch,
 * and a kill point in an endless loop left by break. */
int weight(global const int *w, uint i)
{
    return w[i];
}

kernel void paths(global int *data, global const int *w, uint n, uint steps)
{
    transmit uint step = 0;
    transmit int total = 0;
    transmit int first;
    uint g = get_group_id(0);
    first = weight(w, g);
    offer_fork();
    do {
        total += first;
        if (step % 2 == 0) {
            data[g % n] = total;
            resizing_global_barrier();
        } else {
            global_barrier();
        }
        step++;
    } while (step < steps);
    for (;;) {
        offer_kill();
        if (total > 100)
            break;
        total += 10;
    }
    data[0] = total;
}
