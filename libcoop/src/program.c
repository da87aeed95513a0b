/* Building programs with the kernel-side header, and finding their kernels. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The build options of the device's target, into `out`. */
static void target_options(const coop_device_info *info, char *out, size_t size)
{
    switch (info->target) {
    case COOP_TARGET_POCL:
        /* -cl-opt-disable: PoCL 3.1's optimized build keeps a kernel's get_local_id(0), folded
         * into one value, across workgroup barriers, and its work-group compiler then takes a
         * branch on it after a barrier in a loop that a jump can leave with one work-item's id
         * in every work-item, or crashes on the kernel. No placement of coop-merge's joins
         * avoided it in every such kernel (docs/TESTING.md, the smith findings 70089 to 90296);
         * built without the optimizations each of them runs right. */
        snprintf(out, size, "-cl-std=CL3.0 -cl-opt-disable -DCOOP_TARGET_POCL=1");
        break;
    case COOP_TARGET_NVIDIA:
        /* COOP_NV_SM: the compute capability, for instructions newer GPUs have (redux.sync) */
        snprintf(out, size, "-cl-std=CL2.0 -DCOOP_TARGET_NVIDIA=1 -DCOOP_PARALLEL_SPIN=1 -DCOOP_NV_SM=%u",
                 info->nv_compute_capability);
        break;
    default:
        snprintf(out, size, "%s", info->is_gpu ? "-cl-std=CL2.0 -DCOOP_TARGET_CL20=1 -DCOOP_PARALLEL_SPIN=1"
                                               : "-cl-std=CL2.0 -DCOOP_TARGET_CL20=1");
    }
}

static char *build_log(coop_context *ctx, cl_program program)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        return NULL;
    char *log = malloc(size + 1);
    if (log && clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS)
        log[size] = '\0';
    else if (log)
        log[0] = '\0';
    return log;
}

coop_status coop_dump_write(coop_context *ctx, FILE *file, const char *path, const void *data, size_t size)
{
    int failed = fwrite(data, 1, size, file) != size;
    int error = errno;
    if (fclose(file) != 0 && !failed) {
        failed = 1;
        error = errno;
    }
    if (failed)
        return coop_fail(ctx, COOP_ERR_IO, "COOP_BUILD_DUMP: cannot write '%s': %s", path, strerror(error));
    return COOP_OK;
}

/* Writes the program's binary for the device (PTX on NVIDIA: what ptxas -v or cuobjdump needs
 * to tell which function sets a megakernel's register count) to the next free
 * `<directory>/program-<n>.bin`, and names the file on standard error. */
static coop_status dump_binary(coop_context *ctx, cl_program program, const char *name, const char *directory)
{
    size_t size = 0;
    cl_int err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
    unsigned char *binary = malloc(size ? size : 1);
    if (!binary)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory dumping '%s'", name);
    err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL);
    if (err != CL_SUCCESS) {
        free(binary);
        return coop_fail_cl(ctx, err, "clGetProgramInfo(CL_PROGRAM_BINARIES)");
    }
    char path[4096];
    FILE *file = NULL;
    for (unsigned n = 0; !file && n < 100000; n++) {
        snprintf(path, sizeof path, "%s/program-%u.bin", directory, n);
        /* "x": never overwrite an earlier dump, this process's or another's */
        file = fopen(path, "wbx");
        if (!file && errno != EEXIST)
            break;
    }
    if (!file) {
        coop_status status = coop_fail(ctx, COOP_ERR_IO, "COOP_BUILD_DUMP: cannot create a file in '%s': %s",
                                       directory, strerror(errno));
        free(binary);
        return status;
    }
    coop_status status = coop_dump_write(ctx, file, path, binary, size);
    free(binary);
    if (status != COOP_OK)
        return status;
    fprintf(stderr, "libcoop: binary of '%s' for '%s' in %s (%zu bytes)\n", name, ctx->info.name, path, size);
    return COOP_OK;
}

unsigned coop_source_kernels(const char *source)
{
    const char *at = source ? strstr(source, "coop-kernels: ") : NULL;
    long kernels = at ? strtol(at + strlen("coop-kernels: "), NULL, 10) : 1;
    return kernels >= 1 && kernels <= (long)COOP_MAX_KERNELS ? (unsigned)kernels : 1u;
}

/* Builds `source`, named `name` in diagnostics (a #line directive keeps the user's line
 * numbers exact despite the prepended header). */
