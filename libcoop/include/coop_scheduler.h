/* coop_scheduler.h: the device side of libcoop's scheduler (OpenCL C), prepended after
 * coop_kernel.h. It gives cooperative kernels the primitives of Sorensen, Evrard and Donaldson,
 * "Cooperative Kernels" (FSE 2017), and runs high-priority tasks on the groups they give up.
 *
 * A megakernel is a persistent kernel whose groups loop over coop_schedule():
 *
 *   kernel void mega(COOP_PARAMS, global int *data, global float *out) {
 *       COOP_ENTER(ctx);
 *       for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
 *           if (role == COOP_ROLE_COOP)
 *               my_cooperative_kernel(&ctx, data);     // returns when finished or killed
 *           COOP_GROUP_SYNC();
 *           if (role == COOP_ROLE_TASK && ctx.task == 0)
 *               my_task(&ctx, out);                    // one task workgroup: coop_group_id(&ctx)
 *           COOP_GROUP_SYNC();
 *       }
 *   }
 *
 * PoCL's compiler rejects some control flow around workgroup barriers, so (as coop-merge
 * generates it) every role branch is followed by COOP_GROUP_SYNC(), and a cooperative kernel
 * leaves its loops through their conditions (a `killed` flag), not by `return` from inside a
 * loop that contains a barrier.
 *
 * Inside the cooperative kernel (every call reached by all work-items of the group):
 *   killed = coop_offer_kill(&ctx);                      the largest id may be killed here
 *   coop_offer_fork(&ctx, POINT, &t, sizeof t);          new groups resume at POINT with t
 *   coop_global_barrier(&ctx);
 *   killed = coop_resizing_barrier(&ctx, POINT, &t, sizeof t);
 * and, in a forked group, coop_resume_point(&ctx) names POINT and coop_transmit_restore(&ctx,
 * &t, sizeof t) fills t with the forking group's work-item 0's copy.
 *
 * Memory: members M and finished members F share one word (COOP_CTRL_STATE), changed only by
 * compare-and-swap or add, so kills, forks and completion are linearisable. Kill requests are
 * tokens (COOP_CTRL_KILLS): a kill takes one. Idle groups pull work: fork slots first (the fork
 * reserved them out of COOP_CTRL_IDLE, so they are always claimed), then task slots. */
#ifndef COOP_SCHEDULER_H
#define COOP_SCHEDULER_H

/* ---- Start ------------------------------------------------------------------------------
 * The scheduler's part of a group's start, which discovery (coop_enter, coop_kernel.h) calls. */

/* The context's scheduler fields, before discovery. */
inline void coop_scheduler_reset(coop_ctx *ctx)
{
    ctx->resume = 0;
    ctx->task = 0;
    ctx->task_groups = 0;
    ctx->toggle = 0;
    ctx->started = 0;
    ctx->known_groups = 0;
}

/* The discovery leader (local id 0), once the poll is closed with `groups` groups and before it
 * publishes the count (with release; every group acquires it before it reads what this wrote):
 * the scheduler's starting state. The first M0 groups are cooperative members (armed for
 * barriers 1 and 2), the last one is the agent if the host asked for one, the rest start idle. */
inline void coop_scheduler_open(coop_ctx *ctx, uint groups)
{
    global uint *dev = ctx->dev;
    uint agent = groups > 1 && coop_load_relaxed(&dev[COOP_DEV_AGENT]) ? 1u : 0u;
    uint wanted = coop_load_relaxed(&dev[COOP_DEV_MEMBERS]);
    uint members = wanted && wanted < groups - agent ? wanted : groups - agent;
    global uint *ctrl = ctx->ctrl;
    coop_store_relaxed(&ctrl[COOP_CTRL_STATE], members);
    coop_store_relaxed(&ctrl[COOP_CTRL_IDLE], groups - agent - members);
    coop_barrier_arm_first(dev, members);
#if COOP_TRACING
    /* the trace's time zero and its count of running members, published with the groups */
    ulong t0 = coop_trace_clock();
    global uint *trace = coop_trace_area(dev);
    coop_trace_store64(&trace[COOP_TRACE_T0], t0);
    coop_trace_store64(&trace[COOP_TRACE_MEMBERS], members);
    coop_trace_at(dev, 0u, t0, COOP_EV_INIT, members, groups);
#endif
    coop_store_relaxed(&dev[COOP_DEV_MEMBERS], members);
    coop_store_relaxed(&dev[COOP_DEV_AGENT], agent);
}

/* Local id 0 of every group, after discovery: the scheduler's words of the group's scratch (and
 * the barrier's vote), and what coop_scheduler_enter needs from the leader's starting state. */
inline void coop_scheduler_hand_over(coop_ctx *ctx)
{
    local uint *s = ctx->scratch;
    global uint *dev = ctx->dev;
    global uint *chan = ctx->chan;
    s[COOP_SCRATCH_M] = 0;
    s[COOP_COLD_RESUME] = s[COOP_COLD_TASK] = s[COOP_COLD_TASK_GROUPS] = 0;
    s[COOP_COLD_STARTED] = 0;
    s[COOP_SCRATCH_VOTE] = 0;
    s[COOP_COLD_CHAN] = (uint)(ulong)chan;
    s[COOP_COLD_CHAN + 1] = (uint)((ulong)chan >> 32);
    s[COOP_SCRATCH_MEMBERS] = coop_load_relaxed(&dev[COOP_DEV_MEMBERS]);
    s[COOP_SCRATCH_AGENT] = coop_load_relaxed(&dev[COOP_DEV_AGENT]);
    s[COOP_SCRATCH_CHAOS] = coop_load_relaxed(&dev[COOP_DEV_CHAOS]);
}

/* Every work-item, after discovery's group barrier: the group's first role and id, from its
 * discovery ticket (ctx->physical). */
inline void coop_scheduler_enter(coop_ctx *ctx)
{
    local uint *s = ctx->scratch;
    uint ticket = ctx->physical, groups = s[COOP_SCRATCH_GROUPS];
    /* The agent, when there is one, is the very first group. After it, the first COOP_NEAR_IDS
     * groups to arrive take ids 0, 1, ..., and the rest ids against arrival order, so that the
     * next ones to arrive get the largest ids (COOP_ID_OF_TICKET, coop_layout.h). Tickets follow
     * how soon a group's atomic reaches the device area, whose words the barriers and the
     * scheduler use too: on the H200 the first 132 of 792 tickets came from 33-43 SMs (run 121).
     * The largest ids, which kills take first, so go to groups that are near those words and the
     * oldest on their compute units, which GPU warp schedulers favour (a starved group would make
     * a task wait for its next offer; in arrival order all through sched-bench's gather took
     * 96-136 us against 21-33, run 130). The low ids get a small frontier's work and member 0
     * decides at resizing barriers: near ones made bfs 8.6% faster standalone and 7.7%
     * cooperative on USA-road-NY, 5.8% and 4.6% on USA-road-FLA, and sched-bench's gather no
     * slower, with 8 of them; with 32 the gather took 45-49 us (run 133). */
    uint agent = s[COOP_SCRATCH_AGENT];
    uint order = COOP_ID_OF_TICKET(ticket, groups, agent);
    ctx->id = order;
    ctx->role = agent && ticket == 0 ? COOP_ROLE_AGENT
                : order < s[COOP_SCRATCH_MEMBERS] ? COOP_ROLE_COOP
                                     : COOP_ROLE_IDLE;
}

