/* coop_device/barrier.h: the global barrier and its vote: per-barrier counters armed with the
 * members, one arrival each.
 * Invariants: docs/DESIGN.md section 6: B1 completion, B2 visibility, B3 no flag no change, B4
 * reuse, B5 member 0 is never killed. Part of the kernel header (coop_kernel.h includes these
 * files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_BARRIER_H
#define COOP_DEVICE_BARRIER_H

#include "watchdog.h"

/* Barrier number b (1, 2, ...) uses counter b % 4. A counter rests at COOP_BAR_IDLE; every member
 * of barrier b "arms" it (subtracts one) before anyone can arrive, and arriving adds one with
 * release semantics, so the last arrival's add carries back into the COOP_BAR_IDLE bit: the last
 * arrival is itself the release, no separate release word (the scheme of CUDA's grid.sync).
 * Leaders spin with relaxed loads, then one acquire load synchronises with every arrival (the
 * adds form one release sequence) without a full fence.
 * Counters b and b + 2 are the two halves of one 64-bit word, so that one 64-bit add both arrives
 * at barrier b and arms barrier b + 2: one atomic per group and barrier, as in grid.sync. Arming
 * b + 2 then is early enough (b + 2 cannot complete before this group's arrival at b + 1) and
 * safe (counter (b + 2) % 4 was last used by barrier b - 2, which everyone has left).
 * So membership may change between barriers: a killed group arrives once more for the barrier
 * it will miss and disarms the one after (coop_barrier_leave); a fork arms both for the new
 * groups before the forking group arrives (coop_barrier_join). No barrier needs to know M.
 * Bit 31 of a counter (COOP_BAR_FLAG) tells the groups leaving the barrier that M may have
 * changed before it or member 0 made a resize decision: a leaving or forking group sets it on
 * the barrier it arrives at next, member 0 on the barrier it decided at, each before its
 * arrival (whose release then covers it); member 0 clears it two barriers later, when every
 * group has read the completed counter. Only these or / and touch bit 31: the counts stay
 * below it. So a group that finds no flag knows M is what it was, without reading it.
 * Bit 30 (COOP_BAR_VOTE) is a vote the same way: a group whose work-items passed a true flag to
 * coop_global_barrier_any sets it before its arrival, every group finds it in the completed
 * counter, and member 0 clears it with the flag. */

/* The 32-bit counter of barrier `number` in a device area. */
inline global uint *coop_barrier_word(global uint *dev, uint number)
{
    return &dev[COOP_BAR_WORD(number)];
}

inline global uint *coop_barrier_counter(const coop_ctx *ctx, uint number)
{
    return coop_barrier_word(ctx->dev, number);
}

/* The first `members` arm barriers 1 and 2 (before any group can arrive: the discovery leader,
 * before it publishes the group count that every group's acquire waits for). */
inline void coop_barrier_arm_first(global uint *dev, uint members)
{
    for (uint b = 1; b <= 2; b++)
        coop_fetch_add(coop_barrier_word(dev, b), 0u - members);
}

/* `groups` more members for the next two barriers (called before any of them can arrive). */
inline void coop_barrier_join(const coop_ctx *ctx, uint groups)
{
    coop_fetch_add(coop_barrier_counter(ctx, ctx->epoch + 1), 0u - groups);
    coop_fetch_add(coop_barrier_counter(ctx, ctx->epoch + 2), 0u - groups);
    coop_fetch_or_relaxed(coop_barrier_counter(ctx, ctx->epoch + 1), COOP_BAR_FLAG);
}

/* This group leaves between barriers epoch and epoch + 1: it arrives for epoch + 1 (a release,
 * publishing its writes) and gives back its arming of epoch + 2 (relaxed, not waited for: a
 * read-modify-write continues the release sequences of the counter, and barrier epoch + 2 cannot
 * complete before epoch + 1 has). */
inline void coop_barrier_leave(const coop_ctx *ctx)
{
    coop_fetch_or_relaxed(coop_barrier_counter(ctx, ctx->epoch + 1), COOP_BAR_FLAG);
    coop_fetch_add_release(coop_barrier_counter(ctx, ctx->epoch + 1), 1u);
    coop_fetch_add_relaxed(coop_barrier_counter(ctx, ctx->epoch + 2), 1u);
}

