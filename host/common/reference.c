/* CPU references for coop-bench: the checks of a coloring and of a maximal independent set. */
#include "reference.h"

reference_fault reference_coloring_fault(const graph *g, const uint32_t *color, uint32_t none, uint32_t v,
                                         uint32_t *neighbour)
{
    if (color[v] == none)
        return REFERENCE_UNDECIDED;
    for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
        if (color[g->col[e]] == color[v]) {
            *neighbour = g->col[e];
            return REFERENCE_CONFLICT;
        }
    return REFERENCE_OK;
}

reference_fault reference_mis_fault(const graph *g, const uint32_t *in_set, uint32_t v, uint32_t *neighbour)
{
    if (in_set[v] > 1)
        return REFERENCE_UNDECIDED;
    for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
        if (in_set[g->col[e]] == 1) {
            *neighbour = g->col[e];
            return in_set[v] == 1 ? REFERENCE_CONFLICT : REFERENCE_OK;
        }
    return in_set[v] == 1 ? REFERENCE_OK : REFERENCE_UNCOVERED;
}
