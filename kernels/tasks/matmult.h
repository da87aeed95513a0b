/* matmult.h: c = a x b for n x n row-major matrices of 32-bit words with wrapping arithmetic, so
 * that the host's check is exact (the matmult task, matmult.cl, and matmult_plain in plain.cl). */
#ifndef KERNELS_TASKS_MATMULT_H
#define KERNELS_TASKS_MATMULT_H

/* Rows first, first + step, ... of c = a x b; the work-items split each row's columns. */
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

#endif
