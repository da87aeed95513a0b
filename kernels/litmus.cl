/* Litmus tests between workgroups: message passing (MP), store buffering (SB), load buffering (LB).
 *
 * Co-resident groups pair up, 2k with 2k+1 (side 0 and side 1; a last odd group only joins the
 * barriers). Work-item l of the two groups runs one test instance on its own two locations x and
 * y, each in its own line of LITMUS_LINE_WORDS words. Iteration i starts with a global barrier, so
 * that both sides start close together, and stores tag i + 1: a load "sees" a store when it
 * reads this iteration's tag, and anything older is the initial value. No reset is needed.
 *
 * Each kernel counts, per instance, the four outcomes (a << 1) | b of its two observations a, b
 * and writes them to outcomes[4 * instance ..]; the host adds them up. Below, 1 is the tag:
 *   MP  side 0: x = 1; y = 1            side 1: a = (y == 1); b = (x == 1)   weak: a=1 b=0
 *   SB  side 0: x = 1; a = (y == 1)     side 1: y = 1; b = (x == 1)          weak: a=0 b=0
 *   LB  side 0: a = (x == 1); y = 1     side 1: b = (y == 1); x = 1          weak: a=1 b=1
 *
 * -DLITMUS_FENCED=1 builds the variants with coop_device/atomics.h's orderings, which forbid the weak
 * outcomes: MP publishes with a release store and observes with an acquire load, LB puts an
 * acquire-release fence between load and store, and SB a sequentially consistent fence between
 * store and load (acquire/release would still allow both loads to miss both stores).
 * Outside the global barrier no work-item waits for another group, so every lane runs a test,
 * even on PoCL (where the lanes of a group run one after another). */

#ifndef LITMUS_FENCED
#define LITMUS_FENCED 0
#endif

#ifndef LITMUS_LINE_WORDS
#error "coop-litmus defines LITMUS_LINE_WORDS, the words between two test locations"
#endif

#if LITMUS_FENCED
inline void mp_publish(global uint *flag, uint value) { coop_store_release(flag, value); }
inline uint mp_observe(global uint *flag) { return coop_load_acquire(flag); }
inline void sb_fence(void) { coop_fence_sc(); }
inline void lb_fence(void) { coop_fence(); }
#else
inline void mp_publish(global uint *flag, uint value) { coop_store_relaxed(flag, value); }
inline uint mp_observe(global uint *flag) { return coop_load_relaxed(flag); }
inline void sb_fence(void) {}
inline void lb_fence(void) {}
#endif

/* This work-item's test instance. */
typedef struct litmus {
    global uint *own;      /* x on side 0, y on side 1 */
    global uint *other;    /* y on side 0, x on side 1 */
    global uint *seen;     /* SB/LB: two slots where side 1 leaves b for side 0 */
    uint instance;
    uint side;
    int active;            /* 0 in an unpaired last group */
} litmus;

inline litmus litmus_place(const coop_ctx *ctx, global uint *locations, global uint *seen)
{
    uint lanes = coop_local_linear_size();
    uint instances = coop_num_groups(ctx) / 2 * lanes;
    litmus t;
    t.side = coop_group_id(ctx) & 1;
    t.instance = coop_group_id(ctx) / 2 * lanes + coop_local_linear_id();
    t.active = t.instance < instances;
    global uint *x = locations + (size_t)t.instance * LITMUS_LINE_WORDS;
    global uint *y = locations + (size_t)(instances + t.instance) * LITMUS_LINE_WORDS;
    t.own = t.side ? y : x;
    t.other = t.side ? x : y;
    t.seen = seen + 2 * (size_t)t.instance;
    return t;
}

/* SB and LB need both sides' observations: side 1 stores b in a slot that side 0 reads after the
 * next barrier, and side 0 counts the outcome then. Slots alternate by iteration, so side 1
 * rewrites one only after the barrier that follows side 0's read. */
inline void litmus_exchange(const litmus *t, uint iteration, uint observed, uint *previous, uint *counts)
{
    if (t->side == 1) {
        coop_store_relaxed(&t->seen[iteration & 1], observed);
        return;
    }
    if (iteration > 0)
        counts[(*previous << 1) | coop_load_relaxed(&t->seen[(iteration - 1) & 1])]++;
    *previous = observed;
}

inline void litmus_exchange_last(coop_ctx *ctx, const litmus *t, uint iterations, uint previous, uint *counts)
{
    coop_global_barrier(ctx);
    if (t->active && t->side == 0 && iterations > 0)
        counts[(previous << 1) | coop_load_relaxed(&t->seen[(iterations - 1) & 1])]++;
}

inline void litmus_record(const litmus *t, uint counting_side, const uint *counts, global uint *outcomes)
{
    if (!t->active || t->side != counting_side)
        return;
    for (uint k = 0; k < 4; k++)
        outcomes[4 * (size_t)t->instance + k] = counts[k];
}

kernel void litmus_mp(COOP_PARAMS, uint iterations, global uint *locations, global uint *seen,
                      global uint *outcomes)
{
    COOP_ENTER(ctx);
    litmus t = litmus_place(&ctx, locations, seen);
    uint counts[4] = {0, 0, 0, 0};
    for (uint i = 0; i < iterations; i++) {
        uint tag = i + 1;
        coop_global_barrier(&ctx);
        if (!t.active)
            continue;
        if (t.side == 0) {
            coop_store_relaxed(t.own, tag);            /* data */
            mp_publish(t.other, tag);                  /* flag */
        } else {
            uint flag = mp_observe(t.own) == tag;
            uint data = coop_load_relaxed(t.other) == tag;
            counts[(flag << 1) | data]++;
        }
    }
    litmus_record(&t, 1, counts, outcomes);
}

kernel void litmus_sb(COOP_PARAMS, uint iterations, global uint *locations, global uint *seen,
                      global uint *outcomes)
{
    COOP_ENTER(ctx);
    litmus t = litmus_place(&ctx, locations, seen);
    uint counts[4] = {0, 0, 0, 0};
    uint previous = 0;
    for (uint i = 0; i < iterations; i++) {
        uint tag = i + 1;
        coop_global_barrier(&ctx);
        if (!t.active)
            continue;
        coop_store_relaxed(t.own, tag);
        sb_fence();
        uint observed = coop_load_relaxed(t.other) == tag;
        litmus_exchange(&t, i, observed, &previous, counts);
    }
    litmus_exchange_last(&ctx, &t, iterations, previous, counts);
    litmus_record(&t, 0, counts, outcomes);
}

kernel void litmus_lb(COOP_PARAMS, uint iterations, global uint *locations, global uint *seen,
                      global uint *outcomes)
{
    COOP_ENTER(ctx);
    litmus t = litmus_place(&ctx, locations, seen);
    uint counts[4] = {0, 0, 0, 0};
    uint previous = 0;
    for (uint i = 0; i < iterations; i++) {
        uint tag = i + 1;
        coop_global_barrier(&ctx);
        if (!t.active)
            continue;
        uint observed = coop_load_relaxed(t.own) == tag;
        lb_fence();
        coop_store_relaxed(t.other, tag);
        litmus_exchange(&t, i, observed, &previous, counts);
    }
    litmus_exchange_last(&ctx, &t, iterations, previous, counts);
    litmus_record(&t, 0, counts, outcomes);
}