/* ---- Helpers ------------------------------------------------------------------------------ */

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
 * transmitted `uint round` as four bytes, taken apart and put together at every use (H200, run
 * 101's SASS). Returns the number of words. */
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
#include "coop_request.h"

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
    global uint *trace = coop_trace_area(ctx->dev);
    global ulong *word = (global ulong *)&trace[COOP_TRACE_MEMBERS];
    ulong t0 = coop_trace_load64(&trace[COOP_TRACE_T0]);
    ulong old = coop_load_relaxed64(word);
    for (;;) {
        ulong now = coop_trace_clock();
        ulong since = now > t0 ? now - t0 : 0ul;
        ulong time = max(since, COOP_TRACE_MEMBERS_TIME(old) + 1ul);
        ulong next = COOP_TRACE_MEMBERS_WORD(time, (uint)((int)COOP_TRACE_MEMBERS_COUNT(old) + delta));
        ulong seen = coop_cas64(word, old, next);
        if (seen == old) {
            coop_trace_at(ctx->dev, ctx->physical, t0 + time, COOP_EV_MEMBERS, (uint)COOP_TRACE_MEMBERS_COUNT(next),
                          (uint)delta);
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
        coop_load_relaxed64((global ulong *)&coop_trace_area(ctx->dev)[COOP_TRACE_MEMBERS]));
}
#define COOP_TRACE_T0(ctx) coop_trace_load64(&coop_trace_area((ctx)->dev)[COOP_TRACE_T0])
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
    uint want = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]);
    uint joined = coop_load_relaxed(&ctrl[COOP_CTRL_TASK_JOINED]);
    return want > joined ? want - joined : 0;
}

/* Most members the cooperative kernel may have: every group but the agent. */
inline uint coop_member_limit(const coop_ctx *ctx)
{
    return ctx->scratch[COOP_SCRATCH_GROUPS] - coop_load_relaxed(&ctx->dev[COOP_DEV_AGENT]);
}

/* ---- offer_kill --------------------------------------------------------------------------- */

/* How long a parked member waits for the members above it before it gives up and goes on (so
 * that a member above that waits for it, e.g. at a barrier, cannot deadlock). */
#ifndef COOP_PARK_TIMEOUT_NS
#define COOP_PARK_TIMEOUT_NS 200000u
#endif
#ifndef COOP_PARK_POLLS
#define COOP_PARK_POLLS 200000u
#endif
/* How long the largest member, asked for several kills, waits for the members below it that the
 * request also wants to park at their offers, so that one sweep takes them all. */
#ifndef COOP_GATHER_WAIT_NS
#define COOP_GATHER_WAIT_NS 30000u
#endif
#define COOP_GATHER_WAIT_POLLS 20000u
#ifndef COOP_PARK_STATE_POLLS
#define COOP_PARK_STATE_POLLS 256u
#endif

/* Kill tokens (COOP_KILLS_WORD): a task request sets them for itself, a kill takes one, and the
 * task's start cancels the rest (coop_start_or_wait_task). A sweep or a resize takes tokens before
 * it knows how many kills it gets, and gives back the rest after; by then the task may have
 * started, so the tokens carry their request's number and come back only while the word still
 * holds that request's tokens: a token never outlives its task (docs/DESIGN.md, K7). */

/* Takes up to `wanted` kill tokens (never more than there are); returns how many, and in
 * *request the request they are for. The compare-and-swap's acquire pairs with the request's
 * release (coop_apply_request). */
COOP_COLD uint coop_take_tokens(global uint *ctrl, uint wanted, uint *request)
{
    global ulong *word = coop_kill_tokens(ctrl);
    ulong seen = coop_load_relaxed64(word);
    for (;;) {
        COOP_CHECK(ctrl, COOP_KILLS_TOKENS(seen) <= COOP_MAX_GROUPS, COOP_CHECK_TOKENS, COOP_KILLS_TOKENS(seen),
                   COOP_KILLS_REQUEST(seen), 0u);
        uint take = min(COOP_KILLS_TOKENS(seen), wanted);
        if (!take)
            return 0;
        ulong before = coop_cas64(word, seen, seen - take);
        if (before == seen) {
            *request = COOP_KILLS_REQUEST(seen);
            return take;
        }
        seen = before;
    }
}

#ifdef COOP_TEST_GIVE_BACK_LATE
/* Tests only (tests/test_scheduler.c): a give-back of kill tokens first waits, for a while, until
 * the task they were taken for has stopped gathering. */
inline void coop_test_give_back_late(global uint *ctrl)
{
    for (uint polls = 0; polls < (1u << 28); polls++)
        if (COOP_TASK_STATUS_OF(coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS])) != COOP_TASK_GATHERING)
            break;
}
#endif

/* Gives back `tokens` kill tokens taken for `request` and not used, while the word still holds
 * that request's tokens; once its task has started (or a later request came), they are dropped.
 * One word: the compare-and-swap lands before the start's store of 0 (coop_start_or_wait_task),
 * which then cancels the tokens with the rest, or fails after it. */
COOP_COLD void coop_give_back_tokens(global uint *ctrl, uint request, uint tokens)
{
    global ulong *word = coop_kill_tokens(ctrl);
#ifdef COOP_TEST_GIVE_BACK_LATE
    coop_test_give_back_late(ctrl);
#endif
    ulong seen = coop_load_relaxed64(word);
    while (COOP_KILLS_REQUEST(seen) == request) {
        COOP_CHECK(ctrl, COOP_KILLS_TOKENS(seen) + tokens <= COOP_MAX_GROUPS, COOP_CHECK_TOKENS,
                   COOP_KILLS_TOKENS(seen) + tokens, request, 1u);
        ulong before = coop_cas64(word, seen, seen + tokens);
        if (before == seen)
            return;
        seen = before;
    }
}

/* Chaos mode: the largest member kills itself at random (no token); `state` is M as it last
 * read it (a member that is not the largest by it is not killed). */
