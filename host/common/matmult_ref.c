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
