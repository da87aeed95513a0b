/* test_program.c: building programs and finding and preparing their kernels
 * (libcoop/src/program.c). */
#include "internal.h"
#include "testutil.h"

#include <limits.h>
#include <unistd.h>

/* Three lines of the user's own; line 3 uses a name that does not exist. */
static const char broken_source[] =
    "kernel void broken(global int *out)\n"
    "{\n"
    "    out[0] = undeclared_name;\n"
    "}\n";

static const char two_kernels_source[] =
    "kernel void alpha(global uint *out) { out[0] = 1; }\n"
    "kernel void beta(global uint *out) { out[0] = 2; }\n";

/* A persistent kernel with two parameters of its own, which it writes out with the group count. */
static const char persistent_source[] =
    "kernel void store(COOP_PARAMS, uint value, global uint *out)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    if (coop_group_id(&ctx) == 0 && coop_local_linear_id() == 0) {\n"
    "        out[0] = value;\n"
    "        out[1] = coop_num_groups(&ctx);\n"
    "    }\n"
    "}\n";

/* Template of this file's temporary files and directories (mkstemp, mkdtemp). */
#define TEMPORARY_TEMPLATE "/tmp/test_program.XXXXXX"

/* Writes `text` to a new temporary file whose path goes to `path` (PATH_BYTES). */
enum { PATH_BYTES = 64 };
static void write_temporary(char *path, const char *text)
{
    snprintf(path, PATH_BYTES, TEMPORARY_TEMPLATE);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    size_t length = strlen(text);
    ck_assert_int_eq(write(fd, text, length), (ssize_t)length);
    close(fd);
}

START_TEST(build_error_gives_the_log_with_user_lines)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = (coop_program *)1;
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create(ctx, broken_source, NULL, &program)), COOP_ERR_BUILD,
                     "<source>:3:");
    const char *message = coop_context_message(ctx);
    ck_assert_ptr_nonnull(strstr(message, "undeclared_name"));
    ck_assert_ptr_nonnull(strstr(message, "CL_BUILD_PROGRAM_FAILURE"));
    ck_assert_ptr_null(program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(bad_build_option)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create(ctx, two_kernels_source, "-cl-no-such-option", &program)),
                     COOP_ERR_BUILD, "-cl-no-such-option");
    ck_assert_ptr_null(program);
    coop_context_release(ctx);
}
END_TEST

/* The user's options come after the target's, which define the target macro. */
START_TEST(build_options_reach_the_compiler)
{
    static const char source[] =
        "#if !defined(COOP_TARGET_POCL) || COOP_PARALLEL_SPIN\n"
        "#error the target is not PoCL\n"
        "#endif\n"
        "#ifndef USER_FLAG\n"
        "#error USER_FLAG is not defined\n"
        "#endif\n"
        "kernel void flagged(global uint *out) { out[0] = USER_FLAG; }\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create(ctx, source, NULL, &program)), COOP_ERR_BUILD,
                     "USER_FLAG is not defined");
    ck_assert_ptr_null(strstr(coop_context_message(ctx), "the target is not PoCL"));
    TU_ASSERT_OK(ctx, coop_program_create(ctx, source, "-DUSER_FLAG=7", &program));
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* PoCL's global barriers need their sites (coop_device/barrier.h, COOP_BARRIER_POCL_SITE): a build
 * that turns them off is refused, naming why, not run into a hang. */
START_TEST(pocl_refuses_barriers_without_sites)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create(ctx, two_kernels_source, "-DCOOP_SITES=0", &program)),
                     COOP_ERR_BUILD, "COOP_SITES=0: PoCL needs the barrier sites");
    ck_assert_ptr_null(program);
    coop_context_release(ctx);
}
END_TEST