COOP_COLD int coop_kill_self(coop_ctx *ctx, uint state)
{
    if (COOP_STATE_MEMBERS(state) != ctx->id + 1u)
        return 0;
#if COOP_TRACING
    /* trace mode: not before the members above it are counted out of the trace's members (it
     * may decline: a chaos kill is only offered), so that those are 0 .. M-1 at every moment */
    if (coop_trace_member_count(ctx) != ctx->id + 1u)
        return 0;
#endif
    if (coop_cas(&ctx->ctrl[COOP_CTRL_STATE], state, state - 1u) != state)
        return 0;
    COOP_TRACE_EVENT(ctx, COOP_TRACE_MEMBERS_CHANGE(ctx, -1), COOP_EV_KILLED, COOP_KILLED_CHAOS, ctx->id);
    return 1;
}

/* Outcomes of a kill offer (local id 0's part). */
#define COOP_KILL_SELF 1u     /* killed */
#define COOP_KILL_CLAIMED 2u  /* killed by another member's sweep */
#define COOP_KILL_LARGEST 3u  /* the largest, with kills wanted: the group sweeps (and may die) */

/* Whether the task kills are for still wants them: the kill word names its request until the
 * task starts and cancels it (coop_start_or_wait_task). Not its tokens: a sweep (or a resize)
 * takes them all before it knows how many kills it gets and gives back the rest, and a parked
 * member that read none in between gave up its place, so that the sweep stopped above it and the
 * rest of the gather waited for that member's next offer (H200 run 117: a unit, 16 us). */
inline int coop_kills_wanted(global uint *ctrl)
{
    return coop_load_relaxed(&ctrl[COOP_CTRL_KILLS_REQUEST]) != 0u;
}

/* The largest member, asked for several kills, waits briefly for the members right below it that
 * the request also wants to park at their offers, so that its sweep takes them all at once rather
 * than starting a chain of small sweeps, each handing the turn down to the next member that
 * parked. `self` is 1 if the caller is itself counted as parked. */
COOP_COLD void coop_await_parked(coop_ctx *ctx, uint self)
{
    global uint *ctrl = ctx->ctrl;
    uint tokens = coop_load_relaxed(&ctrl[COOP_CTRL_KILLS]);
    uint below = ctx->id > 1u && tokens > 1u ? min(min(tokens - 1u, COOP_SWEEP_WIDTH), ctx->id - 1u) : 0u;
#if COOP_HAS_CLOCK
    ulong deadline = coop_clock_ns() + COOP_GATHER_WAIT_NS;
#endif
    for (uint polls = 0; below; polls++) {
        if (coop_load_relaxed(&ctrl[COOP_CTRL_PARKED_COUNT]) >= below + self)
            break;
#if COOP_HAS_CLOCK
        if (coop_clock_ns() > deadline)
            break;
#else
        if (polls > COOP_GATHER_WAIT_POLLS)
            break;
#endif
        if (polls % 64u == 63u && !coop_kills_wanted(ctrl))
            break;
    }
}

/* coop_park's wait, once the member's word says COOP_PARK_WAITING. */
COOP_COLD uint coop_park_wait(coop_ctx *ctx, global uint *mine)
{
    global uint *ctrl = ctx->ctrl;
#if COOP_HAS_CLOCK
    ulong deadline = coop_clock_ns() + COOP_PARK_TIMEOUT_NS;
#endif
    for (uint polls = 1;; polls++) {
        uint flag = coop_load_relaxed(mine);
        if (flag == COOP_PARK_WAITING && polls % COOP_PARK_STATE_POLLS != 1u) {
            coop_pause();
            continue;
        }
        flag = coop_load_acquire(mine);
        if (flag == COOP_PARK_CLAIMED) {
            coop_store_relaxed(mine, COOP_PARK_NONE);
            return COOP_KILL_CLAIMED;
        }
        if (flag == COOP_PARK_CLAIMING)
            continue;
        int turn = flag == COOP_PARK_TURN;
        if (!turn && polls % COOP_PARK_STATE_POLLS != 1u)
            continue;
        /* On the first poll and every COOP_PARK_STATE_POLLS-th: a member that parked after a
         * sweep went by gets no hand-over and must see for itself that it became the largest;
         * also, to give up. Not more often: parked members reading M slow down the atomics that
         * change it (H100, a quarter of 527 groups: gather median 86 us at every 16th poll, 44 us
         * at every 64th, 27 us at every 256th, 37 us at every 1024th). */
        uint state = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
        int largest = turn || COOP_STATE_MEMBERS(state) == ctx->id + 1u;
#if COOP_HAS_CLOCK
        int expired = coop_clock_ns() > deadline;
#else
        int expired = polls > COOP_PARK_POLLS;
#endif
        if (largest || expired || !coop_kills_wanted(ctrl)) {
            if (coop_cas(mine, flag, COOP_PARK_NONE) != flag)
                continue; /* being claimed: the next poll sees the outcome */
            if (!largest)
                return 0;
            coop_await_parked(ctx, 1u);
            return COOP_KILL_LARGEST;
        }
    }
}

/* Waits at the offer (local id 0) until the members above are gone, polling only its own word:
 * a sweeping killer either claims it (COOP_PARK_CLAIMED: killed, returns COOP_KILL_CLAIMED) or
 * hands it the turn (COOP_PARK_TURN: it is the largest, returns COOP_KILL_LARGEST). Gives up
 * (returns 0) when kills are no longer wanted or after COOP_PARK_TIMEOUT_NS. */
COOP_COLD uint coop_park(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    global uint *mine = &ctrl[COOP_CTRL_PARKED + ctx->id];
    COOP_TRACE_NOW(ctx, COOP_EV_PARK, 0u, ctx->id);
    coop_store_release(mine, COOP_PARK_WAITING);
    coop_fetch_add_release(&ctrl[COOP_CTRL_PARKED_COUNT], 1u);
    uint outcome = coop_park_wait(ctx, mine);
    coop_fetch_add_relaxed(&ctrl[COOP_CTRL_PARKED_COUNT], 0u - 1u);
#if COOP_TRACING
    /* killed by a sweep: at the time the sweeper left with it, which it published before the
     * release of this group's park word that coop_park_wait acquired */
    if (outcome == COOP_KILL_CLAIMED)
        COOP_TRACE_EVENT(ctx, coop_trace_load64(&coop_trace_area(ctx->dev)[COOP_TRACE_KILL_TIME + 2u * ctx->id]),
                         COOP_EV_KILLED, COOP_KILLED_SWEPT, ctx->id);
    else
        COOP_TRACE_NOW(ctx, COOP_EV_UNPARK, 0u, ctx->id);
#endif
    return outcome;
}

/* Local id 0's half of coop_offer_kill: 0 (not killed), COOP_KILL_SELF (chaos killed it),
 * COOP_KILL_CLAIMED (another's sweep took it) or COOP_KILL_LARGEST (it is the largest and kill
 * tokens are out: the whole group then kills it and the parked members below, coop_sweep), given
 * the kill tokens it read; *seen_state is the scheduler state it read. */