static coop_status build_named(coop_context *ctx, const char *source, const char *name, const char *options,
                               cl_program *out)
{
    char line_directive[512];
    double print_log = 0.0;
    coop_status status = coop_env_number(ctx, COOP_ENV_BUILD_LOG, &print_log);
    if (status != COOP_OK)
        return status;
    snprintf(line_directive, sizeof line_directive, "\n#line 1 \"%s\"\n", name);
    const char *parts[] = {coop_kernel_header_source, line_directive, source};
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(ctx->cl, 3, parts, NULL, &err);
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateProgramWithSource");
    char base[192];
    target_options(&ctx->info, base, sizeof base);
    /* where the kernels find the control block, fixed for the context's life */
    snprintf(base + strlen(base), sizeof base - strlen(base), " -DCOOP_CTRL_IN_CHAN=%d",
             ctx->channel.kind == COOP_CHANNEL_SVM);
    /* a megakernel of several cooperative kernels (docs/DESIGN.md section 17) */
    if (coop_source_kernels(source) > 1)
        snprintf(base + strlen(base), sizeof base - strlen(base), " -DCOOP_KERNELS=%u", coop_source_kernels(source));
    const char *extra = coop_env_text(COOP_ENV_BUILD_OPTIONS);
    extra = extra ? extra : "";
    options = options ? options : "";
    size_t length = strlen(base) + strlen(options) + strlen(extra) + 32;
    char *all = malloc(length);
    if (!all) {
        clReleaseProgram(program);
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory building '%s'", name);
    }
    snprintf(all, length, "%s -cl-kernel-arg-info %s %s", base, options, extra);
    err = clBuildProgram(program, 1, &ctx->device, all, NULL, NULL);
    free(all);
    if (err != CL_SUCCESS) {
        char *log = build_log(ctx, program);
        status = err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS
                     ? coop_fail(ctx, COOP_ERR_BUILD, "building '%s' for '%s' failed (%s):\n%s", name, ctx->info.name,
                                 coop_cl_error_name(err), log ? log : "(no build log)")
                     : coop_fail_cl(ctx, err, "clBuildProgram");
        free(log);
        clReleaseProgram(program);
        return status;
    }
    if (print_log) {
        char *log = build_log(ctx, program);
        fprintf(stderr, "libcoop: build log of '%s' for '%s':\n%s\n", name, ctx->info.name, log ? log : "(none)");
        free(log);
    }
    const char *dump = coop_env_text(COOP_ENV_BUILD_DUMP);
    if (dump) {
        status = dump_binary(ctx, program, name, dump);
        if (status != COOP_OK) {
            clReleaseProgram(program);
            return status;
        }
    }
    *out = program;
    return COOP_OK;
}

coop_status coop_build(coop_context *ctx, const char *source, const char *options, cl_program *out)
{
    return build_named(ctx, source, "<libcoop>", options, out);
}

static char *copy_text(const char *text)
{
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy)
        memcpy(copy, text, size);
    return copy;
}

void coop_program_release(coop_program *program)
{
    if (!program)
        return;
    if (program->cl)
        clReleaseProgram(program->cl);
    if (program->traced)
        clReleaseProgram(program->traced);
    free(program->source);
    free(program->name);
    free(program->options);
    free(program);
}

/* Builds `source` and keeps what a traced run needs to build it again. */
static coop_status create_program(coop_context *ctx, const char *source, const char *name, const char *options,
                                  coop_program **out)
{
    coop_program *program = calloc(1, sizeof *program);
    if (!program)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory");
    program->ctx = ctx;
    program->source = copy_text(source);
    program->name = copy_text(name);
    program->options = copy_text(options ? options : "");
    coop_status status = program->source && program->name && program->options
                             ? build_named(ctx, source, name, options, &program->cl)
                             : coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory keeping '%s'", name);
    if (status != COOP_OK) {
        coop_program_release(program);
        return status;
    }
    *out = program;
    return COOP_OK;
}

coop_status coop_program_create(coop_context *ctx, const char *source, const char *options, coop_program **out)
{
    if (!ctx || !source || !out)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_program_create: %s is NULL",
                         !ctx ? "ctx" : !source ? "source" : "out");
    *out = NULL;
    return create_program(ctx, source, "<source>", options, out);
}

/* The whole of the regular file `path`, NUL-terminated (malloc'ed). A directory, a device or a
 * pipe is refused rather than read: its size means nothing, and it may never end. */
