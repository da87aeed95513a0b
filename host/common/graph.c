/*
 * graph.c - graph.h's entry points for graph files (graph_read()) and CSR graphs
 * (graph_undirected(), graph_max_degree(), graph_free()); the generators are in graph_gen.c.
 *
 * The graph code, a file per layer, bottom up: graph_text.c (messages and numbers),
 * graph_decode.c (a file as lines of text, gzip or xz decoded), graph_csr.c (the CSR builder
 * that readers and generators share: a radix sort run by a thread per processor),
 * graph_parse.c (a reader per format), then graph.c and graph_gen.c side by side on top. A file
 * includes and calls only files below it.
 */
#include "graph.h"

#include "graph_csr.h"
#include "graph_decode.h"
#include "graph_parse.h"
#include "graph_text.h"

#include <stdlib.h>
#include <string.h>

int graph_read(const char *path, graph *g, char *err, size_t errlen)
{
    struct reader r;
    struct edge_list e = {0};
    int rc;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (path == NULL || g == NULL) {
        graph_set_err(err, errlen, "graph_read: path and g must not be NULL");
        return -1;
    }
    memset(g, 0, sizeof *g);
    memset(&r, 0, sizeof r);
    r.path = path;
    r.err = err;
    r.errlen = errlen;

    rc = reader_open(&r);
    if (rc == 0)
        rc = reader_check_text(&r);
    if (rc == 0)
        rc = parse_graph(&r, g, &e);
    edges_free(&e);
    reader_close(&r);
    if (rc != 0)
        graph_free(g);
    return rc;
}

int graph_undirected(const graph *g, graph *out, char *err, size_t errlen)
{
    struct edge_list e = {.weighted = g->has_weights};
    enum build_status st = BUILD_NO_MEMORY;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    memset(out, 0, sizeof *out);
    if (edges_reserve(&e, (size_t)g->m) == 0) {
        /* The room is there and a CSR has no self-loops: every push succeeds. */
        for (uint32_t u = 0; u < g->n; u++)
            for (uint32_t i = g->row[u]; i < g->row[u + 1]; i++)
                edges_push(&e, u, g->col[i], g->weight[i]);
        st = build_csr(out, g->n, &e, 1);
    }
    edges_free(&e);
    if (st == BUILD_TOO_MANY_ARCS)
        graph_set_err(err, errlen, "too many arcs (at most %lu)", (unsigned long)UINT32_MAX);
    else if (st == BUILD_NO_MEMORY)
        graph_set_err(err, errlen, "out of memory");
    if (st != BUILD_OK)
        return -1;
    out->has_weights = g->has_weights;
    out->first_id = g->first_id;
    return 0;
}

uint32_t graph_max_degree(const graph *g)
{
    uint32_t most = 0;
    for (uint32_t v = 0; v < g->n; v++)
        if (g->row[v + 1] - g->row[v] > most)
            most = g->row[v + 1] - g->row[v];
    return most;
}

void graph_free(graph *g)
{
    if (g == NULL)
        return;
    free(g->row);
    free(g->col);
    free(g->weight);
    memset(g, 0, sizeof *g);
}
