/* matmult.cl: the high-priority task of coop-bench's megakernels, built in front of the app's
 * source (kernels/bfs.cl, kernels/sssp.cl).
 *
 * c = a x b for n x n row-major matrices of 32-bit words with wrapping arithmetic, so that the
 * host's check against its CPU product is exact. n is task argument 0. Task workgroup g of W
 * computes rows g, g + W, ...; its work-items split each row's columns. */
void task_matmult(coop_ctx *ctx, global const uint *a, global const uint *b, global uint *c)
{
    uint n = coop_task_arg(ctx, 0);
    uint workgroups = coop_num_groups(ctx);
    for (uint i = coop_group_id(ctx); i < n; i += workgroups)
        for (uint j = get_local_id(0); j < n; j += get_local_size(0)) {
            uint sum = 0;
            for (uint k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
}
