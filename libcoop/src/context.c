/* Contexts: a selected device, its OpenCL context, two queues and the channel. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The options' channel, else COOP_CHANNEL's (the environment is read only when the options leave
 * the choice open). */
static coop_status resolve_channel(coop_context *ctx, const coop_options *options, coop_channel_kind *kind)
{
    *kind = options ? options->channel : COOP_CHANNEL_AUTO;
    if ((unsigned)*kind > COOP_CHANNEL_QUEUE)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "coop_context_create: options->channel = %d is not a coop_channel_kind "
                         "(COOP_CHANNEL_AUTO .. COOP_CHANNEL_QUEUE)", (int)*kind);
    return *kind == COOP_CHANNEL_AUTO ? coop_env_channel(ctx, kind) : COOP_OK;
}

static cl_command_queue create_queue(coop_context *ctx, cl_int *err)
{
    return clCreateCommandQueueWithProperties(ctx->cl, ctx->device, NULL, err);
}

coop_status coop_context_create(const coop_options *options, coop_context **out)
{
    if (!out)
        return COOP_ERR_INVALID_ARGUMENT;
    coop_context *ctx = calloc(1, sizeof *ctx);
    *out = ctx;
    if (!ctx)
        return COOP_ERR_NO_MEMORY;
    coop_channel_kind kind;
    coop_status status = resolve_channel(ctx, options, &kind);
    if (status == COOP_OK)
        status = coop_select_device(ctx, options);
    if (status != COOP_OK)
        return status;
    cl_int err = CL_SUCCESS;
    ctx->cl = clCreateContext(NULL, 1, &ctx->device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateContext");
    ctx->queue = create_queue(ctx, &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateCommandQueueWithProperties");
    ctx->side_queue = create_queue(ctx, &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateCommandQueueWithProperties (side queue)");
    return coop_channel_open(ctx, kind);
}

void coop_context_release(coop_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->cl)
        coop_channel_close(ctx);
    if (ctx->echo_program)
        clReleaseProgram(ctx->echo_program);
    if (ctx->dev_area)
        clReleaseMemObject(ctx->dev_area);
    if (ctx->side_queue)
        clReleaseCommandQueue(ctx->side_queue);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->cl)
        clReleaseContext(ctx->cl);
    free(ctx->message);
    free(ctx);
}

const coop_device_info *coop_context_device(const coop_context *ctx)
{
    return ctx ? &ctx->info : NULL;
}

cl_context coop_context_cl(const coop_context *ctx)
{
    return ctx ? ctx->cl : NULL;
}

cl_command_queue coop_context_queue(const coop_context *ctx)
{
    return ctx ? ctx->queue : NULL;
}
