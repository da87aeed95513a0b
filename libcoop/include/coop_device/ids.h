/* coop_device/ids.h: the virtualised ids a group reads in its role (coop_group_id,
 * coop_num_groups, ...), and a standalone form's fixed ones.
 * Invariants: docs/DESIGN.md section 4: a cooperative member's id is 0 .. M-1 (K1, F4). Part of
 * the kernel header (coop_kernel.h includes these files in order); it uses only the files before
 * it. */
#ifndef COOP_DEVICE_IDS_H
#define COOP_DEVICE_IDS_H

#include "discovery.h"

/* The group's id in its role: a cooperative member's virtual id 0 .. M-1, a task workgroup's
 * index in the task's NDRange. */
inline uint coop_group_id(const coop_ctx *ctx) { return ctx->id; }

/* Cooperative role: the current number of members M (changes at kills and forks). Task role:
 * the task's workgroups. */
inline uint coop_num_groups(const coop_ctx *ctx)
{
    if (ctx->role == COOP_ROLE_TASK)
        return ctx->scratch[COOP_COLD_TASK_GROUPS];
    return COOP_STATE_MEMBERS(coop_load_relaxed(&ctx->ctrl[COOP_CTRL_STATE]));
}

/* Dimension 0 is virtualised; groups are one-dimensional in a persistent kernel. */
inline size_t coop_global_id(const coop_ctx *ctx, uint dim)
{
    return dim == 0 ? (size_t)ctx->id * get_local_size(0) + get_local_id(0) : get_local_id(dim);
}

inline size_t coop_global_size(const coop_ctx *ctx, uint dim)
{
    return dim == 0 ? (size_t)coop_num_groups(ctx) * get_local_size(0) : get_local_size(dim);
}

/* A persistent kernel without kill and fork (coop-merge's --standalone form) reads M once per
 * work-item at its start (coop_fix_num_groups, after COOP_ENTER) and keeps it in a register: no
 * global barrier of such a kernel changes it. Reading the scheduler's hot word in every work-item
 * after every barrier cost sssp on USA-road-NY 8.36 ms against 7.45 (H200); keeping M in the
 * group's local memory and reading it there after every barrier still cost sssp-bf on
 * USA-road-FLA 31.1 ms against 28.3 (H200). */
inline void coop_fix_num_groups(coop_ctx *ctx) { ctx->fixed_groups = coop_num_groups(ctx); }

inline uint coop_fixed_num_groups(const coop_ctx *ctx) { return ctx->fixed_groups; }

inline size_t coop_fixed_global_size(const coop_ctx *ctx, uint dim)
{
    return dim == 0 ? (size_t)coop_fixed_num_groups(ctx) * get_local_size(0) : get_local_size(dim);
}

#endif
