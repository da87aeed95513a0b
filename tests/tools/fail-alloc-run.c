/* fail-alloc-run: one run of libcoop from context to megakernel report, for
 * tests/test_alloc_failures.c: the hand-written megakernel of tests/kernels/by_hand.cl with a
 * task on two PoCL workers (POCL_MAX_PTHREAD_COUNT=2), built and run through libcoop, its
 * buffers made by libcoop's caller as an application does. Exit status 0, or 1 with
 * "coop_FUNCTION: ERROR: MESSAGE" on standard error; every object is released on either path,
 * so that LeakSanitizer sees what libcoop itself leaks.
 *
 * With TRACE_FILE the run is traced (libcoop's trace writer too).
 * Built without the allocation shim as build/tests/by-hand-run, whose argument sets the local
 * size, for test_scheduler's stack check.
 *
 *     COOP_FAIL_ALLOC=N build/tests/fail-alloc-run [LOCAL_SIZE [TRACE_FILE]]
 *     build/tests/by-hand-run [LOCAL_SIZE] */
#include "coop.h"

#include <stdio.h>
#include <stdlib.h>

enum { N = 256, COUNT = 4, TASK_GROUPS = 3 };

static size_t local_size = 8;
static const char *trace_file; /* a timeline of the run, when given */

static int failed(coop_context *ctx, const char *call, coop_status status)
{
    fprintf(stderr, "%s: %s: %s\n", call, coop_strerror(status), ctx ? coop_context_message(ctx) : "");
    return 1;
}

static int run(coop_context *ctx)
{
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    cl_mem data = NULL, out = NULL;
    int result = 1;
    coop_status status = coop_program_create_from_file(ctx, "tests/kernels/by_hand.cl", NULL, &program);
    if (status) {
        failed(ctx, "coop_program_create_from_file", status);
        goto done;
    }
    if ((status = coop_kernel_create(program, "mega", &kernel))) {
        failed(ctx, "coop_kernel_create", status);
        goto done;
    }
    cl_int error = CL_SUCCESS;
    cl_context cl = coop_context_cl(ctx);
    data = clCreateBuffer(cl, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &error);
    if (data)
        out = clCreateBuffer(cl, CL_MEM_READ_WRITE, TASK_GROUPS * local_size * sizeof(cl_uint), NULL, &error);
    if (!out) {
        fprintf(stderr, "clCreateBuffer: error %d\n", error);
        goto done;
    }
    cl_uint n = N, count = COUNT;
    if ((status = coop_kernel_set_buffer(kernel, 0, data)) ||
        (status = coop_kernel_set_arg(kernel, 1, sizeof n, &n)) ||
        (status = coop_kernel_set_arg(kernel, 2, sizeof count, &count)) ||
        (status = coop_kernel_set_buffer(kernel, 3, out))) {
        failed(ctx, "coop_kernel_set_arg", status);
        goto done;
    }
    coop_task_plan plan = {.task = 0, .workgroups = TASK_GROUPS, .take = COOP_TAKE_ONE};
    /* both workers' groups even on a busy machine (tu_pin_groups), so that the task takes one */
    coop_launch launch = {.local_size = local_size, .launch_groups = coop_launch_groups(ctx, local_size),
                          .max_groups = 2, .discovery_window_us = 5000000};
    coop_mega_params params = {.launch = launch, .watchdog_s = 60, .trace_file = trace_file};
    coop_mega_report report;
    if ((status = coop_mega_run(kernel, &params, &plan, 1, &report))) {
        failed(ctx, "coop_mega_run", status);
        goto done;
    }
    coop_mega_report_free(&report);
    result = 0;
done:
    if (out)
        clReleaseMemObject(out);
    if (data)
        clReleaseMemObject(data);
    coop_kernel_release(kernel);
    coop_program_release(program);
    return result;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        local_size = strtoul(argv[1], NULL, 10);
    if (argc > 2)
        trace_file = argv[2];
    coop_options options = {.platform = "Portable Computing Language"};
    coop_context *ctx = NULL;
    coop_status status = coop_context_create(&options, &ctx);
    int result = status ? failed(ctx, "coop_context_create", status) : run(ctx);
    coop_context_release(ctx);
    return result;
}
