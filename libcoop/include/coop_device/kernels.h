/* coop_device/kernels.h: several cooperative kernels in one megakernel: each kernel's block of
 * scheduler words, a group's block, the starting split and the moves of idle groups between
 * blocks.
 * Invariants: docs/DESIGN.md section 17: C1 one block per group, C2 each kernel's own protocol,
 * C3 moves take idle groups only, C4 conservation across blocks. Part of the kernel header
 * (coop_kernel.h includes these files in order); it uses only the files before it.
 *
 * A program coop-merge made of K > 1 cooperative kernels is built with COOP_KERNELS=K (libcoop's
 * program.c reads its coop-kernels line). Without it (one kernel) none of this is compiled but
 * coop_kernel_index, which is 0. */
#ifndef COOP_DEVICE_KERNELS_H
#define COOP_DEVICE_KERNELS_H

#include "barrier.h"

#ifndef COOP_KERNELS
#define COOP_KERNELS 1
#endif

#if COOP_KERNELS > 1

COOP_LAYOUT_ASSERT(COOP_KERNELS <= COOP_MAX_KERNELS, kernels_fit_their_blocks);

/* Kernel block k is a whole channel and device area: k * COOP_CHAN_WORDS words into the channel
 * and k * COOP_DEV_WORDS into the device area (the host makes both that long), its control block
 * where block 0's is (COOP_CTRL_IN_CHAN). Block 0 also holds discovery's words. Every protocol
 * step of sections 5-12 reads ctx->chan, ctx->dev and ctx->ctrl, so pointing them at the group's
 * block runs that kernel's protocol, unchanged, on its own words (C2). */
inline void coop_kernel_switch(coop_ctx *ctx, uint block)
{
    ctx->block = block;
    ctx->chan = ctx->chan0 + block * COOP_CHAN_WORDS;
    ctx->dev = ctx->dev0 + block * COOP_DEV_WORDS;
#if COOP_CTRL_IN_CHAN
    ctx->ctrl = ctx->chan + COOP_CHAN_CTRL;
#else
    ctx->ctrl = ctx->dev + COOP_DEV_CTRL;
#endif
}

inline uint coop_kernel_index(const coop_ctx *ctx) { return ctx->block; }

/* The discovery leader, from coop_scheduler_open: splits the `members` starting members between
 * the kernels by weight (largest remainders first, at least one each while there are enough),
 * sets each block's STATE and IDLE (every group not a member is idle in block 0), arms each
 * block's first two barriers, and publishes each block's count in its COOP_DEV_MEMBERS for
 * coop_kernels_hand_over (all before the leader's release of the group count). */
inline void coop_kernels_open(coop_ctx *ctx, uint groups, uint agent, uint members)
{
    uint weight[COOP_KERNELS], share[COOP_KERNELS], total = 0, given = 0;
    for (uint k = 0; k < COOP_KERNELS; k++) {
        uint w = coop_load_relaxed(&ctx->dev0[k * COOP_DEV_WORDS + COOP_DEV_WEIGHT]);
        weight[k] = w ? w : 1u;
        total += weight[k];
    }
    for (uint k = 0; k < COOP_KERNELS; k++) {
        share[k] = members >= COOP_KERNELS ? 1u + (uint)((ulong)(members - COOP_KERNELS) * weight[k] / total)
                                           : (k < members ? 1u : 0u);
        given += share[k];
    }
    /* the rest one at a time, each to the kernel with the most weight per member it would have
     * (ties: the lowest index) */
    while (given < members) {
        uint best = 0;
        for (uint k = 1; k < COOP_KERNELS; k++)
            if ((ulong)weight[k] * (share[best] + 1u) > (ulong)weight[best] * (share[k] + 1u))
                best = k;
        share[best]++;
        given++;
    }
    for (uint k = 0; k < COOP_KERNELS; k++) {
        global uint *dev = ctx->dev0 + k * COOP_DEV_WORDS;
#if COOP_CTRL_IN_CHAN
        global uint *ctrl = ctx->chan0 + k * COOP_CHAN_WORDS + COOP_CHAN_CTRL;
#else
        global uint *ctrl = dev + COOP_DEV_CTRL;
#endif
        coop_store_relaxed(&ctrl[COOP_CTRL_STATE], share[k]);
        coop_store_relaxed(&ctrl[COOP_CTRL_MEMBERS_START], share[k]);
        coop_store_relaxed(&ctrl[COOP_CTRL_IDLE], k == 0 ? groups - agent - members : 0u);
        coop_barrier_arm_first(dev, share[k]);
        coop_store_relaxed(&dev[COOP_DEV_MEMBERS], share[k]);
    }
}

