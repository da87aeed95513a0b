/* coop_device/generated.h: the primitives coop-merge's generated code calls: a group walks past
 * them with coop_skip_ set, and they run their workgroup barriers either way.
 * Invariants: merge-tool/README.md ("How the rewrite works"); docs/DESIGN.md sections 7-9. Part
 * of the kernel header (coop_kernel.h includes these files in order); it uses only the files
 * before it. */
#ifndef COOP_DEVICE_GENERATED_H
#define COOP_DEVICE_GENERATED_H

#include "resize.h"

/* Such a kernel keeps one word, skip: 0 while the group runs the kernel's statements; a fork
 * point's number (1, 2, ...) while a group that was forked there walks to it without running
 * what comes before it; COOP_SKIP_EXIT once the group was killed (or returned), while it walks
 * to the end of the function. A primitive the group walks past does nothing; the fork point it
 * walks to clears skip. Their workgroup barriers run either way, so that none of them sits in a
 * conditional (PoCL copies the code after such a conditional once for each way through it; see
 * COOP_FLAT_OFFERS). */
#define COOP_SKIP_EXIT 0xffffffffu

/* After a conditional or a loop that holds a workgroup barrier: the group's skip of a statement
 * that holds one (`if (!coop_skip_) ...`, a helper's barrier or the kernel's own), or the kernel's
 * own `if` or loop around one. PoCL's work-group compiler got the code between such a statement's
 * last barrier and the next barrier after it wrong: it ran with local id 0 in every work-item (a
 * helper sharing a value through local memory, called in a loop with two fork points), or
 * `if (get_local_id(0) == 0)` there was taken in every work-item, in none, or hung the group
 * (after an `if` around a global barrier or a helper's barriers), or its compiler failed an
 * assertion (after a loop around a voting barrier, in a plain persistent kernel too). A barrier
 * right after the statement gives that code a parallel region of its own. NVIDIA's compiler needs
 * none. */
#if defined(COOP_TARGET_POCL)
#define coop_pocl_join() COOP_GROUP_SYNC()
#else
#define coop_pocl_join() ((void)0)
#endif

inline void coop_kill_at(coop_ctx *ctx, uint *skip)
{
    if (coop_offer_kill_unless(ctx, *skip))
        *skip = COOP_SKIP_EXIT;
}

inline uint coop_fork_at(coop_ctx *ctx, uint *skip, uint point, const void *transmit, uint bytes)
{
    uint walking = *skip;
    *skip = walking == point ? 0u : walking;
    return coop_offer_fork_unless(ctx, walking, point, transmit, bytes);
}

inline void coop_resize_at(coop_ctx *ctx, uint *skip, uint point, const void *transmit, uint bytes)
{
    uint walking = *skip;
    *skip = walking == point ? 0u : walking;
    if (coop_resizing_barrier_unless(ctx, walking, point, transmit, bytes))
        *skip = COOP_SKIP_EXIT;
}

/* `VAR = global_barrier_any(FLAG);`: the vote, or VAR as it was (`old`) for a group that walks
 * past. */
inline int coop_vote_at(coop_ctx *ctx, uint skip, int flag, int old)
{
    int any = coop_global_barrier_any_unless(ctx, skip, flag);
    return skip ? old : any;
}

/* `VAR = resizing_global_barrier_any(FLAG);` at fork point `point`: the vote, also for a group
 * forked there; VAR as it was for a group that walks past. */
inline int coop_resize_vote_at(coop_ctx *ctx, uint *skip, uint point, int flag, int old, const void *transmit,
                               uint bytes)
{
    uint walking = *skip;
    *skip = walking == point ? 0u : walking;
    int any = 0;
    if (coop_resizing_barrier_vote_unless(ctx, walking, point, transmit, bytes, 1u, flag, &any))
        *skip = COOP_SKIP_EXIT;
    return walking == point ? coop_resume_vote(ctx) : walking ? old : any;
}

#endif
