/* matmult_task.h: the periodic matmult task (kernels/tasks/matmult.cl, and ws_light.cl for
 * coop-ws) that coop-qsort, coop-lbvh, coop-path and coop-ws run beside their app's megakernel:
 * its size, its fixed inputs and the check of its product against the CPU's (matmult_ref.h).
 * The programs make the buffers with their own, so that one release frees them all. */
#ifndef MATMULT_TASK_H
#define MATMULT_TASK_H

#include "coop.h"

#include <stdint.h>

enum { MATMULT_TASK_ORDER = 64 };

/* c = a x b, n x n words with n = MATMULT_TASK_ORDER; a_host and b_host keep the inputs for the
 * check. */
typedef struct matmult_task {
    cl_mem a, b, c;
    uint32_t a_host[MATMULT_TASK_ORDER * MATMULT_TASK_ORDER], b_host[MATMULT_TASK_ORDER * MATMULT_TASK_ORDER];
} matmult_task;

/* Fills a_host and b_host with the same pseudo-random words in every program and run. */
void matmult_task_inputs(matmult_task *task);

/* Sets a, b and c as the kernel's arguments arg_a, arg_b and arg_c; the first failure's status. */
coop_status matmult_task_set_args(const matmult_task *task, coop_kernel *kernel, unsigned arg_a, unsigned arg_b,
                                  unsigned arg_c);

/* Reads c back and compares it with a x b: 0 when equal; 2 with the first difference printed on
 * standard output ("task: c[i][j] = got, expected e"); 1 when the read fails, with "PROGRAM: ..."
 * on standard error. */
int matmult_task_check(const matmult_task *task, const coop_context *ctx, const char *program);

#endif
