/* coop_device/task.h: task dispatch: groups join a requested task, run its workgroups, and
 * leave.
 * Invariants: docs/DESIGN.md section 10: T1 want groups, T2 each workgroup once, T3 DONE after
 * every joined group left, T4 tokens cancelled at the start, T5 no fork takes a gathering task's
 * groups. Part of the kernel header (coop_kernel.h includes these files in order); it uses only
 * the files before it. */
#ifndef COOP_DEVICE_TASK_H
#define COOP_DEVICE_TASK_H

#include "generated.h"

/* The words of the task slot that the group's request runs from (COOP_CTRL_SLOT). */
inline global uint *coop_task_slot(const coop_ctx *ctx)
{
    return &ctx->ctrl[COOP_CTRL_SLOT(ctx->scratch[COOP_SCRATCH_TASK_SLOT], 0u)];
}

/* A word of the running task's argument block (COOP_TASK_ARGS words set at submission; 0
 * beyond them). */
inline uint coop_task_arg(const coop_ctx *ctx, uint index)
{
    return index < COOP_TASK_ARGS ? coop_load_relaxed(&coop_task_slot(ctx)[COOP_SLOT_ARGS + index]) : 0u;
}

/* Claims the next workgroup of the running task; 0 when none is left. */
inline int coop_take_task_group(coop_ctx *ctx)
{
    global uint *words = coop_task_slot(ctx);
    uint range = coop_load_relaxed(&words[COOP_SLOT_RANGE]);
    uint next = coop_fetch_add(&words[COOP_SLOT_NEXT], 1u);
    if (next >= range)
        return 0;
    ctx->id = next;
    ctx->task = coop_load_relaxed(&words[COOP_SLOT_TASK]);
    ctx->task_groups = range;
    COOP_TRACE_NOW(ctx, COOP_EV_TASK, ctx->task, next);
    return 1;
}

/* A group that joined the task found no workgroup left: it is back in the pool. The last of
 * the joined groups to leave marks the task done, so that no group can still be taking
 * workgroups when the host gives the slot to another request (T3, T7). */
COOP_COLD void coop_leave_task(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    global uint *words = coop_task_slot(ctx);
    uint want = coop_load_relaxed(&words[COOP_SLOT_WANT]);
    COOP_TRACE_NOW(ctx, COOP_EV_LEAVE, 0u, 0u);
    coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
    if (coop_fetch_add(&words[COOP_SLOT_FINISHED], 1u) + 1u == want) {
        ulong done = coop_device_time(&words[COOP_SLOT_T_DONE]);
        coop_count(ctx, COOP_CTRL_TASKS_DONE, 1u);
        uint status = coop_load_relaxed(&words[COOP_SLOT_STATUS]);
        COOP_TRACE_EVENT(ctx, done, COOP_EV_DONE, COOP_TASK_STATUS_SEQ(status), 0u);
        /* release: the task's writes and T_DONE before DONE; pairs with the agent's acquire
         * (coop_agent) or the host's read of the word */
        coop_store_release(&words[COOP_SLOT_STATUS], COOP_TASK_STATUS_SET(status, COOP_TASK_DONE));
    }
}

/* The last group to join starts the task (and cancels the kill tokens left); the others wait
 * for it to start. `status` is the GATHERING word the group joined, of the slot in its scratch. */
inline void coop_start_or_wait_task(coop_ctx *ctx, uint status, int last)
{
    global uint *ctrl = ctx->ctrl;
    global uint *words = coop_task_slot(ctx);
    if (last) {
        /* cancels the tokens left, and with their request number the give-backs still to come */
        coop_store_relaxed64(coop_kill_tokens(ctrl), 0ul);
        ulong gathered = coop_device_time(&words[COOP_SLOT_T_GATHERED]);
        COOP_TRACE_EVENT(ctx, gathered, COOP_EV_GATHERED, COOP_TASK_STATUS_SEQ(status), 0u);
        uint running = COOP_TASK_STATUS_SET(status, COOP_TASK_RUNNING);
        /* release: pairs with the joined groups' acquire spin below */
        coop_store_release(&words[COOP_SLOT_STATUS], running);
        /* release: the gather is over (T6); pairs with the joiners' acquire (coop_join_task) and
         * the host's read (or the agent's) before it sends the next request */
        coop_store_release(&ctrl[COOP_CTRL_TASK_STATUS], running);
    } else {
        coop_set_where(ctx, COOP_WHERE_TASK, COOP_WHERE_TASK_WAITING);
        /* acquire: pairs with the last joiner's release of RUNNING above. The slot's word, not
         * TASK_STATUS, which the next request may rewrite before this group looks */
        uint now;
        while ((now = coop_load_acquire(&words[COOP_SLOT_STATUS])) == status)
            coop_pause();
        /* T8: the slot still holds the request this group joined, started */
        COOP_CHECK(ctrl, now == COOP_TASK_STATUS_SET(status, COOP_TASK_RUNNING), COOP_CHECK_JOINED_SLOT, status, now,
                   0u);
    }
}

