/* mis_ref.h: the CPU check of a maximal independent set, which coop-bench checks the device's set
 * with. It takes the graph as the kernels do, in CSR form: node v's arcs go to col[row[v]] ..
 * col[row[v + 1] - 1] (host/common/graph.h's graph holds them so). */
#ifndef APPS_MIS_MIS_REF_H
#define APPS_MIS_MIS_REF_H

#include "../reference.h"

#include <stdint.h>

/* What is wrong at node v of a maximal independent set of the symmetric graph (in_set[v] is 1
 * inside, 0 outside): REFERENCE_OK, REFERENCE_UNDECIDED (neither 0 nor 1), REFERENCE_CONFLICT
 * (v and *neighbour are both inside) or REFERENCE_UNCOVERED (v is outside and no neighbour is
 * inside, so the set is not maximal). */
reference_fault reference_mis_fault(const uint32_t *row, const uint32_t *col, const uint32_t *in_set, uint32_t v,
                                    uint32_t *neighbour);

#endif
