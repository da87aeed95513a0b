/* coop_device/schedule.h: the scheduler loop (coop_schedule): a group's next role, idle waits,
 * finished members.
 * Invariants: docs/DESIGN.md section 4 (roles and their changes). Part of the kernel header
 * (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_SCHEDULE_H
#define COOP_DEVICE_SCHEDULE_H

#include "agent.h"

/* A member returned from the cooperative kernel without being killed: it has finished. One add,
 * no retry loop (every member finishes at about the same moment): F > 0 also ends forking. */
COOP_COLD void coop_member_finished(coop_ctx *ctx)
{
    coop_fetch_add(&ctx->ctrl[COOP_CTRL_STATE], COOP_STATE_ONE_FINISHED);
    COOP_TRACE_EVENT(ctx, COOP_TRACE_MEMBERS_CHANGE(ctx, -1), COOP_EV_FINISHED, 0u, ctx->id);
    coop_barrier_leave(ctx);
}

/* Local id 0: waits in the pool for work. Returns the new role (0: exit) with ctx filled. */
COOP_COLD uint coop_idle_wait(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    coop_set_where(ctx, COOP_WHERE_IDLE, 0u);
    COOP_TRACE_NOW(ctx, COOP_EV_IDLE, 0u, 0u);
    for (;;) {
        /* acquire (and the claim's compare-and-swap): pairs with coop_publish_fork's release of
         * FORK_LEFT, after which the record's words below are written */
        uint left = coop_load_acquire(&ctrl[COOP_CTRL_FORK_LEFT]);
        if (left && coop_cas(&ctrl[COOP_CTRL_FORK_LEFT], left, left - 1u) == left) {
            uint size = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_SIZE]);
            /* F1: the record is this fork's, published for `size` groups (not free, not merely
             * locked), and not read by all of them yet (this group has not: the record cannot
             * have been unlocked). Not "no more readers than slots claimed before this one":
             * a group that claims a later slot may read the record and count itself first
             * (test_scheduler, chaos seed 57, on a clean clone's make check). */
            COOP_CHECK(ctrl, size && size != COOP_FORK_LOCKED && left <= size &&
                                 coop_load_relaxed(&ctrl[COOP_CTRL_FORK_READ]) < size,
                       COOP_CHECK_FORK_RECORD, size, left, coop_load_relaxed(&ctrl[COOP_CTRL_FORK_READ]));
            ctx->id = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_BASE]) + size - left;
            ctx->resume = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_RESUME]);
            ctx->epoch = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_EPOCH]);
            for (uint i = 0; i < COOP_TRANSMIT_WORDS; i++)
                ctx->scratch[COOP_SCRATCH_TRANSMIT + i] = coop_load_relaxed(&ctrl[COOP_CTRL_TRANSMIT + i]);
#if COOP_TRACING
            /* trace mode: the new groups count themselves into the trace's members in id order
             * (FORK_READ as the ticket), so that those are 0 .. M-1 at every moment; the groups
             * that took the slots before this one are past their CAS on FORK_LEFT, and go on */
            uint turn = size - left;
            while (coop_load_acquire(&ctrl[COOP_CTRL_FORK_READ]) != turn)
                coop_pause();
            COOP_TRACE_EVENT(ctx, coop_trace_members(ctx, 1), COOP_EV_FORKED, ctx->resume, ctx->id);
            coop_store_release(&ctrl[COOP_CTRL_FORK_READ], turn + 1u);
            if (turn + 1u == size)
                coop_fork_unlock(ctrl);
#else
            /* acquire-release increments: the last reader's comes after every other reader's, so
             * its unlock's release covers all their reads of the record */
            if (coop_fetch_add(&ctrl[COOP_CTRL_FORK_READ], 1u) + 1u == size)
                coop_fork_unlock(ctrl);
#endif
            return COOP_ROLE_COOP;
        }
        if (coop_join_task(ctx)) {
            if (coop_take_task_group(ctx))
                return COOP_ROLE_TASK;
            coop_leave_task(ctx);
            coop_set_where(ctx, COOP_WHERE_IDLE, 0u);
            COOP_TRACE_NOW(ctx, COOP_EV_IDLE, 0u, 0u);
        }
#if COOP_KERNELS > 1
        /* another kernel's block wants this group (docs/DESIGN.md section 17): wait there */
        if (coop_move_if_asked(ctx)) {
            ctrl = ctx->ctrl;
            continue;
        }
#endif
        if (coop_load_acquire(&ctrl[COOP_CTRL_EXIT]))
            return 0;
        coop_pause();
    }
}

