/* scheduler.cl: megakernels for tests/test_scheduler.c (built with -I tests/kernels).
 *
 * Each cooperative kernel checks the scheduler's promises as it runs and counts violations in
 * `checks` (scheduler_checks.h); the host compares the data they compute with a CPU reference.
 * PoCL's compiler needs the shapes coop_kernel.h describes: role branches separated by
 * COOP_GROUP_SYNC(), loops left through their condition, no workgroup barrier under a branch.
 * Checks run in local id 0 unless every work-item has something of its own to check. */
#include "scheduler_checks.h"

#define TASK_LOCAL_SIZE 64

/* Counts a violation of `rule`; the first one leaves its details. */
void check_fail(global uint *checks, uint rule, uint a, uint b, uint c)
{
    if (coop_fetch_add(&checks[rule], 1u) == 0) {
        checks[CHK_DETAIL + 4 * rule] = a;
        checks[CHK_DETAIL + 4 * rule + 1] = b;
        checks[CHK_DETAIL + 4 * rule + 2] = c;
    }
}

void check_max(global uint *word, uint value)
{
    uint seen = coop_load_relaxed(word);
    while (seen < value) {
        uint old = coop_cas(word, seen, value);
        if (old == seen)
            break;
        seen = old;
    }
}

/* A member's virtual id is below M, and M never exceeds the `limit` groups there are. */
void check_id(const coop_ctx *ctx, global uint *checks, uint limit, uint where)
{
    uint m = coop_num_groups(ctx);
    uint id = coop_group_id(ctx);
    if (id >= m || m > limit)
        check_fail(checks, CHK_BAD_ID, id, m, where);
    check_max(&checks[CHK_MAX_M], m);
}

/* After coop_offer_fork returned k: k <= N - M, where M is read just before the fork. Another
 * group's kill between that read and the fork would lower M, so the rule is checked exactly when
 * nothing else changed M (M after == M before + k); M <= N is checked always. */
void check_fork(const coop_ctx *ctx, global uint *checks, uint limit, uint before, uint forked)
{
    uint after = coop_num_groups(ctx);
    if (forked) {
        coop_fetch_add(&checks[CHK_FORK_SUM], forked);
        if (coop_cas(&checks[CHK_FIRST_FORK_K], 0u, forked) == 0u)
            checks[CHK_FIRST_FORK_M] = before;
    }
    if (after > limit || forked > limit - 1u || (after == before + forked && forked > limit - before))
        check_fail(checks, CHK_BAD_FORK, before, forked, after);
    check_id(ctx, checks, limit, AT_AFTER_FORK);
}

/* ---- Tasks ---------------------------------------------------------------------------------
 * Each task workgroup counts itself in task_groups_done, so that a cooperative kernel can wait
 * for the tasks. */

/* Task 0: every work-item adds its share to out (so a workgroup run twice, or not at all, shows). */
void task_accumulate(coop_ctx *ctx, global uint *out, global uint *task_groups_done, global uint *checks)
{
    uint g = coop_group_id(ctx), lid = get_local_id(0), size = get_local_size(0);
    if (g < coop_num_groups(ctx) && coop_num_groups(ctx) == coop_task_arg(ctx, 1))
        out[g * size + lid] += g * 7u + lid + coop_task_arg(ctx, 0);
    else if (lid == 0)
        check_fail(checks, CHK_BAD_TASK, g, coop_num_groups(ctx), 0u);
    if (lid == 0)
        coop_fetch_add(task_groups_done, 1u);
}

/* Task 1: each workgroup sums its segment of `in` in local memory and adds arg 0 times the sum
 * to sums[g]. */
void task_segment_sums(coop_ctx *ctx, global const uint *in, global uint *sums, local uint *partial,
                       global uint *task_groups_done, global uint *checks)
{
    uint g = coop_group_id(ctx), lid = get_local_id(0), size = get_local_size(0);
    uint ok = g < coop_num_groups(ctx) && coop_num_groups(ctx) == coop_task_arg(ctx, 1);
    partial[lid] = ok ? in[g * size + lid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = size / 2; s > 0; s >>= 1) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        if (ok)
            sums[g] += partial[0] * coop_task_arg(ctx, 0);
        else
            check_fail(checks, CHK_BAD_TASK, g, coop_num_groups(ctx), 1u);
        coop_fetch_add(task_groups_done, 1u);
    }
}

