/* Loops whose bodies are a primitive alone, without braces: coop-merge gives such a body braces
 * (for its PoCL joins) where it also rewrites the primitive, which once failed with "internal
 * error: overlapping rewrites". Member 0's work-item 0 adds 5 after n resizing barriers, and 7
 * after n offers of kill and n global barriers: out = {5, 7} under any schedule. */
kernel void no_braces(global uint *out, uint n)
{
    for (uint i = 0; i < n; i++)
        resizing_global_barrier();
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        atomic_add(&out[0], 5u);
    for (uint j = 0; j < n; j++)
        offer_kill();
    for (uint k = 0; k < n; k++)
        global_barrier();
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        atomic_add(&out[1], 7u);
}
