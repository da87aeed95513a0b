/* coop_device/fork.h: offer_fork: the fork record and its slots, and what a forked group
 * receives.
 * Invariants: docs/DESIGN.md section 8: F1 one record at a time, F2 bounds, F3 reserved slots
 * are always claimed, F4 ids, F5 transmit, F6 tasks first. Part of the kernel header
 * (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_FORK_H
#define COOP_DEVICE_FORK_H

#include "kill.h"

/* Frees the fork record (coop_layout.h, COOP_FORK_LOCKED): the release pairs with the next
 * locker's compare-and-swap (coop_try_fork, coop_resize_commit). */
inline void coop_fork_unlock(global uint *ctrl)
{
    coop_store_release(&ctrl[COOP_CTRL_FORK_SIZE], 0u);
}

/* Reserves up to `wanted` idle groups, grows M by as many and arms the next two barriers for
 * them (local id 0, holding the fork record). Returns the number of new groups; their ids start
 * at *base. */
COOP_COLD uint coop_grow(coop_ctx *ctx, uint wanted, uint *base)
{
    global uint *ctrl = ctx->ctrl;
    uint idle = coop_load_relaxed(&ctrl[COOP_CTRL_IDLE]);
    uint take = 0;
    for (;;) {
        uint need = coop_task_need(ctrl);
#if COOP_KERNELS > 1
        need += coop_kernels_reserved(ctrl);
#endif
        uint spare = idle > need ? idle - need : 0u;
        take = min(wanted, spare);
        if (!take)
            return 0;
        uint seen = coop_cas(&ctrl[COOP_CTRL_IDLE], idle, idle - take);
        if (seen == idle)
            break;
        idle = seen;
    }
    uint limit = coop_member_limit(ctx);
    uint state = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
    for (;;) {
        uint members = COOP_STATE_MEMBERS(state);
        uint grow = COOP_STATE_FINISHED(state) || members >= limit ? 0u : min(take, limit - members);
#if COOP_TRACING
        /* trace mode: not while a kill's or an earlier fork's change of the trace's members is
         * still to come (a killer changes STATE first, coop_kill_self), so that the new groups'
         * ids are above every member the trace counts (it may decline: a fork is only offered) */
        if (coop_trace_member_count(ctx) != members)
            grow = 0;
#endif
        if (grow) {
            uint seen = coop_cas(&ctrl[COOP_CTRL_STATE], state, state + grow);
            if (seen != state) {
                state = seen;
                continue;
            }
        }
        if (grow < take)
            coop_fetch_add(&ctrl[COOP_CTRL_IDLE], take - grow);
        if (grow) {
            coop_barrier_join(ctx, grow);
            coop_count(ctx, COOP_CTRL_FORK_COUNT, grow);
            COOP_TRACE_NOW(ctx, COOP_EV_FORK, grow, members);
        }
        *base = members;
        return grow;
    }
}

/* Publishes a fork record for `groups` new groups starting at `base`, with the `words` transmit
 * words work-item 0 staged (coop_transmit_stage); the record's lock (FORK_SIZE != 0, see
 * COOP_FORK_LOCKED in coop_layout.h) is held by the caller and released by the last new group
 * once it has read the transmit words. All work-items call this. */
COOP_COLD void coop_publish_fork(coop_ctx *ctx, uint groups, uint base, uint resume, uint words)
{
    global uint *ctrl = ctx->ctrl;
    if (coop_local_linear_id() == 0) {
        for (uint word = 0; word < words; word++)
            coop_store_relaxed(&ctrl[COOP_CTRL_TRANSMIT + word], ctx->scratch[COOP_SCRATCH_TRANSMIT + word]);
        coop_store_relaxed(&ctrl[COOP_CTRL_FORK_BASE], base);
        coop_store_relaxed(&ctrl[COOP_CTRL_FORK_RESUME], resume);
        coop_store_relaxed(&ctrl[COOP_CTRL_FORK_EPOCH], ctx->epoch);
        coop_store_relaxed(&ctrl[COOP_CTRL_FORK_READ], 0u);
        coop_store_relaxed(&ctrl[COOP_CTRL_FORK_SIZE], groups); /* not 0: the lock stays held */
        /* release: publishes the record; pairs with the new groups' acquire in coop_idle_wait */
        coop_store_release(&ctrl[COOP_CTRL_FORK_LEFT], groups);
    }
}

/* Local id 0's decision for coop_offer_fork, given the idle count it read: how many groups to
 * start (0: none). */