inline uint coop_try_kill(coop_ctx *ctx, uint tokens, uint *seen_state)
{
    global uint *ctrl = ctx->ctrl;
    int chaos = ctx->rng && coop_random(ctx) % 4u == 0;
    COOP_CHECK(ctrl, tokens <= COOP_MAX_GROUPS, COOP_CHECK_TOKENS, tokens, 0u, 2u);
    if (!chaos && !tokens)
        return 0;
    uint state = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
    *seen_state = state;
    uint members = COOP_STATE_MEMBERS(state);
    if (members <= 1u || ctx->id == 0)
        return 0;
    if (chaos)
        return ctx->id + 1u == members && coop_kill_self(ctx, state) ? COOP_KILL_SELF : 0u;
    if (ctx->id + 1u == members) {
        coop_await_parked(ctx, 0u);
        return COOP_KILL_LARGEST;
    }
    if (ctx->id + tokens < members)
        return 0;
    return coop_park(ctx);
}

/* The largest member takes kill tokens for itself and for the parked members right below it,
 * claims those (COOP_SWEEP_WIDTH at most), and removes itself and the contiguous run it got from M
 * in one update: as if they had offered kill one after another, largest first. Then it hands the
 * turn to the next parked member, if kills are still wanted. The claims and their releases are
 * spread over the work-items from `first` in steps of `step`: coop_sweep runs them in parallel
 * between group barriers, coop_sweep_flat in local id 0 alone. Local id 0 passes the state it
 * read at the offer, a guess its compare-and-swap on M confirms. */

#ifdef COOP_TEST_SWEEP_HOLDS_TOKENS
/* Tests only (tests/test_scheduler.c): a sweep that took kill tokens holds them all for a while
 * before it claims, as long as the member right below it stays parked, so that the parked member
 * reads a kill word with no tokens left many times. Bounded well short of that member's park
 * timeout (COOP_PARK_POLLS), so that a member still parked when the hold ends is claimed. */
inline void coop_test_sweep_holds_tokens(const coop_ctx *ctx, uint tokens)
{
    if (!tokens || ctx->id == 0)
        return;
    global uint *below = &ctx->ctrl[COOP_CTRL_PARKED + ctx->id - 1u];
    for (uint polls = 0; polls < COOP_PARK_POLLS / 64u; polls++)
        if (coop_load_relaxed(below) != COOP_PARK_WAITING)
            break;
}
#endif

/* Local id 0: takes the tokens the sweep may use (itself and up to COOP_SWEEP_WIDTH below), for
 * *request's task. */
inline uint coop_sweep_tokens(coop_ctx *ctx, uint *request)
{
    uint members = ctx->id + 1u;
    /* member 0 is never killed: at most members - 1 kills, this one included */
    uint wanted = min(COOP_SWEEP_WIDTH + 1u, members - 1u);
    /* the first candidate not claimed, found in parallel (a serial scan of the claims took
     * microseconds) */
    ctx->scratch[COOP_SCRATCH_SWEEP_GAP] = COOP_SWEEP_NO_GAP;
    uint tokens = coop_take_tokens(ctx->ctrl, wanted, request);
#ifdef COOP_TEST_SWEEP_HOLDS_TOKENS
    coop_test_sweep_holds_tokens(ctx, tokens);
#endif
    return tokens;
}

/* Candidates first, first + step, ...: claims each parked member below. */
inline void coop_sweep_claim(coop_ctx *ctx, uint tokens, uint first, uint step)
{
    global uint *parked = &ctx->ctrl[COOP_CTRL_PARKED];
    local uint *claimed = ctx->scratch + COOP_SCRATCH_SWEEP;
    volatile local uint *gap = ctx->scratch + COOP_SCRATCH_SWEEP_GAP;
    uint below = ctx->id - 1u; /* the first candidate: the member right below */
    for (uint i = first; i + 1u < tokens; i += step) {
        claimed[i] = coop_cas(&parked[below - i], COOP_PARK_WAITING, COOP_PARK_CLAIMING) == COOP_PARK_WAITING;
        if (!claimed[i])
            atomic_min(gap, i);
    }
}

/* Local id 0, once every claim is in: removes itself and the run of claimed members below it
 * from M; returns how many left (0: M changed under it). Tokens it could not use go back, if
 * `request`'s task still gathers. */
inline uint coop_sweep_commit(coop_ctx *ctx, uint tokens, uint request, uint state_seen)
{
    global uint *ctrl = ctx->ctrl;
    uint members = ctx->id + 1u;
    uint run = tokens ? min(ctx->scratch[COOP_SCRATCH_SWEEP_GAP], tokens - 1u) : 0u;
    uint state = state_seen;
    uint taken = 0;
    while (tokens && COOP_STATE_MEMBERS(state) == members) {
        uint seen = coop_cas(&ctrl[COOP_CTRL_STATE], state, state - 1u - run);
        if (seen == state) {
            taken = 1u + run;
            break;
        }
        state = seen;
    }
#if COOP_TRACING
    /* the members below that leave with this one (their parked words are released after this)
     * take its time */
    if (taken) {
        ulong left = coop_trace_members(ctx, -(int)taken);
        for (uint i = 1; i < taken; i++)
            coop_trace_store64(&coop_trace_area(ctx->dev)[COOP_TRACE_KILL_TIME + 2u * (ctx->id - i)], left);
        COOP_TRACE_EVENT(ctx, left, COOP_EV_KILLED, COOP_KILLED_SWEEP, ctx->id);
    }
#endif
    if (tokens > taken)
        coop_give_back_tokens(ctrl, request, tokens - taken); /* each killed member counts itself */
    return taken;
}

/* Candidates first, first + step, ...: tells each claimed member whether it was killed. */
inline void coop_sweep_release(coop_ctx *ctx, uint tokens, uint taken, uint first, uint step)
{
    global uint *parked = &ctx->ctrl[COOP_CTRL_PARKED];
    local uint *claimed = ctx->scratch + COOP_SCRATCH_SWEEP;
    uint below = ctx->id - 1u;
    for (uint i = first; i + 1u < tokens; i += step) {
        if (!claimed[i])
            continue;
        /* K4: while claimed the word is the sweeper's alone (the parked member's give-up
         * compare-and-swap fails on CLAIMING) */
        COOP_CHECK(ctx->ctrl, coop_load_relaxed(&parked[below - i]) == COOP_PARK_CLAIMING, COOP_CHECK_PARK_WORD,
                   below - i, coop_load_relaxed(&parked[below - i]), ctx->id);
        coop_store_release(&parked[below - i], i + 1u < taken ? COOP_PARK_CLAIMED : COOP_PARK_WAITING);
    }
}

