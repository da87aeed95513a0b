/* The host <-> running-kernel channel, with its three backends. */
#include "internal.h"

#include <string.h>

#define CHANNEL_BYTES (COOP_CHAN_WORDS * sizeof(uint32_t))
/* the channel also holds the other kernel blocks of a megakernel of several cooperative kernels
 * (docs/DESIGN.md section 17): their control blocks, or the agent's copies of them */
#define BLOCKS_BYTES (COOP_MAX_KERNELS * CHANNEL_BYTES)
#define COOP_MEM_LOCATION_HOST_NV (1 << 0) /* cl_nv_create_buffer */

typedef cl_mem (*create_buffer_nv_fn)(cl_context, cl_mem_flags, cl_bitfield, size_t, void *, cl_int *);

static coop_status open_svm(coop_context *ctx)
{
    coop_channel *ch = &ctx->channel;
    ch->svm = clSVMAlloc(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                         BLOCKS_BYTES, 0);
    if (!ch->svm)
        return coop_fail(ctx, COOP_ERR_OPENCL, "clSVMAlloc of a fine-grained SVM channel failed");
    ch->host = ch->svm;
    return COOP_OK;
}

static coop_status open_nvhost(coop_context *ctx)
{
    coop_channel *ch = &ctx->channel;
    create_buffer_nv_fn create =
        (create_buffer_nv_fn)clGetExtensionFunctionAddressForPlatform(ctx->platform, "clCreateBufferNV");
    if (!create)
        return coop_fail(ctx, COOP_ERR_CHANNEL_UNSUPPORTED, "clCreateBufferNV is not exported by platform '%s'",
                         ctx->info.platform);
    cl_int err = CL_SUCCESS;
    ch->buffer = create(ctx->cl, CL_MEM_READ_WRITE, COOP_MEM_LOCATION_HOST_NV, BLOCKS_BYTES, NULL, &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateBufferNV(CL_MEM_LOCATION_HOST_NV)");
    void *mapped = clEnqueueMapBuffer(ctx->side_queue, ch->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      BLOCKS_BYTES, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clEnqueueMapBuffer of the host channel");
    ch->host = mapped;
    return COOP_OK;
}

static coop_status open_queue(coop_context *ctx)
{
    cl_int err = CL_SUCCESS;
    ctx->channel.buffer = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, BLOCKS_BYTES, NULL, &err);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "clCreateBuffer for the channel");
}

coop_status coop_channel_open(coop_context *ctx, coop_channel_kind kind)
{
    const coop_device_info *info = &ctx->info;
    if (kind == COOP_CHANNEL_AUTO)
        kind = info->channel;
    if (kind == COOP_CHANNEL_SVM && !(info->svm_fine_buffer && info->svm_atomics))
        return coop_fail(ctx, COOP_ERR_CHANNEL_UNSUPPORTED,
                         "channel 'svm' needs fine-grained SVM buffers with SVM atomics, which '%s' lacks "
                         "(try COOP_CHANNEL=%s)", info->name, coop_channel_name(info->channel));
    if (kind == COOP_CHANNEL_NVHOST && !info->nv_create_buffer)
        return coop_fail(ctx, COOP_ERR_CHANNEL_UNSUPPORTED,
                         "channel 'nvhost' needs the cl_nv_create_buffer extension, which '%s' lacks "
                         "(try COOP_CHANNEL=%s)", info->name, coop_channel_name(info->channel));
    ctx->channel.kind = kind;
    coop_status status = kind == COOP_CHANNEL_SVM      ? open_svm(ctx)
                         : kind == COOP_CHANNEL_NVHOST ? open_nvhost(ctx)
                                                       : open_queue(ctx);
    return status == COOP_OK ? coop_channel_reset(ctx) : status;
}

void coop_channel_close(coop_context *ctx)
{
    coop_channel *ch = &ctx->channel;
    if (ch->svm)
        clSVMFree(ctx->cl, ch->svm);
    if (ch->buffer && ch->kind == COOP_CHANNEL_NVHOST && ch->host) {
        clEnqueueUnmapMemObject(ctx->side_queue, ch->buffer, (void *)ch->host, 0, NULL, NULL);
        clFinish(ctx->side_queue);
    }
    if (ch->buffer)
        clReleaseMemObject(ch->buffer);
    memset(ch, 0, sizeof *ch);
}

