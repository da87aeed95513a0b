/* Host side of occupancy discovery: decide when every co-resident group has registered and
 * close the poll (the kernel side is coop_enter() in coop_kernel.h). */
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
    return coop_default_launch_groups(&ctx->info, local_size);
}

double coop_default_window_us(const coop_device_info *info)
{
    const char *text = getenv("COOP_DISCOVERY_WINDOW_US");
    double value = text ? atof(text) : 0.0;
    if (value > 0.0)
        return value;
    /* GPU groups of one launch start within microseconds of each other; CPU worker threads are
     * scheduled by the OS and may need a time slice, several when there are more workers than
     * cores (measured: 20 ms missed workers in 9 of 20 runs of 8 workers on 2 cores, 250 ms in
     * none). */
    if (info->is_gpu)
        return 100.0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 && info->compute_units > (unsigned long)cores ? 250000.0 : 20000.0;
}

static int kernel_ended(cl_event event)
{
    cl_int state = CL_QUEUED;
    clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    return state == CL_COMPLETE || state < 0;
}

coop_status coop_discover(coop_context *ctx, const coop_discovery *d, cl_event running, unsigned *groups,
                          double *closed_us)
{
    double start_us = coop_now_us();
    double last_change_us = start_us;
    uint32_t seen = 0;
    for (;;) {
        uint32_t now_seen;
        coop_status status = coop_channel_load(ctx, COOP_CHAN_SEEN, &now_seen);
        if (status != COOP_OK)
            return status;
        double now_us = coop_now_us();
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
        coop_poll_pause(ctx, 0, 100);
    }
    *groups = final_groups;
    return COOP_OK;
}
