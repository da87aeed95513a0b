/* components: the tutorial's whole program. Connected components of a random graph by label
 * propagation (kernels/examples/components.cl, in the cooperative kernels language), merged by
 * coop-merge with a periodic task (kernels/examples/tick.cl) into one megakernel
 * (kernels/generated/components_mega.cl), run through libcoop's public API and checked against a
 * union-find on the CPU. docs/TUTORIAL.md walks through it.
 *
 *   components [--nodes N] [--edges M] [--seed S] [--period-ms P] [--task-groups G] [--chaos SEED]
 *
 * Exit status (as every program of the project): 0 when the labels and the task's runs are right,
 * 1 for bad arguments or an error of OpenCL or libcoop, 2 when a result is wrong. */
#include <coop.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "components_mega.h" /* COMPONENTS_MEGA_NAME, COMPONENTS_MEGA_ARG_..., COMPONENTS_MEGA_TASK_... */

/* The merged program's source (built from kernels/generated/components_mega.cl). */
extern const char components_mega_source[];

static const char usage[] =
    "usage: components [--nodes N] [--edges M] [--seed S] [--period-ms P] [--task-groups G] [--chaos SEED]\n"
    "  --nodes N        nodes of the random graph (default 20000)\n"
    "  --edges M        undirected edges, at random between the nodes (default 14000: many components)\n"
    "  --seed S         the graph's random seed (default 1)\n"
    "  --period-ms P    the task comes every P ms while the components are computed (default 2)\n"
    "  --task-groups G  workgroups of each task run (default 4)\n"
    "  --chaos SEED     chaos mode: random kills and forks from this seed (default: COOP_CHAOS or none)\n"
    "  -h, --help       print this help and exit\n"
    "  --version        print the version and exit\n"
    "The device is the first supported one, or COOP_PLATFORM / COOP_DEVICE.\n"
    "Exit status: 0 correct, 1 bad arguments or a failure of OpenCL or libcoop, 2 a wrong result.\n";

enum { EXIT_CORRECT = 0, EXIT_FAILED = 1, EXIT_WRONG = 2 };

typedef struct graph {
    unsigned nodes;
    cl_uint *row;                 /* nodes + 1 offsets into col */
    cl_uint *col;                 /* both directions of every edge */
} graph;

typedef struct options {
    unsigned nodes, edges, seed, task_groups, chaos;
    double period_ms;
} options;

/* A whole number in [min, max] from the argument of `option`, or -1 with a message. */
static int number(const char *option, const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
    /* digits only: strtoul alone would also take leading spaces, a sign and "-1" (as ULONG_MAX) */
    int digits = text && isdigit((unsigned char)*text);
    char *end = NULL;
    errno = 0;
    unsigned long value = digits ? strtoul(text, &end, 10) : 0;
    if (!digits || *end || errno || value < min || value > max) {
        fprintf(stderr, "components: %s needs a whole number from %lu to %lu, not '%s'\n", option, min, max,
                text ? text : "");
        return -1;
    }
    *out = value;
    return 0;
}

/* Returns 0, 1 (--help or --version printed) or -1 (bad arguments, said). */
static int parse(int argc, char **argv, options *o)
{
    static const struct {
        const char *name;
        unsigned long min, max;
    } known[] = {{"--nodes", 1, 50000000}, {"--edges", 0, 200000000}, {"--seed", 0, UINT_MAX},
                 {"--period-ms", 1, 60000}, {"--task-groups", 1, 1024}, {"--chaos", 1, UINT_MAX}};
    *o = (options){.nodes = 20000, .edges = 14000, .seed = 1, .task_groups = 4, .period_ms = 2};
    const char *given[sizeof known / sizeof *known] = {NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 1;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("components (libcoop) %s\n", coop_version());
            return 1;
        }
        size_t k = 0;
        while (k < sizeof known / sizeof *known && strcmp(argv[i], known[k].name))
            k++;
        if (k == sizeof known / sizeof *known) {
            fprintf(stderr, "components: unknown argument '%s'\n%s", argv[i], usage);
            return -1;
        }
        unsigned long n = 0;
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (number(argv[i], value, known[k].min, known[k].max, &n) != 0)
            return -1;
        if (given[k]) {
            fprintf(stderr, "components: %s given twice ('%s', then '%s'); give it once\n", argv[i], given[k], value);
            return -1;
        }
        given[k] = value;
        i++;
        switch (k) {
        case 0: o->nodes = (unsigned)n; break;
        case 1: o->edges = (unsigned)n; break;
        case 2: o->seed = (unsigned)n; break;
        case 3: o->period_ms = (double)n; break;
        case 4: o->task_groups = (unsigned)n; break;
        default: o->chaos = (unsigned)n; break;
        }
    }
    return 0;
}