/* The queue backend's transfer of `count` words, which must not block forever: some devices (PoCL)
 * run no other command while a persistent kernel holds all their compute units. */
static coop_status queue_transfer(coop_context *ctx, unsigned slot, unsigned count, uint32_t *words, int write)
{
    cl_event done = NULL;
    size_t offset = slot * sizeof(uint32_t), size = count * sizeof(uint32_t);
    cl_int err = write ? clEnqueueWriteBuffer(ctx->side_queue, ctx->channel.buffer, CL_FALSE, offset, size, words, 0,
                                              NULL, &done)
                       : clEnqueueReadBuffer(ctx->side_queue, ctx->channel.buffer, CL_FALSE, offset, size, words, 0,
                                             NULL, &done);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, write ? "writing the channel (clEnqueueWriteBuffer)"
                                            : "reading the channel (clEnqueueReadBuffer)");
    clFlush(ctx->side_queue);
    double start_us = coop_now_us();
    cl_int state = CL_QUEUED;
    while (clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL) == CL_SUCCESS &&
           state > CL_COMPLETE) {
        if (coop_now_us() - start_us > 5e6)
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "channel 'queue': a %s of the channel did not run within 5 s; '%s' runs no "
                             "command beside a kernel that holds all its compute units (use another channel, "
                             "e.g. COOP_CHANNEL=%s)", write ? "write" : "read", ctx->info.name,
                             coop_channel_name(ctx->info.channel));
        coop_poll_pause(ctx, 0, 100);
    }
    clReleaseEvent(done);
    return state == CL_COMPLETE ? COOP_OK
                                : coop_fail(ctx, COOP_ERR_OPENCL, "channel transfer failed: %s",
                                            coop_cl_error_name(state));
}

coop_status coop_channel_load(coop_context *ctx, unsigned slot, uint32_t *value)
{
    coop_channel *ch = &ctx->channel;
    if (ch->host) {
        *value = __atomic_load_n(&ch->host[slot], __ATOMIC_ACQUIRE);
        return COOP_OK;
    }
    return queue_transfer(ctx, slot, 1, value, 0);
}

coop_status coop_channel_read(coop_context *ctx, unsigned slot, unsigned count, uint32_t *values)
{
    coop_channel *ch = &ctx->channel;
    if (ch->host) {
        for (unsigned i = 0; i < count; i++)
            values[i] = __atomic_load_n(&ch->host[slot + i], __ATOMIC_ACQUIRE);
        return COOP_OK;
    }
    return queue_transfer(ctx, slot, count, values, 0);
}

coop_status coop_channel_store(coop_context *ctx, unsigned slot, uint32_t value)
{
    coop_channel *ch = &ctx->channel;
    if (ch->host) {
        __atomic_store_n(&ch->host[slot], value, __ATOMIC_RELEASE);
        return COOP_OK;
    }
    return queue_transfer(ctx, slot, 1, &value, 1);
}

