/* sssp_ref.h: SSSP's CPU reference, which coop-bench checks the device's distances against, for
 * sssp and sssp-bf (apps/sssp_bf/) alike. It takes the graph as the kernels do, in CSR form: node
 * v's arcs go to col[row[v]] .. col[row[v + 1] - 1] with weights weight[row[v]] ..
 * (host/common/graph.h's graph holds them so).
 *
 * Distances are 64-bit with -1 for a node the source does not reach, as BFS's levels are
 * (apps/bfs/bfs_ref.h), so one comparison and one printer serve both. */
#ifndef APPS_SSSP_SSSP_REF_H
#define APPS_SSSP_SSSP_REF_H

#include <stdint.h>

/* Shortest-path distances from `source` over the n nodes' weighted arcs (Dijkstra with a binary
 * heap): dist[v] is the least sum of weights on a path source -> v, or -1. dist has n entries.
 * Returns 0, or -1 when memory runs out (dist is then undefined). */
int reference_sssp(const uint32_t *row, const uint32_t *col, const uint32_t *weight, uint32_t n, uint32_t source,
                   int64_t *dist);

#endif
