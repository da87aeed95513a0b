/* coop_device/watchdog.h: the group-state words the host's watchdog and time limit read, and the
 * barrier sites (coop_at) that name a stuck barrier's line.
 * Invariants: docs/DESIGN.md section 12: W1; relaxed stores, a diagnosis only. Part of the
 * kernel header (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_WATCHDOG_H
#define COOP_DEVICE_WATCHDOG_H

#include "context.h"

/* Each group's word in COOP_CTRL_GROUP_STATE says where it is, COOP_WHERE_WORD(where, detail), for
 * the host's watchdog and time limit (libcoop/src/where.c). Relaxed stores: the host reads the
 * words only to describe a kernel that seems stuck, so no access pairs with them. */
inline global uint *coop_where_word(const coop_ctx *ctx)
{
    return &ctx->ctrl[COOP_CTRL_GROUP_STATE + ctx->physical];
}

inline void coop_where_store(global uint *word, uint where, uint detail)
{
    coop_store_relaxed(word, COOP_WHERE_WORD(where, detail));
}

inline void coop_set_where(const coop_ctx *ctx, uint where, uint detail)
{
    coop_where_store(coop_where_word(ctx), where, detail);
}

/* Generated code names the barrier it is about to reach, as a constant, so that a group that waits
 * there long can say where it waits (COOP_CTRL_GROUP_SITE): the site's file:line is in the
 * program's coop-site lines, which the host reads when it describes a stuck kernel. */
#if COOP_SITES
#define coop_at(ctx, site_) ((ctx)->site = (site_))
#else
#define coop_at(ctx, site_) ((void)0)
#endif

#endif
