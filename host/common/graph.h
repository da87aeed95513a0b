/*
 * graph.h - graph inputs for the benchmark programs (BFS, SSSP, coloring, MIS).
 *
 * A graph is held in compressed sparse row (CSR) form: the arcs leaving node u
 * are col[row[u]] .. col[row[u+1]-1], each list sorted by target, with no
 * self-loops and no repeated targets. An undirected edge {u,v} is stored as the
 * two arcs u->v and v->u with the same weight.
 *
 * Files are read by graph_read(), which knows these formats (recognised by
 * content; the file name is only a hint when the content is ambiguous):
 *
 *   DIMACS shortest path (.gr)  "c" comments, "p sp N M", then M lines
 *                               "a u v w"; 1-based, directed, weighted
 *                               (w in 0..2^32-1, kept as given).
 *   PACE 2016 (.gr)             "c" comments, "p tw N M", then M lines "u v";
 *                               1-based, undirected, unweighted.
 *   SNAP edge list              "#" comments, lines "u v" (tab or space,
 *                               LF or CRLF); 0-based, directed as stored.
 *                               n is the largest id + 1, or the "# Nodes: N"
 *                               comment when that is larger (see below for
 *                               ids with wide gaps).
 *   MatrixMarket (.mtx)         "%%MatrixMarket matrix coordinate FIELD SYMMETRY"
 *                               with FIELD pattern|integer|real and SYMMETRY
 *                               general (directed) or symmetric|skew-symmetric
 *                               (undirected); "%" comments; size line
 *                               "rows cols entries" (rows == cols); 1-based.
 *                               A value column gives weights: the magnitude,
 *                               rounded to the nearest integer, at least 1.
 *   MatrixMarket body           no banner and no size line, only "row col"
 *                               lines ("%" comments allowed): 1-based,
 *                               undirected, n is the largest id.
 *
 * The first line that is not blank decides: "%%" MatrixMarket, "%" a
 * MatrixMarket body, "#" SNAP, "c", "p" or "a" DIMACS/PACE (told apart by the
 * "p" line). A file opening with bare numbers goes by its name, ignoring a
 * final .gz or .xz: *.mtx is a MatrixMarket body, *.gr must have a "p"
 * header, anything else is SNAP. Other text is read as the format its name
 * says (.gr, .mtx, .txt/.edges/.el) or refused as unrecognised.
 *
 * Any of them may be gzip- or xz-compressed (recognised by magic bytes), and
 * is decompressed in-process with zlib or liblzma.
 *
 * Parallel arcs are merged into one arc carrying the smallest weight, and
 * self-loops are dropped, so m can be smaller than the count in the file.
 * Row offsets are 32-bit, so a graph holds at most 2^32-1 arcs; memory is
 * about 4 bytes per declared node plus at most 40 bytes per arc while reading.
 *
 * A file is refused, before anything that grows with the graph is allocated,
 * when reading it and running a program on it would need more memory than
 * the machine has, counted as 40 bytes a node (the programs' copies and
 * per-node arrays with the CSR's offsets) and 40 an arc: at the line its size
 * comes from, "g.gr:1: 2147483648 nodes and 1 arc need about 80.0 GiB of
 * memory to read and run, more than the 23.5 GiB here". The size is the
 * header's (a .gr "p" line, a MatrixMarket size line, a SNAP "# Nodes: N";
 * arcs at most one per 4 bytes of an uncompressed file, since a header may
 * lie), or in a SNAP file or a MatrixMarket body, which number nodes by id,
 * the largest id's; the edges are counted again as the list grows. Ids there may leave gaps
 * (isolated nodes), but the node count must stay within twice the edges,
 * 2^20, or the "# Nodes: N" count: otherwise a stray id would make the graph
 * mostly empty nodes, which every run pays for ("g.txt:1: node 300000000
 * makes 300000001 nodes, about 11.2 GiB of memory to read and run, for a
 * file of at most 3 edges: ..."). That bound is the file's, the same on
 * every machine.
 * A graph of a million arcs or more is built by a thread per processor, all
 * joined before the function returns; the result is the same for any number.
 *
 * Errors are reported as text in a caller buffer:
 *   "path:LINE: what is wrong"   for a problem on one line of the content;
 *   "path: what is wrong"        for the file as a whole (open/read failure,
 *                                corrupt or truncated compressed data, ...).
 * A count declared in a header that does not match the lines that follow is
 * reported at the header's line: "g.gr:2: expected 5 arcs, found 3".
 */
