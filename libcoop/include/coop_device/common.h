/* coop_device/common.h: what the scheduler's protocols share: the cold context copies,
 * broadcasts in the group, M as the group knows it, chaos's random stream, counters, the device
 * clock and the requests' shared code (coop_request.h).
 * Invariants: docs/DESIGN.md sections 4 and 11. Part of the kernel header (coop_kernel.h
 * includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_COMMON_H
#define COOP_DEVICE_COMMON_H

#include "ids.h"

/* Out-of-line code (COOP_COLD) gets a copy of the caller's context, which the caller takes back
 * afterwards: were the context itself passed by address, it would live on the stack for the whole
 * kernel, and every read of a field after an atomic would be a local-memory load (H100, bfs
 * megakernel on a 1000x1000 grid: 0.25 us of every 5.5 us round). The fields that change only
 * with the group's role come from, and go back to, the group's scratch: in registers they would
 * stay live across the cooperative kernel's loops and take registers from them (H100: mis on
 * rmat:16:16 3.85 ms with them in registers, 3.2 without). Use inside a block. */
#if defined(COOP_TARGET_NVIDIA) && !defined(COOP_NV_INLINE)
#define COOP_COLD_COPIES 1
inline coop_ctx coop_cold_view(const coop_ctx *ctx)
{
    local uint *s = ctx->scratch;
    coop_ctx c;
    c.dev = ctx->dev;
    c.ctrl = ctx->ctrl;
    c.scratch = s;
    c.physical = ctx->physical;
    c.epoch = ctx->epoch;
    c.role = ctx->role;
    c.id = ctx->id;
    c.rng = ctx->rng;
    c.toggle = ctx->toggle;
    c.chan = (global uint *)(((ulong)s[COOP_COLD_CHAN + 1] << 32) | s[COOP_COLD_CHAN]);
    c.physical_groups = s[COOP_SCRATCH_GROUPS];
    c.resume = s[COOP_COLD_RESUME];
    c.task = s[COOP_COLD_TASK];
    c.task_groups = s[COOP_COLD_TASK_GROUPS];
    c.started = s[COOP_COLD_STARTED];
#if COOP_KERNELS > 1
    c.chan0 = ctx->chan0;
    c.dev0 = ctx->dev0;
    c.block = ctx->block;
    c.chan = ctx->chan; /* the group's block's, not block 0's (COOP_COLD_CHAN) */
#endif
    return c;
}
inline void coop_cold_return(coop_ctx *ctx, const coop_ctx *c)
{
    ctx->epoch = c->epoch;
    ctx->role = c->role;
    ctx->id = c->id;
    ctx->rng = c->rng;
    ctx->toggle = c->toggle;
    if (coop_local_linear_id() == 0) { /* the same in every work-item */
        local uint *s = ctx->scratch;
        s[COOP_COLD_RESUME] = c->resume;
        s[COOP_COLD_TASK] = c->task;
        s[COOP_COLD_TASK_GROUPS] = c->task_groups;
        s[COOP_COLD_STARTED] = c->started;
    }
}
#define COOP_COLD_CTX(ctx) coop_ctx coop_cold_copy_ = coop_cold_view(ctx), *cold = &coop_cold_copy_
#define COOP_COLD_BACK(ctx) coop_cold_return((ctx), &coop_cold_copy_)
#else
#define COOP_COLD_COPIES 0
#define COOP_COLD_CTX(ctx) coop_ctx *cold = (ctx)
#define COOP_COLD_BACK(ctx) ((void)0)
#endif

/* Work-item 0 packs its transmit state into the group's transmit scratch, where out-of-line code
 * takes it from (rather than from the address of the caller's variable, which would then live on
 * the stack). The area is free: a forked group restored its own transmit state before it ran.
 * The transmit state is any type: its whole words are copied by __builtin_memcpy (which may alias
 * any type), a last partial word byte by byte. Copying every byte made NVIDIA's compiler keep a
 * transmitted `uint round` as four bytes, taken apart and put together at every use (H200's
 * SASS). Returns the number of words. */
