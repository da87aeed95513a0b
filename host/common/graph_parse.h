/*
 * graph_parse.h - a graph file's content, in any format graph.h lists, into a graph
 * (graph_parse.c). Private to host/common/graph*.c.
 */
#ifndef GRAPH_PARSE_H
#define GRAPH_PARSE_H

#include "graph_csr.h"
#include "graph_decode.h"

/* Reads the opened r in the format its first line tells (the name hinting) into g, through e;
 * builds g's CSR. Returns 0, or -1 with the message in r->err. */
int parse_graph(struct reader *r, graph *g, struct edge_list *e);

#endif
