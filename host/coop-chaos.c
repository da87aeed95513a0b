/* coop-chaos: runs the example megakernel (kernels/examples/rounds.cl) under chaos mode for a
 * range of seeds, with a periodic task, and checks every result against the CPU reference. A
 * memory-model or scheduler bug shows up as a wrong element, a wrong task output or a watchdog
 * report; exit status 1 then.
 *
 *   coop-chaos [--seeds N] [--first S] [--rounds R] [--elements E] [--local-size L] [--tasks T] */
#include "coop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char coop_rounds_source[];

typedef struct options {
    unsigned seeds, first, rounds, elements, tasks, task_groups;
    size_t local_size;
} options;

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.seeds = 20, .first = 1, .rounds = 50, .elements = 1 << 16, .tasks = 3, .task_groups = 37,
                   .local_size = 64};
    for (int i = 1; i < argc; i++) {
        unsigned *field = !strcmp(argv[i], "--seeds") ? &o->seeds : !strcmp(argv[i], "--first") ? &o->first
                          : !strcmp(argv[i], "--rounds") ? &o->rounds : !strcmp(argv[i], "--elements") ? &o->elements
                          : !strcmp(argv[i], "--tasks") ? &o->tasks : NULL;
        if (field && i + 1 < argc && atoi(argv[i + 1]) >= 0) {
            *field = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--local-size") && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            o->local_size = (size_t)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: coop-chaos [--seeds N] [--first S] [--rounds R] [--elements E] "
                            "[--local-size L] [--tasks T]\n");
            return -1;
        }
    }
    return 0;
}

/* Runs one seed; returns the number of wrong values, or -1 on a run error. */
static long run_seed(coop_context *ctx, coop_kernel *kernel, const options *o, unsigned seed, cl_mem data,
                     cl_mem out, coop_mega_report *report)
{
    cl_command_queue queue = coop_context_queue(ctx);
    cl_uint zero = 0;
    size_t out_words = (size_t)o->task_groups * o->local_size;
    clEnqueueFillBuffer(queue, data, &zero, sizeof zero, 0, o->elements * sizeof(cl_uint), 0, NULL, NULL);
    clEnqueueFillBuffer(queue, out, &zero, sizeof zero, 0, out_words * sizeof(cl_uint), 0, NULL, NULL);
    coop_mega_params params = {.launch = {.local_size = o->local_size}, .chaos_seed = seed, .watchdog_s = 10};
    coop_task_plan plan = {.task = 0, .workgroups = o->task_groups, .take = COOP_TAKE_QUARTER, .period_ms = 1,
                           .repeats = o->tasks, .args = {seed}};
    coop_status status = coop_mega_run(kernel, &params, &plan, o->tasks ? 1 : 0, report);
    if (status != COOP_OK) {
        fprintf(stderr, "coop-chaos: seed %u: %s: %s\n", seed, coop_strerror(status), coop_context_message(ctx));
        return -1;
    }
    cl_uint *values = malloc((o->elements > out_words ? o->elements : out_words) * sizeof *values);
    long wrong = 0;
    clEnqueueReadBuffer(queue, data, CL_TRUE, 0, o->elements * sizeof(cl_uint), values, 0, NULL, NULL);
    for (unsigned i = 0; i < o->elements; i++)
        wrong += values[i] != o->rounds;
    if (report->record_count) {
        clEnqueueReadBuffer(queue, out, CL_TRUE, 0, out_words * sizeof(cl_uint), values, 0, NULL, NULL);
        for (unsigned g = 0; g < o->task_groups; g++)
            for (size_t l = 0; l < o->local_size; l++)
                wrong += values[g * o->local_size + l] != g * 7u + l + seed;
    }
    free(values);
    return wrong;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    coop_context *ctx = NULL;
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    coop_status status = coop_context_create(NULL, &ctx);
    if (status == COOP_OK)
        status = coop_program_create(ctx, coop_rounds_source, NULL, &program);
    if (status == COOP_OK)
        status = coop_kernel_create(program, "rounds_mega", &kernel);
    cl_int err = CL_SUCCESS;
    cl_mem data = NULL, out = NULL;
    if (status == COOP_OK) {
        data = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE, o.elements * sizeof(cl_uint), NULL, &err);
        out = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE, (size_t)o.task_groups * o.local_size * 4,
                             NULL, &err);
        coop_kernel_set_buffer(kernel, 0, data);
        coop_kernel_set_arg(kernel, 1, sizeof o.elements, &o.elements);
        coop_kernel_set_arg(kernel, 2, sizeof o.rounds, &o.rounds);
        coop_kernel_set_buffer(kernel, 3, out);
    }
    if (status != COOP_OK || err != CL_SUCCESS) {
        fprintf(stderr, "coop-chaos: %s: %s\n", coop_strerror(status), coop_context_message(ctx));
        coop_context_release(ctx);
        return 2;
    }
    printf("coop-chaos on %s: %u seeds from %u, %u rounds over %u elements, %u tasks of %u workgroups each\n",
           coop_context_device(ctx)->name, o.seeds, o.first, o.rounds, o.elements, o.tasks, o.task_groups);
    unsigned failed = 0, kills = 0, forks = 0, resizes = 0, tasks = 0;
    for (unsigned seed = o.first; seed < o.first + o.seeds; seed++) {
        coop_mega_report report;
        long wrong = run_seed(ctx, kernel, &o, seed, data, out, &report);
        if (wrong < 0)
            return 1; /* the kernel may still run after a watchdog report: exit */
        if (wrong)
            printf("seed %u: %ld wrong values\n", seed, wrong);
        failed += wrong != 0;
        kills += report.kills;
        forks += report.forks;
        resizes += report.resizes;
        tasks += report.tasks;
        coop_mega_report_free(&report);
    }
    printf("%u of %u seeds wrong; %u kills, %u forks, %u resizes, %u tasks in all\n", failed, o.seeds, kills, forks,
           resizes, tasks);
    clReleaseMemObject(data);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
    return failed ? 1 : 0;
}
