/* coop_device/kill.h: offer_kill: kill tokens, parking and the sweep.
 * Invariants: docs/DESIGN.md section 7: K1 largest first, K2 member 0 stays, K3 tokens, K4 one
 * owner per park word, K5 liveness, K6 a killed group leaves the barriers once, K7 a token never
 * outlives its task. Part of the kernel header (coop_kernel.h includes these files in order); it
 * uses only the files before it. */
#ifndef COOP_DEVICE_KILL_H
#define COOP_DEVICE_KILL_H

#include "common.h"

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
     * may decline: a chaos kill is only offered), so that those are 0 .. M-1 at every moment;
     * members that finished are out of the trace's count and still in M */
    if (coop_trace_member_count(ctx) != ctx->id + 1u - COOP_STATE_FINISHED(state))
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
 * rest of the gather waited for that member's next offer (H200: a unit, 16 us). */
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
        COOP_TRACE_EVENT(ctx, coop_trace_load64(&COOP_TRACE_KERNEL(ctx)[COOP_TRACE_KILL_TIME + 2u * ctx->id]),
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
#if COOP_TRACING
    /* trace mode: not before the trace's members are M, so that its ids stay 0 .. M-1: a chaos
     * kill or a fork changes STATE first and the trace's count after (coop_kill_self,
     * coop_idle_wait); that group is past its STATE update, so the count comes. The trace no
     * longer counts a member that finished (coop_member_finished), which stays in M */
    while (tokens && COOP_STATE_MEMBERS(state) == members &&
           coop_trace_member_count(ctx) != members - COOP_STATE_FINISHED(state))
        state = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
#endif
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
            coop_trace_store64(&COOP_TRACE_KERNEL(ctx)[COOP_TRACE_KILL_TIME + 2u * (ctx->id - i)], left);
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

#endif
