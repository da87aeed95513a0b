/* matmult_ref.h: a CPU reference of the matmult tasks (kernels/tasks/matmult.h, as coop-bench
 * runs it, and kernels/tasks/ws_light.cl, coop-ws's light task), to check their products. */
#ifndef MATMULT_REF_H
#define MATMULT_REF_H

#include <stddef.h>
#include <stdint.h>

/* Row i of c = a x b for n x n row-major matrices of 32-bit words, with the kernels' wrapping
 * arithmetic, into row[0..n-1]. */
void matmult_ref_row(const uint32_t *a, const uint32_t *b, size_t n, size_t i, uint32_t *row);

/* The first element, row by row, where c differs from a x b. */
typedef struct matmult_difference {
    size_t row, col;
    uint32_t got, expected;
} matmult_difference;

/* c against a x b (n x n), a row at a time into row[0..n-1]: 0 when equal, else 1 with the first
 * difference in *first. */
int matmult_ref_compare(const uint32_t *a, const uint32_t *b, const uint32_t *c, size_t n, uint32_t *row,
                        matmult_difference *first);

#endif