/* Local id 0, after the releases: hands the turn to the next parked member below the run. */
inline void coop_sweep_pass_turn(coop_ctx *ctx, uint taken)
{
    global uint *ctrl = ctx->ctrl;
    if (taken && coop_load_relaxed(&ctrl[COOP_CTRL_KILLS]))
        coop_cas(&ctrl[COOP_CTRL_PARKED + ctx->id - taken], COOP_PARK_WAITING, COOP_PARK_TURN);
}

/* The sweep with every work-item (one per candidate); returns 1 if the group was killed. */
COOP_COLD int coop_sweep(coop_ctx *ctx, uint state_seen)
{
    uint lid = coop_local_linear_id(), lsize = coop_local_linear_size();
    uint request = 0;
    uint tokens = lid == 0 ? coop_sweep_tokens(ctx, &request) : 0u;
    tokens = coop_broadcast(ctx, tokens);
    coop_sweep_claim(ctx, tokens, lid, lsize);
    COOP_GROUP_SYNC();
    uint taken = lid == 0 ? coop_sweep_commit(ctx, tokens, request, state_seen) : 0u;
    taken = coop_broadcast(ctx, taken);
    coop_sweep_release(ctx, tokens, taken, lid, lsize);
    COOP_GROUP_SYNC();
    if (lid == 0)
        coop_sweep_pass_turn(ctx, taken);
    return taken != 0;
}

/* The sweep in local id 0 alone (COOP_FLAT_OFFERS); returns 1 if the group was killed. */
COOP_COLD uint coop_sweep_flat(coop_ctx *ctx, uint state_seen)
{
    uint request = 0;
    uint tokens = coop_sweep_tokens(ctx, &request);
    coop_sweep_claim(ctx, tokens, 0u, 1u);
    uint taken = coop_sweep_commit(ctx, tokens, request, state_seen);
    coop_sweep_release(ctx, tokens, taken, 0u, 1u);
    coop_sweep_pass_turn(ctx, taken);
    return taken != 0;
}

/* coop_offer_kill past its fast path (kill tokens out, or chaos mode); `tokens` as local id 0
 * read them. Out of line on NVIDIA, so that its registers do not weigh on the caller's loop. */
COOP_COLD int coop_offer_kill_slow(coop_ctx *ctx, uint tokens)
{
    uint state = 0;
    uint outcome = coop_local_linear_id() == 0 ? coop_try_kill(ctx, tokens, &state) : 0u;
    outcome = coop_broadcast(ctx, outcome);
    if (outcome == COOP_KILL_LARGEST)
        outcome = coop_sweep(ctx, state) ? COOP_KILL_SELF : 0u;
    /* The group leaves the barriers later, once it has joined the task it was killed for
     * (coop_next_role): off the gather's path. */
    if (outcome)
        ctx->role = COOP_ROLE_KILLED;
    return outcome != 0;
}

/* The group with the largest id may be destroyed here (never the only one). Returns 1 in every
 * work-item of a killed group, which must then leave the cooperative kernel at once. The fast
 * path (no kill wanted) is one read of the kill tokens. */
#if COOP_FLAT_OFFERS
inline int coop_offer_kill_unless(coop_ctx *ctx, uint skip)
{
    uint outcome = 0;
    if (coop_local_linear_id() == 0 && !skip) {
        uint tokens = coop_load_relaxed(&ctx->ctrl[COOP_CTRL_KILLS]);
        if (tokens | ctx->rng) {
            uint state = 0;
            outcome = coop_try_kill(ctx, tokens, &state);
            if (outcome == COOP_KILL_LARGEST)
                outcome = coop_sweep_flat(ctx, state) ? COOP_KILL_SELF : 0u;
        }
    }
    outcome = coop_broadcast(ctx, outcome);
    if (outcome)
        ctx->role = COOP_ROLE_KILLED;
    return outcome != 0;
}
#else
inline int coop_offer_kill_unless(coop_ctx *ctx, uint skip)
{
    uint tokens = 0, pending = 0;
    if (coop_local_linear_id() == 0 && !skip) {
        tokens = coop_load_relaxed(&ctx->ctrl[COOP_CTRL_KILLS]);
        pending = tokens | ctx->rng;
    }
    if (!coop_broadcast(ctx, pending))
        return 0;
    COOP_COLD_CTX(ctx);
    int killed = coop_offer_kill_slow(cold, tokens);
    COOP_COLD_BACK(ctx);
    return killed;
}
#endif

inline int coop_offer_kill(coop_ctx *ctx)
{
    return coop_offer_kill_unless(ctx, 0u);
}

/* ---- offer_fork --------------------------------------------------------------------------- */

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

/* ---- Resizing barrier --------------------------------------------------------------------- */

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
 * sssp-bf's megakernels 8 registers, 5 groups per SM instead of 6 (H200, runs 138-145). */
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
        coop_trace_store64(&coop_trace_area(ctx->dev)[COOP_TRACE_RESIZE_TIME + 2u * (ctx->epoch % COOP_RESIZE_SLOTS)],
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
    COOP_TRACE_EVENT(ctx, coop_trace_load64(&coop_trace_area(ctx->dev)[COOP_TRACE_RESIZE_TIME + 2u * slot]),
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
     * 11.9 -> 11.0 ms with the reads before it; H200, runs 141-145: this shape with the decision
     * inline, sssp on USA-road-FLA 1.8% faster and its megakernel 40 registers). */
    uint mine = 0;
    if (COOP_RESIZE_PREFETCH && ctx->id == 0 && coop_local_linear_id() == 0 && !skip)
        mine = coop_resize_decide(ctx, number);
    COOP_GROUP_SYNC();
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

/* ---- Primitives in cooperative kernels that coop-merge generated ------------------------------
 * Such a kernel keeps one word, skip: 0 while the group runs the kernel's statements; a fork
 * point's number (1, 2, ...) while a group that was forked there walks to it without running
 * what comes before it; COOP_SKIP_EXIT once the group was killed (or returned), while it walks
 * to the end of the function. A primitive the group walks past does nothing; the fork point it
 * walks to clears skip. Their workgroup barriers run either way, so that none of them sits in a
 * conditional (PoCL copies the code after such a conditional once for each way through it; see
 * COOP_FLAT_OFFERS). */
#define COOP_SKIP_EXIT 0xffffffffu

/* After a statement that holds a workgroup barrier and that the group skips by a conditional
 * (`if (!coop_skip_) ...`, a helper's barrier or the kernel's own). PoCL's work-group compiler
 * ran the code between such a conditional's end and the next barrier with local id 0 in every
 * work-item (a helper sharing a value through local memory, called in a loop with two fork
 * points); a barrier at the join gives that code a parallel region of its own. NVIDIA's compiler
 * needs none. */
#if defined(COOP_TARGET_POCL)
#define coop_skip_join() COOP_GROUP_SYNC()
#else
#define coop_skip_join() ((void)0)
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

/* ---- Tasks -------------------------------------------------------------------------------- */

/* A word of the running task's argument block (COOP_TASK_ARGS words set at submission; 0
 * beyond them). */
inline uint coop_task_arg(const coop_ctx *ctx, uint index)
{
    return index < COOP_TASK_ARGS ? coop_load_relaxed(&ctx->ctrl[COOP_CTRL_REQ_ARGS + index]) : 0u;
}

/* Claims the next workgroup of the running task; 0 when none is left. */
inline int coop_take_task_group(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    uint range = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_RANGE]);
    uint next = coop_fetch_add(&ctrl[COOP_CTRL_TASK_NEXT], 1u);
    if (next >= range)
        return 0;
    ctx->id = next;
    ctx->task = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_TASK]);
    ctx->task_groups = range;
    COOP_TRACE_NOW(ctx, COOP_EV_TASK, ctx->task, next);
    return 1;
}

