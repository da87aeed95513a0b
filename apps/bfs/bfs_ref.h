/* bfs_ref.h: BFS's CPU reference, which coop-bench and coop-demo check the device's levels
 * against. It takes the graph as the kernels do, in CSR form: node v's arcs go to
 * col[row[v]] .. col[row[v + 1] - 1] (host/common/graph.h's graph holds them so).
 *
 * Distances are 64-bit with -1 for a node the source does not reach, as SSSP's are
 * (apps/sssp/sssp_ref.h), so one comparison and one printer serve both. */
#ifndef APPS_BFS_BFS_REF_H
#define APPS_BFS_BFS_REF_H

#include <stdint.h>

/* BFS levels from `source` over the n nodes' arcs as stored: dist[v] is the least number of arcs
 * on a path source -> v, or -1. dist has n entries. Returns 0, or -1 when memory runs out. */
int reference_bfs(const uint32_t *row, const uint32_t *col, uint32_t n, uint32_t source, int64_t *dist);

#endif