/* Task 2: local id 0 waits until task 3 has set flags[0], for at most arg 0 << 20 polls, and
 * leaves in flags[1] whether it saw it (1) or gave up (2). Sent first, it can see the flag only if
 * task 3 runs beside it: with one task in flight at a time it gives up. */
void task_wait_for_flag(global uint *flags, uint polls, global uint *task_groups_done)
{
    if (coop_local_linear_id() == 0) {
        uint seen = 0;
        for (uint i = 0; i < polls && !seen; i++)
            seen = coop_load_acquire(&flags[0]);
        flags[1] = seen ? 1u : 2u;
        coop_fetch_add(task_groups_done, 1u);
    }
}

/* Task 3: sets flags[0] for task 2. */
void task_set_flag(global uint *flags, global uint *task_groups_done)
{
    if (coop_local_linear_id() == 0) {
        coop_store_release(&flags[0], 1u);
        coop_fetch_add(task_groups_done, 1u);
    }
}

/* ---- A tree reduction, then rounds that use its result ------------------------------------
 * Rounds 0 .. log_n - 1 halve buf: buf[i] += buf[i + w]. Round log_n reads the total buf[0].
 * Rounds log_n + 1 .. log_n + phase2 mix data into out with the total; the first of them clears
 * buf, so a group forked after round log_n knows the total only through its transmit state.
 * Every round splits its elements over the current members; resizing barriers separate rounds. */

typedef struct reduce_state {
    uint round;
    uint total;
    float half_round;   /* round / 2 */
    int negated;        /* -round */
    float4 tag;         /* (round, total, -round, local id): work-item 0's reaches forked groups */
} reduce_state;

void reduce_state_set(reduce_state *t, uint round, uint total)
{
    t->round = round;
    t->total = total;
    t->half_round = (float)round * 0.5f;
    t->negated = -(int)round;
    t->tag = (float4)((float)round, (float)total, -(float)round, (float)get_local_id(0));
}

int reduce_state_ok(const reduce_state *t)
{
    return t->half_round == (float)t->round * 0.5f && t->negated == -(int)t->round &&
           t->tag.x == (float)t->round && t->tag.y == (float)t->total && t->tag.z == -(float)t->round &&
           t->tag.w == 0.0f;
}

/* Members of a round all see the same M, and exactly M of them take part, with ids 0 .. M-1
 * (so the groups a resize killed were the largest ones). */
void note_round(global uint *round_m, global uint *round_groups, global uint *round_ids, global uint *checks,
                uint round, uint m, uint id)
{
    uint first = coop_cas(&round_m[round], 0u, m);
    if (first != 0u && first != m)
        check_fail(checks, CHK_BAD_M, round, first, m);
    coop_fetch_add(&round_groups[round], 1u);
    coop_fetch_or(&round_ids[round], 1u << min(id, 31u));
}

void coop_reduce(coop_ctx *ctx, global uint *buf, global const uint *data, global uint *out, uint log_n,
                 uint phase2, global uint *round_m, global uint *round_groups, global uint *round_ids,
                 global uint *checks, uint limit)
{
    uint n = 1u << log_n;
    uint lid = get_local_id(0), size = get_local_size(0);
    reduce_state t;
    if (coop_resume_point(ctx) == 1) {
        coop_transmit_restore(ctx, &t, sizeof t);
        if (!reduce_state_ok(&t))
            check_fail(checks, CHK_BAD_TRANSMIT, t.round, coop_group_id(ctx), lid);
        if (lid == 0)
            coop_fetch_add(&checks[CHK_FORKED], 1u);
    } else {
        reduce_state_set(&t, 0, 0);
    }
    uint rounds = log_n + 1 + phase2;
    int killed = 0;
    while (t.round < rounds && !killed) {
        uint m = coop_num_groups(ctx);
        uint g = coop_group_id(ctx);
        uint r = t.round, total = t.total;
        /* M does not change within a round: the group's shared read of it must agree */
        uint shared = coop_shared_num_groups(ctx);
        if (shared != m)
            check_fail(checks, CHK_BAD_M, r, m, shared);
        if (lid == 0) {
            check_id(ctx, checks, limit, AT_ROUND_START);
            note_round(round_m, round_groups, round_ids, checks, r, m, g);
        }
        if (r < log_n) {
            uint w = n >> (r + 1);
            for (uint i = g * size + lid; i < w; i += m * size)
                buf[i] += buf[i + w];
        } else if (r == log_n) {
            total = buf[0];
        } else {
            for (uint i = g * size + lid; i < n; i += m * size) {
                out[i] = out[i] * 3u + (data[i] ^ (total + r));
                if (r == log_n + 1)
                    buf[i] = 0;
            }
        }
        reduce_state_set(&t, r + 1, total);
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
        if (lid == 0) {
            if (killed)
                coop_fetch_add(&checks[CHK_KILLS], 1u);
            else
                check_id(ctx, checks, limit, AT_AFTER_BARRIER);
        }
    }
}