/* A group that joined the task found no workgroup left: it is back in the pool. The last of
 * the joined groups to leave marks the task done, so that no group can still be taking
 * workgroups when the host starts the next task. */
COOP_COLD void coop_leave_task(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    uint want = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]);
    COOP_TRACE_NOW(ctx, COOP_EV_LEAVE, 0u, 0u);
    coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
    if (coop_fetch_add(&ctrl[COOP_CTRL_TASK_FINISHED], 1u) + 1u == want) {
        ulong done = coop_device_time(&ctrl[COOP_CTRL_T_DONE]);
        coop_count(ctx, COOP_CTRL_TASKS_DONE, 1u);
        uint status = coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS]);
        COOP_TRACE_EVENT(ctx, done, COOP_EV_DONE, COOP_TASK_STATUS_SEQ(status), 0u);
        /* release: the task's writes and T_DONE before DONE; pairs with the agent's acquire
         * (coop_agent) or the host's read of the word */
        coop_store_release(&ctrl[COOP_CTRL_TASK_STATUS], COOP_TASK_STATUS_SET(status, COOP_TASK_DONE));
    }
}

/* The last group to join starts the task (and cancels the kill tokens left); the others wait
 * for it to start. */
inline void coop_start_or_wait_task(coop_ctx *ctx, uint status, int last)
{
    global uint *ctrl = ctx->ctrl;
    if (last) {
        /* cancels the tokens left, and with their request number the give-backs still to come */
        coop_store_relaxed64(coop_kill_tokens(ctrl), 0ul);
        ulong gathered = coop_device_time(&ctrl[COOP_CTRL_T_GATHERED]);
        COOP_TRACE_EVENT(ctx, gathered, COOP_EV_GATHERED, COOP_TASK_STATUS_SEQ(status), 0u);
        /* release: pairs with the joined groups' acquire spin below */
        coop_store_release(&ctrl[COOP_CTRL_TASK_STATUS], COOP_TASK_STATUS_SET(status, COOP_TASK_RUNNING));
    } else {
        coop_set_where(ctx, COOP_WHERE_TASK, COOP_WHERE_TASK_WAITING);
        /* acquire: pairs with the last joiner's release of RUNNING above */
        while (COOP_TASK_STATUS_OF(coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS])) == COOP_TASK_GATHERING)
            coop_pause();
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
    uint want = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]);
    if (!coop_take(&ctrl[COOP_CTRL_IDLE], 1u))
        return 0;
    uint joined = coop_load_relaxed(&ctrl[COOP_CTRL_TASK_JOINED]);
    for (;;) {
        if (joined >= want || coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS]) != status) {
            coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
            return 0;
        }
        uint seen = coop_cas(&ctrl[COOP_CTRL_TASK_JOINED], joined, joined + 1u);
        if (seen == joined)
            break;
        joined = seen;
    }
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
    /* Relaxed reads, both in flight: the kill already synchronised with the request (through
     * the kill tokens' read-modify-writes, or the sweeper's release of this group's park word). */
    uint status = coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS]);
    uint want = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]);
    if (COOP_TASK_STATUS_OF(status) != COOP_TASK_GATHERING)
        return 0;
    uint joined = coop_fetch_add(&ctrl[COOP_CTRL_TASK_JOINED], 1u);
    if (joined >= want)
        return 0;
    COOP_TRACE_NOW(ctx, COOP_EV_JOIN, COOP_TASK_STATUS_SEQ(status), 1u);
    /* out of the barriers before waiting for the task: members still to be killed for it may
     * be waiting at a barrier for this group */
    coop_leave_if_killed(ctx);
    coop_start_or_wait_task(ctx, status, joined + 1u == want);
    return 1;
}

/* ---- Agent -------------------------------------------------------------------------------- */

/* The control-block slots the agent copies out to the host when they change: the scheduler's
 * state, the slots whose AGENT column in coop_layout.h's table says OUT(n), in the order of n,
 * then the report range (but the host's dump request). The table gives each OUT(n) slot the
 * name COOP_AGENT_SLOT_n: COOP_AGENT_ROW_ makes a row's OUT(n) into `COOP_AGENT_SLOT_n =
 * COOP_AGENT_NAME_(NAME)`, which gives `COOP_CTRL_NAME,`; NO gives nothing. A second OUT(n)
 * with the same n fails as a duplicate name, an n without a case below as a wrong count. */
#define COOP_AGENT_ROW_(name, word, words, agent, label, watch) COOP_AGENT_ROW_##agent(name)
#define COOP_AGENT_ROW_OUT(n) COOP_AGENT_SLOT_##n = COOP_AGENT_NAME_
#define COOP_AGENT_NAME_(name) COOP_CTRL_##name,
#define COOP_AGENT_ROW_NO(name)
enum coop_agent_slot_name { COOP_CTRL_SLOTS(COOP_AGENT_ROW_) };
#define COOP_AGENT_COUNT_(name, word, words, agent, label, watch) + COOP_AGENT_COUNT_##agent
#define COOP_AGENT_COUNT_OUT(n) 1u
#define COOP_AGENT_COUNT_NO 0u
#define COOP_AGENT_NAMED (0u COOP_CTRL_SLOTS(COOP_AGENT_COUNT_))
#define COOP_AGENT_MIRRORED (COOP_AGENT_NAMED + COOP_CTRL_REPORT_END - COOP_CTRL_REPORT - 1u)
COOP_LAYOUT_ASSERT(COOP_AGENT_NAMED == 7u, agent_one_case_per_named_slot);
/* the agent keeps the values it copied and those it read, in the sweep's scratch (coop_agent) */
COOP_LAYOUT_ASSERT(2u * COOP_AGENT_MIRRORED <= COOP_SWEEP_WIDTH, agent_copies_fit_in_scratch);
inline uint coop_agent_slot(uint i)
{
    switch (i) {
    case 0: return COOP_AGENT_SLOT_0;
    case 1: return COOP_AGENT_SLOT_1;
    case 2: return COOP_AGENT_SLOT_2;
    case 3: return COOP_AGENT_SLOT_3;
    case 4: return COOP_AGENT_SLOT_4;
    case 5: return COOP_AGENT_SLOT_5;
    case 6: return COOP_AGENT_SLOT_6;
    default: {
        uint slot = COOP_CTRL_REPORT + i - COOP_AGENT_NAMED;
        return slot >= COOP_CTRL_DUMP ? slot + 1u : slot;
    }
    }
}

