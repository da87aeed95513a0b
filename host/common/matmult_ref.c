/* The matmult tasks' CPU reference (matmult_ref.h). */
#include "matmult_ref.h"

#include <string.h>

void matmult_ref_row(const uint32_t *a, const uint32_t *b, size_t n, size_t i, uint32_t *row)
{
    memset(row, 0, n * sizeof *row);
    for (size_t k = 0; k < n; k++) {
        uint32_t aik = a[i * n + k];
        const uint32_t *bk = b + k * n;
        for (size_t j = 0; j < n; j++)
            row[j] += aik * bk[j];
    }
}

int matmult_ref_compare(const uint32_t *a, const uint32_t *b, const uint32_t *c, size_t n, uint32_t *row,
                        matmult_difference *first)
{
    for (size_t i = 0; i < n; i++) {
        matmult_ref_row(a, b, n, i, row);
        for (size_t j = 0; j < n; j++)
            if (c[i * n + j] != row[j]) {
                *first = (matmult_difference){.row = i, .col = j, .got = c[i * n + j], .expected = row[j]};
                return 1;
            }
    }
    return 0;
}
