/* coop_device/resize.h: the resizing barrier: member 0's resize decision, taken at the barrier
 * for every group at once.
 * Invariants: docs/DESIGN.md section 9: R1 at most one decision per barrier, R2 one M for all,
 * R3 kills <= M - 1, R4 slots. Part of the kernel header (coop_kernel.h includes these files in
 * order); it uses only the files before it. */
#ifndef COOP_DEVICE_RESIZE_H
#define COOP_DEVICE_RESIZE_H

#include "fork.h"

/* Resize decision slot `slot` (64-bit: the barrier's number above the decision, so that a
 * group at a flagged barrier tells member 0's decision there from the one the slot held three
 * barriers earlier: the flag may come from a membership change instead). */
inline global ulong *coop_resize_slot(global uint *ctrl, uint slot)
{
    return (global ulong *)&ctrl[COOP_CTRL_RESIZE + 2u * slot];
}

/* Group 0's decision, made before it arrives (so it is visible after the barrier): kill tokens
 * it takes now (bits 1..), and whether to try a fork (bit 0). Inline: ptxas gives a kernel the
 * registers of its deepest chain of out-of-line calls, and this call level cost sssp's and
 * sssp-bf's megakernels 8 registers, 5 groups per SM instead of 6 (H200). */
inline uint coop_resize_decision(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    uint members = COOP_STATE_MEMBERS(coop_load_relaxed(&ctrl[COOP_CTRL_STATE]));
    uint kills = 0;
    if (ctx->rng) {
        uint dice = coop_random(ctx);
        if (dice % 3u == 0 && members > 1u)
            kills = 1u + (dice >> 8) % (members - 1u);
        return kills ? COOP_RESIZE_KILL(kills) : (dice % 3u == 1 ? COOP_RESIZE_FORK : 0u);
    }
    uint request = 0;
    kills = coop_take_tokens(ctrl, members - 1u, &request);
    if (kills) {
        ctx->scratch[COOP_SCRATCH_RESIZE_REQUEST] = request; /* for the commit's give-back */
        return COOP_RESIZE_KILL(kills);
    }
    return coop_load_relaxed(&ctrl[COOP_CTRL_IDLE]) ? COOP_RESIZE_FORK : 0u;
}

/* Group 0 applies a decision once every member has arrived (M cannot change meanwhile) and
 * returns the new M. The barrier's number is in ctx->epoch already. */
COOP_COLD uint coop_resize_commit(coop_ctx *ctx, uint decision, uint *forked, uint *base)
{
    global uint *ctrl = ctx->ctrl;
    uint state = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
    uint members = COOP_STATE_MEMBERS(state);
    uint kills = min(COOP_RESIZE_KILLS(decision), members - 1u);
    *forked = 0;
    if (!ctx->rng && kills < COOP_RESIZE_KILLS(decision))
        coop_give_back_tokens(ctrl, ctx->scratch[COOP_SCRATCH_RESIZE_REQUEST], COOP_RESIZE_KILLS(decision) - kills);
    if (kills) {
        coop_fetch_add(&ctrl[COOP_CTRL_STATE], 0u - kills);
        coop_count(ctx, COOP_CTRL_KILL_COUNT, kills);
        coop_count(ctx, COOP_CTRL_RESIZE_COUNT, 1u);
#if COOP_TRACING
        /* the killed members take this time, published before the commit's release */
        ulong left = coop_trace_members(ctx, -(int)kills);
        coop_trace_store64(&COOP_TRACE_KERNEL(ctx)[COOP_TRACE_RESIZE_TIME + 2u * (ctx->epoch % COOP_RESIZE_SLOTS)],
                           left);
        COOP_TRACE_EVENT(ctx, left, COOP_EV_RESIZE, members - kills, COOP_EVENT_RESIZE_B(kills, 0u));
#endif
        return members - kills;
    }
    /* the fork lock, as in coop_try_fork */
    if ((decision & COOP_RESIZE_FORK) && coop_cas(&ctrl[COOP_CTRL_FORK_SIZE], 0u, COOP_FORK_LOCKED) == 0u) {
        uint wanted = ctx->rng ? 1u + coop_random(ctx) % 4u : 0xffffffffu;
        *forked = coop_grow(ctx, wanted, base);
        if (!*forked) {
            coop_fork_unlock(ctrl);
        } else {
            coop_count(ctx, COOP_CTRL_RESIZE_COUNT, 1u);
            COOP_TRACE_NOW(ctx, COOP_EV_RESIZE, members + *forked, COOP_EVENT_RESIZE_B(0u, *forked));
        }
    }
    return members + *forked;
}

/* Whether group 0's leader reads the kill and idle counts and decides before the resizing
 * barrier's group barrier (see below). Not on PoCL: PoCL 3.1 (Debian 12) miscompiles a kernel
 * that has this read, in local id 0 alone, right before a group barrier, together with a user's
 * helper that keeps work-item values across its own group barriers (the FSE'17 Lonestar BFS:
 * every work-item's pushed node took one work-item's value, and the search stopped at level 2;
 * right with -cl-opt-disable, with a printf in the helper, or without this read). There the
 * leader reads them and decides after the group barrier. */
