/* The host's monotonic clock (clock.h). */
#include "clock.h"

#include <math.h>
#include <time.h>

double clock_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void clock_sleep_ms(double ms)
{
    if (ms <= 0)
        return;
    struct timespec nap = {(time_t)(ms / 1e3), (long)(fmod(ms, 1e3) * 1e6)};
    nanosleep(&nap, NULL);
}
