/* The programs' device buffers (buffers.h). */
#include "buffers.h"

cl_mem buffer_create(const coop_context *ctx, size_t bytes, const void *data, cl_int *err)
{
    if (*err != CL_SUCCESS)
        return NULL;
    cl_mem_flags flags = CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0);
    return clCreateBuffer(coop_context_cl(ctx), flags, bytes ? bytes : sizeof(cl_uint), (void *)data, err);
}

cl_int buffer_fill_words(cl_command_queue queue, cl_mem buffer, cl_uint value, size_t words)
{
    /* OpenCL copies the pattern before it returns */
    return clEnqueueFillBuffer(queue, buffer, &value, sizeof value, 0, words * sizeof value, 0, NULL, NULL);
}

cl_int buffers_create(const coop_context *ctx, const buffer_spec *specs, size_t count, cl_mem *list,
                      unsigned *listed)
{
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        *specs[i].buffer = buffer_create(ctx, specs[i].bytes, specs[i].data, &err);
        if (err != CL_SUCCESS)
            return err;
        list[(*listed)++] = *specs[i].buffer;
    }
    return CL_SUCCESS;
}

void buffers_release(const cl_mem *buffers, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (buffers[i])
            clReleaseMemObject(buffers[i]);
}
