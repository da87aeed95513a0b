/* Occupancy discovery, host side (discovery.c). */
#ifndef COOP_DISCOVERY_H
#define COOP_DISCOVERY_H

#include "internal.h"

typedef struct coop_discovery {
    const char *kernel_name;
    unsigned max_groups;   /* close as soon as this many registered */
    double window_us;      /* close once no new group registered for this long */
    double timeout_s;      /* give up if the poll cannot be closed by then */
} coop_discovery;

/* Groups launched so that discovery is bounded by residency, not by the launch. */
unsigned coop_default_launch_groups(const coop_device_info *info, size_t local_size);

/* COOP_DISCOVERY_WINDOW_US, else the device kind's default. */
double coop_default_window_us(const coop_device_info *info);

/* Watches registrations of the kernel behind `running`, closes the poll and returns the number
 * of co-resident groups in *groups and the host time of the close in *closed_us (the groups
 * start working as soon as they see it). */
coop_status coop_discover(coop_context *ctx, const coop_discovery *d, cl_event running, unsigned *groups,
                          double *closed_us);

#endif
