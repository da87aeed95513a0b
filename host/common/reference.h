/* reference.h: the CPU checks of coop-bench's coloring and maximal independent set (BFS's and
 * SSSP's references are apps/bfs/bfs_ref.h and apps/sssp/sssp_ref.h). */
#ifndef REFERENCE_H
#define REFERENCE_H

#include "graph.h"

#include <stdint.h>

/* What is wrong at one node of a coloring or of an independent set. */
typedef enum reference_fault { REFERENCE_OK, REFERENCE_UNDECIDED, REFERENCE_CONFLICT, REFERENCE_UNCOVERED } reference_fault;

/* What is wrong at node v of a coloring of the symmetric graph g (color[v] == `none`:
 * uncolored): REFERENCE_OK, REFERENCE_UNDECIDED (no color), or REFERENCE_CONFLICT with
 * *neighbour set to a neighbour of the same color. */
reference_fault reference_coloring_fault(const graph *g, const uint32_t *color, uint32_t none, uint32_t v,
                                         uint32_t *neighbour);

/* What is wrong at node v of a maximal independent set of the symmetric graph g (in_set[v] is 1
 * inside, 0 outside): REFERENCE_OK, REFERENCE_UNDECIDED (neither 0 nor 1), REFERENCE_CONFLICT
 * (v and *neighbour are both inside) or REFERENCE_UNCOVERED (v is outside and no neighbour is
 * inside, so the set is not maximal). */
reference_fault reference_mis_fault(const graph *g, const uint32_t *in_set, uint32_t v, uint32_t *neighbour);

#endif