/* COOP_BUILD_OPTIONS is appended to every build's options, the program's own included. */
START_TEST(build_options_from_the_environment)
{
    static const char source[] =
        "#ifndef ENV_FLAG\n"
        "#error ENV_FLAG is not defined\n"
        "#endif\n"
        "#ifndef USER_FLAG\n"
        "#error USER_FLAG is not defined\n"
        "#endif\n"
        "kernel void flagged(global uint *out) { out[0] = ENV_FLAG + USER_FLAG; }\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    unsetenv("COOP_BUILD_OPTIONS");
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create(ctx, source, "-DUSER_FLAG=1", &program)), COOP_ERR_BUILD,
                     "ENV_FLAG is not defined");
    setenv("COOP_BUILD_OPTIONS", "-DENV_FLAG=5", 1);
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create(ctx, source, NULL, &program)), COOP_ERR_BUILD,
                     "USER_FLAG is not defined");
    TU_ASSERT_OK(ctx, coop_program_create(ctx, source, "-DUSER_FLAG=1", &program));
    unsetenv("COOP_BUILD_OPTIONS");
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* COOP_BUILD_LOG prints every build's log to standard error, named after the program. */
START_TEST(build_log_from_the_environment)
{
    char path[PATH_BYTES];
    write_temporary(path, "");
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = fopen(path, "w");
    ck_assert_ptr_nonnull(capture);
    dup2(fileno(capture), STDERR_FILENO);
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    setenv("COOP_BUILD_LOG", "1", 1);
    coop_status status = coop_program_create(ctx, two_kernels_source, NULL, &program);
    unsetenv("COOP_BUILD_LOG");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    fclose(capture);
    TU_ASSERT_OK(ctx, status);
    size_t size = 0;
    char *text = tu_read_file(path, &size);
    unlink(path);
    ck_assert_msg(size > 0 && strstr(text, "libcoop: build log of '<source>' for '") != NULL,
                  "standard error was:\n%s", text);
    free(text);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* The binary OpenCL has for `kernel`'s program, with its size in `size`. */
static unsigned char *program_binary(coop_kernel *kernel, size_t *size)
{
    cl_program program = NULL;
    ck_assert_int_eq(clGetKernelInfo(coop_kernel_cl(kernel), CL_KERNEL_PROGRAM, sizeof program, &program, NULL),
                     CL_SUCCESS);
    ck_assert_int_eq(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL), CL_SUCCESS);
    unsigned char *binary = malloc(*size);
    ck_assert_ptr_nonnull(binary);
    ck_assert_int_eq(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL), CL_SUCCESS);
    return binary;
}

/* COOP_BUILD_DUMP writes every build's binary to the next free program-<n>.bin of the directory,
 * byte for byte what OpenCL holds, and says where on standard error; a directory that does not
 * exist fails the build with COOP_ERR_IO. */
START_TEST(build_dump_from_the_environment)
{
    char directory[PATH_BYTES];
    snprintf(directory, sizeof directory, TEMPORARY_TEMPLATE);
    ck_assert_ptr_nonnull(mkdtemp(directory));
    coop_context *ctx = tu_context(2);
    coop_program *first = NULL, *second = NULL;
    setenv("COOP_BUILD_DUMP", directory, 1);
    tu_stderr_capture();
    coop_kernel *alpha = tu_kernel(ctx, two_kernels_source, NULL, "alpha", &first);
    coop_kernel *store = tu_kernel(ctx, persistent_source, NULL, "store", &second);
    char *said = tu_stderr_take();
    coop_kernel *kernels[] = {alpha, store};
    for (unsigned n = 0; n < 2; n++) {
        char path[PATH_BYTES + 32];
        snprintf(path, sizeof path, "%s/program-%u.bin", directory, n);
        ck_assert_msg(strstr(said, "libcoop: binary of '<source>' for '") && strstr(said, path),
                      "standard error does not name %s:\n%s", path, said);
        size_t dumped_size = 0, size = 0;
        char *dumped = tu_read_file(path, &dumped_size);
        unsigned char *binary = program_binary(kernels[n], &size);
        ck_assert_uint_gt(size, 0);
        ck_assert_uint_eq(dumped_size, size);
        ck_assert_int_eq(memcmp(dumped, binary, size), 0);
        free(binary);
        free(dumped);
        unlink(path);
    }
    free(said);
    rmdir(directory);
    char expected[PATH_BYTES + 96];
    snprintf(expected, sizeof expected, "COOP_BUILD_DUMP: cannot create a file in '%s': No such file or directory",
             directory);
    coop_program *third = NULL;
    TU_ASSERT_STATUS(ctx, coop_program_create(ctx, two_kernels_source, NULL, &third), COOP_ERR_IO, expected);
    ck_assert_ptr_null(third);
    unsetenv("COOP_BUILD_DUMP");
    coop_kernel_release(alpha);
    coop_kernel_release(store);
    coop_program_release(first);
    coop_program_release(second);
    coop_context_release(ctx);
}
END_TEST

