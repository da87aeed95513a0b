/* reference.h: CPU references that coop-bench checks the device's results against.
 *
 * Distances are 64-bit with -1 for a node the source does not reach, so one comparison and one
 * printer serve every app. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include "graph.h"

#include <stdint.h>

/* BFS levels from `source` (an internal 0-based id) over the arcs as stored: dist[v] is the
 * least number of arcs on a path source -> v, or -1. dist has g->n entries. Returns 0, or -1
 * when memory runs out. */
int reference_bfs(const graph *g, uint32_t source, int64_t *dist);

/* Shortest-path distances from `source` with the arc weights g->weight (Dijkstra with a binary
 * heap): dist[v] is the least sum of weights on a path source -> v, or -1. Returns 0, or -1
 * when memory runs out (dist is then undefined). */
int reference_sssp(const graph *g, uint32_t source, int64_t *dist);

#endif