static coop_status read_source(coop_context *ctx, const char *path, char **out)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return coop_fail(ctx, COOP_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int error = errno;
        close(fd);
        return coop_fail(ctx, COOP_ERR_IO, "%s: %s", path, strerror(error));
    }
    if (!S_ISREG(info.st_mode)) {
        close(fd);
        return coop_fail(ctx, COOP_ERR_IO, "%s: %s", path,
                         S_ISDIR(info.st_mode) ? "is a directory, not a source file" : "is not a regular file");
    }
    FILE *file = fdopen(fd, "rb");
    if (!file) {
        int error = errno;
        close(fd);
        return coop_fail(ctx, COOP_ERR_IO, "%s: %s", path, strerror(error));
    }
    size_t capacity = (size_t)info.st_size + 1, size = 0;
    char *source = malloc(capacity);
    /* read to the end: the file may change size under us */
    while (source) {
        size += fread(source + size, 1, capacity - 1 - size, file);
        if (size < capacity - 1 || ferror(file))
            break;
        char *grown = realloc(source, 2 * capacity);
        if (!grown) {
            free(source);
            source = NULL;
            break;
        }
        source = grown;
        capacity *= 2;
    }
    int failed = !source || ferror(file);
    fclose(file);
    if (failed) {
        free(source);
        return source ? coop_fail(ctx, COOP_ERR_IO, "%s: could not be read", path)
                      : coop_fail(ctx, COOP_ERR_NO_MEMORY, "%s: out of memory reading it", path);
    }
    source[size] = '\0';
    *out = source;
    return COOP_OK;
}

coop_status coop_program_create_from_file(coop_context *ctx, const char *path, const char *options,
                                          coop_program **out)
{
    if (!ctx || !path || !out)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_program_create_from_file: %s is NULL",
                         !ctx ? "ctx" : !path ? "path" : "out");
    *out = NULL;
    char *source = NULL;
    coop_status status = read_source(ctx, path, &source);
    if (status != COOP_OK)
        return status;
    status = create_program(ctx, source, path, options, out);
    free(source);
    return status;
}

static char *kernel_names(cl_program program)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) != CL_SUCCESS)
        return NULL;
    char *names = calloc(size + 1, 1);
    if (names && clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL) != CL_SUCCESS)
        names[0] = '\0';
    return names;
}

/* A persistent kernel's first parameter is COOP_PARAMS' channel. Without argument info the
 * kernel is taken to be persistent, the common case. */
static int is_persistent(cl_kernel kernel, cl_uint arg_count)
{
    char name[64];
    if (arg_count < 2)
        return 0;
    if (clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL) != CL_SUCCESS)
        return 1;
    name[sizeof name - 1] = '\0';
    return strcmp(name, "coop_chan_") == 0;
}

coop_status coop_kernel_create(coop_program *program, const char *name, coop_kernel **out)
{
    coop_context *ctx = program ? program->ctx : NULL;
    if (!program || !name || !out)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_kernel_create: %s is NULL",
                         !program ? "program" : !name ? "name" : "out");
    *out = NULL;
    cl_int err = CL_SUCCESS;
    cl_kernel cl = clCreateKernel(program->cl, name, &err);
    if (err == CL_INVALID_KERNEL_NAME) {
        char *names = kernel_names(program->cl);
        coop_status status = coop_fail(ctx, COOP_ERR_KERNEL_NOT_FOUND, "no kernel '%s' in the program; it has: %s",
                                       name, names && *names ? names : "(none)");
        free(names);
        return status;
    }
    if (err != CL_SUCCESS)
        return coop_fail_cl(ctx, err, "clCreateKernel");
    coop_kernel *kernel = calloc(1, sizeof *kernel);
    if (!kernel) {
        clReleaseKernel(cl);
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory");
    }
    kernel->program = program;
    kernel->cl = cl;
    clGetKernelInfo(cl, CL_KERNEL_NUM_ARGS, sizeof kernel->arg_count, &kernel->arg_count, NULL);
    kernel->persistent = is_persistent(cl, kernel->arg_count);
    kernel->name = copy_text(name);
    kernel->args = calloc(kernel->arg_count ? kernel->arg_count : 1, sizeof *kernel->args);
    if (!kernel->name || !kernel->args) {
        coop_kernel_release(kernel);
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory");
    }
    *out = kernel;
    return COOP_OK;
}