/* A dump file that cannot be written (/dev/full: every write reports a full device, here when the
 * stream is flushed at its close) is COOP_ERR_IO naming the file and the reason. The build itself
 * opens its files with O_EXCL, which /dev/full refuses, so the helper is tested on its own. */
START_TEST(build_dump_write_failure)
{
    coop_context *ctx = tu_context(2);
    FILE *full = fopen("/dev/full", "wb");
    ck_assert_ptr_nonnull(full);
    static const char data[64] = "a binary";
    ck_assert_int_eq(coop_dump_write(ctx, full, "/dev/full", data, sizeof data), COOP_ERR_IO);
    ck_assert_str_eq(coop_context_message(ctx), "COOP_BUILD_DUMP: cannot write '/dev/full': No space left on device");
    FILE *null = fopen("/dev/null", "wb");
    ck_assert_ptr_nonnull(null);
    TU_ASSERT_OK(ctx, coop_dump_write(ctx, null, "/dev/null", data, sizeof data));
    coop_context_release(ctx);
}
END_TEST

/* coop_atomic_inc gives every caller a distinct index, callers in divergent branches included;
 * coop_atomic_add_index gives every caller as many consecutive indices as it asks for (0 to 4,
 * in a divergent branch), none shared; coop_atomic_add_sum adds every caller's value. */
START_TEST(atomic_helpers)
{
    static const char source[] =
        "kernel void counters(volatile global uint *index, volatile global uint *sum, global uint *slots,\n"
        "                     volatile global uint *index2, global uint *slots2)\n"
        "{\n"
        "    uint gid = (uint)get_global_id(0);\n"
        "    if (gid % 3u != 0u)\n"
        "        slots[coop_atomic_inc(index)] = gid + 1u;\n"
        "    if (gid % 11u != 0u) {\n"
        "        uint at = coop_atomic_add_index(index2, gid % 5u);\n"
        "        for (uint k = 0; k < gid % 5u; k++)\n"
        "            slots2[at + k] = gid + 1u;\n"
        "    }\n"
        "    coop_atomic_add_sum(sum, gid % 7u);\n"
        "}\n";
    enum { ITEMS = 1024, LOCAL = 64 };
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "counters", &program);
    cl_mem index = tu_buffer(ctx, 1), sum = tu_buffer(ctx, 1), slots = tu_buffer(ctx, ITEMS);
    cl_mem index2 = tu_buffer(ctx, 1), slots2 = tu_buffer(ctx, 4 * ITEMS);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, index));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 1, sum));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 2, slots));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 3, index2));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 4, slots2));
    size_t global = ITEMS, local = LOCAL;
    cl_int err = clEnqueueNDRangeKernel(coop_context_queue(ctx), coop_kernel_cl(kernel), 1, NULL, &global, &local, 0,
                                        NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueNDRangeKernel: %s", coop_cl_error_name(err));
    cl_uint count = 0, total = 0, got[ITEMS];
    tu_read(ctx, index, &count, 1);
    tu_read(ctx, sum, &total, 1);
    tu_read(ctx, slots, got, ITEMS);
    unsigned callers = 0, expected_total = 0;
    unsigned char seen[ITEMS] = {0};
    for (unsigned g = 0; g < ITEMS; g++) {
        callers += g % 3 != 0;
        expected_total += g % 7;
    }
    ck_assert_uint_eq(count, callers);
    ck_assert_uint_eq(total, expected_total);
    for (unsigned i = 0; i < callers; i++) {
        ck_assert_msg(got[i] >= 1 && got[i] <= ITEMS && (got[i] - 1) % 3 != 0, "slot %u holds %u", i, got[i]);
        ck_assert_msg(!seen[got[i] - 1], "work-item %u got two indices", got[i] - 1);
        seen[got[i] - 1] = 1;
    }
    /* every asker's slots hold its id, consecutive, and no slot past the count was written */
    static cl_uint got2[4 * ITEMS];
    cl_uint count2 = 0;
    tu_read(ctx, index2, &count2, 1);
    tu_read(ctx, slots2, got2, 4 * ITEMS);
    unsigned asked = 0, filled[ITEMS] = {0};
    for (unsigned g = 0; g < ITEMS; g++)
        asked += g % 11 != 0 ? g % 5 : 0;
    ck_assert_uint_eq(count2, asked);
    for (unsigned i = 0; i < asked;) {
        cl_uint id = got2[i];
        ck_assert_msg(id >= 1 && id <= ITEMS && (id - 1) % 11 != 0 && (id - 1) % 5 != 0 && !filled[id - 1],
                      "slot %u holds %u", i, id);
        for (unsigned k = 0; k < (id - 1) % 5; k++, i++)
            ck_assert_msg(i < asked && got2[i] == id, "work-item %u's slot %u holds %u", id - 1, i, got2[i]);
        filled[id - 1] = 1;
    }
    clReleaseMemObject(index2);
    clReleaseMemObject(slots2);
    clReleaseMemObject(index);
    clReleaseMemObject(sum);
    clReleaseMemObject(slots);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(build_from_file)
{
    char path[PATH_BYTES];
    write_temporary(path, two_kernels_source);
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_OK(ctx, coop_program_create_from_file(ctx, path, NULL, &program));
    coop_kernel *kernel = NULL;
    TU_ASSERT_OK(ctx, coop_kernel_create(program, "beta", &kernel));
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
    unlink(path);
}
END_TEST

/* Diagnostics name the file and the line in it. */
START_TEST(build_error_in_file_names_the_file)
{
    char path[PATH_BYTES], expected[PATH_BYTES + 8];
    write_temporary(path, broken_source);
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    snprintf(expected, sizeof expected, "%s:3:", path);
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_program_create_from_file(ctx, path, NULL, &program)), COOP_ERR_BUILD,
                     expected);
    ck_assert_ptr_null(program);
    coop_context_release(ctx);
    unlink(path);
}
END_TEST

