/* Relaxation over a ring of n values in a loop nest three deep: two resizing barriers in the
 * innermost loop; a barrier, a kill point, a fork point and a barrier at the end of the
 * outermost one; transmit state of several types (and the innermost loop's own variable, which
 * coop-merge transmits), a local array with a work-group barrier, and a helper that asks for the
 * group id. Every step is a function of the previous one, so the
 * values (and the per-sweep sums) are known whatever kills and forks happen. */
uint first_item(void)
{
    return get_group_id(0) * get_local_size(0) + get_local_id(0);
}

kernel void relax(global uint *a, global uint *b, uint n, uint sweeps, uint phases, uint steps, global uint *sums)
{
    transmit uint s;
    transmit uint p;
    transmit int shift = 1;
    transmit float weight = 1.0f;
    local uint partial[64];
    for (s = 0; s < sweeps; s++) {
        for (p = 0; p < phases; p++) {
            for (uint t = 0; t < steps; t++) {
                for (uint i = first_item(); i < n; i += get_global_size(0))
                    b[i] = (a[i] + a[(i + n + shift) % n] * (uint)weight) % 65521u;
                resizing_global_barrier();
                for (uint i = first_item(); i < n; i += get_global_size(0))
                    a[i] = b[i] + 1u;
                resizing_global_barrier();
            }
            shift = -shift;
        }
        uint lid = get_local_id(0);
        uint mine = 0;
        for (uint i = first_item(); i < n; i += get_global_size(0))
            mine += a[i];
        partial[lid % 64] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        atomic_add(&partial[lid % 64], mine);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            uint total = 0;
            for (uint k = 0; k < 64 && k < get_local_size(0); k++)
                total += partial[k];
            atomic_add(&sums[s], total);
        }
        weight = weight * 2.0f;
        global_barrier(); /* everyone has summed by M before any group can leave or come */
        offer_kill();
        offer_fork();
        global_barrier();
    }
}