/* The caller's code after a global barrier gets a parallel region of its own on PoCL: its
 * work-group compiler ran that code wrong when the barrier's last statement (the read of M after
 * the group's last workgroup barrier) shared the region with it, in a plain persistent kernel
 * too: `if (get_local_id(0) == 0)` right after the barrier, in a loop ended by a voting barrier,
 * was taken by no work-item. NVIDIA's compiler needs no such barrier. */
#if defined(COOP_TARGET_POCL)
#define COOP_BARRIER_POCL_JOIN() COOP_GROUP_SYNC()
#else
#define COOP_BARRIER_POCL_JOIN() ((void)0)
#endif

/* Right after a global barrier's first workgroup barrier, on PoCL, every work-item stores the
 * barrier's site (coop_at) in its group's site word, before the leader's test. PoCL's work-group
 * compiler ran the leader's arrival in every work-item at the first global barrier of an `else`
 * when the `if` branch held one too and a branch on the group id followed the `else`'s last one,
 * in a plain OpenCL kernel as well (tests/merge/smith/seed60212.cl): the next barrier, armed by 8
 * arrivals a group, never completed. The fault needs the two branches' barriers to begin alike
 * (a workgroup barrier first in both branches keeps it, one in a single branch avoids it); a
 * store that differs per site between the workgroup barrier and the test avoids it. A relaxed
 * store by every work-item of one value: for the watchdog, which reads the word only for a group
 * that waits (watchdog.h). */
#if defined(COOP_TARGET_POCL)
#define COOP_BARRIER_POCL_SITE(ctx) \
    coop_store_relaxed(&(ctx)->ctrl[COOP_CTRL_GROUP_SITE + (ctx)->physical], (ctx)->site)
#else
#define COOP_BARRIER_POCL_SITE(ctx) ((void)0)
#endif

/* Spins after which a waiting group records where it is, for the watchdog; a barrier that
 * completes sooner writes nothing but its arrival. */
#define COOP_BARRIER_QUIET_SPINS 4096u

/* The barrier's arrival (which also arms barrier number + 2) and wait, by local id 0 only.
 * Returns the completed counter; `flag` (COOP_BAR_FLAG or 0) flags the barrier first. */
inline uint coop_barrier_arrive_wait(coop_ctx *ctx, uint number, uint flag)
{
    global uint *counter = coop_barrier_counter(ctx, number);
    global uint *where = coop_where_word(ctx);
    if (flag)
        coop_fetch_or_relaxed(counter, flag);
    /* +1 on this barrier's half, -1 on barrier number + 2's (the halves never carry or borrow
     * across: both stay between COOP_BAR_IDLE - COOP_MAX_GROUPS and COOP_BAR_IDLE, flags apart). */
    uint high = COOP_BAR_HIGH(number);
    global ulong *pair = (global ulong *)&ctx->dev[COOP_BAR_PAIR(number)];
    ulong add = high ? COOP_BAR_ARRIVE_HIGH : COOP_BAR_ARRIVE_LOW;
    ulong pair_before = coop_fetch_add64_release(pair, add);
#if COOP_CHECKS
    /* B4: this barrier's count was armed and lacked this arrival; barrier number + 2's (the other
     * half) was left complete and only armed since, by arrivals at this barrier */
    uint count = COOP_BAR_UNFLAGGED(high ? COOP_HIGH_HALF(pair_before) : COOP_LOW_HALF(pair_before));
    uint next = COOP_BAR_UNFLAGGED(high ? COOP_LOW_HALF(pair_before) : COOP_HIGH_HALF(pair_before));
    COOP_CHECK(ctx->ctrl, count < COOP_BAR_IDLE && count >= COOP_BAR_IDLE - COOP_MAX_GROUPS &&
                              next <= COOP_BAR_IDLE && next >= COOP_BAR_IDLE - COOP_MAX_GROUPS,
               COOP_CHECK_BARRIER_HALVES, number, count, next);
#endif
    /* Member 0 (never killed) counts the barriers, for the watchdog and the statistics, and
     * clears the flag of barrier number - 2 (whose counter number + 2 reuses): after its
     * arrival, so that neither is a write its release must wait for, and before its next one,
     * which comes before anyone can flag number + 2. */
    if (ctx->id == 0) {
        coop_fetch_add_relaxed(&ctx->ctrl[COOP_CTRL_BARRIERS], 1u);
        coop_fetch_and_relaxed(coop_barrier_counter(ctx, number + 2u), ~COOP_BAR_FLAGS);
    }
    uint value = (high ? COOP_HIGH_HALF(pair_before) : COOP_LOW_HALF(pair_before)) + 1u;
    if (COOP_BAR_UNFLAGGED(value) != COOP_BAR_IDLE) {
        uint spins = 0;
        while (!((value = coop_load_relaxed(counter)) & COOP_BAR_IDLE)) {
            if (++spins == COOP_BARRIER_QUIET_SPINS) {
#if COOP_SITES
                coop_store_relaxed(&ctx->ctrl[COOP_CTRL_GROUP_SITE + ctx->physical], ctx->site);
#endif
                coop_where_store(where, COOP_WHERE_BARRIER, COOP_WHERE_BARRIER_DETAIL(ctx->id, number));
            }
        }
        if (spins >= COOP_BARRIER_QUIET_SPINS)
            coop_where_store(where, COOP_WHERE_RUNNING, ctx->id);
    }
    /* The value that showed the barrier complete is later in the counter's modification order
     * than every arrival and so than every flag set before one. The acquire load synchronises
     * with the arrivals (they form one release sequence) whatever it reads; its result is not
     * used, and ptxas reduces it to an L1 invalidation: no second read of the hot counter. */
    coop_load_acquire(counter);
    return value;
}

