/* trace.cl: the megakernel tests/test_trace.c traces. Its rounds use every primitive a trace
 * shows: a global barrier, a resizing barrier, offer_fork and offer_kill; beside them runs a task
 * that counts its workgroups. Each round adds one to every element, split over the members that
 * met at the round's first barrier. Group 0 decides before the resizing barrier whether another
 * round follows: while fewer than min_rounds ran, or while the tasks have not run `target`
 * workgroups (at most max_rounds), so that every planned task runs beside the rounds. A group
 * forked at either point resumes at the next round with the round number. */
typedef struct trace_state {
    uint round;
} trace_state;

void trace_rounds(coop_ctx *ctx, global uint *data, uint n, uint min_rounds, uint max_rounds,
                  global uint *task_groups, uint target, global uint *go, global uint *rounds_done)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    trace_state t = {0};
    uint more = 1;
    if (coop_resume_point(ctx)) {
        coop_transmit_restore(ctx, &t, sizeof t);
        more = go[t.round - 1];
    }
    int killed = 0;
    while (more && !killed) {
        coop_global_barrier(ctx);
        uint m = coop_shared_num_groups(ctx);
        uint g = coop_group_id(ctx);
        for (uint i = g * size + lid; i < n; i += m * size)
            data[i] += 1u;
        if (g == 0 && lid == 0)
            go[t.round] = t.round + 1 < min_rounds ||
                          (t.round + 1 < max_rounds && coop_load_acquire(task_groups) < target);
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
        more = go[t.round - 1];
        uint leaving = killed || !more;
        coop_offer_fork_unless(ctx, leaving, 2, &t, sizeof t);
        if (coop_offer_kill_unless(ctx, leaving))
            killed = 1;
    }
    if (!killed && lid == 0)
        rounds_done[0] = t.round;
}

kernel void trace_mega(COOP_PARAMS, global uint *data, uint n, uint min_rounds, uint max_rounds,
                       global uint *task_groups, uint target, global uint *go, global uint *rounds_done)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            trace_rounds(&ctx, data, n, min_rounds, max_rounds, task_groups, target, go, rounds_done);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && get_local_id(0) == 0)
            coop_fetch_add(task_groups, 1u);
        COOP_GROUP_SYNC();
    }
}

/* A kill token taken while a member below has finished: member 0 finishes once a task's request
 * has put kill tokens out (the task takes two groups and none is idle then); the largest waits
 * for that finish, then offers kill until it is killed (a sweep, whose trace-mode wait must count
 * the finished member out) or the tasks have run `target` workgroups; the members between wait
 * for the tasks. */
void trace_finish_early(coop_ctx *ctx, global uint *task_groups, uint target, global uint *offers)
{
    if (coop_resume_point(ctx))
        return;
    uint id = coop_group_id(ctx), m = coop_shared_num_groups(ctx);
    if (id == 0u && m > 1u) {
        while (coop_broadcast(ctx, get_local_id(0) == 0u ? coop_load_acquire(&ctx->ctrl[COOP_CTRL_KILLS]) : 0u) == 0u)
            ;
        return;
    }
    int killed = 0;
    while (!killed && coop_broadcast(ctx, get_local_id(0) == 0u ? coop_load_acquire(task_groups) : 0u) < target) {
        if (id + 1u != m)
            continue;
        uint finished = get_local_id(0) == 0u ? COOP_STATE_FINISHED(coop_load_acquire(&ctx->ctrl[COOP_CTRL_STATE])) : 0u;
        if (coop_broadcast(ctx, finished) == 0u && m > 1u)
            continue;
        if (get_local_id(0) == 0)
            offers[0]++;
        killed = coop_offer_kill(ctx);
    }
}

kernel void trace_finish_mega(COOP_PARAMS, global uint *task_groups, uint target, global uint *offers)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            trace_finish_early(&ctx, task_groups, target, offers);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && get_local_id(0) == 0)
            coop_fetch_add(task_groups, 1u);
        COOP_GROUP_SYNC();
    }
}