inline uint coop_try_fork(coop_ctx *ctx, uint idle, uint *base)
{
    global uint *ctrl = ctx->ctrl;
    if (!idle)
        return 0;
    uint wanted = 0xffffffffu;
    if (ctx->rng)
        wanted = coop_random(ctx) % 4u;
    /* takes the fork lock; the compare-and-swap's acquire pairs with coop_fork_unlock's release */
    if (!wanted || coop_cas(&ctrl[COOP_CTRL_FORK_SIZE], 0u, COOP_FORK_LOCKED) != 0u)
        return 0;
    uint groups = coop_grow(ctx, wanted, base);
    if (!groups)
        coop_fork_unlock(ctrl);
    return groups;
}

/* coop_offer_fork past its fast path (idle groups exist); out of line on NVIDIA. */
COOP_COLD uint coop_offer_fork_slow(coop_ctx *ctx, uint idle, uint resume, uint words)
{
    uint base = 0, groups = 0;
    if (coop_local_linear_id() == 0 && (groups = coop_try_fork(ctx, idle, &base)))
        ctx->scratch[COOP_SCRATCH_M] = 0;
    groups = coop_broadcast(ctx, groups);
    if (groups)
        coop_publish_fork(ctx, groups, base, resume, words);
    return groups;
}

/* New groups may start here, with ids M .. M+k-1; they resume at `resume` (as reported by
 * coop_resume_point) with work-item 0's `transmit` state. Returns k in every work-item. The
 * fast path (no idle group) is one read. */
#if COOP_FLAT_OFFERS
inline uint coop_offer_fork_unless(coop_ctx *ctx, uint skip, uint resume, const void *transmit, uint bytes)
{
    uint groups = 0;
    if (coop_local_linear_id() == 0 && !skip) {
        uint idle = coop_load_relaxed(&ctx->ctrl[COOP_CTRL_IDLE]);
        uint base = 0;
        if (idle && (groups = coop_try_fork(ctx, idle, &base))) {
            ctx->scratch[COOP_SCRATCH_M] = 0;
            coop_publish_fork(ctx, groups, base, resume, coop_transmit_stage(ctx, transmit, bytes));
        }
    }
    groups = coop_broadcast(ctx, groups);
    if (groups)
        ctx->known_groups = 0; /* as local id 0's copy */
    return groups;
}
#else
inline uint coop_offer_fork_unless(coop_ctx *ctx, uint skip, uint resume, const void *transmit, uint bytes)
{
    uint idle = coop_local_linear_id() == 0 && !skip ? coop_load_relaxed(&ctx->ctrl[COOP_CTRL_IDLE]) : 0u;
    if (!coop_broadcast(ctx, idle))
        return 0u;
    uint words = coop_transmit_stage(ctx, transmit, bytes);
    COOP_COLD_CTX(ctx);
    uint groups = coop_offer_fork_slow(cold, idle, resume, words);
    COOP_COLD_BACK(ctx);
    if (groups)
        ctx->known_groups = 0; /* as local id 0's copy (coop_offer_fork_slow) */
    return groups;
}
#endif

inline uint coop_offer_fork(coop_ctx *ctx, uint resume, const void *transmit, uint bytes)
{
    return coop_offer_fork_unless(ctx, 0u, resume, transmit, bytes);
}

/* Where a forked group resumes (0: a group that started at the beginning), and, for a group
 * forked at a resizing barrier with a vote, the vote's outcome. */
#define COOP_RESUME_VOTE 0x80000000u
inline uint coop_resume_point(const coop_ctx *ctx) { return ctx->resume & ~COOP_RESUME_VOTE; }
inline int coop_resume_vote(const coop_ctx *ctx) { return (ctx->resume & COOP_RESUME_VOTE) != 0; }

/* Copies the transmit state a forked group received into `transmit` (every work-item), as
 * coop_transmit_stage packed it. */
inline void coop_transmit_restore(const coop_ctx *ctx, void *transmit, uint bytes)
{
    uchar *to = (uchar *)transmit;
    uint size = min(bytes, COOP_TRANSMIT_WORDS * 4u);
    for (uint word = 0; word * 4u < size; word++) {
        uint packed = ctx->scratch[COOP_SCRATCH_TRANSMIT + word];
        if (size - word * 4u >= 4u)
            __builtin_memcpy(to + word * 4u, &packed, 4u);
        else
            for (uint b = 0; word * 4u + b < size; b++)
                to[word * 4u + b] = (uchar)(packed >> (8u * b));
    }
}

#endif