/* Waits until every member group has reached the barrier; memory written before it by any of
 * them is visible after it to all. Reached by every work-item of every member group. */
/* The global barrier with a vote: returns 1 in every work-item of every member if any work-item
 * of any member passed a true flag, 0 otherwise (`skip`: a group that walks past it, see
 * generated.h; it neither arrives nor votes). A voting group costs one atomic more than the
 * plain barrier, the others none. The group's own vote is collected in local memory: local id
 * 0 clears it once read, before the barrier's last workgroup barrier, after which the next
 * vote's writes come. On PoCL the caller's code before the vote gets a region of its own too: its
 * work-group compiler lost an `if (get_local_id(0) == 0)` write right before a vote whose flag
 * reads the local id, in an `if` inside a loop, in a plain persistent kernel as well (smith seed
 * 50171). */
inline int coop_global_barrier_any_unless(coop_ctx *ctx, uint skip, int flag)
{
    uint number = ctx->epoch + (skip ? 0u : 1u);
    volatile local uint *vote = ctx->scratch + COOP_SCRATCH_VOTE;
    COOP_BARRIER_POCL_JOIN();
    if (flag && !skip)
        *vote = 1u;
    COOP_GROUP_SYNC();
    COOP_BARRIER_POCL_SITE(ctx);
    if (coop_local_linear_id() == 0) {
        uint any = 0;
        if (!skip) {
            uint mine = *vote;
            *vote = 0u;
            COOP_TRACE_ARRIVAL(arrived);
            uint value = coop_barrier_arrive_wait(ctx, number, mine ? COOP_BAR_VOTE : 0u);
            COOP_TRACE_BARRIER(ctx, arrived, number, 0u);
            if (value & COOP_BAR_FLAG)
                ctx->scratch[COOP_SCRATCH_M] = 0;
            any = (value & COOP_BAR_VOTE) != 0;
        }
        ctx->scratch[COOP_SCRATCH_VOTED] = any;
    }
    ctx->epoch = number;
    COOP_GROUP_SYNC();
    ctx->known_groups = ctx->scratch[COOP_SCRATCH_M];
    int any = (int)ctx->scratch[COOP_SCRATCH_VOTED];
    COOP_BARRIER_POCL_JOIN();
    return any;
}

inline int coop_global_barrier_any(coop_ctx *ctx, int flag)
{
    return coop_global_barrier_any_unless(ctx, 0u, flag);
}

inline void coop_global_barrier_unless(coop_ctx *ctx, uint skip)
{
    uint number = ctx->epoch + (skip ? 0u : 1u);
    COOP_GROUP_SYNC();
    COOP_BARRIER_POCL_SITE(ctx);
    if (coop_local_linear_id() == 0 && !skip) {
        COOP_TRACE_ARRIVAL(arrived);
        uint value = coop_barrier_arrive_wait(ctx, number, 0u);
        COOP_TRACE_BARRIER(ctx, arrived, number, 0u);
        if (value & COOP_BAR_FLAG)
            ctx->scratch[COOP_SCRATCH_M] = 0;
    }
    ctx->epoch = number;
    COOP_GROUP_SYNC();
    ctx->known_groups = ctx->scratch[COOP_SCRATCH_M];
    COOP_BARRIER_POCL_JOIN();
}

inline void coop_global_barrier(coop_ctx *ctx)
{
    coop_global_barrier_unless(ctx, 0u);
}

#endif
