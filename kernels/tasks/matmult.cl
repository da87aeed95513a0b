/* matmult.cl: coop-bench's high-priority tasks, built after kernels/tasks/render.cl and before
 * the app (kernels/bfs.cl, kernels/sssp.cl), whose megakernels run task_matmult for task 0.
 *
 * Task argument 1 says what the task computes (host/bench_task.c sets it):
 *   BENCH_TASK_MATMULT: c = a x b for n x n row-major matrices of 32-bit words with wrapping
 *     arithmetic, so that the host's check is exact; n is task argument 0. Task workgroup g of W
 *     computes rows g, g + W, ...; its work-items split each row's columns.
 *   BENCH_TASK_RENDER: frame task argument 0 of render.cl's path tracer, task argument 2 wide
 *     and 3 high, into c read as RGBA pixels; one tile per task workgroup.
 * The render branch lives here because the apps' megakernels dispatch only task 0. */
#define BENCH_TASK_MATMULT 0u
#define BENCH_TASK_RENDER 1u

/* Rows first, first + step, ... of c = a x b. */
void matmult_rows(uint first, uint step, global const uint *a, global const uint *b, global uint *c, uint n)
{
    for (uint i = first; i < n; i += step)
        for (uint j = get_local_id(0); j < n; j += get_local_size(0)) {
            uint sum = 0;
            for (uint k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
}

/* coop-bench builds the program with BENCH_TASKS=0 when a run has no task and BENCH_TASKS=1 when
 * its task is a matmult: a megakernel holds only the tasks it may run, and the path tracer's
 * registers would otherwise set every group's (fewer groups per compute unit). */
#ifndef BENCH_TASKS
#define BENCH_TASKS 2
#endif
void task_matmult(coop_ctx *ctx, global const uint *a, global const uint *b, global uint *c)
{
#if BENCH_TASKS >= 2
    if (coop_task_arg(ctx, 1) == BENCH_TASK_RENDER) {
        task_render(ctx, (global uchar4 *)c, coop_task_arg(ctx, 2), coop_task_arg(ctx, 3));
        return;
    }
#endif
#if BENCH_TASKS >= 1
    matmult_rows(coop_group_id(ctx), coop_num_groups(ctx), a, b, c, coop_task_arg(ctx, 0));
#endif
}

/* The product as an ordinary kernel (start-up sizing, and the no-cooperation baseline). */
kernel void matmult_plain(global const uint *a, global const uint *b, global uint *c, uint n)
{
    matmult_rows(get_group_id(0), get_num_groups(0), a, b, c, n);
}
