/* Kernels for sched-bench. Work is a number of units taken from a shared counter; a unit is a
 * dependent chain of `iters` multiply-adds per work-item (on an H100 at 6 groups per SM, 2000 take about 8.5 us).
 * The cooperative version offers kill and fork between units; the plain version is the same
 * loop as an ordinary persistent kernel. The round kernels do the same with a barrier between
 * rounds (resizing in the cooperative one). */

/* A dependent chain of integer multiply-adds. Results go to a small wrapped sink (they only
 * keep the work alive); each unit also counts itself in `done`, which the host checks is 1 for
 * every unit: a unit lost to a kill, or run twice, shows. */
#define SINK_SLOT(unit) (((unit) & 4095u) * get_local_size(0) + get_local_id(0))
inline uint unit_work(uint unit, uint iters)
{
    uint x = unit * 2654435761u + (uint)get_local_id(0);
    for (uint i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

/* Claims the next unit for the whole group. */
inline uint claim_unit(coop_ctx *ctx, global uint *next)
{
    uint unit = 0;
    if (get_local_id(0) == 0)
        unit = coop_fetch_add(next, 1u);
    return coop_broadcast(ctx, unit);
}

/* What the unit loop offers between units. The default is the benchmark; the others take the
 * offers apart to measure what each piece costs (--options "-DSCHED_OFFERS=n"; with them only
 * the units line means anything: members are never killed, or never forked back):
 * 1 nothing; 2 offer_kill only; 3 offer_fork only; 4 two group broadcasts of a constant (the
 * offers' barriers without their reads); 5 every work-item reads both scheduler words itself
 * (the reads without the barriers). */
#ifndef SCHED_OFFERS
#define SCHED_OFFERS 0
#endif

void units_coop(coop_ctx *ctx, global uint *next, uint units, uint iters, global uint *sink, global uint *done)
{
    uint killed = 0;
    uint unit = claim_unit(ctx, next);
    while (unit < units && !killed) {
        sink[SINK_SLOT(unit)] = unit_work(unit, iters);
        if (get_local_id(0) == 0)
            coop_fetch_add(&done[unit], 1u);
#if SCHED_OFFERS == 0 || SCHED_OFFERS == 2
        killed = coop_offer_kill(ctx);
#elif SCHED_OFFERS == 4
        killed = coop_broadcast(ctx, 0u) | coop_broadcast(ctx, 0u);
#elif SCHED_OFFERS == 5
        killed = (coop_load_relaxed(&ctx->ctrl[COOP_CTRL_KILLS]) == 0xffffffffu) |
                 (coop_load_relaxed(&ctx->ctrl[COOP_CTRL_IDLE]) == 0xffffffffu);
#endif
        if (!killed) {
#if SCHED_OFFERS == 0 || SCHED_OFFERS == 3
            uint none = 0;
            coop_offer_fork(ctx, 1, &none, sizeof none);
#endif
            unit = claim_unit(ctx, next);
        }
    }
}

kernel void units_plain(COOP_PARAMS, global uint *next, uint units, uint iters, global uint *sink,
                        global uint *done)
{
    COOP_ENTER(ctx);
    for (uint unit = claim_unit(&ctx, next); unit < units; unit = claim_unit(&ctx, next)) {
        sink[SINK_SLOT(unit)] = unit_work(unit, iters);
        if (get_local_id(0) == 0)
            coop_fetch_add(&done[unit], 1u);
    }
}

typedef struct rounds_state {
    uint round;
} rounds_state;

void rounds_coop(coop_ctx *ctx, uint rounds, uint iters, global uint *sink)
{
    rounds_state t;
    if (coop_resume_point(ctx) == 2)
        coop_transmit_restore(ctx, &t, sizeof t);
    else
        t.round = 0;
    uint killed = 0;
    while (t.round < rounds && !killed) {
        uint g = coop_group_id(ctx);
        sink[SINK_SLOT(g)] = unit_work(t.round + g, iters);
        t.round++;
        killed = coop_resizing_barrier(ctx, 2, &t, sizeof t);
    }
}

kernel void rounds_plain(COOP_PARAMS, uint rounds, uint iters, global uint *sink)
{
    COOP_ENTER(ctx);
    uint g = coop_group_id(&ctx);
    for (uint round = 0; round < rounds; round++) {
        sink[SINK_SLOT(g)] = unit_work(round + g, iters);
        coop_global_barrier(&ctx);
    }
}

/* The high-priority task: a short computation per workgroup. */
void task_short(coop_ctx *ctx, uint iters, global uint *task_sink)
{
    uint g = coop_group_id(ctx);
    task_sink[SINK_SLOT(g)] = unit_work(g, iters);
}

kernel void units_mega(COOP_PARAMS, global uint *next, uint units, uint iters, global uint *sink,
                       global uint *done, uint task_iters, global uint *task_sink)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            units_coop(&ctx, next, units, iters, sink, done);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK)
            task_short(&ctx, task_iters, task_sink);
    }
}

kernel void rounds_mega(COOP_PARAMS, uint rounds, uint iters, global uint *sink, uint task_iters,
                        global uint *task_sink)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            rounds_coop(&ctx, rounds, iters, sink);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK)
            task_short(&ctx, task_iters, task_sink);
    }
}
