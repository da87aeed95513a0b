/* coop_device/start.h: the scheduler's part of a group's start, which discovery calls: the
 * starting state (members, idle groups, the agent) and each group's first role.
 * Invariants: docs/DESIGN.md section 5: D3 start state; section 4 (roles). Part of the kernel
 * header (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_START_H
#define COOP_DEVICE_START_H

#include "kernels.h"

/* The context's scheduler fields, before discovery. */
inline void coop_scheduler_reset(coop_ctx *ctx)
{
    ctx->resume = 0;
    ctx->task = 0;
    ctx->task_groups = 0;
    ctx->toggle = 0;
    ctx->started = 0;
    ctx->known_groups = 0;
}

/* The discovery leader (local id 0), once the poll is closed with `groups` groups and before it
 * publishes the count (with release; every group acquires it before it reads what this wrote):
 * the scheduler's starting state. The first M0 groups are cooperative members (armed for
 * barriers 1 and 2), the last one is the agent if the host asked for one, the rest start idle. */
inline void coop_scheduler_open(coop_ctx *ctx, uint groups)
{
    global uint *dev = ctx->dev;
    uint agent = groups > 1 && coop_load_relaxed(&dev[COOP_DEV_AGENT]) ? 1u : 0u;
    uint wanted = coop_load_relaxed(&dev[COOP_DEV_MEMBERS]);
    uint members = wanted && wanted < groups - agent ? wanted : groups - agent;
#if COOP_KERNELS > 1
    coop_kernels_open(ctx, groups, agent, members);
#else
    global uint *ctrl = ctx->ctrl;
    coop_store_relaxed(&ctrl[COOP_CTRL_STATE], members);
    coop_store_relaxed(&ctrl[COOP_CTRL_IDLE], groups - agent - members);
    coop_barrier_arm_first(dev, members);
#endif
#if COOP_TRACING
    /* the trace's time zero and its count of running members, published with the groups */
    ulong t0 = coop_trace_clock();
    global uint *trace = COOP_TRACE_AREA(ctx);
    coop_trace_store64(&trace[COOP_TRACE_T0], t0);
#if COOP_KERNELS > 1
    /* each kernel's own count, its share (coop_kernels_open); block 0's is in the trace area */
    for (uint k = 0; k < COOP_KERNELS; k++)
        coop_trace_store64(&(k ? ctx->dev0 + COOP_DEV_TRACE_KERNEL(COOP_KERNELS, k) : trace)[COOP_TRACE_MEMBERS],
                           coop_load_relaxed(&ctx->dev0[k * COOP_DEV_WORDS + COOP_DEV_MEMBERS]));
#else
    coop_trace_store64(&trace[COOP_TRACE_MEMBERS], members);
#endif
    coop_trace_at(trace, 0u, 0u, t0, COOP_EV_INIT, members, groups);
#endif
#if COOP_KERNELS == 1
    coop_store_relaxed(&dev[COOP_DEV_MEMBERS], members);
#endif
    coop_store_relaxed(&dev[COOP_DEV_AGENT], agent);
}

/* Local id 0 of every group, after discovery: the scheduler's words of the group's scratch (and
 * the barrier's vote), and what coop_scheduler_enter needs from the leader's starting state. */
inline void coop_scheduler_hand_over(coop_ctx *ctx)
{
    local uint *s = ctx->scratch;
    global uint *dev = ctx->dev;
    global uint *chan = ctx->chan;
    s[COOP_SCRATCH_M] = 0;
    s[COOP_COLD_RESUME] = s[COOP_COLD_TASK] = s[COOP_COLD_TASK_GROUPS] = 0;
    s[COOP_COLD_STARTED] = 0;
    s[COOP_SCRATCH_VOTE] = 0;
    s[COOP_COLD_CHAN] = (uint)(ulong)chan;
    s[COOP_COLD_CHAN + 1] = (uint)((ulong)chan >> 32);
    s[COOP_SCRATCH_MEMBERS] = coop_load_relaxed(&dev[COOP_DEV_MEMBERS]);
    s[COOP_SCRATCH_AGENT] = coop_load_relaxed(&dev[COOP_DEV_AGENT]);
    s[COOP_SCRATCH_CHAOS] = coop_load_relaxed(&dev[COOP_DEV_CHAOS]);
#if COOP_KERNELS > 1
    uint ticket = s[COOP_SCRATCH_TICKET];
    s[COOP_COLD_KERNEL] = s[COOP_COLD_KERNEL_BASE] = 0;
    if (ticket != COOP_NO_GROUP)
        coop_kernels_hand_over(ctx, COOP_ID_OF_TICKET(ticket, s[COOP_SCRATCH_GROUPS], s[COOP_SCRATCH_AGENT]));
#endif
}

/* Every work-item, after discovery's group barrier: the group's first role and id, from its
 * discovery ticket (ctx->physical). */
inline void coop_scheduler_enter(coop_ctx *ctx)
{
    local uint *s = ctx->scratch;
    uint ticket = ctx->physical, groups = s[COOP_SCRATCH_GROUPS];
    /* The agent, when there is one, is the very first group. After it, the first COOP_NEAR_IDS
     * groups to arrive take ids 0, 1, ..., and the rest ids against arrival order, so that the
     * next ones to arrive get the largest ids (COOP_ID_OF_TICKET, coop_layout.h). Tickets follow
     * how soon a group's atomic reaches the device area, whose words the barriers and the
     * scheduler use too: on the H200 the first 132 of 792 tickets came from 33-43 SMs. The
     * largest ids, which kills take first, so go to groups that are near those words and the
     * oldest on their compute units, which GPU warp schedulers favour (a starved group would make
     * a task wait for its next offer; in arrival order all through sched-bench's gather took
     * 96-136 us against 21-33). The low ids get a small frontier's work and member 0 decides at
     * resizing barriers: near ones made bfs 8.6% faster standalone and 7.7% cooperative on
     * USA-road-NY, 5.8% and 4.6% on USA-road-FLA, and sched-bench's gather no slower, with 8 of
     * them; with 32 the gather took 45-49 us. */
    uint agent = s[COOP_SCRATCH_AGENT];
    uint order = COOP_ID_OF_TICKET(ticket, groups, agent);
#if COOP_KERNELS > 1
    /* ids count from the first of the group's kernel's places (coop_kernels_hand_over) */
    order -= s[COOP_COLD_KERNEL_BASE];
    coop_kernel_switch(ctx, s[COOP_COLD_KERNEL]);
#endif
    ctx->id = order;
    ctx->role = agent && ticket == 0 ? COOP_ROLE_AGENT
                : order < s[COOP_SCRATCH_MEMBERS] ? COOP_ROLE_COOP
                                     : COOP_ROLE_IDLE;
}

#endif
