/* Launching persistent kernels: device area, discovery, completion. */
#include "discovery.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t coop_trace_area_words(unsigned kernels, unsigned groups, unsigned capacity)
{
    return (size_t)(kernels - 1) * COOP_TRACE_KERNEL_WORDS + COOP_TRACE_EVENTS +
           (size_t)groups * capacity * COOP_TRACE_EVENT_WORDS;
}

/* The device area, with a trace area after it for a traced run (coop_layout.h): its events need
 * no initialising, only the words before them. */
static coop_status prepare_dev_area(coop_context *ctx, unsigned max_groups, const coop_start *start)
{
    const unsigned blocks = start->kernels > 1 ? start->kernels : 1;
    const size_t size = blocks * COOP_DEV_WORDS +
                        (start->trace_capacity ? coop_trace_area_words(blocks, max_groups, start->trace_capacity) : 0);
    const size_t words = start->trace_capacity ? COOP_DEV_TRACE_AT(blocks) + COOP_TRACE_EVENTS : blocks * COOP_DEV_WORDS;
    cl_int err = CL_SUCCESS;
    if (ctx->dev_area && ctx->dev_area_words < size) {
        clReleaseMemObject(ctx->dev_area);
        ctx->dev_area = NULL;
    }
    if (!ctx->dev_area) {
        ctx->dev_area = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, size * sizeof(uint32_t), NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->dev_area = NULL;
            return start->trace_capacity
                       ? coop_fail(ctx, COOP_ERR_OPENCL, "the trace buffers (%u groups of %u events, %zu MiB): "
                                   "clCreateBuffer: %s", max_groups, start->trace_capacity,
                                   size * sizeof(uint32_t) >> 20, coop_cl_error_name(err))
                       : coop_fail_cl(ctx, err, "clCreateBuffer for the device area");
        }
        ctx->dev_area_words = size;
    }
    uint32_t *image = calloc(words, sizeof *image);
    if (!image)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory preparing the device area");
    image[COOP_DEV_MAX_GROUPS] = max_groups;
    image[COOP_DEV_MEMBERS] = start->members;
    image[COOP_DEV_AGENT] = (uint32_t)start->agent;
    image[COOP_DEV_CHAOS] = start->chaos_seed;
    image[COOP_DEV_SPAWN_SLOT] = start->spawn_slot;
    if (start->trace_capacity)
        image[COOP_DEV_TRACE_AT(blocks) + COOP_TRACE_CAPACITY] = start->trace_capacity;
    for (unsigned k = 0; k < blocks; k++) { /* each kernel block's four barrier counters, two 64-bit words */
        uint32_t *block = image + (size_t)k * COOP_DEV_WORDS;
        for (unsigned pair = 0; pair < 2; pair++)
            block[COOP_DEV_BAR_COUNT + pair * COOP_BAR_STRIDE] = block[COOP_DEV_BAR_COUNT + pair * COOP_BAR_STRIDE + 1] =
                COOP_BAR_IDLE;
        if (blocks > 1)
            block[COOP_DEV_WEIGHT] = start->weights[k];
    }
    err = clEnqueueWriteBuffer(ctx->queue, ctx->dev_area, CL_TRUE, 0, words * sizeof(uint32_t), image, 0, NULL,
                               NULL);
    free(image);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "initialising the device area");
}

coop_status coop_check_time(coop_context *ctx, const char *field, double value)
{
    if (value >= 0.0 && isfinite(value))
        return COOP_OK;
    return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                     "%s = %g is not a time: expected 0 (the default) or a positive finite number", field, value);
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

/* Per-group words of a plain persistent kernel's control block from `slot` on (GROUP_STATE,
 * GROUP_SITE): in the channel (fine-grained SVM, read directly) or in the device area, read
 * through the side queue, which some devices serve only beside a running kernel that leaves a
 * compute unit free. */
