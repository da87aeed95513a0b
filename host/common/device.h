/* device.h: what the programs do on the device libcoop opened for them: the local size they run
 * at, their kernels built from embedded sources, a second command queue with profiling, and the
 * device's timing of that queue's commands. Failures are reported as errors.h says. */
#ifndef DEVICE_H
#define DEVICE_H

#include "coop.h"

#include <stddef.h>

/* Opens libcoop's context on the device COOP_PLATFORM and COOP_DEVICE select: 0, or
 * CLI_EXIT_ERROR after error_coop(program, ..., what) with *ctx released and NULL. */
int device_open(const char *program, const char *what, coop_context **ctx);

/* The local size a program runs at unless told: 256 work-items on a GPU, 64 on a CPU. */
size_t device_default_local_size(const coop_device_info *info);

/* 0 when the device allows `local_size` work-items per group; else CLI_EXIT_ERROR after
 * "PROGRAM: --local-size L is more than the device allows (M)". */
int device_check_local_size(const char *program, const coop_device_info *info, size_t local_size);

/* Builds `source` (without extra build options) into *program and creates its kernel `name`
 * in *kernel: 0, or CLI_EXIT_ERROR after "PROGRAM: build: ..." or "PROGRAM: kernel: ...". The
 * caller releases both in every case. */
int device_build(const char *program_name, coop_context *ctx, const char *source, const char *name,
                 coop_program **program, coop_kernel **kernel);

/* A second command queue on the context's device, with profiling, for ordinary kernels beside a
 * persistent one; NULL with the error in *err. The caller releases it. */
cl_command_queue device_profiling_queue(const coop_context *ctx, cl_int *err);

/* Enqueues `groups` groups of `local_size` work-items of the ordinary kernel `kernel` on `queue`
 * and flushes the queue, so that the kernel starts while the caller goes on; *event, unless
 * event is NULL, receives the command's event. */
cl_int device_enqueue_plain(cl_command_queue queue, const coop_kernel *kernel, size_t groups, size_t local_size,
                            cl_event *event);

/* The device's time in ns between two profiling points of an ended command in *ns;
 * CL_PROFILING_INFO_NOT_AVAILABLE where the device's clock went backwards. */
cl_int device_event_ns(cl_event event, cl_profiling_info from, cl_profiling_info to, double *ns);

#endif
