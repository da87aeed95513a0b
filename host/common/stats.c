/* Small statistics for the benchmark programs. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_quantile(double *values, size_t n, double q)
{
    if (!n)
        return 0.0;
    qsort(values, n, sizeof *values, compare_doubles);
    size_t index = (size_t)ceil(q * (double)n) - (q > 0 ? 1 : 0);
    return values[index < n ? index : n - 1];
}