inline uint coop_transmit_stage(coop_ctx *ctx, const void *transmit, uint bytes)
{
    uint size = min(bytes, COOP_TRANSMIT_WORDS * 4u);
    if (coop_local_linear_id() == 0) {
        const uchar *from = (const uchar *)transmit;
        for (uint word = 0; word * 4u < size; word++) {
            uint packed = 0;
            if (size - word * 4u >= 4u)
                __builtin_memcpy(&packed, from + word * 4u, 4u);
            else
                for (uint b = 0; word * 4u + b < size; b++)
                    packed |= (uint)from[word * 4u + b] << (8u * b);
            ctx->scratch[COOP_SCRATCH_TRANSMIT + word] = packed;
        }
    }
    return (size + 3u) / 4u;
}

/* Work-item 0's `value`, in every work-item. Two slots alternate, so a slot is rewritten only
 * after a later workgroup barrier that every reader of its previous value has passed. */
inline uint coop_broadcast(coop_ctx *ctx, uint value)
{
    uint slot = COOP_SCRATCH_BROADCAST + (ctx->toggle ^= 1u);
    if (coop_local_linear_id() == 0)
        ctx->scratch[slot] = value;
    COOP_GROUP_SYNC();
    return ctx->scratch[slot];
}

/* M as this group last learnt it, for every work-item: local id 0 reads it again only after a
 * barrier that says M may have changed (COOP_BAR_FLAG) or after a fork of this group's own, and
 * hands it over through local memory (a group barrier; with COOP_PRIVATE_M only when the group
 * does not know it yet). Right after a barrier this is coop_num_groups(); later in a round it
 * does not show kills and forks that other groups made at offers since (they show after the next
 * barrier). Reading the scheduler's hot word in every group after every barrier cost 1055 groups
 * on the H100 0.3-0.9 us per round. */
inline uint coop_shared_num_groups(coop_ctx *ctx)
{
    if (COOP_PRIVATE_M && ctx->role != COOP_ROLE_TASK && ctx->known_groups)
        return ctx->known_groups;
    uint m = 0;
    if (coop_local_linear_id() == 0) {
        if (ctx->role == COOP_ROLE_TASK)
            m = coop_num_groups(ctx);
        else if (!(m = ctx->scratch[COOP_SCRATCH_M]))
            ctx->scratch[COOP_SCRATCH_M] = m = coop_num_groups(ctx);
    }
    m = coop_broadcast(ctx, m);
    if (ctx->role != COOP_ROLE_TASK)
        ctx->known_groups = m;
    return m;
}

/* xorshift32: chaos mode's reproducible random stream, per group. */
inline uint coop_random(coop_ctx *ctx)
{
    uint x = ctx->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    ctx->rng = x;
    return x;
}

inline void coop_count(const coop_ctx *ctx, uint slot, uint amount)
{
    coop_fetch_add_relaxed(&ctx->ctrl[slot], amount);
}

/* Takes up to `wanted` from a counter that never goes below zero (the idle groups),
 * starting from `have`, the value the caller believes it holds (a wrong guess costs a retry);
 * returns how many it took. */
COOP_COLD uint coop_take_from(global uint *counter, uint have, uint wanted)
{
    while (have && wanted) {
        uint take = min(have, wanted);
        uint seen = coop_cas(counter, have, have - take);
        if (seen == have)
            return take;
        have = seen;
    }
    return 0;
}

inline uint coop_take(global uint *counter, uint wanted)
{
    return coop_take_from(counter, coop_load_relaxed(counter), wanted);
}

/* Writes the time now into a 64-bit slot of the control block and returns it (0: no clock).
 * In trace mode it is the trace clock's, so that the task times the host reports are the
 * trace's. */
inline ulong coop_device_time(global uint *slot)
{
#if COOP_TRACING || COOP_HAS_CLOCK
#if COOP_TRACING
    ulong now = coop_trace_clock();
#else
    ulong now = coop_clock_ns();
#endif
    coop_store_relaxed(slot, COOP_LOW_HALF(now));
    coop_store_relaxed(slot + 1, COOP_HIGH_HALF(now));
    return now;
#else
    (void)slot;
    return 0;
#endif
}

