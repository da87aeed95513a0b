/* Connected components by label propagation, a cooperative kernel in the language of Sorensen,
 * Evrard and Donaldson, "Cooperative Kernels" (FSE 2017), as coop-merge takes it.
 *
 * Every node starts with its own number as its label and takes the smallest label among its
 * neighbours, round after round, until no label changes: then each node's label is the
 * smallest node number of its component. A round reads the labels of the last round and writes
 * the next ones into the other array; the two pointers change places after every round.
 * resizing_global_barrier_any() ends each round: all groups meet (and groups may be taken away
 * or given back there), and every work-item learns whether any work-item changed a label. */
kernel void components(global const uint *row, global const uint *col, global uint *labels,
                       global uint *scratch, uint nodes)
{
    transmit global uint *label = labels;  /* the last round's labels */
    transmit global uint *next = scratch;  /* this round's */
    transmit int changed = 1;
    for (uint v = get_global_id(0); v < nodes; v += get_global_size(0))
        label[v] = v;
    global_barrier();
    while (changed) {
        int mine = 0;
        for (uint v = get_global_id(0); v < nodes; v += get_global_size(0)) {
            uint best = label[v];
            for (uint e = row[v]; e < row[v + 1]; e++)
                best = min(best, label[col[e]]);
            next[v] = best;
            mine |= best != label[v];
        }
        global uint *last = label;
        label = next;
        next = last;
        changed = resizing_global_barrier_any(mine);
    }
    /* the result goes where the host looks for it */
    if (label != labels)
        for (uint v = get_global_id(0); v < nodes; v += get_global_size(0))
            labels[v] = label[v];
}