/* xorshift32 */
static unsigned next_random(unsigned *state)
{
    unsigned x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* A random undirected graph in compressed rows: `edges` edges between random nodes. */
static int random_graph(const options *o, graph *g)
{
    size_t arcs = 2 * (size_t)o->edges;
    cl_uint *ends = malloc(2 * o->edges * sizeof *ends + 1);
    g->nodes = o->nodes;
    g->row = calloc(o->nodes + 1, sizeof *g->row);
    g->col = malloc(arcs * sizeof *g->col + 1);
    if (!ends || !g->row || !g->col) {
        free(ends);
        return -1;
    }
    unsigned state = o->seed * 2654435761u + 1u;
    for (unsigned e = 0; e < o->edges; e++) {
        ends[2 * e] = next_random(&state) % o->nodes;
        ends[2 * e + 1] = next_random(&state) % o->nodes;
        g->row[ends[2 * e] + 1]++;
        g->row[ends[2 * e + 1] + 1]++;
    }
    for (unsigned v = 0; v < o->nodes; v++)
        g->row[v + 1] += g->row[v];
    cl_uint *fill = malloc(o->nodes * sizeof *fill + 1);
    if (!fill) {
        free(ends);
        return -1;
    }
    memcpy(fill, g->row, o->nodes * sizeof *fill);
    for (unsigned e = 0; e < o->edges; e++) {
        g->col[fill[ends[2 * e]]++] = ends[2 * e + 1];
        g->col[fill[ends[2 * e + 1]]++] = ends[2 * e];
    }
    free(fill);
    free(ends);
    return 0;
}

static cl_uint find_root(cl_uint *parent, cl_uint v)
{
    while (parent[v] != v)
        v = parent[v] = parent[parent[v]];
    return v;
}

/* The CPU's answer: the smallest node of each node's component, by union-find. */
static cl_uint *cpu_components(const graph *g)
{
    cl_uint *parent = malloc(g->nodes * sizeof *parent + 1);
    if (!parent)
        return NULL;
    for (cl_uint v = 0; v < g->nodes; v++)
        parent[v] = v;
    for (cl_uint v = 0; v < g->nodes; v++)
        for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++) {
            cl_uint a = find_root(parent, v), b = find_root(parent, g->col[e]);
            if (a != b)
                parent[a > b ? a : b] = a < b ? a : b; /* the smaller node stays the root */
        }
    for (cl_uint v = 0; v < g->nodes; v++)
        parent[v] = find_root(parent, v);
    return parent;
}

static cl_mem buffer(coop_context *ctx, size_t bytes, void *data)
{
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                                bytes ? bytes : 4, data, &err);
    if (err != CL_SUCCESS)
        fprintf(stderr, "components: clCreateBuffer of %zu bytes failed (%d)\n", bytes, err);
    return err == CL_SUCCESS ? mem : NULL;
}

