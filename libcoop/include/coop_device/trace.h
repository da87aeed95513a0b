/* coop_device/trace.h: trace mode (COOP_TRACING): each group's events on the device clock, for
 * the host's trace file; nothing at all in untraced builds.
 * Invariants: docs/DESIGN.md section 13. Part of the kernel header (coop_kernel.h includes these
 * files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_TRACE_H
#define COOP_DEVICE_TRACE_H

#include "checks.h"

/* libcoop builds a megakernel a second time with COOP_TRACING=1 only for a traced run
 * (coop_mega_params.trace_file): every group's local id 0 then records its changes of role and
 * the barriers it passes, with the trace clock, into its buffer in the device area (coop_layout.h,
 * "Trace mode"). Without it none of this is compiled: the COOP_TRACE_* macros expand to nothing
 * and do not evaluate their arguments. */
#ifndef COOP_TRACING
#define COOP_TRACING 0
#endif
#if COOP_TRACING
#if defined(COOP_TARGET_NVIDIA)
/* %globaltimer: nanoseconds, one clock for the whole GPU */
inline ulong coop_trace_clock(void) { return coop_clock_ns(); }
#elif defined(COOP_TARGET_POCL)
/* The CPU's time-stamp counter (x86-64: rdtsc), one counter for every core and the one the host
 * reads (libcoop refuses to trace where it is not: libcoop/src/trace.c). Two cores' reads agree
 * only roughly: on a loaded 2-vCPU VM a stamp published by one core read up to 1,469 ticks
 * (0.6 us) ahead of the other core's next read. So a group's own reads order only its own
 * events; the membership changes take their times from one word (coop_trace_members). */
inline ulong coop_trace_clock(void) { return __builtin_readcyclecounter(); }
#else
#error "trace mode needs a device clock: NVIDIA's %globaltimer or PoCL's time-stamp counter"
#endif

/* The trace area (coop_layout.h: T0, CAPACITY, the counts and the buffers), and the trace words of
 * the group's own kernel block (MEMBERS, RESIZE_TIME, KILL_TIME: block 0's are in the trace area);
 * the block an event names. */
#if defined(COOP_KERNELS) && COOP_KERNELS > 1
#define COOP_TRACE_AREA(ctx) ((ctx)->dev0 + COOP_DEV_TRACE_AT(COOP_KERNELS))
#define COOP_TRACE_KERNEL(ctx)                                                                                 \
    ((ctx)->block ? (ctx)->dev0 + COOP_DEV_TRACE_KERNEL(COOP_KERNELS, (ctx)->block) : COOP_TRACE_AREA(ctx))
#define COOP_TRACE_BLOCK(ctx) ((ctx)->block)
#else
#define COOP_TRACE_AREA(ctx) ((ctx)->dev + COOP_DEV_TRACE)
#define COOP_TRACE_KERNEL(ctx) COOP_TRACE_AREA(ctx)
#define COOP_TRACE_BLOCK(ctx) 0u
#endif

inline ulong coop_trace_load64(global uint *word) { return COOP_JOIN_HALVES(word[0], word[1]); }

inline void coop_trace_store64(global uint *word, ulong value)
{
    word[0] = COOP_LOW_HALF(value);
    word[1] = COOP_HIGH_HALF(value);
}

/* Appends an event of kernel block `block` to group `physical`'s buffer in trace area `trace`
 * (its local id 0 only, the buffer's one writer: plain accesses; the host reads the buffers once
 * the kernel has ended). A full buffer only counts the event. */
inline void coop_trace_at(global uint *trace, uint physical, uint block, ulong time, uint kind, uint a, uint b)
{
    global uint *count = &trace[COOP_TRACE_COUNT + physical];
    uint n = *count;
    uint capacity = trace[COOP_TRACE_CAPACITY];
    if (n < capacity) {
        global uint *event = trace + COOP_TRACE_EVENTS + ((ulong)physical * capacity + n) * COOP_TRACE_EVENT_WORDS;
        coop_trace_store64(event, time);
        event[2] = COOP_EVENT_WORD(kind, a, block);
        event[3] = b;
    }
    *count = n + 1u;
}

/* The event's time is `time` / now; the barrier's arrival time, then its event after the wait. */
#define COOP_TRACE_EVENT(ctx, time, kind, a, b)                                                             \
    coop_trace_at(COOP_TRACE_AREA(ctx), (ctx)->physical, COOP_TRACE_BLOCK(ctx), (time), (kind), (a), (b))
#define COOP_TRACE_NOW(ctx, kind, a, b) COOP_TRACE_EVENT(ctx, coop_trace_clock(), kind, a, b)
#define COOP_TRACE_ARRIVAL(name) ulong name = coop_trace_clock()
#define COOP_TRACE_BARRIER(ctx, arrived, number, resizing)                                               \
    COOP_TRACE_EVENT(ctx, arrived, COOP_EV_BARRIER, COOP_EVENT_BARRIER_A(number, resizing),                  \
                     (uint)min(coop_trace_clock() - (arrived), (ulong)0xffffffffu))
#else
#define COOP_TRACE_EVENT(ctx, time, kind, a, b) ((void)0)
#define COOP_TRACE_NOW(ctx, kind, a, b) ((void)0)
#define COOP_TRACE_ARRIVAL(name)
#define COOP_TRACE_BARRIER(ctx, arrived, number, resizing) ((void)0)
#endif

#endif