#ifndef GRAPH_H
#define GRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef struct graph {
    uint32_t n;          /* nodes, numbered 0..n-1 internally */
    uint64_t m;          /* arcs stored in CSR (an undirected edge is stored both ways) */
    uint32_t *row;       /* n+1 offsets into col/weight */
    uint32_t *col;       /* m targets */
    uint32_t *weight;    /* m weights, always filled (deterministic weights when the file has none) */
    int has_weights;     /* 1 if the file gave weights */
    int directed;        /* 1 if arcs are as in the file only */
    uint32_t first_id;   /* id the file uses for node 0: 1 for 1-based formats, 0 for SNAP */
} graph;

/*
 * Reads the graph file at path (any format above, optionally compressed) into
 * *g, which the caller releases with graph_free(). Returns 0 on success. On
 * failure returns -1, leaves *g zeroed (nothing to free) and writes a
 * NUL-terminated message of at most errlen bytes to err ("path:LINE: ..." or
 * "path: ..."); err may be NULL when errlen is 0.
 */
int graph_read(const char *path, graph *g, char *err, size_t errlen);

/*
 * Generates an undirected R-MAT graph with n = 2^scale nodes (scale 1..31):
 * edgefactor * n edges are drawn with the Graph500 probabilities
 * (a, b, c, d) = (0.57, 0.19, 0.19, 0.05), node labels are then shuffled,
 * and self-loops and repeated edges are dropped. The same seed gives the same
 * graph. Weights are graph_default_weight(); has_weights is 0. Returns 0, or
 * -1 with a message in err ("rmat: ...") and *g zeroed: also, before anything
 * is allocated, when building it needs more memory than the machine has
 * (about 8 bytes per node and 32 per edge; rmat:22:16 about 2 GiB).
 */
int graph_gen_rmat(graph *g, unsigned scale, unsigned edgefactor, uint64_t seed,
                   char *err, size_t errlen);

/*
 * Generates an undirected w x h grid where node y*w + x is joined to its
 * left, right, upper and lower neighbours: a stand-in for a road network
 * (low degree, large diameter). Weights are graph_default_weight(); has_weights
 * is 0. Returns 0, or -1 with a message in err ("grid: ...") and *g zeroed,
 * also when it needs more memory than the machine has, as for R-MAT.
 */
int graph_gen_grid(graph *g, unsigned w, unsigned h, char *err, size_t errlen);

/*
 * Generates a graph from a text spec: "rmat:SCALE:EF" (seed 1),
 * "rmat:SCALE:EF:SEED" or "grid:W:H", all numbers decimal. Returns 0, or -1
 * with a message in err and *g zeroed.
 */
int graph_parse_gen(const char *spec, graph *g, char *err, size_t errlen);

/*
 * The undirected version of g in *out (released with graph_free()): an arc u->v
 * of g gives both u->v and v->u, with the smaller weight where g has both
 * (n, has_weights and first_id as in g; directed 0). Coloring and MIS treat
 * every graph as undirected through it. Returns 0, or -1 with a message in err
 * ("out of memory", "too many arcs ...") and *out zeroed.
 */
int graph_undirected(const graph *g, graph *out, char *err, size_t errlen);

/* Releases the arrays of g and zeroes it. Safe on a zeroed graph and on NULL. */
void graph_free(graph *g);

/* The most arcs any node of g has (0 for a graph without arcs). */
uint32_t graph_max_degree(const graph *g);

/*
 * The weight 1..255 given to arc u->v when the input has none; it depends
 * only on the unordered pair, so both directions of an edge agree. With
 * a = min(u,v), b = max(u,v) (internal 0-based ids) and
 * k = (a << 32) | b as a 64-bit value, k goes through the splitmix64 finaliser
 *   k ^= k >> 30; k *= 0xbf58476d1ce4e5b9;
 *   k ^= k >> 27; k *= 0x94d049bb133111eb;
 *   k ^= k >> 31;
 * and the weight is 1 + k % 255.
 */
uint32_t graph_default_weight(uint32_t u, uint32_t v);

#endif