void coop_kernel_release(coop_kernel *kernel)
{
    if (!kernel)
        return;
    clReleaseKernel(kernel->cl);
    if (kernel->traced)
        clReleaseKernel(kernel->traced);
    for (cl_uint i = 0; kernel->args && i < kernel->arg_count; i++)
        free(kernel->args[i].value);
    free(kernel->args);
    free(kernel->name);
    free(kernel);
}

/* Keeps argument `index` (OpenCL's count) as set, for the traced kernel. */
static coop_status keep_arg(coop_kernel *kernel, cl_uint index, size_t size, const void *value)
{
    coop_arg *arg = &kernel->args[index];
    void *copy = NULL;
    if (value) {
        copy = malloc(size ? size : 1);
        if (!copy)
            return coop_fail(kernel->program->ctx, COOP_ERR_NO_MEMORY, "out of memory keeping argument %u",
                             index - (kernel->persistent ? 2u : 0u)); /* the author's count */
        memcpy(copy, value, size);
    }
    free(arg->value);
    *arg = (coop_arg){.set = 1, .size = size, .value = copy};
    return COOP_OK;
}

coop_status coop_kernel_traced(coop_kernel *kernel, cl_kernel *out)
{
    coop_program *program = kernel->program;
    coop_context *ctx = program->ctx;
    if (!program->traced) {
        size_t length = strlen(program->options) + 32;
        char *options = malloc(length);
        if (!options)
            return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory building '%s' for a trace", program->name);
        snprintf(options, length, "%s -DCOOP_TRACING=1", program->options);
        coop_status status = build_named(ctx, program->source, program->name, options, &program->traced);
        free(options);
        if (status != COOP_OK) {
            program->traced = NULL;
            return status;
        }
    }
    if (!kernel->traced) {
        cl_int err = CL_SUCCESS;
        cl_kernel traced = clCreateKernel(program->traced, kernel->name, &err);
        if (err != CL_SUCCESS)
            return coop_fail_cl(ctx, err, "clCreateKernel (traced)");
        for (cl_uint i = 0; i < kernel->arg_count && err == CL_SUCCESS; i++)
            if (kernel->args[i].set)
                err = clSetKernelArg(traced, i, kernel->args[i].size, kernel->args[i].value);
        if (err != CL_SUCCESS) {
            clReleaseKernel(traced);
            return coop_fail_cl(ctx, err, "clSetKernelArg (traced)");
        }
        kernel->traced = traced;
    }
    *out = kernel->traced;
    return COOP_OK;
}

/* The bytes a value of OpenCL C type `type` takes as a kernel argument ("uint" 4, "float4" 16,
 * "size_t" the device's address bits / 8); 0 for a type libcoop cannot size (a struct, an image). */
static size_t type_size(const coop_context *ctx, const char *type)
{
    static const struct {
        const char *name;
        size_t size;       /* 0: the device's address size */
    } scalars[] = {{"char", 1},   {"uchar", 1},  {"short", 2},   {"ushort", 2},    {"half", 2},
                   {"int", 4},    {"uint", 4},   {"float", 4},   {"long", 8},      {"ulong", 8},
                   {"double", 8}, {"size_t", 0}, {"ptrdiff_t", 0}, {"intptr_t", 0}, {"uintptr_t", 0}};
    size_t base = strcspn(type, "0123456789");
    unsigned lanes = 1;
    if (type[base]) {
        char *end = NULL;
        lanes = (unsigned)strtoul(type + base, &end, 10);
        if (*end || (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16))
            return 0;
        if (lanes == 3) /* a 3-vector takes a 4-vector's room */
            lanes = 4;
    }
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        if (strlen(scalars[i].name) != base || strncmp(scalars[i].name, type, base) != 0)
            continue;
        size_t size = scalars[i].size;
        if (!size) {
            cl_uint bits = 0;
            if (lanes != 1 || clGetDeviceInfo(ctx->device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL) != CL_SUCCESS)
                return 0;
            size = bits / 8;
        }
        return size * lanes;
    }
    return 0;
}

/* Kernel argument `index` (OpenCL's count) as its author declared it, "uint adapt_queue_words" or
 * "global uint* out", into `text`; *bytes receives the size its value takes (sizeof(cl_mem) for a
 * buffer; 0 where libcoop cannot tell: local memory, a struct). A platform that gives no argument
 * info is named as the reason there is no name. */