static coop_status load_group_words(coop_running *run, unsigned slot, uint32_t *words)
{
    coop_context *ctx = run->kernel->program->ctx;
    if (ctx->channel.kind == COOP_CHANNEL_SVM) {
        for (unsigned g = 0; g < run->groups; g++) {
            coop_status status = coop_channel_load(ctx, COOP_CHAN_CTRL + slot + g, &words[g]);
            if (status != COOP_OK)
                return status;
        }
        return COOP_OK;
    }
    cl_event done = NULL;
    cl_int err = clEnqueueReadBuffer(ctx->side_queue, ctx->dev_area, CL_FALSE, (COOP_DEV_CTRL + slot) * sizeof(uint32_t),
                                     run->groups * sizeof(uint32_t), words, 0, NULL, &done);
    if (err != CL_SUCCESS)
        return COOP_ERR_OPENCL;
    clFlush(ctx->side_queue);
    double asked_us = coop_now_us();
    cl_int state = CL_QUEUED;
    while (clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL) == CL_SUCCESS &&
           state > CL_COMPLETE && coop_now_us() - asked_us < 1e6)
        coop_poll_pause(ctx, 20, 1000);
    clReleaseEvent(done);
    return state == CL_COMPLETE ? COOP_OK : COOP_ERR_TIMEOUT;
}

coop_status coop_launch_wait(coop_running *run)
{
    coop_context *ctx = run->kernel->program->ctx;
    coop_status status;
    while (!coop_launch_ended(run, &status)) {
        if (coop_now_us() - run->start_us > run->timeout_s * 1e6) {
            char where_text[1024] = "where the groups are is unknown (the device ran no read beside the kernel)";
            uint32_t *where = calloc(2 * (run->groups ? run->groups : 1), sizeof *where);
            uint32_t *sites = where ? where + (run->groups ? run->groups : 1) : NULL;
            coop_status read = where ? load_group_words(run, COOP_CTRL_GROUP_STATE, where) : COOP_ERR_NO_MEMORY;
            if (read == COOP_OK)
                read = load_group_words(run, COOP_CTRL_GROUP_SITE, sites);
            if (read == COOP_OK)
                coop_describe_groups(where, sites, run->kernel->program->source, run->groups, 1, where_text,
                                     sizeof where_text);
            if (read != COOP_ERR_TIMEOUT) /* else the read may still land in it */
                free(where);
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "kernel '%s' on %u groups did not complete within %.1f s: %s; it is still running "
                             "and the process must exit to stop it", run->name, run->groups, run->timeout_s,
                             where_text);
        }
        /* completion, polled to enforce the time limit; on a GPU without a pause, as the
         * megakernel's host loop polls: a 20 us nap (about 70 us with the kernel's timer slack)
         * made a standalone run of 0.09 ms measure 0.16 ms (H200) */
        coop_poll_pause(ctx, 0, 1000);
    }
    if (status == COOP_OK) {
        clReleaseEvent(run->event);
        run->event = NULL;
    }
    return status;
}

/* The fewest work-items per group PoCL's compiler builds a megakernel for. At 1 and 2 its
 * work-group compiler (PoCL 3.1, the default method; ParallelRegion.cc:399, "Incoming edges to
 * non-entry block!") aborts the process on coop_offer_fork's group barriers inside a cooperative
 * loop with a bound known only at run time (kernels/examples/rounds.cl; every megakernel of this
 * project aborts at 1 and 2 and runs from 3 to 4096). Plain persistent kernels build at any size. */
#define COOP_POCL_MEGAKERNEL_MIN_LOCAL 3u

coop_status coop_local_size(const coop_kernel *kernel, size_t asked, int megakernel, const char *what, size_t *local)
{
    coop_context *ctx = kernel->program->ctx;
    size_t kernel_max = 0;
    clGetKernelWorkGroupInfo(kernel->cl, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                             NULL);
    size_t most = ctx->info.max_local_size;
    if (kernel_max && (!most || kernel_max < most))
        most = kernel_max;
    size_t least = megakernel && ctx->info.target == COOP_TARGET_POCL ? COOP_POCL_MEGAKERNEL_MIN_LOCAL : 1;
    *local = asked ? asked : most && most < 256 ? most : 256;
    if (most && *local > most)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "%slocal_size: local size %zu is too large for kernel '%s' on '%s' (at most %zu)",
                         what, *local, kernel->name, ctx->info.name, most);
    if (*local < least)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "%slocal_size: local size %zu is too small for megakernel '%s' on PoCL (at least %u: "
                         "PoCL's compiler aborts below)", what, *local, kernel->name, COOP_POCL_MEGAKERNEL_MIN_LOCAL);
    return COOP_OK;
}

/* Groups a launch may start: each takes a discovery ticket, and tickets count below
 * COOP_REG_CLOSED. */
#define COOP_MAX_LAUNCH_GROUPS (COOP_REG_CLOSED - 1u)

