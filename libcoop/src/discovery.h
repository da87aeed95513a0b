/* Occupancy discovery, host side (discovery.c). */
#ifndef COOP_DISCOVERY_H
#define COOP_DISCOVERY_H

#include "internal.h"

typedef struct coop_discovery {
    const char *kernel_name;
    unsigned max_groups;   /* close as soon as this many registered */
    double window_us;      /* close once no new group registered for this long */
    double timeout_s;      /* give up if the poll cannot be closed this long after the start */
    double enqueued_us;    /* when the kernel was enqueued */
    double started_us;     /* out: when the device started running it (after compiling it) */
} coop_discovery;

/* Most seconds a device may take to compile a kernel at its launch (PoCL at the first launch at
 * each local size; minutes only for very large megakernels on a loaded machine). The run's own
 * time limit starts once the kernel runs. */
#define COOP_COMPILE_LIMIT_S 600.0

/* Groups launched so that discovery is bounded by residency, not by the launch. */
unsigned coop_default_launch_groups(const coop_device_info *info, size_t local_size);

/* COOP_DISCOVERY_WINDOW_US, else the device kind's default, into *window_us. */
coop_status coop_default_window_us(coop_context *ctx, double *window_us);

/* Waits until the kernel behind `running` runs (d->started_us: the event says it runs, or a group
 * registered), watches registrations, closes the poll and returns the number of co-resident
 * groups in *groups and the host time of the close in *closed_us (the groups start working as
 * soon as they see it). */
coop_status coop_discover(coop_context *ctx, coop_discovery *d, cl_event running, unsigned *groups,
                          double *closed_us);

#endif
