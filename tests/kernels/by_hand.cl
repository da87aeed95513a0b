/* The megakernel docs/TUTORIAL.md's "A cooperative megakernel written by hand" shows, as a user writes
 * it from that section: a cooperative kernel with transmit state forked at its resizing barrier,
 * and a task (tests/test_by_hand.c). */
typedef struct { uint round; } state;                 /* what a forked group needs */

void rounds(coop_ctx *ctx, global uint *data, uint n, uint count)
{
    state t;
    if (coop_resume_point(ctx) == 1)                   /* a group forked at point 1 */
        coop_transmit_restore(ctx, &t, sizeof t);
    else
        t.round = 0;
    uint killed = 0;
    while (t.round < count && !killed) {
        uint m = coop_shared_num_groups(ctx), g = coop_group_id(ctx);   /* M for the whole group */
        for (uint i = g * get_local_size(0) + get_local_id(0); i < n; i += m * get_local_size(0))
            data[i] += 1;
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);   /* may kill or fork here */
    }
}

void my_task(coop_ctx *ctx, global uint *out)
{
    uint g = coop_group_id(ctx);
    out[g * get_local_size(0) + get_local_id(0)] = g * 7u + get_local_id(0) + 1u;
}

kernel void mega(COOP_PARAMS, global uint *data, uint n, uint count, global uint *out)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            rounds(&ctx, data, n, count);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            my_task(&ctx, out);                        /* one task workgroup: coop_group_id(&ctx) */
        COOP_GROUP_SYNC();
    }
}
