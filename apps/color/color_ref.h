/* color_ref.h: the CPU check of a coloring, which coop-bench checks the device's colors with. It
 * takes the graph as the kernels do, in CSR form: node v's arcs go to col[row[v]] ..
 * col[row[v + 1] - 1] (host/common/graph.h's graph holds them so). */
#ifndef APPS_COLOR_COLOR_REF_H
#define APPS_COLOR_COLOR_REF_H

#include "../reference.h"

#include <stdint.h>

/* What is wrong at node v of a coloring of the symmetric graph (color[v] == `none`:
 * uncolored): REFERENCE_OK, REFERENCE_UNDECIDED (no color), or REFERENCE_CONFLICT with
 * *neighbour set to a neighbour of the same color. */
reference_fault reference_coloring_fault(const uint32_t *row, const uint32_t *col, const uint32_t *color,
                                         uint32_t none, uint32_t v, uint32_t *neighbour);

#endif