static void describe_arg(const coop_kernel *kernel, cl_uint index, char *text, size_t size, size_t *bytes)
{
    char name[128] = "", type[128] = "";
    cl_kernel_arg_address_qualifier address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    *bytes = 0;
    cl_int err = clGetKernelArgInfo(kernel->cl, index, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelArgInfo(kernel->cl, index, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelArgInfo(kernel->cl, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL);
    if (err != CL_SUCCESS) {
        snprintf(text, size, "whose name and type the platform does not give: %s", coop_cl_error_name(err));
        return;
    }
    name[sizeof name - 1] = type[sizeof type - 1] = '\0';
    const char *space = address == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? "global "
                        : address == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant "
                        : address == CL_KERNEL_ARG_ADDRESS_LOCAL    ? "local "
                                                                    : "";
    snprintf(text, size, "%s%s %s", space, type, name);
    if (address == CL_KERNEL_ARG_ADDRESS_GLOBAL || address == CL_KERNEL_ARG_ADDRESS_CONSTANT)
        *bytes = sizeof(cl_mem);
    else if (address == CL_KERNEL_ARG_ADDRESS_PRIVATE)
        *bytes = type_size(kernel->program->ctx, type);
}

coop_status coop_check_args_set(const coop_kernel *kernel)
{
    cl_uint first = kernel->persistent ? 2 : 0, unset = 0;
    for (cl_uint i = first; i < kernel->arg_count; i++)
        unset += !kernel->args[i].set;
    if (!unset)
        return COOP_OK;
    char list[1024] = "";
    size_t used = 0;
    for (cl_uint i = first; i < kernel->arg_count && used < sizeof list; i++) {
        if (kernel->args[i].set)
            continue;
        char arg[320];
        size_t bytes = 0;
        describe_arg(kernel, i, arg, sizeof arg, &bytes);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%u (%s)", used ? ", " : "", i - first, arg);
    }
    return coop_fail(kernel->program->ctx, COOP_ERR_INVALID_ARGUMENT,
                     "kernel '%s': %s %s not set: %s; set %s with coop_kernel_set_arg or coop_kernel_set_buffer",
                     kernel->name, unset == 1 ? "argument" : "arguments", unset == 1 ? "is" : "are", list,
                     unset == 1 ? "it" : "them");
}

coop_status coop_kernel_set_arg(coop_kernel *kernel, unsigned index, size_t size, const void *value)
{
    if (!kernel)
        return COOP_ERR_INVALID_ARGUMENT;
    coop_context *ctx = kernel->program->ctx;
    cl_uint first = kernel->persistent ? 2 : 0;
    if (index >= kernel->arg_count - first)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "argument index %u is out of range: the kernel takes %u",
                         index, kernel->arg_count - first);
    cl_int err = clSetKernelArg(kernel->cl, index + first, size, value);
    if (err == CL_SUCCESS && kernel->traced)
        err = clSetKernelArg(kernel->traced, index + first, size, value);
    if (err != CL_SUCCESS) {
        char arg[320], expected[96] = "";
        size_t bytes = 0;
        describe_arg(kernel, index + first, arg, sizeof arg, &bytes);
        if (err == CL_INVALID_ARG_SIZE)
            snprintf(expected, sizeof expected, bytes ? ": size %zu, expected %zu" : ": size %zu", size, bytes);
        /* a value the parameter does not take is the caller's; anything else is the platform's */
        coop_status status = err == CL_INVALID_ARG_SIZE || err == CL_INVALID_ARG_VALUE ||
                                     err == CL_INVALID_MEM_OBJECT || err == CL_INVALID_SAMPLER
                                 ? COOP_ERR_INVALID_ARGUMENT
                                 : COOP_ERR_OPENCL;
        return coop_fail(ctx, status, "coop_kernel_set_arg: kernel '%s' argument %u (%s)%s: %s (%d)", kernel->name,
                         index, arg, expected, coop_cl_error_name(err), err);
    }
    return keep_arg(kernel, index + first, size, value);
}

coop_status coop_kernel_set_buffer(coop_kernel *kernel, unsigned index, cl_mem buffer)
{
    return coop_kernel_set_arg(kernel, index, sizeof buffer, &buffer);
}

cl_kernel coop_kernel_cl(const coop_kernel *kernel)
{
    return kernel ? kernel->cl : NULL;
}