/* Copies a new request from the host into the control block: after the sequence number's
 * acquire, relaxed system-scope loads (a device-scope load of host memory may hit a stale L2
 * line), four in flight at a time rather than one after another across the bus. */
inline void coop_agent_copy_request(global uint *ctrl, global uint *host)
{
    for (uint first = COOP_CTRL_REQ_KIND; first < COOP_CTRL_REQ_END; first += 4u) {
        uint v[4];
        for (uint i = 0; i < 4u; i++)
            v[i] = first + i < COOP_CTRL_REQ_END ? coop_host_load_relaxed(&host[first + i]) : 0u;
        for (uint i = 0; i < 4u; i++)
            if (first + i < COOP_CTRL_REQ_END)
                coop_store_relaxed(&ctrl[first + i], v[i]);
    }
}

/* 200 ns pauses the agent takes between passes (see coop_agent); a build may set them. They
 * bound how soon the host sees the members finished: on the H200 a run of bfs on a 2x2 grid took
 * 16-17 us cooperative with 8 or none, as standalone, and 26-27 us with 64 (run 99). */
#ifndef COOP_AGENT_PAUSES
#define COOP_AGENT_PAUSES 8u
#endif

/* The agent (local id 0 of the last group, where the channel is not device memory): moves host
 * requests into the control block and the scheduler's state out, until shutdown. The last
 * values it copied out live in its scratch (an agent never sweeps): in registers they would
 * count against every group of the megakernel. */
COOP_COLD void coop_agent(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    global uint *host = ctx->chan + COOP_CHAN_CTRL;
    local uint *shadow = ctx->scratch + COOP_SCRATCH_SWEEP;
    uint applied = 0, dumped = 0, task = 0xffffffffu;
    for (uint i = 0; i < COOP_AGENT_MIRRORED; i++)
        shadow[i] = 0xffffffffu;
    for (;;) {
        /* both reads of host memory in flight at once (a dump needs no ordering) */
        uint dump = coop_host_load_relaxed(&host[COOP_CTRL_DUMP]);
        uint seq = coop_host_load(&host[COOP_CTRL_REQ_SEQ]);
        if (seq != applied) {
            coop_agent_copy_request(ctrl, host);
#if COOP_TRACING
            ulong requested = coop_apply_request(ctrl, seq);
            if (requested)
                COOP_TRACE_EVENT(ctx, requested, COOP_EV_REQUEST, seq, coop_load_relaxed(&ctrl[COOP_CTRL_REQ_TASK]));
#else
            coop_apply_request(ctrl, seq);
#endif
            applied = seq;
        }
        /* The task's status is read first and copied out last, with release: the host, seeing
         * a task done, then finds the times the kernel wrote before it (T_GATHERED, T_DONE)
         * copied too; the other copies need no ordering, so no system-wide fence each. The
         * mirrored words are read with plain volatile loads into local memory first, so that
         * they are all in flight at once (one atomic-style load after another costs the agent
         * a round trip each, and requests wait for the agent's next pass). */
        uint task_now = coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS]);
        local uint *now = shadow + COOP_AGENT_MIRRORED;
        for (uint i = 0; i < COOP_AGENT_MIRRORED; i++)
            now[i] = ((volatile global uint *)ctrl)[coop_agent_slot(i)];
        for (uint i = 0; i < COOP_AGENT_MIRRORED; i++) {
            if (now[i] != shadow[i]) {
                coop_host_store_relaxed(&host[coop_agent_slot(i)], now[i]);
                shadow[i] = now[i];
            }
        }
        if (task_now != task)
            coop_host_store(&host[COOP_CTRL_TASK_STATUS], task = task_now);
        coop_store_relaxed(&ctrl[COOP_CTRL_WANT_SEEN], coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]));
        if (dump != dumped) {
            for (uint g = 0; g < ctx->physical_groups; g++) {
                coop_host_store_relaxed(&host[COOP_CTRL_GROUP_STATE + g],
                                        coop_load_relaxed(&ctrl[COOP_CTRL_GROUP_STATE + g]));
                coop_host_store_relaxed(&host[COOP_CTRL_GROUP_SITE + g],
                                        coop_load_relaxed(&ctrl[COOP_CTRL_GROUP_SITE + g]));
            }
            coop_host_store(&host[COOP_CTRL_DUMPED], dump);
            dumped = dump;
        }
        if (coop_load_relaxed(&ctrl[COOP_CTRL_EXIT]))
            return;
        /* a short rest between passes: the pass reads the scheduler's hot words that every
         * member's offers read too (H100, sched-bench: gather median 20.7 us without it, 19.1
         * with 8 pauses, whose cost to the host's view of a task is within noise) */
        for (uint k = 0; k < COOP_AGENT_PAUSES; k++)
            coop_pause();
    }
}

/* ---- The scheduler loop ------------------------------------------------------------------- */

/* A member returned from the cooperative kernel without being killed: it has finished. One add,
 * no retry loop (every member finishes at about the same moment): F > 0 also ends forking. */
COOP_COLD void coop_member_finished(coop_ctx *ctx)
{
    coop_fetch_add(&ctx->ctrl[COOP_CTRL_STATE], COOP_STATE_ONE_FINISHED);
    COOP_TRACE_EVENT(ctx, COOP_TRACE_MEMBERS_CHANGE(ctx, -1), COOP_EV_FINISHED, 0u, ctx->id);
    coop_barrier_leave(ctx);
}