#ifndef COOP_RESIZE_PREFETCH
#if defined(COOP_TARGET_POCL)
#define COOP_RESIZE_PREFETCH 0
#else
#define COOP_RESIZE_PREFETCH 1
#endif
#endif

/* Member 0's decision at barrier `number`, before its arrival: it reads the kill and idle counts
 * and, with a request, idle groups or chaos, decides (coop_resize_decision, on the narrowed copy
 * of the context that the slow paths take) and records the decision in the barrier's slot.
 * Returns the decision (0: none, the usual case). */
inline uint coop_resize_decide(coop_ctx *ctx, uint number)
{
    global uint *ctrl = ctx->ctrl;
    uint kills = coop_load_relaxed(&ctrl[COOP_CTRL_KILLS]);
    uint idle = coop_load_relaxed(&ctrl[COOP_CTRL_IDLE]);
    if (!(kills | idle | ctx->rng))
        return 0u;
    COOP_COLD_CTX(ctx);
    uint mine = coop_resize_decision(cold);
    COOP_COLD_BACK(ctx);
    global ulong *decided = coop_resize_slot(ctrl, number % COOP_RESIZE_SLOTS);
    /* R1, R4: the slot was last written for barrier number - 3 or earlier */
    COOP_CHECK(ctrl, !mine || !COOP_RESIZE_BARRIER(coop_load_relaxed64(decided)) ||
                         COOP_RESIZE_BARRIER(coop_load_relaxed64(decided)) + COOP_RESIZE_SLOTS <= number,
               COOP_CHECK_RESIZE_SLOT, number, COOP_RESIZE_BARRIER(coop_load_relaxed64(decided)),
               coop_load_relaxed(&ctrl[COOP_CTRL_COMMIT + number % COOP_RESIZE_SLOTS]));
    /* relaxed: published by this group's arrival (a release), read after the barrier's acquire */
    if (mine)
        coop_store_relaxed64(decided, COOP_RESIZE_WORD(number, mine));
    return mine;
}

/* Local id 0 of a group that left barrier `number` flagged: M may have changed, and member 0 may
 * have decided there (the slot's tag tells), which it commits now while the others wait for the
 * commit. A killed group leaves the barriers; member 0 keeps the first forked id in the scratch.
 * Returns COOP_OUTCOME(killed, 0, groups forked). */
inline uint coop_resize_flagged(coop_ctx *ctx, uint number)
{
    global uint *ctrl = ctx->ctrl;
    uint slot = number % COOP_RESIZE_SLOTS;
    ulong slot_value = coop_load_relaxed64(coop_resize_slot(ctrl, slot));
    /* R4: not rewritten yet for a later barrier (member 0 rewrites it at number + 3, after this
     * group's arrival at number + 1) */
    COOP_CHECK(ctrl, COOP_RESIZE_BARRIER(slot_value) <= number, COOP_CHECK_RESIZE_READ, number,
               COOP_RESIZE_BARRIER(slot_value), ctx->id);
    uint decision = COOP_RESIZE_BARRIER(slot_value) == number ? COOP_RESIZE_DECISION(slot_value) : 0u;
    ctx->scratch[COOP_SCRATCH_M] = 0;
    if (!decision)
        return 0u;
    uint tag = COOP_COMMIT_TAG(number), members, forked = 0;
    if (ctx->id == 0) {
        uint base = 0;
        COOP_COLD_CTX(ctx);
        members = coop_resize_commit(cold, decision, &forked, &base);
        COOP_COLD_BACK(ctx);
        /* R1: one commit per barrier */
        COOP_CHECK(ctrl, COOP_COMMIT_TAG_OF(coop_load_relaxed(&ctrl[COOP_CTRL_COMMIT + slot])) != tag,
                   COOP_CHECK_RESIZE_SLOT, number, number, coop_load_relaxed(&ctrl[COOP_CTRL_COMMIT + slot]));
        /* release: pairs with the other members' acquire spin below */
        coop_store_release(&ctrl[COOP_CTRL_COMMIT + slot], COOP_COMMIT_WORD(number, members));
        if (forked)
            ctx->scratch[COOP_SCRATCH_FORK_BASE] = base;
    } else {
        uint commit;
        /* acquire: pairs with member 0's release of its commit (tagged with the barrier's number,
         * so that the slot's commit three barriers ago does not count) */
        while (COOP_COMMIT_TAG_OF(commit = coop_load_acquire(&ctrl[COOP_CTRL_COMMIT + slot])) != tag)
            ;
        members = COOP_COMMIT_MEMBERS(commit);
    }
    ctx->scratch[COOP_SCRATCH_M] = members;
    if (ctx->id < members)
        return COOP_OUTCOME(0u, 0u, forked);
#if COOP_TRACING
    /* at member 0's time, published before the commit this group acquired */
    COOP_TRACE_EVENT(ctx, coop_trace_load64(&COOP_TRACE_KERNEL(ctx)[COOP_TRACE_RESIZE_TIME + 2u * slot]),
                     COOP_EV_KILLED, COOP_KILLED_RESIZE, ctx->id);
#endif
    coop_barrier_leave(ctx); /* ctx->epoch is `number` now (a survivor's watchdog word still says
                                running: the wait only changes it when long, and then restores it) */
    return COOP_OUTCOME(1u, 0u, 0u);
}

