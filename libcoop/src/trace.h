/* Trace mode, host side (trace.c): the trace clock and the export of a traced run. */
#ifndef COOP_TRACE_H
#define COOP_TRACE_H

#include "internal.h"
#include "outfile.h"

/* A traced run's file and clock. */
typedef struct coop_trace {
    const char *path;
    coop_outfile file;         /* opened before the run, so that a bad path fails at once */
    FILE *out;                 /* file.stream */
    unsigned capacity;         /* events per group's buffer */
    int tsc;                   /* the trace clock is the host's time-stamp counter (PoCL) */
    double us_per_tick;        /* known once the clock stopped (tsc), else from the start */
    double start_us, end_us;   /* tsc: host times ... */
    uint64_t start_ticks, end_ticks; /* ... and the counter's, at the run's start and end */
    /* several cooperative kernels (set before coop_trace_write; kernels 0 or 1: one) */
    unsigned kernels;
    char kernel_names[COOP_KERNELS_MAX][64];
    unsigned weights[COOP_KERNELS_MAX];
    coop_kernel_report kernel_reports[COOP_KERNELS_MAX];
} coop_trace;

/* One task run as the host saw it, with the device's times of it (trace clock ticks, 0 unknown). */
typedef struct coop_trace_task {
    unsigned request;          /* the run's number (1, 2, ...), as the report's records name it */
    uint32_t seq;              /* the request's sequence number, as the kernel's events name it (with
                                  several kernels, requests for moves and shares take numbers too) */
    unsigned plan, task, groups;
    double sent_us, done_us;   /* host: request sent, done seen */
    double due_ms;             /* when its plan wanted it, since discovery */
    double deadline_ms;        /* its deadline, since discovery (0: none) */
    int deadline_met;
    uint64_t request_tick, gathered_tick, done_tick;
    uint64_t spawn_tick;       /* a spawned run's spawn, by the device's clock (0: none or not timed) */
    unsigned agent_tid;        /* the agent's track, where the request's device time is (0: none) */
} coop_trace_task;

/* Starts a trace into `path` with `capacity` events per group: COOP_ERR_DEVICE_UNSUPPORTED for a
 * device without a clock the host can relate to its own, COOP_ERR_IO for a file that cannot be
 * created. */
coop_status coop_trace_open(coop_context *ctx, const char *path, unsigned capacity, coop_trace *trace);
/* A run that failed: closes the file, leaving the path as it was (outfile.h). */
void coop_trace_discard(coop_trace *trace);
/* The trace clock as the host reads it (the time-stamp counter), 0 where the host cannot. */
uint64_t coop_trace_host_ticks(const coop_trace *trace);
/* Once the kernel has ended: fixes the clock's rate (tsc). */
void coop_trace_stop_clock(coop_trace *trace);
/* Why a run ended before its kernel did, in the trace's otherData.ended_early. */
typedef struct coop_trace_end {
    const char *cause;         /* "watchdog", "time limit" or "error" */
    coop_status status;        /* what coop_mega_run returns */
    const char *message;       /* its message */
} coop_trace_end;

/* Reads the groups' buffers back and writes the trace file, and closes it (the path as it was
 * if that fails); *events and *dropped receive the events kept and dropped. `direct`: the host applied
 * the requests itself (no agent). `early`: NULL for a run that completed; else the run failed
 * once its groups ran, and the kernel may still run: the buffers are read beside it (a device
 * that serves no read there fails with COOP_ERR_TIMEOUT). */
coop_status coop_trace_write(coop_context *ctx, coop_trace *trace, coop_running *run, const coop_mega_report *report,
                             coop_trace_task *tasks, size_t task_count, int direct, const coop_trace_end *early,
                             unsigned long *events, unsigned long *dropped);

#endif