/* Every field of `launch` that the launch reads, named in the message when it is out of range. */
static coop_status check_launch(coop_context *ctx, const char *what, const coop_launch *launch)
{
    char field[96];
    snprintf(field, sizeof field, "%sdiscovery_window_us", what);
    coop_status status = coop_check_time(ctx, field, launch->discovery_window_us);
    if (status == COOP_OK) {
        snprintf(field, sizeof field, "%stimeout_s", what);
        status = coop_check_time(ctx, field, launch->timeout_s);
    }
    if (status == COOP_OK && launch->launch_groups > COOP_MAX_LAUNCH_GROUPS)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "%slaunch_groups = %u: at most %u groups are launched for discovery", what,
                           launch->launch_groups, COOP_MAX_LAUNCH_GROUPS);
    return status;
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
    coop_status status = coop_check_args_set(kernel);
    if (status != COOP_OK)
        return status;
    size_t local = 0;
    double window_us = launch->discovery_window_us, timeout_s = launch->timeout_s;
    status = check_launch(ctx, start->what, launch);
    if (status == COOP_OK)
        status = coop_local_size(kernel, launch->local_size, start->megakernel, start->what, &local);
    if (status == COOP_OK && !window_us)
        status = coop_default_window_us(ctx, &window_us);
    if (status == COOP_OK && !timeout_s)
        status = coop_env_number(ctx, COOP_ENV_TIMEOUT_S, &timeout_s);
    if (status != COOP_OK)
        return status;
    if (!timeout_s)
        timeout_s = 60.0;
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
    coop_discovery discovery = {.kernel_name = run->name, .max_groups = limit, .window_us = window_us,
                                .timeout_s = timeout_s};
    run->local_size = local;
    run->launched = launched;
    run->timeout_s = timeout_s;
    run->area_groups = limit;
    status = prepare_dev_area(ctx, limit, start);
    if (status == COOP_OK)
        status = coop_channel_reset(ctx);
    if (status == COOP_OK && start->kernels > 1)
        status = coop_channel_reset_kernels(ctx, start->kernels);
    if (status == COOP_OK)
        status = coop_channel_set_arg(ctx, kernel->cl, 0);
    if (status != COOP_OK)
        return status;
    cl_int err = clSetKernelArg(kernel->cl, 1, sizeof(cl_mem), &ctx->dev_area);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "setting the device-area kernel argument");

    size_t global = (size_t)launched * local;
    discovery.enqueued_us = coop_now_us();
    err = clEnqueueNDRangeKernel(ctx->queue, kernel->cl, 1, NULL, &global, &local, 0, NULL, &run->event);
    if (err != CL_SUCCESS)
        return coop_fail(ctx, COOP_ERR_OPENCL, "launching kernel '%s' (%u groups of %zu): %s (%d)", run->name,
                         launched, local, coop_cl_error_name(err), err);
    clFlush(ctx->queue);
    status = coop_discover(ctx, &discovery, run->event, &run->groups, &run->discovered_us);
    run->start_us = discovery.started_us ? discovery.started_us : discovery.enqueued_us;
    run->closing_us = discovery.closing_us;
    run->acknowledged_us = discovery.acknowledged_us;
    run->compile_us = run->start_us - discovery.enqueued_us;
    if (status == COOP_ERR_INVALID_ARGUMENT) {
        clReleaseEvent(run->event);
        run->event = NULL;
    }
    return status;
}

coop_status coop_kernel_run(coop_kernel *kernel, const coop_launch *launch, coop_run_stats *stats)
{
    return coop_kernel_run_as(kernel, launch, "coop_kernel_run: launch->", stats);
}

coop_status coop_kernel_run_as(coop_kernel *kernel, const coop_launch *launch, const char *what,
                               coop_run_stats *stats)
{
    if (!kernel)
        return COOP_ERR_INVALID_ARGUMENT;
    coop_launch defaults = {0};
    coop_start start = {.what = what};
    coop_running run;
    coop_status status = coop_launch_begin(kernel, launch ? launch : &defaults, &start, &run);
    if (status == COOP_OK)
        status = coop_launch_wait(&run);
    if (status == COOP_OK && stats) {
        stats->groups = run.groups;
        stats->launched_groups = run.launched;
        stats->discovery_ms = (run.discovered_us - run.start_us) / 1e3;
        stats->run_ms = (coop_now_us() - run.start_us) / 1e3;
        stats->compile_ms = run.compile_us / 1e3;
    }
    return status;
}
