/* Global-barrier latency with a data check: before barrier i every work-item writes a value
 * derived from i into its slot; after it, each reads the slot of the same work-item in another
 * group (a different one each time) and counts values that are not the ones written before the
 * barrier. Two buffers alternate, so a slot is rewritten only two barriers after it was read.
 * Built with -DCOOP_BARRIER_VOTE=1 (barrier-bench --vote), each barrier is a vote too
 * (coop_global_barrier_any), whose outcome is checked as well: one work-item of one group votes
 * at half the barriers; with -DCOOP_BARRIER_VOTE=2 every work-item of every group votes at every
 * barrier. -DCOOP_BARRIER_EXTRA_ATOMIC=1 is the plain barrier with one more atomic per group
 * before it (on the barrier's counter, as a voting group's): the budget a vote must stay within. */
kernel void coop_barrier_check(COOP_PARAMS, uint barriers, global uint *data, global uint *failures,
                               global ulong *elapsed_ns)
{
    COOP_ENTER(ctx);
    uint group = coop_group_id(&ctx);
    uint groups = coop_num_groups(&ctx);
    uint lid = coop_local_linear_id();
    uint lsize = coop_local_linear_size();
    uint slots = groups * lsize;
    uint wrong = 0;
#if COOP_HAS_CLOCK
    ulong start_ns = coop_clock_ns();
#endif
    for (uint i = 0; i < barriers; i++) {
        global uint *buffer = data + (i & 1) * slots;
        buffer[group * lsize + lid] = i * 2654435761u + group * lsize + lid;
#if COOP_BARRIER_VOTE == 2
        wrong += coop_global_barrier_any(&ctx, 1) != 1;
#elif COOP_BARRIER_VOTE
        /* one work-item of one group votes, at half the barriers: the vote says so everywhere */
        uint voter = i % (2u * groups);
        int any = coop_global_barrier_any(&ctx, voter == group && lid == lsize - 1u);
        wrong += any != (voter < groups);
#elif COOP_BARRIER_EXTRA_ATOMIC
        if (lid == 0)
            coop_fetch_or_relaxed(coop_barrier_counter(&ctx, ctx.epoch + 1u), 0u);
        coop_global_barrier(&ctx);
#else
        coop_global_barrier(&ctx);
#endif
        uint other = (group + 1 + i % groups) % groups;
        if (buffer[other * lsize + lid] != i * 2654435761u + other * lsize + lid)
            wrong++;
    }
    if (wrong)
        coop_fetch_add(failures, wrong);
#if COOP_HAS_CLOCK
    if (group == 0 && lid == 0)
        elapsed_ns[0] = coop_clock_ns() - start_ns;
#endif
}