/* offer_kill(); global_barrier(); offer_fork(); in one step: group 0 decides before arriving
 * and commits once after everyone arrived; with nothing to do (the usual case) it costs a global
 * barrier, member 0's two reads and a hand-over word. Local id 0 does all the waiting and the
 * hand-over tells the group the outcome, so no workgroup barrier sits in a conditional (PoCL
 * cannot compile that inside loops). Returns 1 in every work-item of a group that was killed. */
inline int coop_resizing_barrier_vote_unless(coop_ctx *ctx, uint skip, uint resume, const void *transmit, uint bytes,
                                             uint votes, int flag, int *any)
{
    uint number = ctx->epoch + (skip ? 0u : 1u);
    volatile local uint *vote = ctx->scratch + COOP_SCRATCH_VOTE;
    if (votes && flag && !skip)
        *vote = 1u;
    /* Member 0 decides before its group barrier, so that its reads travel and its decision is
     * made while the group's other warps finish, and after it every group's path is a global
     * barrier and one hand-over word unless the barrier was flagged (H100, 1000x1000 grid: bfs
     * 11.9 -> 11.0 ms with the reads before it; H200: this shape with the decision inline, sssp
     * on USA-road-FLA 1.8% faster and its megakernel 40 registers). */
    uint mine = 0;
    if (COOP_RESIZE_PREFETCH && ctx->id == 0 && coop_local_linear_id() == 0 && !skip)
        mine = coop_resize_decide(ctx, number);
    COOP_GROUP_SYNC();
    COOP_BARRIER_POCL_SITE(ctx);
    if (coop_local_linear_id() == 0) {
        uint outcome = 0;
        if (!skip) {
            if (!COOP_RESIZE_PREFETCH && ctx->id == 0)
                mine = coop_resize_decide(ctx, number);
            uint voted = 0;
            if (votes) {
                voted = *vote;
                *vote = 0u;
            }
            /* A decision flags the barrier, so that without one (the usual case) no group reads
             * anything but the barrier's counter: one more read of a hot word by every member at
             * once costs more than it seems (H100: the resizing barrier cost more than a plain
             * one, and the more so with more members). A flag can also come from a membership
             * change (coop_barrier_leave, coop_barrier_join): the slot's tag tells whether
             * member 0 decided here. */
            COOP_TRACE_ARRIVAL(arrived);
            uint completed = coop_barrier_arrive_wait(ctx, number, (mine ? COOP_BAR_FLAG : 0u) |
                                                                    (voted ? COOP_BAR_VOTE : 0u));
            COOP_TRACE_BARRIER(ctx, arrived, number, 1u);
            ctx->epoch = number;
            if (completed & COOP_BAR_FLAG)
                outcome = coop_resize_flagged(ctx, number);
            if (votes && (completed & COOP_BAR_VOTE))
                outcome |= COOP_OUTCOME_VOTED;
        }
        ctx->scratch[COOP_SCRATCH_OUTCOME] = outcome;
    }
    COOP_GROUP_SYNC();
    ctx->known_groups = ctx->scratch[COOP_SCRATCH_M];
    uint outcome = ctx->scratch[COOP_SCRATCH_OUTCOME];
    ctx->epoch = number;
    *any = 0;
    if (!outcome)
        return 0;
    uint killed = outcome & COOP_OUTCOME_KILLED;
    uint forked = COOP_OUTCOME_FORKS(outcome);
    *any = votes && (outcome & COOP_OUTCOME_VOTED);
    if (forked) { /* after the group barrier: before it, wrong under chaos (docs/DESIGN.md section 9) */
        uint base = ctx->scratch[COOP_SCRATCH_FORK_BASE];
        uint words = coop_transmit_stage(ctx, transmit, bytes);
        COOP_COLD_CTX(ctx);
        /* a group forked here returns the vote too (coop_resume_vote) */
        coop_publish_fork(cold, forked, base, resume | (*any ? COOP_RESUME_VOTE : 0u), words);
        COOP_COLD_BACK(ctx);
    }
    if (killed)
        ctx->role = COOP_ROLE_KILLED_OUT;
    return (int)killed;
}

inline int coop_resizing_barrier_unless(coop_ctx *ctx, uint skip, uint resume, const void *transmit, uint bytes)
{
    int any;
    return coop_resizing_barrier_vote_unless(ctx, skip, resume, transmit, bytes, 0u, 0, &any);
}

inline int coop_resizing_barrier(coop_ctx *ctx, uint resume, const void *transmit, uint bytes)
{
    return coop_resizing_barrier_unless(ctx, 0u, resume, transmit, bytes);
}

#endif
