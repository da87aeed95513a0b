/* Launching persistent kernels: device area, discovery, completion. */
#include "discovery.h"

#include <stdlib.h>
#include <time.h>

static coop_status prepare_dev_area(coop_context *ctx, unsigned launched, unsigned max_groups)
{
    size_t words = COOP_DEV_FIXED_WORDS + launched;
    cl_int err = CL_SUCCESS;
    if (ctx->dev_area_words < words) {
        if (ctx->dev_area)
            clReleaseMemObject(ctx->dev_area);
        ctx->dev_area_words = 0;
        ctx->dev_area = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, words * sizeof(uint32_t), NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->dev_area = NULL;
            return coop_fail_cl(ctx, err, "clCreateBuffer for the device area");
        }
        ctx->dev_area_words = words;
    }
    uint32_t zero = 0;
    err = clEnqueueFillBuffer(ctx->queue, ctx->dev_area, &zero, sizeof zero, 0, words * sizeof(uint32_t), 0,
                              NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(ctx->queue, ctx->dev_area, CL_TRUE, COOP_DEV_MAX_GROUPS * sizeof(uint32_t),
                                   sizeof max_groups, &max_groups, 0, NULL, NULL);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "initialising the device area");
}

static double default_timeout_s(void)
{
    const char *text = getenv("COOP_TIMEOUT_S");
    double value = text ? atof(text) : 0.0;
    return value > 0.0 ? value : 60.0;
}

/* Completion is polled (to enforce the time limit): every 20 us on a GPU, every 1 ms on a CPU
 * device whose cores the kernel's groups need. */
static void pause_briefly(const coop_context *ctx)
{
    struct timespec nap = {0, ctx->info.is_gpu ? 20000 : 1000000};
    nanosleep(&nap, NULL);
}

/* Waits for `event` to complete; a negative execution status is an error. */
static coop_status wait_done(coop_context *ctx, cl_event event, const char *name, double start_us, double timeout_s,
                             unsigned groups)
{
    for (;;) {
        cl_int state = CL_QUEUED;
        cl_int err = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
        if (err != CL_SUCCESS)
            return coop_fail_cl(ctx, err, "clGetEventInfo");
        if (state == CL_COMPLETE)
            return COOP_OK;
        if (state < 0)
            return coop_fail(ctx, COOP_ERR_OPENCL, "kernel '%s' failed while running: %s (%d)", name,
                             coop_cl_error_name(state), state);
        if (coop_now_us() - start_us > timeout_s * 1e6)
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "kernel '%s' on %u groups did not complete within %.1f s; it is still running "
                             "and the process must exit to stop it", name, groups, timeout_s);
        pause_briefly(ctx);
    }
}

static size_t pick_local_size(const coop_kernel *kernel, size_t wanted)
{
    coop_context *ctx = kernel->program->ctx;
    size_t kernel_max = 0;
    clGetKernelWorkGroupInfo(kernel->cl, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                             NULL);
    size_t local = wanted ? wanted : 256;
    if (ctx->info.max_local_size && local > ctx->info.max_local_size)
        local = ctx->info.max_local_size;
    if (kernel_max && local > kernel_max)
        local = kernel_max;
    return local;
}

coop_status coop_kernel_run(coop_kernel *kernel, const coop_launch *launch, coop_run_stats *stats)
{
    if (!kernel)
        return COOP_ERR_INVALID_ARGUMENT;
    coop_context *ctx = kernel->program->ctx;
    if (!kernel->persistent)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "coop_kernel_run needs a persistent kernel: its first parameters must be COOP_PARAMS");
    coop_launch defaults = {0};
    if (!launch)
        launch = &defaults;
    char name[128] = "?";
    clGetKernelInfo(kernel->cl, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = '\0';

    size_t local = pick_local_size(kernel, launch->local_size);
    if (launch->local_size && local != launch->local_size)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "local size %zu is too large for kernel '%s' on '%s' (at most %zu)", launch->local_size,
                         name, ctx->info.name, local);
    unsigned launched = launch->launch_groups ? launch->launch_groups
                                              : coop_default_launch_groups(&ctx->info, local);
    coop_discovery discovery = {
        .kernel_name = name,
        .max_groups = launch->max_groups && launch->max_groups < launched ? launch->max_groups : launched,
        .window_us = launch->discovery_window_us > 0 ? launch->discovery_window_us
                                                     : coop_default_window_us(&ctx->info),
        .timeout_s = launch->timeout_s > 0 ? launch->timeout_s : default_timeout_s(),
    };
    coop_status status = prepare_dev_area(ctx, launched, discovery.max_groups);
    if (status == COOP_OK)
        status = coop_channel_reset(ctx);
    if (status == COOP_OK)
        status = coop_channel_set_arg(ctx, kernel->cl, 0);
    if (status != COOP_OK)
        return status;
    cl_int err = clSetKernelArg(kernel->cl, 1, sizeof(cl_mem), &ctx->dev_area);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "setting the device-area kernel argument");

    size_t global = (size_t)launched * local;
    cl_event running = NULL;
    double start_us = coop_now_us();
    err = clEnqueueNDRangeKernel(ctx->queue, kernel->cl, 1, NULL, &global, &local, 0, NULL, &running);
    if (err != CL_SUCCESS)
        return coop_fail(ctx, COOP_ERR_OPENCL, "launching kernel '%s' (%u groups of %zu): %s (%d)", name, launched,
                         local, coop_cl_error_name(err), err);
    clFlush(ctx->queue);
    unsigned groups = 0;
    status = coop_discover(ctx, &discovery, running, &groups);
    double discovered_us = coop_now_us();
    if (status == COOP_OK)
        status = wait_done(ctx, running, name, start_us, discovery.timeout_s, groups);
    double done_us = coop_now_us();
    if (status == COOP_OK || status == COOP_ERR_INVALID_ARGUMENT)
        clReleaseEvent(running);
    if (status == COOP_OK && stats) {
        stats->groups = groups;
        stats->launched_groups = launched;
        stats->discovery_ms = (discovered_us - start_us) / 1e3;
        stats->run_ms = (done_us - start_us) / 1e3;
    }
    return status;
}