/* Local id 0 of every group, from coop_scheduler_hand_over once it has seen the group count: the
 * group's block, from its place in the virtual order (kernel k's members are the next share[k]
 * places after kernel k - 1's; the groups after all of them are idle in block 0), the first of
 * those places, and its kernel's starting members (what coop_scheduler_enter compares with). */
inline void coop_kernels_hand_over(coop_ctx *ctx, uint order)
{
    local uint *s = ctx->scratch;
    uint base = 0, block = 0, members = 0;
    for (uint k = 0; k < COOP_KERNELS; k++) {
        uint share = coop_load_relaxed(&ctx->dev0[k * COOP_DEV_WORDS + COOP_DEV_MEMBERS]);
        if (order >= base && order < base + share) {
            block = k;
            members = share;
            break;
        }
        base += share;
    }
    if (!members)
        base = 0;
    s[COOP_COLD_KERNEL] = block;
    s[COOP_COLD_KERNEL_BASE] = base;
    s[COOP_SCRATCH_MEMBERS] = members;
}

/* Local id 0 of an idle group (coop_idle_wait), when its block's MOVE asks for groups: takes the
 * group out of this block's IDLE (never a group a fork reserved, nor one a gathering task counts
 * on: both took theirs from IDLE already), then one of MOVE's places; none left, it gives IDLE
 * back. Moved, it counts itself idle in block MOVE_TO and returns 1 (the caller waits there).
 * C3, C4 (docs/DESIGN.md section 17). */
COOP_COLD int coop_move_if_asked(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    /* acquire: pairs with the host's release of MOVE after MOVE_TO */
    uint move = coop_load_acquire(&ctrl[COOP_CTRL_MOVE]);
    if (!move)
        return 0;
    uint idle = coop_load_relaxed(&ctrl[COOP_CTRL_IDLE]);
    if (!idle || coop_cas(&ctrl[COOP_CTRL_IDLE], idle, idle - 1u) != idle)
        return 0;
    for (;;) {
        uint seen = coop_cas(&ctrl[COOP_CTRL_MOVE], move, move - 1u);
        if (seen == move)
            break;
        if (!seen) {
            coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
            return 0;
        }
        move = seen;
    }
    /* the compare-and-swap read the host's MOVE or a later move's in its release sequence */
    uint to = coop_load_relaxed(&ctrl[COOP_CTRL_MOVE_TO]);
    COOP_CHECK(ctrl, to < COOP_KERNELS && to != ctx->block, COOP_CHECK_MOVE, to, ctx->block, move);
    coop_fetch_add_relaxed(&ctrl[COOP_CTRL_MOVED_OUT], 1u);
    coop_set_where(ctx, COOP_WHERE_MOVED, to);
#if COOP_TRACING
    uint from = ctx->block;
#endif
    coop_kernel_switch(ctx, to);
    ctx->scratch[COOP_COLD_KERNEL] = to;
    coop_fetch_add_relaxed(&ctx->ctrl[COOP_CTRL_MOVED_IN], 1u);
#if COOP_TRACING
    COOP_TRACE_NOW(ctx, COOP_EV_MOVED, from, move);
#endif
    /* acq_rel: the group is idle in its new block; that kernel's next offer_fork may take it */
    coop_fetch_add(&ctx->ctrl[COOP_CTRL_IDLE], 1u);
    coop_set_where(ctx, COOP_WHERE_IDLE, 0u);
    return 1;
}

/* Groups a fork of this block must leave idle: the gathering task's (coop_task_need) and the
 * ones the host asked to move away (a killed group must not be forked back). */
inline uint coop_kernels_reserved(global uint *ctrl)
{
    return coop_load_relaxed(&ctrl[COOP_CTRL_MOVE]);
}

#else

/* one kernel: a macro, not a function, so that the header compiles to the same code as before
 * (scripts/trace-cost --compare-headers counts the out-of-line copies of inline functions) */
#define coop_kernel_index(ctx) ((void)(ctx), 0u)

#endif

#endif
