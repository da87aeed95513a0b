/* The programs' runs of cooperative kernels (run.h). */
#include "run.h"

#include "errors.h"

coop_status run_persistent(const char *program, const coop_context *ctx, coop_kernel *kernel,
                           const coop_launch *launch, coop_run_stats *stats, const char *what)
{
    coop_status status = coop_kernel_run(kernel, launch, stats);
    if (status == COOP_ERR_TIMEOUT)
        error_coop_exit(program, ctx, status, what);
    if (status != COOP_OK)
        error_coop(program, ctx, status, what);
    return status;
}

coop_status run_megakernel(const char *program, const coop_context *ctx, coop_kernel *kernel,
                           const coop_mega_params *params, const coop_task_plan *plans, size_t plan_count,
                           coop_mega_report *report, const char *what)
{
    coop_status status = coop_mega_run(kernel, params, plans, plan_count, report);
    if (status == COOP_ERR_TIMEOUT)
        error_coop_exit(program, ctx, status, what);
    if (status != COOP_OK)
        error_coop(program, ctx, status, what);
    return status;
}

void run_kernel_release(run_kernel *k)
{
    coop_kernel_release(k->kernel);
    coop_program_release(k->program);
    *k = (run_kernel){0};
}
