/* Host time and polite polling. */
#include "internal.h"

#include <time.h>

double coop_now_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

void coop_poll_pause(const coop_context *ctx, unsigned gpu_us, unsigned cpu_us)
{
    unsigned us = ctx->info.is_gpu ? gpu_us : cpu_us;
    if (us) {
        struct timespec nap = {us / 1000000u, (long)(us % 1000000u) * 1000L};
        nanosleep(&nap, NULL);
    }
}