/* Local id 0: waits in the pool for work. Returns the new role (0: exit) with ctx filled. */
COOP_COLD uint coop_idle_wait(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    coop_set_where(ctx, COOP_WHERE_IDLE, 0u);
    COOP_TRACE_NOW(ctx, COOP_EV_IDLE, 0u, 0u);
    for (;;) {
        /* acquire (and the claim's compare-and-swap): pairs with coop_publish_fork's release of
         * FORK_LEFT, after which the record's words below are written */
        uint left = coop_load_acquire(&ctrl[COOP_CTRL_FORK_LEFT]);
        if (left && coop_cas(&ctrl[COOP_CTRL_FORK_LEFT], left, left - 1u) == left) {
            uint size = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_SIZE]);
            /* F1: the record is this fork's, published for `size` groups (not free, not merely
             * locked), and not read by all of them yet (this group has not: the record cannot
             * have been unlocked). Not "no more readers than slots claimed before this one":
             * a group that claims a later slot may read the record and count itself first
             * (test_scheduler, chaos seed 57, on a clean clone's make check). */
            COOP_CHECK(ctrl, size && size != COOP_FORK_LOCKED && left <= size &&
                                 coop_load_relaxed(&ctrl[COOP_CTRL_FORK_READ]) < size,
                       COOP_CHECK_FORK_RECORD, size, left, coop_load_relaxed(&ctrl[COOP_CTRL_FORK_READ]));
            ctx->id = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_BASE]) + size - left;
            ctx->resume = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_RESUME]);
            ctx->epoch = coop_load_relaxed(&ctrl[COOP_CTRL_FORK_EPOCH]);
            for (uint i = 0; i < COOP_TRANSMIT_WORDS; i++)
                ctx->scratch[COOP_SCRATCH_TRANSMIT + i] = coop_load_relaxed(&ctrl[COOP_CTRL_TRANSMIT + i]);
#if COOP_TRACING
            /* trace mode: the new groups count themselves into the trace's members in id order
             * (FORK_READ as the ticket), so that those are 0 .. M-1 at every moment; the groups
             * that took the slots before this one are past their CAS on FORK_LEFT, and go on */
            uint turn = size - left;
            while (coop_load_acquire(&ctrl[COOP_CTRL_FORK_READ]) != turn)
                coop_pause();
            COOP_TRACE_EVENT(ctx, coop_trace_members(ctx, 1), COOP_EV_FORKED, ctx->resume, ctx->id);
            coop_store_release(&ctrl[COOP_CTRL_FORK_READ], turn + 1u);
            if (turn + 1u == size)
                coop_fork_unlock(ctrl);
#else
            /* acquire-release increments: the last reader's comes after every other reader's, so
             * its unlock's release covers all their reads of the record */
            if (coop_fetch_add(&ctrl[COOP_CTRL_FORK_READ], 1u) + 1u == size)
                coop_fork_unlock(ctrl);
#endif
            return COOP_ROLE_COOP;
        }
        if (coop_join_task(ctx)) {
            if (coop_take_task_group(ctx))
                return COOP_ROLE_TASK;
            coop_leave_task(ctx);
            coop_set_where(ctx, COOP_WHERE_IDLE, 0u);
            COOP_TRACE_NOW(ctx, COOP_EV_IDLE, 0u, 0u);
        }
        if (coop_load_acquire(&ctrl[COOP_CTRL_EXIT]))
            return 0;
        coop_pause();
    }
}

/* Local id 0: what the group does next, after `role` returned. */
COOP_COLD uint coop_next_role(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    if (!ctx->started) {
        ctx->started = 1;
        COOP_TRACE_EVENT(ctx, COOP_TRACE_T0(ctx), COOP_EV_START, ctx->role, ctx->id);
        if (ctx->role != COOP_ROLE_IDLE)
            return ctx->role;
    } else if (ctx->role == COOP_ROLE_COOP) {
        coop_member_finished(ctx);
        coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
    } else if (ctx->role == COOP_ROLE_TASK) {
        if (coop_take_task_group(ctx))
            return COOP_ROLE_TASK;
        coop_leave_task(ctx);
    } else if (ctx->role == COOP_ROLE_AGENT) {
        return 0;
    } else {
        /* killed (COOP_ROLE_KILLED, COOP_ROLE_KILLED_OUT): straight into the gathering task, if
         * any; a group killed at an offer leaves the barriers only then (one killed at a resizing
         * barrier left them already) */
        int joined = coop_join_killed(ctx);
        coop_leave_if_killed(ctx);
        if (joined) {
            if (coop_take_task_group(ctx))
                return COOP_ROLE_TASK;
            coop_leave_task(ctx);
        } else {
            coop_fetch_add(&ctrl[COOP_CTRL_IDLE], 1u);
        }
    }
    return coop_idle_wait(ctx);
}

/* The megakernel's loop body: returns the role to run next (COOP_ROLE_COOP: the cooperative
 * kernel, from coop_resume_point(ctx); COOP_ROLE_TASK: workgroup coop_group_id(ctx) of task
 * ctx->task) or 0 when the megakernel must end. The agent group serves the host inside this call. */
inline uint coop_schedule(coop_ctx *ctx)
{
    COOP_GROUP_SYNC();
    if (coop_local_linear_id() == 0) {
        COOP_COLD_CTX(ctx);
        uint role = coop_next_role(cold);
        if (role == COOP_ROLE_AGENT) {
            coop_set_where(cold, COOP_WHERE_AGENT, 0u);
            coop_agent(cold);
            role = 0;
        }
        COOP_COLD_BACK(ctx);
        if (role == COOP_ROLE_COOP)
            coop_set_where(ctx, COOP_WHERE_RUNNING, ctx->id);
        else if (role == COOP_ROLE_TASK)
            coop_set_where(ctx, COOP_WHERE_TASK, ctx->id);
        else
            coop_set_where(ctx, COOP_WHERE_EXITED, 0u);
        if (!role)
            COOP_TRACE_NOW(ctx, COOP_EV_EXIT, 0u, 0u);
        ctx->scratch[COOP_SCRATCH_M] = 0;
        ctx->scratch[COOP_SCRATCH_ROLE] = role;
        ctx->scratch[COOP_SCRATCH_ID] = ctx->id;
        ctx->scratch[COOP_SCRATCH_EPOCH] = ctx->epoch;
        ctx->scratch[COOP_SCRATCH_RNG] = ctx->rng;
#if !COOP_COLD_COPIES
        ctx->scratch[COOP_COLD_RESUME] = ctx->resume;
        ctx->scratch[COOP_COLD_TASK] = ctx->task;
        ctx->scratch[COOP_COLD_TASK_GROUPS] = ctx->task_groups;
#endif
    }
    COOP_GROUP_SYNC();
    ctx->role = ctx->scratch[COOP_SCRATCH_ROLE];
    ctx->id = ctx->scratch[COOP_SCRATCH_ID];
    ctx->resume = ctx->scratch[COOP_COLD_RESUME];
    ctx->epoch = ctx->scratch[COOP_SCRATCH_EPOCH];
    ctx->task = ctx->scratch[COOP_COLD_TASK];
    ctx->task_groups = ctx->scratch[COOP_COLD_TASK_GROUPS];
    ctx->rng = ctx->scratch[COOP_SCRATCH_RNG];
    ctx->known_groups = 0;
    ctx->started = 1;
    COOP_GROUP_SYNC();
    return ctx->role;
}

/* The paper's spellings, for code that names its context `ctx` (plus the transmit argument a
 * fork needs in C; coop-merge supplies it from `transmit` declarations). */
#define offer_kill() coop_offer_kill(&ctx)

#endif