kernel void reduce_mega(COOP_PARAMS, global uint *buf, global const uint *data, global uint *out, uint log_n,
                        uint phase2, global uint *round_m, global uint *round_groups, global uint *round_ids,
                        global uint *checks, uint agent)
{
    COOP_ENTER(ctx);
    uint limit = ctx.physical_groups - agent;
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            coop_reduce(&ctx, buf, data, out, log_n, phase2, round_m, round_groups, round_ids, checks, limit);
        COOP_GROUP_SYNC();
    }
}

/* ---- Work stealing ------------------------------------------------------------------------
 * Groups take chunks of items from a shared counter and count each item in `done`; between
 * chunks (a task boundary) they offer a fork, which passes on a transmit state of several types,
 * and then a kill. Whatever the scheduler does, every item must be counted exactly once. With
 * tasks (target > 0), members go on offering until the tasks have run `target` workgroups, so
 * that the kills the tasks ask for happen at these offers. */

typedef struct steal_mark {
    uchar tag;          /* 0xa5 */
    ushort low;         /* chunks & 0xffff */
    uint inverse;       /* ~chunks */
} steal_mark;

typedef struct steal_transmit {
    int chunks;         /* chunks the forking group had processed */
    float halved;       /* chunks / 2 + 1/4 */
    float4 v;           /* (chunks, -chunks, forking group's id, local id) */
    steal_mark mark;
} steal_transmit;

void steal_transmit_set(steal_transmit *t, int chunks, uint id)
{
    t->chunks = chunks;
    t->halved = (float)chunks * 0.5f + 0.25f;
    t->v = (float4)((float)chunks, -(float)chunks, (float)id, (float)get_local_id(0));
    t->mark.tag = (uchar)0xa5;
    t->mark.low = (ushort)(chunks & 0xffff);
    t->mark.inverse = ~(uint)chunks;
}

int steal_transmit_ok(const steal_transmit *t)
{
    return t->chunks >= 0 && t->halved == (float)t->chunks * 0.5f + 0.25f && t->v.x == (float)t->chunks &&
           t->v.y == -(float)t->chunks && t->v.z >= 0.0f && t->v.w == 0.0f && t->mark.tag == (uchar)0xa5 &&
           t->mark.low == (ushort)(t->chunks & 0xffff) && t->mark.inverse == ~(uint)t->chunks;
}

/* Without tasks there are no kill tokens, so only chaos kills, which take the largest member:
 * a killed group must have been M-1 just before its offer. With tokens, a member below the
 * largest may park at its offer until the ones above are gone; it must still have been below M. */
void check_kill(const coop_ctx *ctx, global uint *checks, uint before, int tokens_possible)
{
    uint id = coop_group_id(ctx);
    coop_fetch_add(&checks[CHK_KILLS], 1u);
    if (tokens_possible ? id >= before : id + 1u != before)
        check_fail(checks, CHK_BAD_KILL, id, before, 0u);
}

