/* graph_input.h: a program's input graph: read (--graph FILE) or generated (--gen SPEC) with
 * graph.h, and its arrays put in device buffers for the kernels. */
#ifndef GRAPH_INPUT_H
#define GRAPH_INPUT_H

#include "coop.h"
#include "graph.h"

/* Reads the file `path`, or generates the graph `gen_spec` when path is NULL, into *g (released
 * with graph_free()): 0, or CLI_EXIT_ERROR after "PROGRAM: <graph.h's message>" or, for a graph
 * without nodes, "PROGRAM: INPUT: the graph has no nodes". */
int graph_input_load(const char *program, const char *path, const char *gen_spec, graph *g);

/* g's CSR arrays as device buffers (buffers.h's buffer_create(), chained through *err): *row
 * (n + 1 words), *col and, when `weight` is not NULL, *weight (m words each). */
void graph_input_buffers(const coop_context *ctx, const graph *g, cl_mem *row, cl_mem *col, cl_mem *weight,
                         cl_int *err);

#endif
