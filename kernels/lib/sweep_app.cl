/* sweep_app.cl: the four forms coop-bench runs of a sweep app (color.cl, mis.cl, sssp_bf.cl),
 * made from the app's sweep function
 *
 *   void NAME_sweep(uint group, uint groups, uint round, uint n, ARGS..., volatile global uint *counts)
 *
 * which handles nodes group * L + l, stepping by groups * L, counts in counts[(round + 1) % 3]
 * what is left for the next sweep, and (group 0) clears counts[(round + 2) % 3]. Sweep r runs
 * while counts[r % 3] is not zero; counts[3] gets the number of sweeps. The forms:
 *
 *   NAME_standalone(COOP_PARAMS, PARAMS..., counts, n)   a plain persistent kernel, global barriers
 *   NAME_mega(COOP_PARAMS, PARAMS..., counts, n, task_a, task_b, task_c)
 *                                                        the same sweeps as a cooperative kernel
 *                                                        (resizing barriers, the sweep number
 *                                                        transmitted) beside task_matmult
 *   NAME_step(PARAMS..., counts, n, round, in_count)     one sweep as an ordinary kernel (in_count
 *                                                        unused: every app's step kernel takes
 *                                                        the same trailing arguments)
 *
 * An app defines SWEEP_NAME (its prefix), SWEEP_PARAMS (its buffers' parameter declarations, in
 * the order the sweep function takes them) and SWEEP_ARGS (their names), then writes SWEEP_APP.
 * (Object-like macros carry the comma-separated lists: NVIDIA's OpenCL preprocessor did not
 * expand a parenthesised list passed through a function-like macro.) Built after
 * kernels/tasks/matmult.cl. */
#define SWEEP_CAT_(a, b) a##b
#define SWEEP_CAT(a, b) SWEEP_CAT_(a, b)
#define SWEEP_FN(suffix) SWEEP_CAT(SWEEP_NAME, suffix)

#define SWEEP_APP                                                                                            \
    kernel void SWEEP_FN(_standalone)(COOP_PARAMS, SWEEP_PARAMS, global uint *counts, uint n)                \
    {                                                                                                        \
        COOP_ENTER(ctx);                                                                                     \
        uint group = coop_group_id(&ctx), groups = coop_num_groups(&ctx);                                    \
        uint round = 0;                                                                                      \
        while (counts[round % 3u]) {                                                                         \
            SWEEP_FN(_sweep)(group, groups, round, n, SWEEP_ARGS, counts);                                   \
            round++;                                                                                         \
            coop_global_barrier(&ctx);                                                                       \
        }                                                                                                    \
        if (group == 0 && get_local_id(0) == 0)                                                              \
            counts[3] = round;                                                                               \
    }                                                                                                        \
                                                                                                             \
    /* what a forked group needs to join: the sweep it resumes at (the rest is in global memory) */         \
    typedef struct SWEEP_FN(_state) {                                                                        \
        uint round;                                                                                          \
    } SWEEP_FN(_state);                                                                                      \
                                                                                                             \
    void SWEEP_FN(_cooperative)(coop_ctx *ctx, SWEEP_PARAMS, global uint *counts, uint n)                    \
    {                                                                                                        \
        SWEEP_FN(_state) t;                                                                                  \
        if (coop_resume_point(ctx) == 1)                                                                     \
            coop_transmit_restore(ctx, &t, sizeof t);                                                        \
        else                                                                                                 \
            t.round = 0;                                                                                     \
        uint killed = 0;                                                                                     \
        while (counts[t.round % 3u] && !killed) {                                                            \
            SWEEP_FN(_sweep)(coop_group_id(ctx), coop_shared_num_groups(ctx), t.round, n, SWEEP_ARGS, counts); \
            t.round++;                                                                                       \
            killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);                                            \
        }                                                                                                    \
        if (!killed && coop_group_id(ctx) == 0 && get_local_id(0) == 0)                                      \
            counts[3] = t.round;                                                                             \
    }                                                                                                        \
                                                                                                             \
    kernel void SWEEP_FN(_mega)(COOP_PARAMS, SWEEP_PARAMS, global uint *counts, uint n,                      \
                                global const uint *task_a, global const uint *task_b, global uint *task_c)   \
    {                                                                                                        \
        COOP_ENTER(ctx);                                                                                     \
        for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {                            \
            if (role == COOP_ROLE_COOP)                                                                      \
                SWEEP_FN(_cooperative)(&ctx, SWEEP_ARGS, counts, n);                                         \
            COOP_GROUP_SYNC();                                                                               \
            if (role == COOP_ROLE_TASK && ctx.task == 0)                                                     \
                task_matmult(&ctx, task_a, task_b, task_c);                                                  \
        }                                                                                                    \
    }                                                                                                        \
                                                                                                             \
    kernel void SWEEP_FN(_step)(SWEEP_PARAMS, global uint *counts, uint n, uint round, uint in_count)        \
    {                                                                                                        \
        SWEEP_FN(_sweep)(get_group_id(0), get_num_groups(0), round, n, SWEEP_ARGS, counts);                  \
    }