void coop_steal(coop_ctx *ctx, global uint *next, uint chunks, uint chunk_size, global uint *done,
                global uint *task_groups_done, uint target, global uint *checks, uint limit)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    steal_transmit t;
    if (coop_resume_point(ctx) == 1) {
        coop_transmit_restore(ctx, &t, sizeof t);
        if (!steal_transmit_ok(&t))
            check_fail(checks, CHK_BAD_TRANSMIT, (uint)t.chunks, coop_group_id(ctx), lid);
        if (lid == 0)
            coop_fetch_add(&checks[CHK_FORKED], 1u);
    }
    /* A state that is not whole words (one word and three bytes) comes back as work-item 0 staged
     * it: the transmit scratch, free once every work-item has restored its own state, staged and
     * restored within the group. */
    uchar odd[7], back[7];
    for (uint b = 0; b < 7u; b++)
        odd[b] = (uchar)(0x35u * (b + 1u) + coop_group_id(ctx));
    COOP_GROUP_SYNC();
    coop_transmit_stage(ctx, odd, sizeof odd);
    COOP_GROUP_SYNC();
    coop_transmit_restore(ctx, back, sizeof back);
    for (uint b = 0; b < 7u; b++)
        if (back[b] != odd[b])
            check_fail(checks, CHK_BAD_STAGED, b, back[b], odd[b]);
    COOP_GROUP_SYNC();
    int processed = 0;
    int killed = 0;
    uint more = 1;
    while (more && !killed) {
        uint chunk = coop_broadcast(ctx, lid == 0 ? coop_fetch_add(next, 1u) : 0u);
        if (chunk < chunks) {
            for (uint i = lid; i < chunk_size; i += size)
                coop_fetch_add(&done[chunk * chunk_size + i], 1u);
            processed++;
        }
        uint before = 0;
        if (lid == 0) {
            check_id(ctx, checks, limit, AT_CHUNK);
            before = coop_num_groups(ctx);
        }
        steal_transmit_set(&t, processed, coop_group_id(ctx));
        uint forked = coop_offer_fork(ctx, 1, &t, sizeof t);
        if (lid == 0) {
            check_fork(ctx, checks, limit, before, forked);
            before = coop_num_groups(ctx);
        }
        killed = coop_offer_kill(ctx);
        if (lid == 0) {
            if (killed)
                check_kill(ctx, checks, before, target > 0);
            else
                check_id(ctx, checks, limit, AT_AFTER_KILL_OFFER);
        }
        more = coop_broadcast(ctx, lid == 0 ? chunk < chunks || coop_load_acquire(task_groups_done) < target : 0u);
    }
}

kernel void steal_mega(COOP_PARAMS, global uint *next, uint chunks, uint chunk_size, global uint *done,
                       global uint *task_groups_done, uint target, global uint *out, global uint *checks,
                       uint agent)
{
    COOP_ENTER(ctx);
    uint limit = ctx.physical_groups - agent;
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            coop_steal(&ctx, next, chunks, chunk_size, done, task_groups_done, target, checks, limit);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_accumulate(&ctx, out, task_groups_done, checks);
    }
}

/* ---- Rounds split over M, with offers between them --------------------------------------
 * Each round adds one to every element, split over the M this group's coop_shared_num_groups
 * gives; barrier A before the round and B after it keep the offers (after B) away from the
 * reads, so that the shared M must equal coop_num_groups and every element must end equal to
 * `rounds`. Kills and forks at the offers change M between rounds, and every group must see the
 * new M after the next barrier. A forked group resumes (point 2) at the next round's A. */
typedef struct offers_state {
    uint round;
} offers_state;

void coop_offer_rounds(coop_ctx *ctx, global uint *data, uint n, uint rounds, global uint *checks, uint limit)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    offers_state t = {0};
    if (coop_resume_point(ctx) == 2) {
        coop_transmit_restore(ctx, &t, sizeof t);
        if (lid == 0)
            coop_fetch_add(&checks[CHK_FORKED], 1u);
    }
    int killed = 0;
    while (t.round < rounds && !killed) {
        coop_global_barrier(ctx);
        uint m = coop_shared_num_groups(ctx);
        uint exact = coop_num_groups(ctx);
        uint g = coop_group_id(ctx);
        if (m != exact)
            check_fail(checks, CHK_BAD_M, t.round, exact, m);
        if (lid == 0)
            check_id(ctx, checks, limit, AT_ROUND_START);
        for (uint i = g * size + lid; i < n; i += m * size)
            data[i] += 1u;
        t.round++;
        coop_global_barrier(ctx);
        uint forked = coop_offer_fork(ctx, 2, &t, sizeof t);
        killed = coop_offer_kill(ctx);
        if (lid == 0) {
            coop_fetch_add(&checks[CHK_FORK_SUM], forked);
            if (killed)
                coop_fetch_add(&checks[CHK_KILLS], 1u);
        }
    }
}

kernel void offers_mega(COOP_PARAMS, global uint *data, uint n, uint rounds, global uint *checks, uint agent)
{
    COOP_ENTER(ctx);
    uint limit = ctx.physical_groups - agent;
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            coop_offer_rounds(&ctx, data, n, rounds, checks, limit);
        COOP_GROUP_SYNC();
    }
}

