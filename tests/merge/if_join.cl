/* smith seed 118, reduced: an `if` around a helper's workgroup barriers after a fork point, with
 * work after the helper's last barrier inside the `if`. In each of n rounds member 0 adds what
 * the helper shares in every work-item, then its work-item 0 adds 22 more: on PoCL that last add
 * never happened (or the group hung, when only the work-item test was left) until coop-merge put
 * coop_pocl_join() after the `if`. */
uint share_value(local uint *s, uint v)
{
    if (get_local_id(0) == 0)
        s[0] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

kernel void if_join(global uint *out, uint n)
{
    local uint s[1];
    for (uint i = 0; i < n; i++) {
        offer_kill();
        offer_fork();
        if (n > 0u) {
            for (uint j = 0; j < 3u; j++) {
                uint h = share_value(s, 7u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[get_local_id(0)], h);
            }
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[get_local_size(0)], 22u);
        }
    }
}
