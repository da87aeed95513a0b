/* searches.cl: a worklist app (bfs.cl, sssp.cl) searching again and again from its source in one
 * run, so that a run outlasts many periods of a high-priority task (coop-bench --searches K, for
 * scripts/responsiveness: a kernel-level preemption model P / (P - D) describes a kernel that
 * runs for many periods P, not one ~13 ms search that sees one task). Built only with
 * -DBENCH_SEARCHES, before the app; the default programs are the same without it.
 *
 * The app defines SEARCH_NAME (its prefix), SEARCH_PARAMS / SEARCH_ARGS (its buffers' parameter
 * declarations and names, as in sweep_app.cl), SEARCH_NUM_GROUPS (how its cooperative rounds read
 * M), its round function NAME_round(group, groups, round, in_count, ARGS..., counts) and its
 * restart NAME_restart(group, groups, round, ARGS..., counts), which calls search_restart; then
 * writes SEARCH_APP for these forms:
 *
 *   NAME_standalone_searches(COOP_PARAMS, PARAMS..., counts)   a plain persistent kernel
 *   NAME_mega_searches(COOP_PARAMS, PARAMS..., counts, task_a, task_b, task_c)
 *                                                             the cooperative megakernel
 *
 * (multikernel mode restarts from the host). `counts` is the app's, with these words after it:
 *   counts[SEARCH_COUNT]   searches to run, written by the host;
 *   counts[SEARCH_SOURCE]  the source, written by the host;
 *   counts[SEARCH_NODES]   the node count, written by the host;
 *   counts[SEARCH_BASE]    the round the last search started at (bfs's levels count from it).
 * A search ends with a round that pushed nothing; the step after it is a restart instead of a
 * round, and ends with a barrier like a round. counts[3] counts rounds and restarts. */
#ifdef BENCH_SEARCHES
#define SEARCH_COUNT 5u
#define SEARCH_SOURCE 6u
#define SEARCH_NODES 7u
#define SEARCH_BASE 8u
#define SEARCH_UNREACHED 0xffffffffu

/* Restart at step `round` (whose worklist is empty): every node unreached but the source, which
 * gets `source_value`, alone in round + 1's worklist. Nobody reads what this writes before the
 * barrier that ends the step: the other steps' readers of counts[(round + 1) % 3], of the
 * worklist and of the values all come after it. */
inline void search_restart(uint group, uint groups, uint round, volatile global uint *value, uint source_value,
                           global uint *wl0, global uint *wl1, volatile global uint *counts)
{
    uint local_size = get_local_size(0), source = counts[SEARCH_SOURCE], n = counts[SEARCH_NODES];
    for (uint u = group * local_size + get_local_id(0); u < n; u += groups * local_size)
        value[u] = u == source ? source_value : SEARCH_UNREACHED;
    if (group == 0 && get_local_id(0) == 0) {
        (round & 1u ? wl0 : wl1)[0] = source;
        counts[(round + 1u) % 3u] = 1;
        counts[(round + 2u) % 3u] = 0;
        counts[SEARCH_BASE] = round + 1u;
    }
}

#define SEARCH_CAT_(a, b) a##b
#define SEARCH_CAT(a, b) SEARCH_CAT_(a, b)
#define SEARCH_FN(suffix) SEARCH_CAT(SEARCH_NAME, suffix)

/* One step: a round while the worklist has items, else a restart (and one search more). */
#define SEARCH_STEP(group, groups, round, in_count, search)                                                  \
    do {                                                                                                     \
        if (in_count) {                                                                                      \
            SEARCH_FN(_round)(group, groups, round, in_count, SEARCH_ARGS, counts);                          \
        } else {                                                                                             \
            SEARCH_FN(_restart)(group, groups, round, SEARCH_ARGS, counts);                                  \
            search++;                                                                                        \
        }                                                                                                    \
    } while (0)

#define SEARCH_APP                                                                                           \
    kernel void SEARCH_FN(_standalone_searches)(COOP_PARAMS, SEARCH_PARAMS, global uint *counts)            \
    {                                                                                                        \
        COOP_ENTER(ctx);                                                                                     \
        uint group = coop_group_id(&ctx), groups = coop_num_groups(&ctx), searches = counts[SEARCH_COUNT];   \
        uint round = 0, search = 1;                                                                          \
        for (uint in_count = counts[0]; in_count || search < searches; in_count = counts[round % 3u]) {      \
            SEARCH_STEP(group, groups, round, in_count, search);                                             \
            round++;                                                                                         \
            coop_global_barrier(&ctx);                                                                       \
        }                                                                                                    \
        if (group == 0 && get_local_id(0) == 0)                                                              \
            counts[3] = round;                                                                               \
    }                                                                                                        \
                                                                                                             \
    /* what a forked group needs to join: the step it resumes at and the searches begun */                  \
    typedef struct SEARCH_FN(_searches_state) {                                                              \
        uint round, search;                                                                                  \
    } SEARCH_FN(_searches_state);                                                                            \
                                                                                                             \
    void SEARCH_FN(_cooperative_searches)(coop_ctx *ctx, SEARCH_PARAMS, global uint *counts)                 \
    {                                                                                                        \
        SEARCH_FN(_searches_state) t;                                                                        \
        if (coop_resume_point(ctx) == 1) {                                                                   \
            coop_transmit_restore(ctx, &t, sizeof t);                                                        \
        } else {                                                                                             \
            t.round = 0;                                                                                     \
            t.search = 1;                                                                                    \
        }                                                                                                    \
        uint searches = counts[SEARCH_COUNT], killed = 0;                                                    \
        for (uint in_count = counts[t.round % 3u]; (in_count || t.search < searches) && !killed;            \
             in_count = counts[t.round % 3u]) {                                                              \
            uint groups = SEARCH_NUM_GROUPS(ctx);                                                            \
            SEARCH_STEP(coop_group_id(ctx), groups, t.round, in_count, t.search);                            \
            t.round++;                                                                                       \
            killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);                                            \
        }                                                                                                    \
        if (!killed && coop_group_id(ctx) == 0 && get_local_id(0) == 0)                                      \
            counts[3] = t.round;                                                                             \
    }                                                                                                        \
                                                                                                             \
    kernel void SEARCH_FN(_mega_searches)(COOP_PARAMS, SEARCH_PARAMS, global uint *counts,                   \
                                          global const uint *task_a, global const uint *task_b,              \
                                          global uint *task_c)                                               \
    {                                                                                                        \
        COOP_ENTER(ctx);                                                                                     \
        for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {                            \
            if (role == COOP_ROLE_COOP)                                                                      \
                SEARCH_FN(_cooperative_searches)(&ctx, SEARCH_ARGS, counts);                                 \
            COOP_GROUP_SYNC();                                                                               \
            if (role == COOP_ROLE_TASK && ctx.task == 0)                                                     \
                task_matmult(&ctx, task_a, task_b, task_c);                                                  \
        }                                                                                                    \
    }
#endif