START_TEST(missing_file)
{
    const char *path = "tests/data/no-such-kernel.cl";
    coop_context *ctx = tu_context(2);
    coop_program *program = (coop_program *)1;
    TU_ASSERT_STATUS(ctx, coop_program_create_from_file(ctx, path, NULL, &program), COOP_ERR_IO, path);
    ck_assert_ptr_nonnull(strstr(coop_context_message(ctx), "No such file or directory"));
    ck_assert_ptr_null(program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(unknown_kernel_lists_the_kernels)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_OK(ctx, coop_program_create(ctx, two_kernels_source, NULL, &program));
    coop_kernel *kernel = (coop_kernel *)1;
    TU_ASSERT_STATUS(ctx, coop_kernel_create(program, "gamma", &kernel), COOP_ERR_KERNEL_NOT_FOUND, "'gamma'");
    const char *message = coop_context_message(ctx);
    ck_assert_msg(strstr(message, "alpha") && strstr(message, "beta"), "kernels not listed: %s", message);
    ck_assert_ptr_null(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(empty_program_has_no_kernels)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_OK(ctx, coop_program_create(ctx, "", NULL, &program));
    coop_kernel *kernel = NULL;
    TU_ASSERT_STATUS(ctx, coop_kernel_create(program, "alpha", &kernel), COOP_ERR_KERNEL_NOT_FOUND,
                     "no kernel 'alpha'");
    ck_assert_ptr_null(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* The list of kernels a program has says so when there is none. */
START_TEST(empty_program_lists_no_kernels)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_OK(ctx, coop_program_create(ctx, "", NULL, &program));
    coop_kernel *kernel = NULL;
    TU_ASSERT_STATUS(ctx, coop_kernel_create(program, "alpha", &kernel), COOP_ERR_KERNEL_NOT_FOUND,
                     "it has: (none)");
    ck_assert_ptr_null(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* An index near UINT_MAX must not wrap around to a valid one once COOP_PARAMS are skipped. */
START_TEST(argument_index_near_the_top_of_unsigned)
{
    coop_context *ctx = tu_context(2);
    coop_program *persistent_program = NULL, *plain_program = NULL;
    coop_kernel *persistent = tu_kernel(ctx, persistent_source, NULL, "store", &persistent_program);
    coop_kernel *plain = tu_kernel(ctx, two_kernels_source, NULL, "alpha", &plain_program);
    cl_mem buffer = tu_buffer(ctx, 1);
    const unsigned indices[] = {UINT_MAX - 1, UINT_MAX};
    for (size_t i = 0; i < sizeof indices / sizeof indices[0]; i++) {
        char expected[64];
        snprintf(expected, sizeof expected, "argument index %u is out of range", indices[i]);
        TU_ASSERT_STATUS(ctx, coop_kernel_set_buffer(persistent, indices[i], buffer), COOP_ERR_INVALID_ARGUMENT,
                         expected);
        TU_ASSERT_STATUS(ctx, coop_kernel_set_buffer(plain, indices[i], buffer), COOP_ERR_INVALID_ARGUMENT,
                         expected);
    }
    /* Nothing was set: the persistent kernel's own arguments are still missing. */
    TU_ASSERT_STATUS(ctx, coop_kernel_run(persistent, NULL, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "kernel 'store': arguments are not set: 0 (uint value), 1 (global uint* out)");
    clReleaseMemObject(buffer);
    coop_kernel_release(plain);
    coop_kernel_release(persistent);
    coop_program_release(plain_program);
    coop_program_release(persistent_program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(kernel_handle_is_the_opencl_kernel)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, two_kernels_source, NULL, "beta", &program);
    char name[32] = "";
    ck_assert_int_eq(clGetKernelInfo(coop_kernel_cl(kernel), CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL),
                     CL_SUCCESS);
    ck_assert_str_eq(name, "beta");
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* Indices count the user's parameters: after COOP_PARAMS in a persistent kernel, from the
 * first in another. */
START_TEST(argument_index_out_of_range)
{
    coop_context *ctx = tu_context(2);
    coop_program *persistent_program = NULL, *plain_program = NULL;
    coop_kernel *persistent = tu_kernel(ctx, persistent_source, NULL, "store", &persistent_program);
    coop_kernel *plain = tu_kernel(ctx, two_kernels_source, NULL, "alpha", &plain_program);
    cl_uint value = 5;
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(persistent, 0, sizeof value, &value));
    TU_ASSERT_STATUS(ctx, coop_kernel_set_arg(persistent, 2, sizeof value, &value), COOP_ERR_INVALID_ARGUMENT,
                     "argument index 2 is out of range: the kernel takes 2");
    TU_ASSERT_STATUS(ctx, coop_kernel_set_arg(persistent, 1000, sizeof value, &value), COOP_ERR_INVALID_ARGUMENT,
                     "argument index 1000 is out of range");

    cl_mem buffer = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(plain, 0, buffer));
    TU_ASSERT_STATUS(ctx, coop_kernel_set_buffer(plain, 1, buffer), COOP_ERR_INVALID_ARGUMENT,
                     "argument index 1 is out of range: the kernel takes 1");
    clReleaseMemObject(buffer);
    coop_kernel_release(plain);
    coop_kernel_release(persistent);
    coop_program_release(plain_program);
    coop_program_release(persistent_program);
    coop_context_release(ctx);
}
END_TEST

/* A value of the wrong size names the parameter (index, type and name) and the size it takes. */
START_TEST(argument_of_the_wrong_size)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, persistent_source, NULL, "store", &program);
    cl_uchar byte = 1;
    ck_assert_int_eq(coop_kernel_set_arg(kernel, 0, sizeof byte, &byte), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), "coop_kernel_set_arg: kernel 'store' argument 0 (uint value): size 1, "
                                                "expected 4: CL_INVALID_ARG_SIZE (-51)");
    cl_uint word = 0;
    ck_assert_int_eq(coop_kernel_set_arg(kernel, 1, sizeof word, &word), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), "coop_kernel_set_arg: kernel 'store' argument 1 (global uint* out): "
                                                "size 4, expected 8: CL_INVALID_ARG_SIZE (-51)");
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* The size each kind of parameter takes, in the message for a value of another size: scalars,
 * vectors (a 3-vector as a 4-vector), buffers; local memory takes no value (NULL), only a size. */
static const char types_source[] =
    "kernel void types(COOP_PARAMS, uchar a, short2 b, float3 c, ulong4 d, char8 e, constant float *f, local uint *g)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "}\n";

static const struct {
    size_t size;
    const char *message;
} wrong_sizes[] = {
    {2, "coop_kernel_set_arg: kernel 'types' argument 0 (uchar a): size 2, expected 1: CL_INVALID_ARG_SIZE (-51)"},
    {5, "coop_kernel_set_arg: kernel 'types' argument 1 (short2 b): size 5, expected 4: CL_INVALID_ARG_SIZE (-51)"},
    {13, "coop_kernel_set_arg: kernel 'types' argument 2 (float3 c): size 13, expected 16: CL_INVALID_ARG_SIZE (-51)"},
    {33, "coop_kernel_set_arg: kernel 'types' argument 3 (ulong4 d): size 33, expected 32: CL_INVALID_ARG_SIZE (-51)"},
    {9, "coop_kernel_set_arg: kernel 'types' argument 4 (char8 e): size 9, expected 8: CL_INVALID_ARG_SIZE (-51)"},
    {9, "coop_kernel_set_arg: kernel 'types' argument 5 (constant float* f): size 9, expected 8: "
        "CL_INVALID_ARG_SIZE (-51)"},
    {9, "coop_kernel_set_arg: kernel 'types' argument 6 (local uint* g): CL_INVALID_ARG_VALUE (-50)"},
};

START_TEST(wrong_size_names_the_size_expected)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, types_source, NULL, "types", &program);
    const unsigned char bytes[64] = {0};
    ck_assert_int_eq(coop_kernel_set_arg(kernel, (unsigned)_i, wrong_sizes[_i].size, bytes), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), wrong_sizes[_i].message);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(run_needs_coop_params)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, two_kernels_source, NULL, "alpha", &program);
    cl_mem buffer = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, buffer));
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, NULL, NULL), COOP_ERR_INVALID_ARGUMENT, "COOP_PARAMS");
    cl_uint untouched = 1;
    tu_read(ctx, buffer, &untouched, 1);
    ck_assert_uint_eq(untouched, 0);
    clReleaseMemObject(buffer);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* A kernel whose platform gives no argument info (a program built without -cl-kernel-arg-info,
 * as one from a binary may be; PoCL then answers CL_KERNEL_ARG_INFO_NOT_AVAILABLE): the messages
 * say so where the parameter's name would be, and the errors are still the caller's. */
