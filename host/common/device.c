/* The programs' use of the device (device.h). */
#include "device.h"

#include "cli.h"
#include "errors.h"

int device_open(const char *program, const char *what, coop_context **ctx)
{
    coop_status status = coop_context_create(NULL, ctx);
    if (status == COOP_OK)
        return 0;
    error_coop(program, *ctx, status, what);
    coop_context_release(*ctx);
    *ctx = NULL;
    return CLI_EXIT_ERROR;
}

size_t device_default_local_size(const coop_device_info *info)
{
    return info->is_gpu ? 256 : 64;
}

int device_check_local_size(const char *program, const coop_device_info *info, size_t local_size)
{
    if (local_size <= info->max_local_size)
        return 0;
    return error_report(program, "--local-size %zu is more than the device allows (%zu)", local_size,
                        info->max_local_size);
}

int device_build(const char *program_name, coop_context *ctx, const char *source, const char *name,
                 coop_program **program, coop_kernel **kernel)
{
    coop_status status = coop_program_create(ctx, source, NULL, program);
    if (status != COOP_OK)
        return error_coop(program_name, ctx, status, "build");
    status = coop_kernel_create(*program, name, kernel);
    return status == COOP_OK ? 0 : error_coop(program_name, ctx, status, "kernel");
}

cl_command_queue device_profiling_queue(const coop_context *ctx, cl_int *err)
{
    cl_device_id device = NULL;
    *err = clGetContextInfo(coop_context_cl(ctx), CL_CONTEXT_DEVICES, sizeof device, &device, NULL);
    if (*err != CL_SUCCESS)
        return NULL;
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    return clCreateCommandQueueWithProperties(coop_context_cl(ctx), device, properties, err);
}

cl_int device_enqueue_plain(cl_command_queue queue, const coop_kernel *kernel, size_t groups, size_t local_size,
                            cl_event *event)
{
    size_t global_size = groups * local_size;
    cl_int err = clEnqueueNDRangeKernel(queue, coop_kernel_cl(kernel), 1, NULL, &global_size, &local_size, 0, NULL,
                                        event);
    return err == CL_SUCCESS ? clFlush(queue) : err;
}

cl_int device_event_ns(cl_event event, cl_profiling_info from, cl_profiling_info to, double *ns)
{
    cl_ulong start_ns = 0, end_ns = 0;
    cl_int err = clGetEventProfilingInfo(event, from, sizeof start_ns, &start_ns, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(event, to, sizeof end_ns, &end_ns, NULL);
    if (err == CL_SUCCESS && end_ns < start_ns)
        err = CL_PROFILING_INFO_NOT_AVAILABLE;
    *ns = err == CL_SUCCESS ? (double)(end_ns - start_ns) : 0.0;
    return err;
}
