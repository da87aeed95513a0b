/* The programs' input graph (graph_input.h). */
#include "graph_input.h"

#include "buffers.h"
#include "errors.h"

int graph_input_load(const char *program, const char *path, const char *gen_spec, graph *g)
{
    char err[512];
    int rc = path ? graph_read(path, g, err, sizeof err) : graph_parse_gen(gen_spec, g, err, sizeof err);
    if (rc != 0)
        return error_report(program, "%s", err);
    if (g->n == 0)
        return error_report(program, "%s: the graph has no nodes", path ? path : gen_spec);
    return 0;
}

void graph_input_buffers(const coop_context *ctx, const graph *g, cl_mem *row, cl_mem *col, cl_mem *weight,
                         cl_int *err)
{
    size_t arc_bytes = g->m * sizeof(cl_uint);
    *row = buffer_create(ctx, ((size_t)g->n + 1) * sizeof(cl_uint), g->row, err);
    *col = buffer_create(ctx, arc_bytes, g->m ? g->col : NULL, err);
    if (weight)
        *weight = buffer_create(ctx, arc_bytes, g->m ? g->weight : NULL, err);
}
