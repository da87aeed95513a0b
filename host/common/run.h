/* run.h: a cooperative kernel's run as the programs make it. A failure is reported as
 * "PROGRAM: WHAT: ..." (errors.h's error_coop(), without "WHAT: " when what is NULL) and its
 * status returned; a timeout ends the process at once (error_coop_exit()), as the kernel may
 * still hold the device and releasing the context would wait for it. */
#ifndef RUN_H
#define RUN_H

#include "coop.h"

#include <stddef.h>

/* coop_kernel_run() of a persistent kernel of `ctx`. */
coop_status run_persistent(const char *program, const coop_context *ctx, coop_kernel *kernel,
                           const coop_launch *launch, coop_run_stats *stats, const char *what);

/* coop_mega_run() of a megakernel of `ctx` with `plan_count` task plans. */
coop_status run_megakernel(const char *program, const coop_context *ctx, coop_kernel *kernel,
                           const coop_mega_params *params, const coop_task_plan *plans, size_t plan_count,
                           coop_mega_report *report, const char *what);

/* A program and the kernel the program runs from it, made and released together. */
typedef struct run_kernel {
    coop_program *program;
    coop_kernel *kernel;
} run_kernel;

/* Releases the kernel, then its program (either may be NULL), and clears *k. */
void run_kernel_release(run_kernel *k);

#endif
