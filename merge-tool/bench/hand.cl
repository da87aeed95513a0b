/* hand.cl: merge-bench's baseline, the megakernel of merge-tool/bench/rounds.cl and task.cl
 * written by hand against libcoop's kernel header (what benchmarks/sched/sched.cl held before its
 * kernels were written in the cooperative language): merge-bench times coop-merge's megakernel
 * against it. */

/* A dependent chain of integer multiply-adds (benchmarks/sched/work.h's). */
#define SINK_SLOT(unit) (((unit) & 4095u) * get_local_size(0) + get_local_id(0))
inline uint unit_work(uint unit, uint iters)
{
    uint x = unit * 2654435761u + (uint)get_local_id(0);
    for (uint i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    return x;
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

/* The high-priority task: a short computation per workgroup. */
void task_short(coop_ctx *ctx, uint iters, global uint *task_sink)
{
    uint g = coop_group_id(ctx);
    task_sink[SINK_SLOT(g)] = unit_work(g, iters);
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
