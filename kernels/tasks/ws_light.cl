/* coop-ws's light high-priority task: c = a x b for n x n row-major matrices of 32-bit words
 * with wrapping arithmetic (the host's check is exact), n the plan's argument 0. Task workgroup
 * g of W computes rows g, g + W, ...; its work-items split each row's columns. */
kernel void ws_light(global const uint *a, global const uint *b, global uint *c)
{
    uint n = get_task_arg(0);
    for (uint i = get_group_id(0); i < n; i += get_num_groups(0))
        for (uint j = get_local_id(0); j < n; j += get_local_size(0)) {
            uint sum = 0;
            for (uint k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
}