coop_status coop_channel_reset_kernels(coop_context *ctx, unsigned kernels)
{
    coop_channel *ch = &ctx->channel;
    if (ch->host) {
        for (unsigned slot = COOP_CHAN_WORDS; slot < kernels * COOP_CHAN_WORDS; slot++)
            __atomic_store_n(&ch->host[slot], 0u, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return COOP_OK;
    }
    uint32_t zero = 0;
    cl_int err = clEnqueueFillBuffer(ctx->side_queue, ch->buffer, &zero, sizeof zero, CHANNEL_BYTES,
                                     (kernels - 1) * CHANNEL_BYTES, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(ctx->side_queue);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "clearing the channel's kernel blocks");
}

coop_status coop_channel_reset(coop_context *ctx)
{
    coop_channel *ch = &ctx->channel;
    if (ch->host) {
        for (unsigned slot = 0; slot < COOP_CHAN_WORDS; slot++)
            __atomic_store_n(&ch->host[slot], 0u, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return COOP_OK;
    }
    uint32_t zero = 0;
    cl_int err = clEnqueueFillBuffer(ctx->side_queue, ch->buffer, &zero, sizeof zero, 0, CHANNEL_BYTES, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(ctx->side_queue);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "clearing the channel");
}

coop_status coop_channel_set_arg(coop_context *ctx, cl_kernel kernel, cl_uint index)
{
    cl_int err = ctx->channel.svm ? clSetKernelArgSVMPointer(kernel, index, ctx->channel.svm)
                                  : clSetKernelArg(kernel, index, sizeof(cl_mem), &ctx->channel.buffer);
    return err == CL_SUCCESS ? COOP_OK : coop_fail_cl(ctx, err, "setting the channel kernel argument");
}

coop_channel_kind coop_context_channel(const coop_context *ctx)
{
    return ctx ? ctx->channel.kind : COOP_CHANNEL_AUTO;
}

/* The echo kernel (channel.cl). */
extern const char coop_echo_source[];

/* Runs the echo kernel for `rounds` trips while the host times each one. */
static coop_status time_echo(coop_context *ctx, cl_kernel echo, unsigned rounds, double *mean_us, double *min_us)
{
    size_t one = 1;
    cl_event running = NULL;
    cl_int err = clEnqueueNDRangeKernel(ctx->queue, echo, 1, NULL, &one, &one, 0, NULL, &running);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "launching the channel echo kernel");
    clFlush(ctx->queue);
    coop_status status = COOP_OK;
    double total_us = 0.0, best_us = 0.0;
    for (unsigned round = 1; round <= rounds && status == COOP_OK; round++) {
        double start_us = coop_now_us();
        status = coop_channel_store(ctx, COOP_CHAN_ECHO_IN, round);
        uint32_t answer = 0;
        while (status == COOP_OK && answer != round) {
            status = coop_channel_load(ctx, COOP_CHAN_ECHO_OUT, &answer);
            if (status == COOP_OK && answer != round && coop_now_us() - start_us > 10e6)
                status = coop_fail(ctx, COOP_ERR_TIMEOUT,
                                   "channel '%s': the running kernel did not answer round %u within 10 s",
                                   coop_channel_name(ctx->channel.kind), round);
        }
        double trip_us = coop_now_us() - start_us;
        total_us += trip_us;
        if (round == 1 || trip_us < best_us)
            best_us = trip_us;
    }
    if (status != COOP_OK)
        return status; /* the kernel still spins: the caller must exit, as the message says */
    clWaitForEvents(1, &running);
    clReleaseEvent(running);
    *mean_us = total_us / rounds;
    *min_us = best_us;
    return COOP_OK;
}

coop_status coop_channel_roundtrip(coop_context *ctx, unsigned rounds, double *mean_us, double *min_us)
{
    if (!ctx || !rounds || !mean_us || !min_us)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_channel_roundtrip: %s",
                         !ctx      ? "ctx is NULL"
                         : !rounds ? "rounds = 0: it times at least one round trip"
                         : !mean_us ? "mean_us is NULL"
                                    : "min_us is NULL");
    if (!ctx->echo_program) {
        coop_status status = coop_build(ctx, coop_echo_source, NULL, &ctx->echo_program);
        if (status != COOP_OK)
            return status;
    }
    cl_int err = CL_SUCCESS;
    cl_kernel echo = clCreateKernel(ctx->echo_program, "coop_echo", &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateKernel(coop_echo)");
    coop_status status = coop_channel_reset(ctx);
    if (status == COOP_OK)
        status = coop_channel_set_arg(ctx, echo, 0);
    if (status == COOP_OK) {
        /* The echo kernel ignores the device area; the channel fills the slot. */
        status = coop_channel_set_arg(ctx, echo, 1);
    }
    cl_uint count = rounds;
    if (status == COOP_OK && (err = clSetKernelArg(echo, 2, sizeof count, &count)) != CL_SUCCESS)
        status = coop_fail_cl(ctx, err, "clSetKernelArg(coop_echo rounds)");
    if (status == COOP_OK)
        status = time_echo(ctx, echo, rounds, mean_us, min_us);
    clReleaseKernel(echo);
    return status;
}

void coop_channel_dump(coop_context *ctx, unsigned block)
{
    if (ctx->channel.kind == COOP_CHANNEL_SVM)
        return;
    unsigned base = block * COOP_CHAN_WORDS + COOP_CHAN_CTRL;
    uint32_t dump = 0, dumped = 0;
    coop_channel_load(ctx, base + COOP_CTRL_DUMP, &dump);
    coop_channel_store(ctx, base + COOP_CTRL_DUMP, dump + 1);
    double asked_us = coop_now_us();
    while (dumped != dump + 1 && coop_now_us() - asked_us < 1e6)
        coop_channel_load(ctx, base + COOP_CTRL_DUMPED, &dumped);
}