/* ---- Rounds until the tasks have run -------------------------------------------------------
 * The cooperative kernel runs rounds data[i] = 5 data[i] + round until it has run min_rounds and
 * the tasks have run `target` workgroups in all (or max_rounds is reached), so that the tasks
 * certainly run while it does. Group 0 decides before each resizing barrier whether another
 * round follows; everyone reads the decision after it. */

typedef struct until_state {
    uint round;
} until_state;

void coop_until(coop_ctx *ctx, global uint *data, uint n, uint min_rounds, uint max_rounds,
                global uint *task_groups_done, uint target, global uint *go, global uint *rounds_done,
                global uint *checks, uint limit)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    until_state t = {0};
    uint more = 1;
    if (coop_resume_point(ctx) == 1) {
        coop_transmit_restore(ctx, &t, sizeof t);
        more = go[t.round - 1];
        if (lid == 0)
            coop_fetch_add(&checks[CHK_FORKED], 1u);
    }
    int killed = 0;
    while (more && !killed) {
        uint m = coop_num_groups(ctx);
        uint g = coop_group_id(ctx);
        if (lid == 0)
            check_id(ctx, checks, limit, AT_ROUND_START);
        for (uint i = g * size + lid; i < n; i += m * size)
            data[i] = data[i] * 5u + t.round;
        if (g == 0 && lid == 0)
            go[t.round] = t.round + 1 < min_rounds ||
                          (t.round + 1 < max_rounds && coop_load_acquire(task_groups_done) < target);
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
        more = go[t.round - 1];
        if (lid == 0 && killed)
            coop_fetch_add(&checks[CHK_KILLS], 1u);
    }
    if (!killed && lid == 0)
        rounds_done[0] = t.round;
}

kernel void tasks_mega(COOP_PARAMS, global uint *data, uint n, uint min_rounds, uint max_rounds,
                       global uint *task_groups_done, uint target, global uint *go, global uint *rounds_done,
                       global uint *out, global const uint *in, global uint *sums, global uint *checks,
                       uint agent, global uint *flags)
{
    local uint partial[TASK_LOCAL_SIZE];
    COOP_ENTER(ctx);
    uint limit = ctx.physical_groups - agent;
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            coop_until(&ctx, data, n, min_rounds, max_rounds, task_groups_done, target, go, rounds_done, checks,
                       limit);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_accumulate(&ctx, out, task_groups_done, checks);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 1)
            task_segment_sums(&ctx, in, sums, partial, task_groups_done, checks);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 2)
            task_wait_for_flag(flags, coop_task_arg(&ctx, 0) << 20, task_groups_done);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 3)
            task_set_flag(flags, task_groups_done);
    }
}

/* ---- Choreographies of one task ------------------------------------------------------------
 * Members offer kill in an order set by `rule` (tests/test_scheduler.c, tokens_given_back_* and
 * parked_member_outlasts_*); member 0 never offers, member 1 counts its offers in offers[0], and
 * every member leaves once the task has run `target` workgroups.
 * CHOREO_GIVE_BACK, for a task that wants three groups from three members and two idle groups:
 * the idle groups join at once; member 2 offers first and, with no parked member below it, takes
 * two tokens, kills itself and gives one back; member 1 offers only once member 2 is gone
 * (M <= 2), takes the last token and becomes the task's third group, which starts it. Built with
 * COOP_TEST_GIVE_BACK_LATE, member 2's give-back waits until the task has started: the tokens
 * must not outlive it.
 * CHOREO_SWEEP_HOLD, for a task that wants two groups from three members and no idle groups:
 * member 1 offers as soon as the tokens are out and parks (id + tokens >= M); member 2 offers
 * once member 1 is parked, and its sweep takes both tokens. Built with
 * COOP_TEST_SWEEP_HOLDS_TOKENS, the sweep holds them while member 1 stays parked, so that member
 * 1 reads no tokens left: it must stay parked and be claimed, killed at its first offer.
 * CHOREO_RESIZE_GIVE_BACK, for a task that wants three groups from three members and two idle
 * groups, run by coop_choreography_resize: member 0 and member 1 meet at a resizing barrier,
 * where member 0 decides once the tokens are out and takes two of the three (M - 1);
 * member 2 waits for that decision, takes the last token at its offer and dies, so that the
 * barrier completes with M = 2 and the commit kills only member 1 and gives one token back. Built
 * with COOP_TEST_GIVE_BACK_LATE, that give-back waits until the task (the idle groups and member
 * 2) has started: the token must not outlive it, nor be spent later. */

