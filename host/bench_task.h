/* bench_task.h: coop-bench's high-priority tasks (kernels/tasks/matmult.cl, kernels/tasks/render.cl,
 * and as ordinary kernels kernels/tasks/plain.cl):
 * the task kinds, their size on this device, their buffers, their plan in a megakernel, the check
 * of their result, and the no-cooperation baseline, where the task runs as an ordinary kernel on a
 * second queue while a standalone persistent kernel holds the device.
 *
 * Functions that can fail print "coop-bench: ..." on standard error and return 1 (2 for a result
 * that differs from the CPU's), else 0. */
#ifndef BENCH_TASK_H
#define BENCH_TASK_H

#include "coop.h"

#include <stdint.h>

/* The program whose tasks these are, in its failure messages (coop-multi builds bench_task.c
 * again with its own). */
#ifndef BENCH_TASK_PROGRAM
#define BENCH_TASK_PROGRAM "coop-bench"
#endif

typedef enum bench_task_kind {
    BENCH_TASK_NONE,
    BENCH_TASK_LIGHT,   /* matmult sized for 3 ms, every 70 ms */
    BENCH_TASK_MEDIUM,  /* matmult sized for 3 ms, every 40 ms */
    BENCH_TASK_HEAVY,   /* matmult sized for 10 ms, every 40 ms */
    BENCH_TASK_RENDER   /* one path-traced frame sized for 5 ms, every 40 ms */
} bench_task_kind;

/* "none", "light", "medium", "heavy" or "render": the name --task takes. */
const char *bench_task_name(bench_task_kind kind);

/* The period a kind is meant for, and the execution time it is sized for, in ms. */
double bench_task_period_ms(bench_task_kind kind);
double bench_task_target_ms(bench_task_kind kind);

typedef struct bench_task {
    bench_task_kind kind;
    coop_context *ctx;
    size_t local_size;
    unsigned size;              /* matmult: n; render: the frame's width */
    unsigned width, height;     /* render: the frame */
    unsigned workgroups;        /* task workgroups (matmult: rows spread over them; render: tiles) */
    unsigned workgroups_bound;  /* the most: twice the groups the device could hold */
    unsigned sizing_groups;     /* groups the start-up sizing's tasks took: a quarter of the device */
    double sized_ms;            /* their median execution time there (0: the size was given) */
    double whole_device_ms;     /* its median execution time as an ordinary kernel alone on the device */
    cl_command_queue queue;     /* the second queue, with profiling */
    coop_kernel *plain;         /* matmult_plain or render_plain */
    cl_mem a, b, c;             /* matmult: c = a x b; render: the frame in c */
    uint32_t *a_host, *b_host;  /* matmult's inputs, for the check */
} bench_task;

/* Where a megakernel holds the task (its host header's names): its index (coop_task_plan.task)
 * and the indices of its parameters: matmult's a, b and c; render's frame in c (a and b -1). */
typedef struct bench_binding {
    unsigned task;
    int a, b, c;
} bench_binding;

/* The megakernel the start-up sizing runs the task in: every argument but the task's is set, and
 * its cooperative kernel ends at once (e.g. an empty worklist), so that the task runs on a
 * quarter of the groups while the others idle. */
typedef struct bench_sizing {
    coop_kernel *mega;
    bench_binding binding;
} bench_sizing;

/* Sizes a task of `kind` so that it runs about its target time on a quarter of the device's
 * groups inside `sizing`'s megakernel (or takes `size`, when non-zero: the matrix order or the
 * frame's width; `sizing` is then unused), creates its queue, plain kernel (from `program`,
 * built from kernels/tasks/plain.cl) and buffers, and times it alone on the whole device.
 * Close it even after a failure. */
int bench_task_open(bench_task *t, bench_task_kind kind, coop_context *ctx, coop_program *program,
                    size_t local_size, unsigned size, const bench_sizing *sizing);

void bench_task_close(bench_task *t);

/* One line saying what the task is, e.g. "heavy: 1424x1424 matmult on 1188 workgroups". */
void bench_task_describe(const bench_task *t, char *text, size_t size);

/* The plan of the task `binding` names: its size in the task arguments (matmult.cl, render.cl);
 * render draws frame `frame`. */
coop_task_plan bench_task_plan(const bench_task *t, bench_binding binding, coop_take take, unsigned take_count,
                               double period_ms, unsigned frame);

/* Zeroes the result (render: alpha 0 marks a pixel never written) and waits. */
int bench_task_clear(const bench_task *t);

/* Compares the result with the CPU's: matmult rows exactly (every row up to order 256, else 16
 * rows spread over the matrix); render, 256 pixels spread over frame `frame` against
 * render_ref_pixel() within render_ref.h's tolerance. `run` names the run in the message. */
int bench_task_check(const bench_task *t, unsigned frame, unsigned run);

/* Writes render's frame as PNG, or as PPM if the path ends in ".ppm". */
int bench_task_write_frame(const bench_task *t, const char *path);

/* ---- The no-cooperation baseline ------------------------------------------------------------ */

typedef struct bench_baseline bench_baseline;

/* Starts a thread that submits the task as an ordinary kernel (its `workgroups` groups) on the
 * task's queue every `period_ms`, the first `first_ms` from now, one at a time as libcoop's
 * scheduler does (a late task delays the next), until bench_baseline_stop(). */
int bench_baseline_start(bench_task *t, double period_ms, double first_ms, unsigned frame, bench_baseline **out);

/* Stops submitting, waits for the task in flight and the thread, and hands over its records
 * (request times since the first period, gather = queued until started and exec = started until
 * ended on the device clock, response = request until the host saw it end; the caller frees
 * them). Frees the baseline. */
int bench_baseline_stop(bench_baseline *baseline, coop_task_record **records, size_t *count);

#endif