/* Runs the megakernel and checks its results; returns the exit status. */
static int run(coop_context *ctx, const options *o, const graph *g)
{
    int status = EXIT_FAILED;
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    cl_mem row = NULL, col = NULL, labels = NULL, scratch = NULL, runs = NULL;
    cl_uint *got = malloc(g->nodes * sizeof *got + 1), *expected = cpu_components(g);
    cl_uint *ticks = calloc(o->task_groups, sizeof *ticks);
    if (!got || !expected || !ticks) {
        fprintf(stderr, "components: out of memory\n");
        goto done;
    }
    /* the program coop-merge wrote; libcoop prepends its kernel header */
    if (coop_program_create(ctx, components_mega_source, NULL, &program) != COOP_OK ||
        coop_kernel_create(program, COMPONENTS_MEGA_NAME, &kernel) != COOP_OK) {
        fprintf(stderr, "components: %s\n", coop_context_message(ctx));
        goto done;
    }
    row = buffer(ctx, (g->nodes + 1) * sizeof *g->row, g->row);
    col = buffer(ctx, g->row[g->nodes] * sizeof *g->col, g->row[g->nodes] ? g->col : NULL);
    labels = buffer(ctx, g->nodes * sizeof(cl_uint), NULL);
    scratch = buffer(ctx, g->nodes * sizeof(cl_uint), NULL);
    runs = buffer(ctx, o->task_groups * sizeof *ticks, ticks);
    if (!row || !col || !labels || !scratch || !runs)
        goto done;
    cl_uint nodes = g->nodes;
    /* arguments by the names the generated header gives them (after libcoop's own two) */
    if (coop_kernel_set_buffer(kernel, COMPONENTS_MEGA_ARG_components_row, row) != COOP_OK ||
        coop_kernel_set_buffer(kernel, COMPONENTS_MEGA_ARG_components_col, col) != COOP_OK ||
        coop_kernel_set_buffer(kernel, COMPONENTS_MEGA_ARG_components_labels, labels) != COOP_OK ||
        coop_kernel_set_buffer(kernel, COMPONENTS_MEGA_ARG_components_scratch, scratch) != COOP_OK ||
        coop_kernel_set_arg(kernel, COMPONENTS_MEGA_ARG_components_nodes, sizeof nodes, &nodes) != COOP_OK ||
        coop_kernel_set_buffer(kernel, COMPONENTS_MEGA_ARG_tick_runs, runs) != COOP_OK) {
        fprintf(stderr, "components: %s\n", coop_context_message(ctx));
        goto done;
    }
    /* the task takes a quarter of the groups every period, gives them back when done */
    coop_task_plan plan = {.task = COMPONENTS_MEGA_TASK_tick, .workgroups = o->task_groups,
                           .take = COOP_TAKE_QUARTER, .period_ms = o->period_ms};
    coop_mega_params params = {.launch = {.local_size = 64}, .chaos_seed = o->chaos};
    coop_mega_report report;
    if (coop_mega_run(kernel, &params, &plan, 1, &report) != COOP_OK) {
        fprintf(stderr, "components: %s\n", coop_context_message(ctx));
        goto done;
    }
    cl_command_queue queue = coop_context_queue(ctx);
    if (clEnqueueReadBuffer(queue, labels, CL_TRUE, 0, g->nodes * sizeof *got, got, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(queue, runs, CL_TRUE, 0, o->task_groups * sizeof *ticks, ticks, 0, NULL, NULL) !=
            CL_SUCCESS) {
        fprintf(stderr, "components: reading the results failed\n");
        coop_mega_report_free(&report);
        goto done;
    }
    unsigned components = 0, wrong = 0, wrong_ticks = 0;
    for (cl_uint v = 0; v < g->nodes; v++) {
        components += expected[v] == v;
        if (got[v] != expected[v] && wrong++ < 5)
            fprintf(stderr, "components: node %u has label %u, the CPU says %u\n", v, got[v], expected[v]);
    }
    for (unsigned t = 0; t < o->task_groups; t++)
        wrong_ticks += ticks[t] != report.record_count;
    printf("%u nodes, %u edges, %u components on %u groups (%u kills, %u forks); %zu task runs; "
           "labels %s the CPU's%s\n",
           g->nodes, g->row[g->nodes] / 2, components, report.groups, report.kills, report.forks,
           report.record_count, wrong ? "differ from" : "equal to",
           wrong_ticks ? "; a task run missed groups" : "");
    status = wrong || wrong_ticks ? EXIT_WRONG : EXIT_CORRECT;
    coop_mega_report_free(&report);
done:
    cl_mem buffers[] = {row, col, labels, scratch, runs};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        if (buffers[i])
            clReleaseMemObject(buffers[i]);
    coop_kernel_release(kernel);
    coop_program_release(program);
    free(got);
    free(expected);
    free(ticks);
    return status;
}

int main(int argc, char **argv)
{
    options o;
    int parsed = parse(argc, argv, &o);
    if (parsed)
        return parsed > 0 ? EXIT_CORRECT : EXIT_FAILED;
    graph g = {0};
    if (random_graph(&o, &g) != 0) {
        fprintf(stderr, "components: out of memory for the graph\n");
        return EXIT_FAILED;
    }
    coop_context *ctx = NULL;
    int status = EXIT_FAILED;
    if (coop_context_create(NULL, &ctx) != COOP_OK)
        fprintf(stderr, "components: %s\n", coop_context_message(ctx));
    else
        status = run(ctx, &o, &g);
    coop_context_release(ctx);
    free(g.row);
    free(g.col);
    return status;
}
