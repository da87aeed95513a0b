/* Self-measurements a user can run on any device: the global barrier's latency with a data
 * check, which also reports discovered occupancy. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

extern const char coop_selftest_source[];

static coop_status create_buffers(coop_context *ctx, size_t data_bytes, cl_mem buffers[3])
{
    const size_t sizes[3] = {data_bytes, sizeof(cl_uint), sizeof(cl_ulong)};
    for (int i = 0; i < 3; i++) {
        cl_int err = CL_SUCCESS;
        buffers[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, sizes[i], NULL, &err);
        if (err != CL_SUCCESS)
            return coop_fail_cl(ctx, err, "clCreateBuffer (barrier check)");
        cl_uchar zero = 0;
        err = clEnqueueFillBuffer(ctx->queue, buffers[i], &zero, 1, 0, sizes[i], 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return coop_fail_cl(ctx, err, "clEnqueueFillBuffer (barrier check)");
    }
    return COOP_OK;
}

static coop_status run_check(coop_kernel *kernel, const coop_barrier_params *params, coop_barrier_result *out)
{
    coop_context *ctx = kernel->program->ctx;
    coop_launch launch = {.max_groups = params->max_groups};
    /* checked before the buffers sized by it are made */
    coop_status status = coop_local_size(kernel, params->local_size, 0, "coop_measure_barrier: params->",
                                         &launch.local_size);
    if (status != COOP_OK)
        return status;
    unsigned launched = coop_launch_groups(ctx, launch.local_size);
    cl_mem buffers[3] = {NULL, NULL, NULL};
    status = create_buffers(ctx, 2 * (size_t)launched * launch.local_size * sizeof(cl_uint), buffers);
    cl_uint barriers = params->barriers;
    if (status == COOP_OK)
        status = coop_kernel_set_arg(kernel, 0, sizeof barriers, &barriers);
    for (unsigned i = 0; i < 3 && status == COOP_OK; i++)
        status = coop_kernel_set_buffer(kernel, i + 1, buffers[i]);
    coop_run_stats stats = {0};
    if (status == COOP_OK)
        status = coop_kernel_run_as(kernel, &launch, "coop_measure_barrier: params->", &stats);
    cl_uint failures = 0;
    cl_ulong elapsed_ns = 0;
    if (status == COOP_OK) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, buffers[1], CL_TRUE, 0, sizeof failures, &failures, 0, NULL,
                                         NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(ctx->queue, buffers[2], CL_TRUE, 0, sizeof elapsed_ns, &elapsed_ns, 0, NULL,
                                      NULL);
        if (err != CL_SUCCESS)
            status = coop_fail_cl(ctx, err, "reading barrier-check results");
    }
    if (status == COOP_OK) {
        out->groups = stats.groups;
        out->local_size = launch.local_size;
        out->barriers = params->barriers;
        out->failures = failures;
        out->discovery_ms = stats.discovery_ms;
        /* The device clock where there is one; else the host's time from the poll's close to
         * completion, which adds the kernel's exit to the barriers. */
        double total_us = elapsed_ns ? (double)elapsed_ns / 1e3 : (stats.run_ms - stats.discovery_ms) * 1e3;
        out->us_per_barrier = params->barriers ? total_us / params->barriers : 0.0;
        out->device_timed = elapsed_ns != 0;
    }
    for (int i = 0; i < 3; i++)
        if (buffers[i])
            clReleaseMemObject(buffers[i]);
    return status;
}

coop_status coop_measure_barrier(coop_context *ctx, const coop_barrier_params *params, coop_barrier_result *out)
{
    if (!ctx || !params || !out)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_measure_barrier: %s is NULL",
                         !ctx ? "ctx" : !params ? "params" : "out");
    if (!params->barriers)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "coop_measure_barrier: params->barriers = 0: it measures at least one barrier");
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    coop_status status = coop_program_create(ctx, coop_selftest_source, params->build_options, &program);
    /* libcoop's own kernel builds: a failure is the options' (the compiler judges them) */
    if (status == COOP_ERR_BUILD && params->build_options && *params->build_options) {
        char *why = strdup(coop_context_message(ctx));
        coop_fail(ctx, status, "coop_measure_barrier: params->build_options = '%s': %s", params->build_options,
                  why ? why : "the build failed");
        free(why);
    }
    if (status == COOP_OK)
        status = coop_kernel_create(program, "coop_barrier_check", &kernel);
    if (status == COOP_OK)
        status = run_check(kernel, params, out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    return status;
}
