/* The periodic matmult task beside an app's megakernel (matmult_task.h). */
#include "matmult_task.h"

#include "errors.h"
#include "matmult_ref.h"

#include <stdio.h>

void matmult_task_inputs(matmult_task *task)
{
    uint32_t x = 12345;
    for (unsigned i = 0; i < MATMULT_TASK_ORDER * MATMULT_TASK_ORDER; i++) {
        x = x * 1664525u + 1013904223u;
        task->a_host[i] = x >> 20;
        x = x * 1664525u + 1013904223u;
        task->b_host[i] = x >> 20;
    }
}

coop_status matmult_task_set_args(const matmult_task *task, coop_kernel *kernel, unsigned arg_a, unsigned arg_b,
                                  unsigned arg_c)
{
    coop_status status = coop_kernel_set_buffer(kernel, arg_a, task->a);
    if (status == COOP_OK)
        status = coop_kernel_set_buffer(kernel, arg_b, task->b);
    if (status == COOP_OK)
        status = coop_kernel_set_buffer(kernel, arg_c, task->c);
    return status;
}

int matmult_task_check(const matmult_task *task, const coop_context *ctx, const char *program)
{
    uint32_t c[MATMULT_TASK_ORDER * MATMULT_TASK_ORDER];
    cl_int err = clEnqueueReadBuffer(coop_context_queue(ctx), task->c, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return error_cl(program, err, "clEnqueueReadBuffer");
    uint32_t row[MATMULT_TASK_ORDER];
    matmult_difference first;
    if (matmult_ref_compare(task->a_host, task->b_host, c, MATMULT_TASK_ORDER, row, &first)) {
        printf("task: c[%zu][%zu] = %u, expected %u\n", first.row, first.col, first.got, first.expected);
        return 2;
    }
    return 0;
}
