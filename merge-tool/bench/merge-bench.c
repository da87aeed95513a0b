/* merge-bench: is a megakernel from coop-merge as fast as the same one written by hand?
 *
 *   merge-bench [--quick] [--repeat R] [--rounds N] [--iters N] [--local-size L]
 *               [--hand FILE:KERNEL] [--merged FILE:KERNEL]
 *
 * Runs the rounds kernel (work, then a resizing barrier, N times) as a megakernel written by hand
 * (merge-tool/bench/hand.cl:rounds_mega) and as coop-merge's megakernel of the same kernel written
 * in the cooperative language (kernels/generated/sched_rounds_mega.cl:sched_rounds_mega, made from
 * sched-bench's benchmarks/sched/rounds.cl and task.cl), alternately, R times each, with no task and no
 * chaos. Both take (rounds, iters, sink, task_iters, task_sink) after COOP_PARAMS. Prints the
 * median time from the end of discovery to the end of the run, and the merged one's overhead;
 * every run's sink is checked against the CPU (exit status 2 on a difference).
 * The device is chosen with COOP_PLATFORM / COOP_DEVICE as for every libcoop program. */
#include "coop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct settings {
    unsigned repeat, rounds, iters;
    size_t local_size;
    const char *hand, *merged;    /* FILE:KERNEL */
} settings;

typedef struct variant {
    const char *label;
    coop_program *program;
    coop_kernel *kernel;
    double *times_ms;
    unsigned members;
} variant;

static int usage(void)
{
    fprintf(stderr, "usage: merge-bench [--quick] [--repeat R] [--rounds N] [--iters N] [--local-size L]\n"
                    "                   [--hand FILE:KERNEL] [--merged FILE:KERNEL]\n");
    return 2;
}

