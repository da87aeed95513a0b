/* The CPU check of a coloring (color_ref.h): a node against each neighbour. */
#include "color_ref.h"

reference_fault reference_coloring_fault(const uint32_t *row, const uint32_t *col, const uint32_t *color,
                                         uint32_t none, uint32_t v, uint32_t *neighbour)
{
    if (color[v] == none)
        return REFERENCE_UNDECIDED;
    for (uint32_t e = row[v]; e < row[v + 1]; e++)
        if (color[col[e]] == color[v]) {
            *neighbour = col[e];
            return REFERENCE_CONFLICT;
        }
    return REFERENCE_OK;
}
