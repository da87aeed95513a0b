/* Host time and polite polling. */
#include "internal.h"

#include <time.h>

double coop_now_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

void coop_poll_pause(const coop_context *ctx)
{
    /* On a CPU device the kernel's workgroups are threads of this process competing for the
     * same cores: sleep so that a polling host does not take their time. A GPU poll spins. */
    if (!ctx->info.is_gpu) {
        struct timespec nap = {0, 100000};
        nanosleep(&nap, NULL);
    }
}
