/* clock.h: the host's monotonic clock, for the programs' timings and periods. */
#ifndef CLOCK_H
#define CLOCK_H

/* Milliseconds since an arbitrary start (CLOCK_MONOTONIC). */
double clock_now_ms(void);

/* Sleeps `ms` milliseconds; returns at once for 0 or less. */
void clock_sleep_ms(double ms);

#endif
