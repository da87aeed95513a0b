/* A small hand-written megakernel: a cooperative kernel that adds one to every element of
 * `data` per round, with a resizing barrier between rounds (its transmit state is the round),
 * and one task that fills `out`. Each round splits the elements over the current members, so the
 * result (every element == rounds) holds whatever kills and forks happen. */
typedef struct rounds_state {
    uint round;
} rounds_state;

void coop_rounds(coop_ctx *ctx, global uint *data, uint n, uint rounds)
{
    rounds_state t;
    if (coop_resume_point(ctx) == 1)
        coop_transmit_restore(ctx, &t, sizeof t);
    else
        t.round = 0;
    uint killed = 0;
    while (t.round < rounds && !killed) {
        uint m = coop_shared_num_groups(ctx);
        uint g = coop_group_id(ctx);
        for (uint i = g * get_local_size(0) + get_local_id(0); i < n; i += m * get_local_size(0))
            data[i] += 1;
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
    }
}

void task_fill(coop_ctx *ctx, global uint *out)
{
    uint g = coop_group_id(ctx);
    out[g * get_local_size(0) + get_local_id(0)] = g * 7u + get_local_id(0) + coop_task_arg(ctx, 0);
}

kernel void rounds_mega(COOP_PARAMS, global uint *data, uint n, uint rounds, global uint *out)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            coop_rounds(&ctx, data, n, rounds);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK)
            task_fill(&ctx, out);
        COOP_GROUP_SYNC();
    }
}
