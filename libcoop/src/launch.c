/* Launching persistent kernels: device area, discovery, completion. */
#include "discovery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static coop_status prepare_dev_area(coop_context *ctx, unsigned max_groups, const coop_start *start)
{
    const size_t words = COOP_DEV_WORDS;
    cl_int err = CL_SUCCESS;
    if (!ctx->dev_area) {
        ctx->dev_area = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, words * sizeof(uint32_t), NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->dev_area = NULL;
            return coop_fail_cl(ctx, err, "clCreateBuffer for the device area");
        }
    }
    uint32_t *image = calloc(words, sizeof *image);
    if (!image)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory preparing the device area");
    image[COOP_DEV_MAX_GROUPS] = max_groups;
    image[COOP_DEV_MEMBERS] = start->members;
    image[COOP_DEV_AGENT] = (uint32_t)start->agent;
    image[COOP_DEV_CHAOS] = start->chaos_seed;
    for (unsigned pair = 0; pair < 2; pair++) /* four barrier counters, two 64-bit words */
        image[COOP_DEV_BAR_COUNT + pair * COOP_BAR_STRIDE] = image[COOP_DEV_BAR_COUNT + pair * COOP_BAR_STRIDE + 1] =
            COOP_BAR_IDLE;
    err = clEnqueueWriteBuffer(ctx->queue, ctx->dev_area, CL_TRUE, 0, words * sizeof(uint32_t), image, 0, NULL,
                               NULL);
    free(image);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "initialising the device area");
}

static double default_timeout_s(void)
{
    const char *text = getenv("COOP_TIMEOUT_S");
    double value = text ? atof(text) : 0.0;
    return value > 0.0 ? value : 60.0;
}

int coop_launch_ended(coop_running *run, coop_status *status)
{
    coop_context *ctx = run->kernel->program->ctx;
    cl_int state = CL_QUEUED;
    cl_int err = clGetEventInfo(run->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    if (err != CL_SUCCESS) {
        *status = coop_fail_cl(ctx, err, "clGetEventInfo");
        return 1;
    }
    if (state < 0) {
        *status = coop_fail(ctx, COOP_ERR_OPENCL, "kernel '%s' failed while running: %s (%d)", run->name,
                            coop_cl_error_name(state), state);
        return 1;
    }
    *status = COOP_OK;
    return state == CL_COMPLETE;
}

coop_status coop_launch_wait(coop_running *run)
{
    coop_context *ctx = run->kernel->program->ctx;
    coop_status status;
    while (!coop_launch_ended(run, &status)) {
        if (coop_now_us() - run->start_us > run->timeout_s * 1e6)
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "kernel '%s' on %u groups did not complete within %.1f s; it is still running "
                             "and the process must exit to stop it", run->name, run->groups, run->timeout_s);
        coop_poll_pause(ctx, 20, 1000); /* completion, polled to enforce the time limit */
    }
    if (status == COOP_OK) {
        clReleaseEvent(run->event);
        run->event = NULL;
    }
    return status;
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

coop_status coop_launch_begin(coop_kernel *kernel, const coop_launch *launch, const coop_start *start,
                              coop_running *run)
{
    coop_context *ctx = kernel->program->ctx;
    memset(run, 0, sizeof *run);
    run->kernel = kernel;
    clGetKernelInfo(kernel->cl, CL_KERNEL_FUNCTION_NAME, sizeof run->name, run->name, NULL);
    run->name[sizeof run->name - 1] = '\0';
    if (!kernel->persistent)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "kernel '%s' is not persistent: its first parameters must be COOP_PARAMS", run->name);
    size_t local = pick_local_size(kernel, launch->local_size);
    if (launch->local_size && local != launch->local_size)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "local size %zu is too large for kernel '%s' on '%s' (at most %zu)", launch->local_size,
                         run->name, ctx->info.name, local);
    unsigned launched = launch->launch_groups ? launch->launch_groups
                                              : coop_default_launch_groups(&ctx->info, local);
    /* Asked for fewer groups than the bound: launch only that many, which a GPU spreads evenly over
     * its compute units. The first to register among a full launch may crowd a few of them (H100,
     * barrier-bench at 1 group per SM of 256 work-items: 1.44-1.50 us per barrier, 1.21 us this
     * way). Discovery still checks that the groups are co-resident. */
    if (!launch->launch_groups && launch->max_groups && launch->max_groups < launched)
        launched = launch->max_groups;
    unsigned limit = launch->max_groups && launch->max_groups < launched ? launch->max_groups : launched;
    if (ctx->channel.kind == COOP_CHANNEL_QUEUE && !ctx->info.is_gpu) {
        /* A CPU device runs the channel's transfers on its compute units: keep one free. */
        if (ctx->info.compute_units < 2)
            return coop_fail(ctx, COOP_ERR_CHANNEL_UNSUPPORTED,
                             "channel 'queue' on '%s' needs a compute unit free for its transfers, and the "
                             "device has only one", ctx->info.name);
        if (limit > ctx->info.compute_units - 1)
            limit = ctx->info.compute_units - 1;
    }
    if (limit > COOP_MAX_GROUPS)
        limit = COOP_MAX_GROUPS;
    coop_discovery discovery = {
        .kernel_name = run->name,
        .max_groups = limit,
        .window_us = launch->discovery_window_us > 0 ? launch->discovery_window_us
                                                     : coop_default_window_us(&ctx->info),
        .timeout_s = launch->timeout_s > 0 ? launch->timeout_s : default_timeout_s(),
    };
    run->local_size = local;
    run->launched = launched;
    run->timeout_s = discovery.timeout_s;
    coop_status status = prepare_dev_area(ctx, limit, start);
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
    run->start_us = coop_now_us();
    err = clEnqueueNDRangeKernel(ctx->queue, kernel->cl, 1, NULL, &global, &local, 0, NULL, &run->event);
    if (err != CL_SUCCESS)
        return coop_fail(ctx, COOP_ERR_OPENCL, "launching kernel '%s' (%u groups of %zu): %s (%d)", run->name,
                         launched, local, coop_cl_error_name(err), err);
    clFlush(ctx->queue);
    status = coop_discover(ctx, &discovery, run->event, &run->groups, &run->discovered_us);
    if (status == COOP_ERR_INVALID_ARGUMENT) {
        clReleaseEvent(run->event);
        run->event = NULL;
    }
    return status;
}

coop_status coop_kernel_run(coop_kernel *kernel, const coop_launch *launch, coop_run_stats *stats)
{
    if (!kernel)
        return COOP_ERR_INVALID_ARGUMENT;
    coop_launch defaults = {0};
    coop_start start = {0};
    coop_running run;
    coop_status status = coop_launch_begin(kernel, launch ? launch : &defaults, &start, &run);
    if (status == COOP_OK)
        status = coop_launch_wait(&run);
    if (status == COOP_OK && stats) {
        stats->groups = run.groups;
        stats->launched_groups = run.launched;
        stats->discovery_ms = (run.discovered_us - run.start_us) / 1e3;
        stats->run_ms = (coop_now_us() - run.start_us) / 1e3;
    }
    return status;
}