static int parse(int argc, char **argv, settings *s)
{
    *s = (settings){.repeat = 11, .rounds = 400, .iters = 3000, .local_size = 256,
                    .hand = "merge-tool/bench/hand.cl:rounds_mega",
                    .merged = "kernels/generated/sched_rounds_mega.cl:sched_rounds_mega"};
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--quick")) {
            s->repeat = 5;
            s->rounds = 100;
            s->iters = 300;
            s->local_size = 64;
        } else if (value && !strcmp(argv[i], "--repeat") && atoi(value) > 0) {
            s->repeat = (unsigned)atoi(argv[++i]);
        } else if (value && !strcmp(argv[i], "--rounds") && atoi(value) > 0) {
            s->rounds = (unsigned)atoi(argv[++i]);
        } else if (value && !strcmp(argv[i], "--iters") && atoi(value) >= 0) {
            s->iters = (unsigned)atoi(argv[++i]);
        } else if (value && !strcmp(argv[i], "--local-size") && atoi(value) > 0) {
            s->local_size = (size_t)atoi(argv[++i]);
        } else if (value && !strcmp(argv[i], "--hand") && strchr(value, ':')) {
            s->hand = argv[++i];
        } else if (value && !strcmp(argv[i], "--merged") && strchr(value, ':')) {
            s->merged = argv[++i];
        } else {
            return -1;
        }
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, unsigned n)
{
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Builds FILE:KERNEL (the file's directory is on the include path) and sets its arguments. */
static coop_status load(coop_context *ctx, const char *spec, const settings *s, cl_mem sink, cl_mem task_sink,
                        variant *v)
{
    const char *colon = strrchr(spec, ':');
    char path[512], options[600];
    snprintf(path, sizeof path, "%.*s", (int)(colon - spec), spec);
    const char *slash = strrchr(path, '/');
    snprintf(options, sizeof options, "-I %.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    coop_status status = coop_program_create_from_file(ctx, path, options, &v->program);
    if (status == COOP_OK)
        status = coop_kernel_create(v->program, colon + 1, &v->kernel);
    cl_uint task_iters = 100;
    if (status == COOP_OK)
        status = coop_kernel_set_arg(v->kernel, 0, sizeof s->rounds, &s->rounds);
    if (status == COOP_OK)
        status = coop_kernel_set_arg(v->kernel, 1, sizeof s->iters, &s->iters);
    if (status == COOP_OK)
        status = coop_kernel_set_buffer(v->kernel, 2, sink);
    if (status == COOP_OK)
        status = coop_kernel_set_arg(v->kernel, 3, sizeof task_iters, &task_iters);
    if (status == COOP_OK)
        status = coop_kernel_set_buffer(v->kernel, 4, task_sink);
    return status;
}

/* work.h's unit_work on the host. */
static cl_uint unit_work(cl_uint unit, cl_uint lid, cl_uint iters)
{
    cl_uint x = unit * 2654435761u + lid;
    for (cl_uint i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

/* What the sink must hold after a run on `members` groups (no task, no chaos: M never changes):
 * each group's last round, in its slot. Computed once per member count. */
typedef struct reference {
    unsigned members;
    cl_uint *sink;
} reference;

static const cl_uint *expected_sink(reference *ref, const settings *s, unsigned members, size_t words)
{
    if (ref->sink && ref->members == members)
        return ref->sink;
    free(ref->sink);
    ref->sink = calloc(words, sizeof(cl_uint));
    ref->members = members;
    for (unsigned g = 0; ref->sink && g < members && s->rounds; g++)
        for (cl_uint l = 0; l < s->local_size; l++)
            ref->sink[((g & 4095u) * s->local_size) + l] = unit_work(s->rounds - 1 + g, l, s->iters);
    return ref->sink;
}

/* One timed run from a zeroed sink; *wrong counts the sink words that differ from the CPU's. */
static coop_status run_once(coop_context *ctx, variant *v, const settings *s, unsigned run, cl_mem sink,
                            reference *ref, unsigned *wrong)
{
    cl_command_queue queue = coop_context_queue(ctx);
    size_t words = 4096 * s->local_size;
    const cl_uint zero = 0;
    if (clEnqueueFillBuffer(queue, sink, &zero, sizeof zero, 0, words * sizeof zero, 0, NULL, NULL) != CL_SUCCESS ||
        clFinish(queue) != CL_SUCCESS)
        return COOP_ERR_OPENCL;
    coop_mega_params params = {.launch = {.local_size = s->local_size, .timeout_s = 600}};
    coop_mega_report report;
    coop_status status = coop_mega_run(v->kernel, &params, NULL, 0, &report);
    if (status != COOP_OK)
        return status;
    v->times_ms[run] = report.run_ms - report.discovery_ms;
    v->members = report.members_start;
    coop_mega_report_free(&report);
    cl_uint *got = malloc(words * sizeof *got);
    const cl_uint *want = expected_sink(ref, s, v->members, words);
    if (!got || !want || clEnqueueReadBuffer(queue, sink, CL_TRUE, 0, words * sizeof *got, got, 0, NULL, NULL) != CL_SUCCESS) {
        free(got);
        return COOP_ERR_OPENCL;
    }
    for (size_t i = 0; i < words; i++)
        *wrong += got[i] != want[i];
    free(got);
    return COOP_OK;
}

int main(int argc, char **argv)
{
    settings s;
    if (parse(argc, argv, &s) != 0)
        return usage();
    coop_context *ctx = NULL;
    coop_status status = coop_context_create(NULL, &ctx);
    variant variants[2] = {{.label = "hand-written"}, {.label = "coop-merge"}};
    cl_mem sink = NULL, task_sink = NULL;
    if (status == COOP_OK) {
        cl_int err = CL_SUCCESS;
        size_t bytes = 4096 * s.local_size * sizeof(cl_uint);
        sink = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
        task_sink = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS)
            status = COOP_ERR_OPENCL;
    }
    for (int i = 0; i < 2 && status == COOP_OK; i++) {
        variants[i].times_ms = calloc(s.repeat, sizeof(double));
        status = load(ctx, i == 0 ? s.hand : s.merged, &s, sink, task_sink, &variants[i]);
    }
    /* one run each first: PoCL compiles at the first launch */
    reference ref = {0};
    unsigned wrong[2] = {0, 0};
    for (int i = 0; i < 2 && status == COOP_OK; i++)
        status = run_once(ctx, &variants[i], &s, 0, sink, &ref, &wrong[i]);
    for (unsigned run = 0; run < s.repeat && status == COOP_OK; run++)
        for (int i = 0; i < 2 && status == COOP_OK; i++) {
            unsigned which = (run + (unsigned)i) % 2;
            status = run_once(ctx, &variants[which], &s, run, sink, &ref, &wrong[which]);
        }
    free(ref.sink);
    if (status != COOP_OK) {
        fprintf(stderr, "merge-bench: %s: %s\n", coop_strerror(status), coop_context_message(ctx));
        coop_context_release(ctx);
        return 1;
    }
    printf("merge-bench on %s: %u rounds of %u iterations, local size %zu, %u runs each (alternating)\n",
           coop_context_device(ctx)->name, s.rounds, s.iters, s.local_size, s.repeat);
    double medians[2];
    for (int i = 0; i < 2; i++) {
        medians[i] = median(variants[i].times_ms, s.repeat);
        printf("%-13s median %10.3f ms (min %10.3f, max %10.3f) on %u members\n", variants[i].label, medians[i],
               variants[i].times_ms[0], variants[i].times_ms[s.repeat - 1], variants[i].members);
    }
    printf("coop-merge overhead %+.2f%%\n", 100.0 * (medians[1] / medians[0] - 1.0));
    int rc = wrong[0] || wrong[1] ? 2 : 0;
    printf("results: %s (words differing from the CPU over all runs: hand-written %u, coop-merge %u)\n",
           rc ? "MISMATCH" : "every run of both equals the CPU reference", wrong[0], wrong[1]);
    for (int i = 0; i < 2; i++) {
        coop_kernel_release(variants[i].kernel);
        coop_program_release(variants[i].program);
        free(variants[i].times_ms);
    }
    clReleaseMemObject(sink);
    clReleaseMemObject(task_sink);
    coop_context_release(ctx);
    return rc;
}
