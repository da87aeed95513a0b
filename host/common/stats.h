/* Small statistics for the benchmark programs. */
#ifndef COOP_STATS_H
#define COOP_STATS_H

#include <stddef.h>

/* The q-quantile (0..1) of n values, sorting them in place; 0 for none. */
double stats_quantile(double *values, size_t n, double q);

#endif
