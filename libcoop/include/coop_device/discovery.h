/* coop_device/discovery.h: discovery: which groups are co-resident (Sorensen et al., OOPSLA
 * 2016), and the start of every persistent group (coop_enter).
 * Invariants: docs/DESIGN.md section 5: D1 co-residency, D2 ids, D3 start state. Part of the
 * kernel header (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_DISCOVERY_H
#define COOP_DEVICE_DISCOVERY_H

#include "start.h"

/* Registers the calling group in the discovery poll (Sorensen et al., OOPSLA 2016). Each group
 * takes a ticket with one atomic increment (no retry loop: ~1000 groups register in
 * microseconds). Ticket 0 leads: it forwards the count to the host and closes the poll when the
 * host says so, by setting COOP_REG_CLOSED; the count at that moment (capped by the limit) is the
 * number of groups. Every registered group waits for the close, so at that moment all of them
 * were running together: the count never over-estimates co-residency. A group whose ticket came
 * after the close or beyond the limit was not needed and leaves. Returns 1 if the group stays.
 * The scheduler's part of the start (start.h) is called where the protocol
 * needs it: the leader sets up the scheduler's starting state before it publishes the count,
 * which every group reads once it sees the count. */

inline int coop_enter(coop_ctx *ctx, global uint *chan, global uint *dev, local uint *scratch)
{
    ctx->chan = chan;
    ctx->dev = dev;
    /* fixed at build time, so that the compiler can recompute the address from the kernel's
     * arguments rather than keep it in two registers across every loop */
#if COOP_CTRL_IN_CHAN
    ctx->ctrl = chan + COOP_CHAN_CTRL;
#else
    ctx->ctrl = dev + COOP_DEV_CTRL;
#endif
    ctx->scratch = scratch;
    ctx->epoch = 0;
#if COOP_KERNELS > 1
    ctx->chan0 = chan;
    ctx->dev0 = dev;
    ctx->block = 0;
#endif
#if COOP_SITES
    ctx->site = 0;
#endif
    coop_scheduler_reset(ctx);
    if (coop_local_linear_id() == 0) {
        uint limit = coop_load_relaxed(&dev[COOP_DEV_MAX_GROUPS]);
        uint ticket = coop_fetch_add(&dev[COOP_DEV_REG], 1);
        uint groups = 0;
        if ((ticket & COOP_REG_CLOSED) || ticket >= limit) {
            ticket = COOP_NO_GROUP;
        } else if (ticket == 0) {
            uint forwarded = 0;
            for (;;) {
                uint count = min(coop_load_relaxed(&dev[COOP_DEV_REG]), limit);
                if (count != forwarded) {
                    coop_host_store(&chan[COOP_CHAN_SEEN], count);
                    forwarded = count;
                }
                if (coop_host_load(&chan[COOP_CHAN_CLOSE]))
                    break;
            }
            groups = min(coop_fetch_or(&dev[COOP_DEV_REG], COOP_REG_CLOSED), limit);
            coop_scheduler_open(ctx, groups);
            /* release: publishes the count and the scheduler's starting state; pairs with the
             * other groups' acquire below (and the host's read of COOP_CHAN_GROUPS) */
            coop_store_release(&dev[COOP_DEV_GROUPS], groups);
            coop_host_store(&chan[COOP_CHAN_GROUPS], groups);
        } else {
            /* acquire: pairs with the leader's release of the count */
            while (!(groups = coop_load_acquire(&dev[COOP_DEV_GROUPS])))
                ;
            if (ticket >= groups)
                ticket = COOP_NO_GROUP;
        }
        scratch[COOP_SCRATCH_TICKET] = ticket;
        scratch[COOP_SCRATCH_GROUPS] = groups;
        coop_scheduler_hand_over(ctx);
    }
    COOP_GROUP_SYNC();
    uint ticket = scratch[COOP_SCRATCH_TICKET];
    ctx->physical = ticket;
    ctx->physical_groups = scratch[COOP_SCRATCH_GROUPS];
    coop_scheduler_enter(ctx);
    /* Chaos mode's random state, the scheduler's too, but set here: moved into
     * coop_scheduler_enter, it compiles differently (clang orders one comparison otherwise).
     * xorshift32 needs a non-zero state; the seed and the group make each stream distinct. */
    ctx->rng = scratch[COOP_SCRATCH_CHAOS] ? (scratch[COOP_SCRATCH_CHAOS] * 2654435761u) ^ (ticket * 40503u + 1u)
                                           : 0u;
    if (ctx->rng == 0 && scratch[COOP_SCRATCH_CHAOS])
        ctx->rng = 1;
    COOP_GROUP_SYNC();
    return ticket != COOP_NO_GROUP;
}

#endif