/* Local id 0: whether this member offers kill now. */
uint choreography_turn(const coop_ctx *ctx, uint rule)
{
    global uint *ctrl = ctx->ctrl;
    uint id = coop_group_id(ctx);
    if (rule == CHOREO_GIVE_BACK)
        return id == 2u || (id == 1u && coop_num_groups(ctx) <= 2u);
    return (id == 1u && coop_load_relaxed(&ctrl[COOP_CTRL_KILLS]) != 0u) ||
           (id == 2u && coop_load_relaxed(&ctrl[COOP_CTRL_PARKED + 1u]) == COOP_PARK_WAITING);
}

void coop_choreography(coop_ctx *ctx, uint rule, global uint *task_groups_done, uint target, global uint *offers,
                       global uint *checks)
{
    uint lid = get_local_id(0);
    int killed = 0;
    uint more = 1;
    while (more && !killed) {
        uint turn = coop_broadcast(ctx, lid == 0 && choreography_turn(ctx, rule));
        if (lid == 0 && turn && coop_group_id(ctx) == 1u)
            coop_fetch_add(&offers[0], 1u);
        killed = coop_offer_kill_unless(ctx, !turn);
        if (lid == 0 && killed)
            coop_fetch_add(&checks[CHK_KILLS], 1u);
        more = coop_broadcast(ctx, lid == 0 ? coop_load_acquire(task_groups_done) < target : 0u);
    }
}

/* CHOREO_RESIZE_GIVE_BACK (above). */
void coop_choreography_resize(coop_ctx *ctx, global uint *task_groups_done, uint target, global uint *checks)
{
    global uint *ctrl = ctx->ctrl;
    uint lid = get_local_id(0), id = coop_group_id(ctx), none = 0;
    /* Members 0 and 2 wait for the tokens; they cannot miss them, as the task cannot start
     * before member 2 dies. Member 1 does not: it might read them only after the start. */
    if (lid == 0 && id != 1u)
        while (!coop_load_acquire(&ctrl[COOP_CTRL_KILLS_REQUEST]))
            coop_pause();
    /* member 2 offers only after member 0's decision took its two tokens */
    if (lid == 0 && id == 2u)
        while (coop_load_relaxed(&ctrl[COOP_CTRL_KILLS]) > 1u)
            coop_pause();
    COOP_GROUP_SYNC();
    int killed = 0;
    if (id == 2u) {
        while (!killed)
            killed = coop_offer_kill_unless(ctx, 0u);
    } else {
        killed = coop_resizing_barrier(ctx, 0u, &none, sizeof none);
    }
    if (lid == 0 && killed)
        coop_fetch_add(&checks[CHK_KILLS], 1u);
    if (!killed && lid == 0)
        while (coop_load_acquire(task_groups_done) < target)
            coop_pause();
    COOP_GROUP_SYNC();
}

kernel void choreography_mega(COOP_PARAMS, uint rule, global uint *task_groups_done, uint target,
                              global uint *offers, global uint *out, global uint *checks)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP && rule == CHOREO_RESIZE_GIVE_BACK)
            coop_choreography_resize(&ctx, task_groups_done, target, checks);
        else if (role == COOP_ROLE_COOP)
            coop_choreography(&ctx, rule, task_groups_done, target, offers, checks);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_accumulate(&ctx, out, task_groups_done, checks);
    }
}

/* ---- Deliberately broken: a deadlock the watchdog must report -------------------------------
 * Instead of meeting the others at the second barrier, group 1 waits for a flag that group 0
 * sets only after that barrier: group 1 never arrives. */
void coop_stall(coop_ctx *ctx, global uint *flag)
{
    coop_global_barrier(ctx);
    if (coop_group_id(ctx) == 1 && get_local_id(0) == 0) {
        while (!coop_load_acquire(flag))
            ;
    }
    coop_global_barrier(ctx);
    if (coop_group_id(ctx) == 0 && get_local_id(0) == 0)
        coop_store_release(flag, 1u);
}

kernel void stall_mega(COOP_PARAMS, global uint *flag)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            coop_stall(&ctx, flag);
        COOP_GROUP_SYNC();
    }
}

/* ---- Not a megakernel: its groups never call coop_schedule() ------------------------------- */
kernel void no_schedule(COOP_PARAMS, global uint *out)
{
    COOP_ENTER(ctx);
    if (get_local_id(0) == 0)
        coop_fetch_add(&out[0], 1u);
}