/* An idle group tries to join the gathering task; the last to join starts it. Returns 1 if
 * joined (the task is then running). */
COOP_COLD int coop_join_task(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    uint status = coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS]);
    if (COOP_TASK_STATUS_OF(status) != COOP_TASK_GATHERING)
        return 0;
    global uint *words = &ctrl[COOP_CTRL_SLOT(COOP_TASK_STATUS_SLOT(status), 0u)];
    uint want = coop_load_relaxed(&words[COOP_SLOT_WANT]);
    if (!coop_take(&ctrl[COOP_CTRL_IDLE], 1u))
        return 0;
    uint joined = coop_load_relaxed(&words[COOP_SLOT_JOINED]);
    for (;;) {
        if (joined >= want || coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS]) != status) {
            coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
            return 0;
        }
        uint seen = coop_cas(&words[COOP_SLOT_JOINED], joined, joined + 1u);
        if (seen == joined)
            break;
        joined = seen;
    }
    ctx->scratch[COOP_SCRATCH_TASK_SLOT] = COOP_TASK_STATUS_SLOT(status);
    COOP_TRACE_NOW(ctx, COOP_EV_JOIN, COOP_TASK_STATUS_SEQ(status), 0u);
    coop_start_or_wait_task(ctx, status, joined + 1u == want);
    return 1;
}

/* A group killed at an offer leaves the barriers (once): it arrives for the next one and gives
 * back its arming of the one after. Done when it joins the task it was killed for, not at the
 * offer, to keep those atomics off the gather's path. */
inline void coop_leave_if_killed(coop_ctx *ctx)
{
    if (ctx->role != COOP_ROLE_KILLED)
        return;
    coop_barrier_leave(ctx);
    coop_count(ctx, COOP_CTRL_KILL_COUNT, 1u);
    ctx->role = COOP_ROLE_KILLED_OUT;
}

/* A group just killed (so not counted idle) joins the gathering task with one increment: no
 * retry loop, as a quarter of an H100's groups arrive at once. Returns 1 if it joined (the task
 * is then running). */
COOP_COLD int coop_join_killed(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    /* Acquire: the kill synchronised with the request it was for (through the kill tokens'
     * read-modify-writes, or the sweeper's release of this group's park word), but the status
     * may name a later request, in another slot: this pairs with that request's release of the
     * status, after its slot's want and its reset of the joined count (coop_apply_request), so
     * that this group's increment comes after that reset (T7) */
    uint status = coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS]);
    if (COOP_TASK_STATUS_OF(status) != COOP_TASK_GATHERING)
        return 0;
    global uint *words = &ctrl[COOP_CTRL_SLOT(COOP_TASK_STATUS_SLOT(status), 0u)];
    uint want = coop_load_relaxed(&words[COOP_SLOT_WANT]);
    uint joined = coop_fetch_add(&words[COOP_SLOT_JOINED], 1u);
    if (joined >= want)
        return 0;
    ctx->scratch[COOP_SCRATCH_TASK_SLOT] = COOP_TASK_STATUS_SLOT(status);
    COOP_TRACE_NOW(ctx, COOP_EV_JOIN, COOP_TASK_STATUS_SEQ(status), 1u);
    /* out of the barriers before waiting for the task: members still to be killed for it may
     * be waiting at a barrier for this group */
    coop_leave_if_killed(ctx);
    coop_start_or_wait_task(ctx, status, joined + 1u == want);
    return 1;
}

#endif