START_TEST(argument_errors_without_argument_info)
{
    static const char *source = "kernel void plain(uint value, global uint *out) { out[0] = value; }\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "plain", &program);
    cl_int err = CL_SUCCESS;
    cl_program bare = clCreateProgramWithSource(coop_context_cl(ctx), 1, &source, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(clBuildProgram(bare, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    cl_kernel bare_kernel = clCreateKernel(bare, "plain", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    char name[16];
    ck_assert_int_eq(clGetKernelArgInfo(bare_kernel, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL),
                     CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(kernel->cl);
    kernel->cl = bare_kernel;
    cl_uchar byte = 1;
    ck_assert_int_eq(coop_kernel_set_arg(kernel, 0, sizeof byte, &byte), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), "coop_kernel_set_arg: kernel 'plain' argument 0 (whose name and type "
                                                "the platform does not give: CL_KERNEL_ARG_INFO_NOT_AVAILABLE): size 1: "
                                                "CL_INVALID_ARG_SIZE (-51)");
    ck_assert_int_eq(coop_check_args_set(kernel), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx),
                     "kernel 'plain': arguments are not set: 0 (whose name and type the platform does not give: "
                     "CL_KERNEL_ARG_INFO_NOT_AVAILABLE), 1 (whose name and type the platform does not give: "
                     "CL_KERNEL_ARG_INFO_NOT_AVAILABLE); set them with coop_kernel_set_arg or coop_kernel_set_buffer");
    coop_kernel_release(kernel);
    clReleaseProgram(bare);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* libcoop knows which arguments were set: a launch with one unset is refused before it reaches
 * OpenCL, naming each unset parameter; nothing runs. */
START_TEST(run_with_an_argument_unset)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, persistent_source, NULL, "store", &program);
    ck_assert_int_eq(coop_kernel_run(kernel, NULL, NULL), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx),
                     "kernel 'store': arguments are not set: 0 (uint value), 1 (global uint* out); set them with "
                     "coop_kernel_set_arg or coop_kernel_set_buffer");
    cl_uint value = 5;
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 0, sizeof value, &value));
    ck_assert_int_eq(coop_kernel_run(kernel, NULL, NULL), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), "kernel 'store': argument is not set: 1 (global uint* out); set it "
                                                "with coop_kernel_set_arg or coop_kernel_set_buffer");
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* The same for a megakernel, traced or not (the check comes before the traced build). */
START_TEST(mega_run_with_an_argument_unset)
{
    static const char source[] =
        "kernel void mega(COOP_PARAMS, global uint *out, uint rounds)\n"
        "{\n"
        "    COOP_ENTER(ctx);\n"
        "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx))\n"
        "        COOP_GROUP_SYNC();\n"
        "}\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "mega", &program);
    cl_mem out = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, out));
    static const char expected[] = "kernel 'mega': argument is not set: 1 (uint rounds); set it with "
                                   "coop_kernel_set_arg or coop_kernel_set_buffer";
    coop_mega_report report;
    ck_assert_int_eq(coop_mega_run(kernel, NULL, NULL, 0, &report), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), expected);
    coop_mega_params params = {.trace_file = "/tmp/test_program-never-written.json"};
    ck_assert_int_eq(coop_mega_run(kernel, &params, NULL, 0, &report), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(coop_context_message(ctx), expected);
    ck_assert_int_ne(access(params.trace_file, F_OK), 0);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* Argument 0 of coop_kernel_set_arg is the first parameter after COOP_PARAMS; the kernel sees the
 * group count discovery found (1 or 2 on two workers, 2 on a quiet machine). */
START_TEST(persistent_arguments_follow_coop_params)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, persistent_source, NULL, "store", &program);
    cl_mem out = tu_buffer(ctx, 2);
    cl_uint value = 0xc0ffeeu;
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 0, sizeof value, &value));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 1, out));
    coop_run_stats stats = {0};
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, NULL, &stats));
    cl_uint words[2] = {0, 0};
    tu_read(ctx, out, words, 2);
    ck_assert_uint_eq(words[0], value);
    ck_assert_msg(stats.groups >= 1 && stats.groups <= 2, "%u groups on 2 workers", stats.groups);
    ck_assert_uint_eq(words[1], stats.groups);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

