/*
 * graph_parse.c - the graph file formats (graph.h): DIMACS and PACE .gr, SNAP edge lists,
 * MatrixMarket with and without its header. The first line tells the format (detect()); its
 * reader fills an edge list from the lines that graph_decode.c hands out and builds the CSR
 * with graph_csr.c.
 */
#include "graph_parse.h"

#include "graph_csr.h"
#include "graph_decode.h"
#include "graph_text.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_FIELDS = 6,
};

/* ------------------------------------------------------------- tokens -- */

struct fields {
    int count;                    /* MAX_FIELDS means "that many or more" */
    const char *s[MAX_FIELDS];
    size_t len[MAX_FIELDS];
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void split(const char *line, size_t len, struct fields *f)
{
    const char *p = line, *end = line + len;

    f->count = 0;
    while (f->count < MAX_FIELDS) {
        while (p < end && is_blank(*p))
            p++;
        if (p == end)
            break;
        f->s[f->count] = p;
        while (p < end && !is_blank(*p))
            p++;
        f->len[f->count] = (size_t)(p - f->s[f->count]);
        f->count++;
    }
}

static int field_is(const struct fields *f, int i, const char *word)
{
    size_t n = strlen(word);

    return f->count > i && f->len[i] == n && memcmp(f->s[i], word, n) == 0;
}

static int field_is_nocase(const struct fields *f, int i, const char *word)
{
    size_t n = strlen(word);

    if (f->count <= i || f->len[i] != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        char c = f->s[i][k];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[k])
            return 0;
    }
    return 1;
}

static int bad_number(struct reader *r, const struct fields *f, int i)
{
    char q[QUOTE_BYTES];

    graph_quote(q, sizeof q, f->s[i], f->len[i]);
    return reader_fail_at(r, r->lineno, "bad number '%s'", q);
}

/* A count from a header line, at most max; what names it in messages. */
static int get_count(struct reader *r, const struct fields *f, int i, uint64_t max,
                     const char *what, uint64_t *value)
{
    char q[QUOTE_BYTES];
    enum number_status st = graph_parse_u64(f->s[i], f->len[i], value);

    if (st == NUMBER_BAD)
        return bad_number(r, f, i);
    if (st == NUMBER_TOO_LARGE || *value > max) {
        graph_quote(q, sizeof q, f->s[i], f->len[i]);
        return reader_fail_at(r, r->lineno, "%s %s too large (at most %llu)", what, q,
                              (unsigned long long)max);
    }
    return 0;
}

/* A node id in lo..hi as the file writes it; *id gets it minus lo. */
static int get_node(struct reader *r, const struct fields *f, int i, uint64_t lo, uint64_t hi,
                    uint32_t *id)
{
    char q[QUOTE_BYTES];
    uint64_t v = 0;
    enum number_status st = graph_parse_u64(f->s[i], f->len[i], &v);

    if (st == NUMBER_BAD)
        return bad_number(r, f, i);
    if (st == NUMBER_TOO_LARGE || v < lo || v > hi) {
        graph_quote(q, sizeof q, f->s[i], f->len[i]);
        return reader_fail_at(r, r->lineno, "node %s out of range %llu..%llu", q, (unsigned long long)lo,
                              (unsigned long long)hi);
    }
    *id = (uint32_t)(v - lo);
    return 0;
}

/* A MatrixMarket value turned into a weight: magnitude rounded to the
 * nearest integer, clamped to 1..UINT32_MAX. */
