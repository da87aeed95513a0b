/* The CPU check of a maximal independent set (mis_ref.h): a node against each neighbour. */
#include "mis_ref.h"

reference_fault reference_mis_fault(const uint32_t *row, const uint32_t *col, const uint32_t *in_set, uint32_t v,
                                    uint32_t *neighbour)
{
    if (in_set[v] > 1)
        return REFERENCE_UNDECIDED;
    for (uint32_t e = row[v]; e < row[v + 1]; e++)
        if (in_set[col[e]] == 1) {
            *neighbour = col[e];
            return in_set[v] == 1 ? REFERENCE_CONFLICT : REFERENCE_OK;
        }
    return in_set[v] == 1 ? REFERENCE_OK : REFERENCE_UNCOVERED;
}
