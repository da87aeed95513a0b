/* Host side of occupancy discovery: decide when every co-resident group has registered and
 * close the poll (the kernel side is coop_enter() in coop_device/discovery.h). */
#include "discovery.h"

#include <stdlib.h>
#include <unistd.h>

unsigned coop_default_launch_groups(const coop_device_info *info, size_t local_size)
{
    unsigned units = info->compute_units ? info->compute_units : 1;
    if (!info->is_gpu)
        return 2 * units; /* a CPU compute unit is one worker thread running one group at a time */
    /* A GPU multiprocessor holds at most 2048 threads and 32 groups on current hardware; one
     * group more per unit makes sure discovery is limited by residency, not by the launch. */
    size_t per_unit = 2048 / (local_size ? local_size : 1);
    if (per_unit < 1)
        per_unit = 1;
    if (per_unit > 32)
        per_unit = 32;
    return (unsigned)(units * (per_unit + 1));
}

unsigned coop_launch_groups(const coop_context *ctx, size_t local_size)
{
    if (!ctx)
        return 0;
    if (!local_size)
        local_size = ctx->info.max_local_size && ctx->info.max_local_size < 256 ? ctx->info.max_local_size : 256;
    return coop_default_launch_groups(&ctx->info, local_size);
}

coop_status coop_default_window_us(coop_context *ctx, double *window_us)
{
    coop_status status = coop_env_number(ctx, COOP_ENV_DISCOVERY_WINDOW_US, window_us);
    if (status != COOP_OK || *window_us > 0.0)
        return status;
    /* GPU groups of one launch start within microseconds of each other; CPU worker threads are
     * scheduled by the OS and may need a time slice, several when there are more workers than
     * cores (measured: 20 ms missed workers in 9 of 20 runs of 8 workers on 2 cores, 250 ms in
     * none). */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *window_us = ctx->info.is_gpu ? 100.0
                 : cores > 0 && ctx->info.compute_units > (unsigned long)cores ? 250000.0
                                                                               : 20000.0;
    return COOP_OK;
}

/* The event's execution status; a failed query counts as ended (an error). */
static cl_int event_state(cl_event event)
{
    cl_int state = CL_QUEUED;
    if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL) != CL_SUCCESS)
        return -1;
    return state;
}

static int kernel_ended(cl_event event)
{
    return event_state(event) <= CL_COMPLETE;
}

coop_status coop_discover(coop_context *ctx, coop_discovery *d, cl_event running, unsigned *groups,
                          double *closed_us)
{
    d->started_us = 0.0;
    double start_us = 0.0, last_change_us = 0.0;
    uint32_t seen = 0;
    for (;;) {
        uint32_t now_seen;
        coop_status status = coop_channel_load(ctx, COOP_CHAN_SEEN, &now_seen);
        if (status != COOP_OK)
            return status;
        double now_us = coop_now_us();
        /* The clock starts when the kernel runs: PoCL compiles it for the device at its first
         * launch at each local size, with the event CL_SUBMITTED, and only then reports
         * CL_RUNNING. A registered group also shows it runs (where a device reports no
         * CL_RUNNING). */
        if (!d->started_us) {
            if (!now_seen && event_state(running) > CL_RUNNING) {
                if (now_us - d->enqueued_us > COOP_COMPILE_LIMIT_S * 1e6)
                    return coop_fail(ctx, COOP_ERR_TIMEOUT,
                                     "kernel '%s' did not start running within %.0f s of its launch (the "
                                     "device's compiler still busy?)", d->kernel_name, COOP_COMPILE_LIMIT_S);
                coop_poll_pause(ctx, 0, 100);
                continue;
            }
            d->started_us = start_us = last_change_us = now_us;
        }
        if (now_seen != seen) {
            seen = now_seen;
            last_change_us = now_us;
        }
        if (seen >= d->max_groups || (seen > 0 && now_us - last_change_us >= d->window_us))
            break;
        if (seen == 0 && kernel_ended(running))
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "kernel '%s' ended before any group registered: a persistent kernel must "
                             "start with COOP_ENTER(ctx)", d->kernel_name);
        if (now_us - start_us > d->timeout_s * 1e6)
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "discovery for kernel '%s': %u groups registered, and the poll was not ready "
                             "to close after %.1f s (no group of the kernel started?)",
                             d->kernel_name, seen, d->timeout_s);
        coop_poll_pause(ctx, 0, 100);
    }
    d->closing_us = coop_now_us();
    coop_status status = coop_channel_store(ctx, COOP_CHAN_CLOSE, 1);
    if (status != COOP_OK)
        return status;
    *closed_us = coop_now_us();
    uint32_t final_groups = 0;
    while (final_groups == 0) {
        status = coop_channel_load(ctx, COOP_CHAN_GROUPS, &final_groups);
        if (status != COOP_OK)
            return status;
        if (final_groups == 0 && coop_now_us() - start_us > d->timeout_s * 1e6)
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "discovery for kernel '%s': the leading group did not acknowledge the close "
                             "within %.1f s", d->kernel_name, d->timeout_s);
        if (final_groups == 0)
            coop_poll_pause(ctx, 0, 100);
    }
    d->acknowledged_us = coop_now_us();
    *groups = final_groups;
    return COOP_OK;
}