static int get_mtx_weight(struct reader *r, const struct fields *f, int i, int is_integer,
                          uint32_t *weight)
{
    const char *s = f->s[i];
    size_t len = f->len[i];
    double magnitude;

    if (is_integer) {
        uint64_t v = 0;
        size_t sign = (len > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
        enum number_status st = graph_parse_u64(s + sign, len - sign, &v);

        if (st == NUMBER_BAD)
            return bad_number(r, f, i);
        magnitude = st == NUMBER_TOO_LARGE ? (double)UINT64_MAX : (double)v;
    } else {
        char *endp;
        double x = strtod(s, &endp);

        /* Also rejects hex floats, inf and nan: values are plain decimals. */
        if (endp != s + len || !(x - x == 0.0) || memchr(s, 'x', len) || memchr(s, 'X', len))
            return bad_number(r, f, i);
        magnitude = x < 0 ? -x : x;
    }
    if (magnitude >= (double)UINT32_MAX)
        *weight = UINT32_MAX;
    else if (magnitude < 1.5)
        *weight = 1;
    else
        *weight = (uint32_t)(magnitude + 0.5);
    return 0;
}

static const char *skip_blanks(const char *s)
{
    while (is_blank(*s))
        s++;
    return s;
}

/* --------------------------------------------------------------- size -- */

/*
 * A graph file is refused before anything that grows with the graph is allocated when reading it
 * and running a program on it would need more memory than the machine has (graph.h). The size
 * comes from a header (a .gr's "p" line, a MatrixMarket size line, a SNAP "# Nodes: N"), the
 * arcs counted at most one per EDGE_LINE_MIN_BYTES of a plain file since a header may lie; in an
 * id-numbered file (SNAP, a MatrixMarket body) from the largest id. The edge list is checked
 * again before it grows, and an id-numbered file once more at its end.
 */

enum {
    /* Bytes a node and an arc need at the most: per node the CSR's offset (4) and the programs'
     * copies and per-node arrays (coop-bench's sssp takes 36 in all); per arc the reading's peak,
     * the edge list, the sort's keys and weights, then the CSR. */
    NODE_BYTES = 40,
    ARC_BYTES = 40,
    /* The shortest edge line, "0 1\n". */
    EDGE_LINE_MIN_BYTES = 4,
    /* Nodes an id-numbered file may have beyond twice its edges without declaring them. */
    SPARSE_IDS_FREE = 1 << 20,
};

#define GIB (1024.0 * 1024.0 * 1024.0)

static double peak_bytes(uint64_t nodes, uint64_t arcs)
{
    return (double)NODE_BYTES * (double)nodes + (double)ARC_BYTES * (double)arcs;
}

/* The edges r can hold at the most: one per EDGE_LINE_MIN_BYTES of a plain file, the last
 * line without its newline; UINT64_MAX when the size says nothing (compressed, not a file). */
static uint64_t edges_at_most(const struct reader *r)
{
    if (r->text_bytes_max == UINT64_MAX)
        return UINT64_MAX;
    return (r->text_bytes_max + 1) / EDGE_LINE_MIN_BYTES;
}

/* A header's edge count, believed only as far as the file can hold it. */
static uint64_t declared_edges(const struct reader *r, uint64_t declared)
{
    uint64_t most = edges_at_most(r);

    return declared < most ? declared : most;
}

static uint64_t arcs_of(uint64_t edges, int both_ways)
{
    return both_ways && edges <= UINT64_MAX / 2 ? 2 * edges : both_ways ? UINT64_MAX : edges;
}

/* Fails at `line` when `nodes` and `arcs` (`so_far`: those of the lines read) need more memory
 * than the machine has. */
static int check_memory(struct reader *r, uint64_t line, uint64_t nodes, uint64_t arcs, int so_far)
{
    uint64_t have = graph_machine_bytes();
    double need = peak_bytes(nodes, arcs);

    if (have == 0 || need <= (double)have)
        return 0;
    return reader_fail_at(r, line, "%llu %s and %llu %s%s need about %.1f GiB of memory to read and run, more "
                          "than the %.1f GiB here", (unsigned long long)nodes, nodes == 1 ? "node" : "nodes",
                          (unsigned long long)arcs, arcs == 1 ? "arc" : "arcs", so_far ? " so far" : "",
                          need / GIB, (double)have / GIB);
}

/*
 * In an id-numbered file the largest id sets the node count, and ids may leave gaps: nodes that
 * no line names, isolated. Fails at `line` when id `id` makes `nodes` more than twice the
 * `edges` (every node on an edge), than SPARSE_IDS_FREE, and than the count the file declares:
 * a stray id, or ids that are not numbers from 0 or 1, would make the graph mostly isolated
 * nodes that every run pays for (0 300000000 alone: 11 GiB). The bound is the file's, not the
 * machine's, so that a file read here reads everywhere. `at_most`: edges is what the file can
 * hold, not yet what it has; `remedy` ends the message.
 */
static int check_ids(struct reader *r, uint64_t line, uint64_t id, uint64_t nodes, uint64_t declared,
                     uint64_t edges, int both_ways, int at_most, const char *remedy)
{
    if (nodes <= declared || nodes <= SPARSE_IDS_FREE || nodes <= arcs_of(edges, 1))
        return 0;
    return reader_fail_at(r, line, "node %llu makes %llu nodes, about %.1f GiB of memory to read and run, for a file "
                          "of %s%llu %s: %s", (unsigned long long)id, (unsigned long long)nodes,
                          peak_bytes(nodes, arcs_of(edges, both_ways)) / GIB, at_most ? "at most " : "",
                          (unsigned long long)edges, edges == 1 ? "edge" : "edges", remedy);
}

/* Adds u->v to e for a graph of `nodes` (so far), each edge stored `both_ways` or not; before
 * the list grows, the graph so far must fit in memory. */
static int push_or_fail(struct reader *r, struct edge_list *e, uint64_t nodes, int both_ways, uint32_t u,
                        uint32_t v, uint32_t weight)
{
    if (e->len == e->cap && check_memory(r, r->lineno, nodes, arcs_of((uint64_t)e->len + 1, both_ways), 1) != 0)
        return -1;
    if (edges_push(e, u, v, weight) != 0)
        return reader_fail(r, "out of memory");
    return 0;
}

/* ------------------------------------------------------------ formats -- */

static int build_from_file(struct reader *r, graph *g, uint32_t n, struct edge_list *e,
                           int undirected)
{
    enum build_status st = build_csr(g, n, e, undirected);

    if (st == BUILD_TOO_MANY_ARCS)
        return reader_fail(r, "too many arcs (at most %lu)", (unsigned long)UINT32_MAX);
    if (st == BUILD_NO_MEMORY)
        return reader_fail(r, "out of memory");
    return 0;
}

/* Reads the next line that is not blank and not a comment (a line whose
 * first non-blank character is comment_char), split into f. */
static int next_data_line(struct reader *r, char comment_char, struct fields *f)
{
    int rc;

    while ((rc = reader_next_line(r)) == 1) {
        if (*skip_blanks(r->line) == comment_char)
            continue;
        split(r->line, r->line_len, f);
        if (f->count > 0)
            return 1;
    }
    return rc;
}

/* Edge-list capacity to start with: the declared count, within reason, since
 * a header may lie. */
static size_t initial_capacity(uint64_t declared)
{
    return declared < ((size_t)1 << 22) ? (size_t)declared : (size_t)1 << 22;
}

/* DIMACS shortest path ("p sp", directed, weighted) and PACE 2016 ("p tw",
 * undirected, unweighted). */
static int read_dimacs(struct reader *r, graph *g, struct edge_list *e)
{
    struct fields f;
    uint64_t header_line, nodes, declared, found = 0;
    int rc, pace;

    rc = next_data_line(r, 'c', &f);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return reader_fail_at(r, r->lineno + 1, "expected 'p sp N M' header");
    pace = field_is(&f, 0, "p") && field_is(&f, 1, "tw");
    if (f.count != 4 || !field_is(&f, 0, "p") || !(pace || field_is(&f, 1, "sp")))
        return reader_fail_at(r, r->lineno, pace ? "expected 'p tw N M' header" : "expected 'p sp N M' header");
    header_line = r->lineno;
    if (get_count(r, &f, 2, UINT32_MAX, "node count", &nodes) != 0 ||
        get_count(r, &f, 3, UINT64_MAX, "arc count", &declared) != 0)
        return -1;
    if (check_memory(r, header_line, nodes, arcs_of(declared_edges(r, declared), pace), 0) != 0)
        return -1;
    e->weighted = !pace;
    if (edges_reserve(e, initial_capacity(declared)) != 0)
        return reader_fail(r, "out of memory");

    while ((rc = next_data_line(r, 'c', &f)) == 1) {
        uint32_t u, v;
        uint64_t w = 0;

        if (pace) {
            if (f.count != 2)
                return reader_fail_at(r, r->lineno, "expected 'u v' edge line");
            if (get_node(r, &f, 0, 1, nodes, &u) != 0 || get_node(r, &f, 1, 1, nodes, &v) != 0)
                return -1;
        } else {
            if (f.count != 4 || !field_is(&f, 0, "a"))
                return reader_fail_at(r, r->lineno, "expected 'a u v w' arc line");
            if (get_node(r, &f, 1, 1, nodes, &u) != 0 || get_node(r, &f, 2, 1, nodes, &v) != 0 ||
                get_count(r, &f, 3, UINT32_MAX, "weight", &w) != 0)
                return -1;
        }
        found++;
        if (push_or_fail(r, e, nodes, pace, u, v, (uint32_t)w) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (found != declared)
        return reader_fail_at(r, header_line, "expected %llu %s, found %llu", (unsigned long long)declared,
                              pace ? "edges" : "arcs", (unsigned long long)found);
    g->has_weights = !pace;
    g->first_id = 1;
    return build_from_file(r, g, (uint32_t)nodes, e, pace);
}

/* The N of a SNAP "# Nodes: N Edges: M" comment, or 0. */
static uint64_t snap_declared_nodes(const char *comment)
{
    const char *p = strstr(comment, "Nodes:");
    uint64_t v = 0;
    size_t len = 0;

    if (p == NULL)
        return 0;
    p = skip_blanks(p + strlen("Nodes:"));
    while (p[len] >= '0' && p[len] <= '9')
        len++;
    if (graph_parse_u64(p, len, &v) != NUMBER_OK || v > UINT32_MAX)
        return 0;
    return v;
}

static int read_snap(struct reader *r, graph *g, struct edge_list *e)
{
    static const char remedy[] = "number the nodes densely from 0 or declare them in a '# Nodes: N' comment";
    struct fields f;
    uint64_t declared_nodes = 0, declared_line = 0, n = 0, n_line = 0, edges = 0;
    int rc;

    while ((rc = reader_next_line(r)) == 1) {
        uint32_t u, v, top;

        if (*skip_blanks(r->line) == '#') {
            uint64_t declared = snap_declared_nodes(r->line);
            if (declared > declared_nodes) {
                declared_nodes = declared;
                declared_line = r->lineno;
                if (check_memory(r, declared_line, declared_nodes, edges, 0) != 0)
                    return -1;
            }
            continue;
        }
        split(r->line, r->line_len, &f);
        if (f.count == 0)
            continue;
        if (f.count != 2)
            return reader_fail_at(r, r->lineno, "expected 'u v' edge line");
        if (get_node(r, &f, 0, 0, UINT32_MAX - 1, &u) != 0 ||
            get_node(r, &f, 1, 0, UINT32_MAX - 1, &v) != 0)
            return -1;
        top = u > v ? u : v;
        if ((uint64_t)top + 1 > n) {
            n = (uint64_t)top + 1;
            n_line = r->lineno;
            if (check_ids(r, n_line, n - 1, n, declared_nodes, edges_at_most(r), 0, 1, remedy) != 0)
                return -1;
        }
        edges++;
        if (push_or_fail(r, e, n > declared_nodes ? n : declared_nodes, 0, u, v, 0) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (check_ids(r, n_line, n - 1, n, declared_nodes, edges, 0, 0, remedy) != 0)
        return -1;
    if (declared_nodes > n) {
        n = declared_nodes;
        n_line = declared_line;
    }
    if (check_memory(r, n_line, n, edges, 0) != 0)
        return -1;
    g->first_id = 0;
    return build_from_file(r, g, (uint32_t)n, e, 0);
}

/* MatrixMarket body with neither banner nor size line: "row col" lines,
 * 1-based, undirected, n the largest id. */
static int read_mtx_body(struct reader *r, graph *g, struct edge_list *e)
{
    static const char remedy[] = "number the nodes densely from 1";
    struct fields f;
    uint32_t n = 0;
    uint64_t n_line = 0, edges = 0;
    int rc;

    while ((rc = next_data_line(r, '%', &f)) == 1) {
        uint32_t u, v, top;

        if (f.count != 2)
            return reader_fail_at(r, r->lineno, "expected 'row col'");
        if (get_node(r, &f, 0, 1, UINT32_MAX, &u) != 0 || get_node(r, &f, 1, 1, UINT32_MAX, &v) != 0)
            return -1;
        top = u > v ? u : v;
        if (top + 1 > n) {
            n = top + 1;
            n_line = r->lineno;
            if (check_ids(r, n_line, n, n, 0, edges_at_most(r), 1, 1, remedy) != 0)
                return -1;
        }
        edges++;
        if (push_or_fail(r, e, n, 1, u, v, 0) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (check_ids(r, n_line, n, n, 0, edges, 1, 0, remedy) != 0 || check_memory(r, n_line, n, 2 * edges, 0) != 0)
        return -1;
    g->first_id = 1;
    return build_from_file(r, g, n, e, 1);
}

static int read_mtx(struct reader *r, graph *g, struct edge_list *e)
{
    char q[QUOTE_BYTES];
    struct fields f;
    uint64_t rows, cols, declared, found = 0, size_line;
    int rc, pattern, integer, undirected;

    if (reader_next_line(r) < 0)
        return -1;
    split(r->line, r->line_len, &f);
    if (f.count != 5 || !field_is_nocase(&f, 0, "%%matrixmarket") || !field_is_nocase(&f, 1, "matrix"))
        return reader_fail_at(r, r->lineno,
                              "expected '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY' header");
    if (!field_is_nocase(&f, 2, "coordinate")) {
        graph_quote(q, sizeof q, f.s[2], f.len[2]);
        return reader_fail_at(r, r->lineno, "unsupported MatrixMarket format '%s', expected 'coordinate'", q);
    }
    pattern = field_is_nocase(&f, 3, "pattern");
    integer = field_is_nocase(&f, 3, "integer");
    if (!pattern && !integer && !field_is_nocase(&f, 3, "real") && !field_is_nocase(&f, 3, "double")) {
        graph_quote(q, sizeof q, f.s[3], f.len[3]);
        return reader_fail_at(r, r->lineno,
                              "unsupported MatrixMarket field '%s', expected pattern, integer or real", q);
    }
    undirected = field_is_nocase(&f, 4, "symmetric") || field_is_nocase(&f, 4, "skew-symmetric");
    if (!undirected && !field_is_nocase(&f, 4, "general")) {
        graph_quote(q, sizeof q, f.s[4], f.len[4]);
        return reader_fail_at(r, r->lineno,
                              "unsupported MatrixMarket symmetry '%s', expected general, symmetric or "
                              "skew-symmetric", q);
    }

    rc = next_data_line(r, '%', &f);
    if (rc < 0)
        return -1;
    if (rc == 0 || f.count != 3)
        return reader_fail_at(r, rc == 0 ? r->lineno + 1 : r->lineno, "expected 'rows cols entries' size line");
    size_line = r->lineno;
    if (get_count(r, &f, 0, UINT32_MAX, "row count", &rows) != 0 ||
        get_count(r, &f, 1, UINT32_MAX, "column count", &cols) != 0 ||
        get_count(r, &f, 2, UINT64_MAX, "entry count", &declared) != 0)
        return -1;
    if (rows != cols)
        return reader_fail_at(r, r->lineno, "matrix is %llux%llu, a graph needs a square one",
                              (unsigned long long)rows, (unsigned long long)cols);
    if (check_memory(r, size_line, rows, arcs_of(declared_edges(r, declared), undirected), 0) != 0)
        return -1;
    e->weighted = !pattern;
    if (edges_reserve(e, initial_capacity(declared)) != 0)
        return reader_fail(r, "out of memory");

    while ((rc = next_data_line(r, '%', &f)) == 1) {
        uint32_t u = 0, v = 0, w = 0;

        if (f.count != (pattern ? 2 : 3))
            return reader_fail_at(r, r->lineno, pattern ? "expected 'row col'" : "expected 'row col value'");
        if (get_node(r, &f, 0, 1, rows, &u) != 0 || get_node(r, &f, 1, 1, rows, &v) != 0)
            return -1;
        if (!pattern && get_mtx_weight(r, &f, 2, integer, &w) != 0)
            return -1;
        found++;
        if (push_or_fail(r, e, rows, undirected, u, v, w) != 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (found != declared)
        return reader_fail_at(r, size_line, "expected %llu entries, found %llu",
                              (unsigned long long)declared, (unsigned long long)found);
    g->has_weights = !pattern;
    g->first_id = 1;
    return build_from_file(r, g, (uint32_t)rows, e, undirected);
}

/* ---------------------------------------------------------- detection -- */

enum format { DIMACS, SNAP, MTX, MTX_BODY };

static int ends_with_nocase(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);

    if (len < n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[len - n + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != suffix[i])
            return 0;
    }
    return 1;
}

/* Sets *hint to the format the file name suggests, ignoring a .gz or .xz
 * suffix; returns 0 when the name suggests none. */
static int name_hint(const char *path, enum format *hint)
{
    size_t len = strlen(path);

    if (ends_with_nocase(path, len, ".gz") || ends_with_nocase(path, len, ".xz"))
        len -= 3;
    if (ends_with_nocase(path, len, ".gr"))
        *hint = DIMACS;
    else if (ends_with_nocase(path, len, ".mtx"))
        *hint = MTX;
    else if (ends_with_nocase(path, len, ".txt") || ends_with_nocase(path, len, ".edges") ||
             ends_with_nocase(path, len, ".el"))
        *hint = SNAP;
    else
        return 0;
    return 1;
}

/* Chooses the format from the first non-blank line (hinted by the name when
 * that line is bare numbers or unknown), leaving the line to be read again. */
static int detect(struct reader *r, enum format *format)
{
    enum format hint = SNAP;
    int hinted = name_hint(r->path, &hint);
    struct fields f;
    const char *first;
    int rc;

    do {
        rc = reader_next_line(r);
        if (rc <= 0)
            return rc < 0 ? -1 : reader_fail(r, "no graph data");
        split(r->line, r->line_len, &f);
    } while (f.count == 0);
    r->held = 1;

    first = f.s[0];
    if (first[0] == '%')
        *format = (first[1] == '%') ? MTX : MTX_BODY;
    else if (first[0] == '#')
        *format = SNAP;
    else if (first[0] == 'c' || field_is(&f, 0, "p") || field_is(&f, 0, "a"))
        *format = DIMACS;
    else if (first[0] >= '0' && first[0] <= '9')
        *format = hint == DIMACS ? DIMACS : hint == MTX ? MTX_BODY : SNAP;
    else if (hinted)
        *format = hint;
    else
        return reader_fail_at(r, r->lineno,
                              "unrecognised graph format (expected DIMACS, PACE, SNAP or MatrixMarket)");
    return 0;
}

int parse_graph(struct reader *r, graph *g, struct edge_list *e)
{
    enum format format = SNAP;

    if (detect(r, &format) != 0)
        return -1;
    switch (format) {
    case DIMACS:
        return read_dimacs(r, g, e);
    case MTX:
        return read_mtx(r, g, e);
    case MTX_BODY:
        return read_mtx_body(r, g, e);
    case SNAP:
        break;
    }
    return read_snap(r, g, e);
}
