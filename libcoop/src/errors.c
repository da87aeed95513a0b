/* Status messages, OpenCL error names and the per-context failure message. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *coop_strerror(coop_status status)
{
    static const char *const messages[] = {
#define COOP_STATUS_MESSAGE_(code, message) message,
        COOP_STATUS_MAP(COOP_STATUS_MESSAGE_)
#undef COOP_STATUS_MESSAGE_
    };
    if ((unsigned)status >= COOP_STATUS_COUNT_)
        return "unknown status";
    return messages[status];
}

const char *coop_status_name(coop_status status)
{
    static const char *const names[] = {
#define COOP_STATUS_NAME_(code, message) #code,
        COOP_STATUS_MAP(COOP_STATUS_NAME_)
#undef COOP_STATUS_NAME_
    };
    if ((unsigned)status >= COOP_STATUS_COUNT_)
        return "unknown status";
    return names[status];
}

#define COOP_CL_ERRORS(X)                                                                         \
    X(CL_SUCCESS) X(CL_DEVICE_NOT_FOUND) X(CL_DEVICE_NOT_AVAILABLE) X(CL_COMPILER_NOT_AVAILABLE)  \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE) X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY)           \
    X(CL_PROFILING_INFO_NOT_AVAILABLE) X(CL_MEM_COPY_OVERLAP) X(CL_IMAGE_FORMAT_MISMATCH)         \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED) X(CL_BUILD_PROGRAM_FAILURE) X(CL_MAP_FAILURE)                \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET) X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)            \
    X(CL_COMPILE_PROGRAM_FAILURE) X(CL_LINKER_NOT_AVAILABLE) X(CL_LINK_PROGRAM_FAILURE)           \
    X(CL_DEVICE_PARTITION_FAILED) X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) X(CL_INVALID_VALUE)         \
    X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM) X(CL_INVALID_DEVICE) X(CL_INVALID_CONTEXT)   \
    X(CL_INVALID_QUEUE_PROPERTIES) X(CL_INVALID_COMMAND_QUEUE) X(CL_INVALID_HOST_PTR)             \
    X(CL_INVALID_MEM_OBJECT) X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) X(CL_INVALID_IMAGE_SIZE)       \
    X(CL_INVALID_SAMPLER) X(CL_INVALID_BINARY) X(CL_INVALID_BUILD_OPTIONS) X(CL_INVALID_PROGRAM)  \
    X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME) X(CL_INVALID_KERNEL_DEFINITION)    \
    X(CL_INVALID_KERNEL) X(CL_INVALID_ARG_INDEX) X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE)   \
    X(CL_INVALID_KERNEL_ARGS) X(CL_INVALID_WORK_DIMENSION) X(CL_INVALID_WORK_GROUP_SIZE)          \
    X(CL_INVALID_WORK_ITEM_SIZE) X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_EVENT_WAIT_LIST)        \
    X(CL_INVALID_EVENT) X(CL_INVALID_OPERATION) X(CL_INVALID_GL_OBJECT) X(CL_INVALID_BUFFER_SIZE) \
    X(CL_INVALID_MIP_LEVEL) X(CL_INVALID_GLOBAL_WORK_SIZE) X(CL_INVALID_PROPERTY)                 \
    X(CL_INVALID_IMAGE_DESCRIPTOR) X(CL_INVALID_COMPILER_OPTIONS) X(CL_INVALID_LINKER_OPTIONS)    \
    X(CL_INVALID_DEVICE_PARTITION_COUNT) X(CL_INVALID_PIPE_SIZE) X(CL_INVALID_DEVICE_QUEUE)

const char *coop_cl_error_name(cl_int error)
{
    switch (error) {
#define COOP_CL_ERROR_CASE_(name) \
    case name:                    \
        return #name;
        COOP_CL_ERRORS(COOP_CL_ERROR_CASE_)
#undef COOP_CL_ERROR_CASE_
    default:
        return "unknown OpenCL error";
    }
}

coop_status coop_fail(coop_context *ctx, coop_status status, const char *fmt, ...)
{
    if (!ctx)
        return status;
    va_list args;
    va_start(args, fmt);
    int length = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (text) {
        va_start(args, fmt);
        vsnprintf(text, (size_t)length + 1, fmt, args);
        va_end(args);
        free(ctx->message);
        ctx->message = text;
    }
    return status;
}

coop_status coop_fail_cl(coop_context *ctx, cl_int err, const char *what)
{
    return coop_fail(ctx, COOP_ERR_OPENCL, "%s failed: %s (%d)", what, coop_cl_error_name(err), err);
}

void coop_clear_message(coop_context *ctx)
{
    free(ctx->message);
    ctx->message = NULL;
}

const char *coop_context_message(const coop_context *ctx)
{
    return ctx && ctx->message ? ctx->message : "";
}