/* Shared with the host (coop_request.h): coop_kill_tokens, the kill tokens' 64-bit word, and
 * coop_apply_request, which the agent calls on the request it copied into the control block (the
 * host calls it on its own when the control block is in the channel). */
#include "../coop_request.h"

#if COOP_TRACING
/* Trace mode: the count of groups running as members (coop_layout.h, COOP_TRACE_MEMBERS) changes
 * by `delta`; returns when, as a trace clock time, and records it (COOP_EV_MEMBERS). The word
 * holds the time of its last change, and each change takes a later one, even where this group's
 * clock reads earlier: so the changes' times follow their order, and the trace's count of
 * members at any time is the count the device had. The member spans begin and end at these
 * times (a group killed by another takes the killer's: COOP_TRACE_KILL_TIME,
 * COOP_TRACE_RESIZE_TIME). */
inline ulong coop_trace_members(const coop_ctx *ctx, int delta)
{
    global uint *trace = COOP_TRACE_AREA(ctx);
    /* the group's kernel's count (several kernels: each block has its own) */
    global ulong *word = (global ulong *)&COOP_TRACE_KERNEL(ctx)[COOP_TRACE_MEMBERS];
    ulong t0 = coop_trace_load64(&trace[COOP_TRACE_T0]);
    ulong old = coop_load_relaxed64(word);
    for (;;) {
        ulong now = coop_trace_clock();
        ulong since = now > t0 ? now - t0 : 0ul;
        ulong time = max(since, COOP_TRACE_MEMBERS_TIME(old) + 1ul);
        ulong next = COOP_TRACE_MEMBERS_WORD(time, (uint)((int)COOP_TRACE_MEMBERS_COUNT(old) + delta));
        ulong seen = coop_cas64(word, old, next);
        if (seen == old) {
            coop_trace_at(trace, ctx->physical, COOP_TRACE_BLOCK(ctx), t0 + time, COOP_EV_MEMBERS,
                          (uint)COOP_TRACE_MEMBERS_COUNT(next), (uint)delta);
            return t0 + time;
        }
        old = seen;
    }
}
#define COOP_TRACE_MEMBERS_CHANGE(ctx, delta) coop_trace_members((ctx), (delta))

/* Trace mode: the groups the trace counts as members now. */
inline uint coop_trace_member_count(const coop_ctx *ctx)
{
    return (uint)COOP_TRACE_MEMBERS_COUNT(
        coop_load_relaxed64((global ulong *)&COOP_TRACE_KERNEL(ctx)[COOP_TRACE_MEMBERS]));
}
#define COOP_TRACE_T0(ctx) coop_trace_load64(&COOP_TRACE_AREA(ctx)[COOP_TRACE_T0])
#else
#define COOP_TRACE_MEMBERS_CHANGE(ctx, delta) 0ul
#define COOP_TRACE_T0(ctx) 0ul
#endif

/* Groups a task still needs before it can start (0 unless one is gathering). */
inline uint coop_task_need(global uint *ctrl)
{
    uint status = coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS]);
    if (COOP_TASK_STATUS_OF(status) != COOP_TASK_GATHERING)
        return 0;
    global uint *words = &ctrl[COOP_CTRL_SLOT(COOP_TASK_STATUS_SLOT(status), 0u)];
    uint want = coop_load_relaxed(&words[COOP_SLOT_WANT]);
    uint joined = coop_load_relaxed(&words[COOP_SLOT_JOINED]);
    return want > joined ? want - joined : 0;
}

/* Most members the cooperative kernel may have: every group but the agent. */
inline uint coop_member_limit(const coop_ctx *ctx)
{
    return ctx->scratch[COOP_SCRATCH_GROUPS] - coop_load_relaxed(&ctx->dev[COOP_DEV_AGENT]);
}

#endif