/* Local id 0: what the group does next, after `role` returned. */
COOP_COLD uint coop_next_role(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    if (!ctx->started) {
        ctx->started = 1;
        COOP_TRACE_EVENT(ctx, COOP_TRACE_T0(ctx), COOP_EV_START, ctx->role, ctx->id);
        if (ctx->role != COOP_ROLE_IDLE)
            return ctx->role;
    } else if (ctx->role == COOP_ROLE_COOP) {
        coop_member_finished(ctx);
        coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
    } else if (ctx->role == COOP_ROLE_TASK) {
        if (coop_take_task_group(ctx))
            return COOP_ROLE_TASK;
        coop_leave_task(ctx);
    } else if (ctx->role == COOP_ROLE_AGENT) {
        return 0;
    } else {
        /* killed (COOP_ROLE_KILLED, COOP_ROLE_KILLED_OUT): straight into the gathering task, if
         * any; a group killed at an offer leaves the barriers only then (one killed at a resizing
         * barrier left them already) */
        int joined = coop_join_killed(ctx);
        coop_leave_if_killed(ctx);
        if (joined) {
            if (coop_take_task_group(ctx))
                return COOP_ROLE_TASK;
            coop_leave_task(ctx);
        } else {
            coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
        }
    }
    return coop_idle_wait(ctx);
}

/* The megakernel's loop body: returns the role to run next (COOP_ROLE_COOP: the cooperative
 * kernel, from coop_resume_point(ctx); COOP_ROLE_TASK: workgroup coop_group_id(ctx) of task
 * ctx->task) or 0 when the megakernel must end. The agent group serves the host inside this call. */
inline uint coop_schedule(coop_ctx *ctx)
{
    COOP_GROUP_SYNC();
    if (coop_local_linear_id() == 0) {
        COOP_COLD_CTX(ctx);
        uint role = coop_next_role(cold);
        if (role == COOP_ROLE_AGENT) {
            coop_set_where(cold, COOP_WHERE_AGENT, 0u);
#if COOP_KERNELS > 1
            coop_agent_kernels(cold);
#else
            coop_agent(cold);
#endif
            role = 0;
        }
        COOP_COLD_BACK(ctx);
#if COOP_KERNELS > 1
        coop_kernel_switch(ctx, ctx->scratch[COOP_COLD_KERNEL]);
        /* C1: a member runs in its kernel's block, with an id below that kernel's M */
        COOP_CHECK(ctx->ctrl, role != COOP_ROLE_COOP || (ctx->block < COOP_KERNELS &&
                   ctx->id < COOP_STATE_MEMBERS(coop_load_relaxed(&ctx->ctrl[COOP_CTRL_STATE]))),
                   COOP_CHECK_BLOCK_ID, ctx->block, ctx->id, coop_load_relaxed(&ctx->ctrl[COOP_CTRL_STATE]));
#endif
        if (role == COOP_ROLE_COOP)
            coop_set_where(ctx, COOP_WHERE_RUNNING, ctx->id);
        else if (role == COOP_ROLE_TASK)
            coop_set_where(ctx, COOP_WHERE_TASK, ctx->id);
        else
            coop_set_where(ctx, COOP_WHERE_EXITED, 0u);
        if (!role)
            COOP_TRACE_NOW(ctx, COOP_EV_EXIT, 0u, 0u);
        ctx->scratch[COOP_SCRATCH_M] = 0;
        ctx->scratch[COOP_SCRATCH_ROLE] = role;
        ctx->scratch[COOP_SCRATCH_ID] = ctx->id;
        ctx->scratch[COOP_SCRATCH_EPOCH] = ctx->epoch;
        ctx->scratch[COOP_SCRATCH_RNG] = ctx->rng;
#if !COOP_COLD_COPIES
        ctx->scratch[COOP_COLD_RESUME] = ctx->resume;
        ctx->scratch[COOP_COLD_TASK] = ctx->task;
        ctx->scratch[COOP_COLD_TASK_GROUPS] = ctx->task_groups;
#endif
    }
    COOP_GROUP_SYNC();
    ctx->role = ctx->scratch[COOP_SCRATCH_ROLE];
    ctx->id = ctx->scratch[COOP_SCRATCH_ID];
    ctx->resume = ctx->scratch[COOP_COLD_RESUME];
    ctx->epoch = ctx->scratch[COOP_SCRATCH_EPOCH];
    ctx->task = ctx->scratch[COOP_COLD_TASK];
    ctx->task_groups = ctx->scratch[COOP_COLD_TASK_GROUPS];
    ctx->rng = ctx->scratch[COOP_SCRATCH_RNG];
    ctx->known_groups = 0;
    ctx->started = 1;
#if COOP_KERNELS > 1
    /* the block local id 0 left the group in (a move in coop_idle_wait) */
    coop_kernel_switch(ctx, ctx->scratch[COOP_COLD_KERNEL]);
#endif
    COOP_GROUP_SYNC();
    return ctx->role;
}

#endif