static Suite *program_suite(void)
{
    Suite *suite = suite_create("program");
    TCase *build = tu_tcase("build", 60);
    tcase_add_test(build, build_error_gives_the_log_with_user_lines);
    tcase_add_test(build, bad_build_option);
    tcase_add_test(build, build_options_reach_the_compiler);
    tcase_add_test(build, pocl_refuses_barriers_without_sites);
    tcase_add_test(build, build_options_from_the_environment);
    tcase_add_test(build, build_log_from_the_environment);
    tcase_add_test(build, build_dump_from_the_environment);
    tcase_add_test(build, build_dump_write_failure);
    tcase_add_test(build, atomic_helpers);
    tcase_add_test(build, build_from_file);
    tcase_add_test(build, build_error_in_file_names_the_file);
    tcase_add_test(build, missing_file);
    suite_add_tcase(suite, build);

    TCase *kernels = tu_tcase("kernels", 60);
    tcase_add_test(kernels, unknown_kernel_lists_the_kernels);
    tcase_add_test(kernels, empty_program_has_no_kernels);
    tcase_add_test(kernels, empty_program_lists_no_kernels);
    tcase_add_test(kernels, argument_index_near_the_top_of_unsigned);
    tcase_add_test(kernels, kernel_handle_is_the_opencl_kernel);
    tcase_add_test(kernels, argument_index_out_of_range);
    tcase_add_test(kernels, argument_of_the_wrong_size);
    tcase_add_loop_test(kernels, wrong_size_names_the_size_expected, 0, sizeof wrong_sizes / sizeof wrong_sizes[0]);
    tcase_add_test(kernels, run_needs_coop_params);
    tcase_add_test(kernels, run_with_an_argument_unset);
    tcase_add_test(kernels, mega_run_with_an_argument_unset);
    tcase_add_test(kernels, argument_errors_without_argument_info);
    tcase_add_test(kernels, persistent_arguments_follow_coop_params);
    suite_add_tcase(suite, kernels);
    return suite;
}

int main(void)
{
    return tu_run(program_suite());
}
