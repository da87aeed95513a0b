/* test_errors.c: status messages and OpenCL error names (libcoop/src/errors.c), and NULL
 * arguments to every public function that returns a status. */
#include "testutil.h"

#include <sys/resource.h>
#include <unistd.h>

START_TEST(strerror_messages_are_distinct_and_non_empty)
{
    for (int code = 0; code < COOP_STATUS_COUNT_; code++) {
        const char *message = coop_strerror((coop_status)code);
        ck_assert_ptr_nonnull(message);
        ck_assert_msg(message[0] != '\0', "status %d has an empty message", code);
        ck_assert_str_ne(message, "unknown status");
        for (int other = 0; other < code; other++)
            ck_assert_msg(strcmp(message, coop_strerror((coop_status)other)) != 0,
                          "statuses %d and %d share the message '%s'", other, code, message);
    }
}
END_TEST

START_TEST(strerror_names_the_table_entries)
{
    ck_assert_str_eq(coop_strerror(COOP_OK), "success");
    ck_assert_str_eq(coop_strerror(COOP_ERR_BUILD), "the kernel program failed to build");
    ck_assert_str_eq(coop_strerror(COOP_ERR_TIMEOUT), "the kernel made no progress within the time limit");
}
END_TEST

START_TEST(strerror_of_unknown_codes)
{
    ck_assert_str_eq(coop_strerror(COOP_STATUS_COUNT_), "unknown status");
    ck_assert_str_eq(coop_strerror((coop_status)(COOP_STATUS_COUNT_ + 100)), "unknown status");
    ck_assert_str_eq(coop_strerror((coop_status)-1), "unknown status");
}
END_TEST

START_TEST(cl_error_names)
{
    ck_assert_str_eq(coop_cl_error_name(CL_INVALID_KERNEL_ARGS), "CL_INVALID_KERNEL_ARGS");
    ck_assert_str_eq(coop_cl_error_name(CL_SUCCESS), "CL_SUCCESS");
    ck_assert_str_eq(coop_cl_error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
    ck_assert_str_eq(coop_cl_error_name(CL_INVALID_ARG_SIZE), "CL_INVALID_ARG_SIZE");
    ck_assert_str_eq(coop_cl_error_name(CL_INVALID_DEVICE_QUEUE), "CL_INVALID_DEVICE_QUEUE");
    ck_assert_str_eq(coop_cl_error_name(12345), "unknown OpenCL error");
    ck_assert_str_eq(coop_cl_error_name(-9999), "unknown OpenCL error");
}
END_TEST

/* Every code the table names gets its own name, "CL_" and then something. */
START_TEST(cl_error_names_are_distinct)
{
    for (cl_int code = -80; code <= 0; code++) {
        const char *name = coop_cl_error_name(code);
        ck_assert_ptr_nonnull(name);
        if (strcmp(name, "unknown OpenCL error") == 0)
            continue;
        ck_assert_msg(strncmp(name, "CL_", 3) == 0 && name[3] != '\0', "code %d is named '%s'", code, name);
        for (cl_int other = -80; other < code; other++)
            ck_assert_msg(strcmp(name, coop_cl_error_name(other)) != 0, "codes %d and %d are both %s", other,
                          code, name);
    }
}
END_TEST

START_TEST(target_and_channel_names)
{
    ck_assert_str_eq(coop_target_name(COOP_TARGET_POCL), "pocl");
    ck_assert_str_eq(coop_target_name(COOP_TARGET_NVIDIA), "nvidia");
    ck_assert_str_eq(coop_target_name(COOP_TARGET_UNSUPPORTED), "unsupported");
    ck_assert_str_eq(coop_channel_name(COOP_CHANNEL_SVM), "svm");
    ck_assert_str_eq(coop_channel_name(COOP_CHANNEL_NVHOST), "nvhost");
    ck_assert_str_eq(coop_channel_name(COOP_CHANNEL_QUEUE), "queue");
    ck_assert_str_eq(coop_channel_name(COOP_CHANNEL_AUTO), "auto");
}
END_TEST

/* Functions that need no context: nothing to fail on but the arguments. */
START_TEST(null_arguments_without_context)
{
    coop_device_info *devices = NULL;
    size_t count = 0;
    ck_assert_int_eq(coop_list_devices(NULL, &count), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_list_devices(&devices, NULL), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_context_create(NULL, NULL), COOP_ERR_INVALID_ARGUMENT);

    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    double mean_us = 0.0, min_us = 0.0;
    coop_barrier_params params = {.barriers = 1};
    coop_barrier_result result;
    ck_assert_int_eq(coop_program_create(NULL, "kernel void k(void) {}", NULL, &program), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_program_create_from_file(NULL, "x.cl", NULL, &program), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_kernel_create(NULL, "k", &kernel), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_kernel_set_arg(NULL, 0, sizeof(int), &count), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_kernel_set_buffer(NULL, 0, NULL), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_kernel_run(NULL, NULL, NULL), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_channel_roundtrip(NULL, 1, &mean_us, &min_us), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(coop_measure_barrier(NULL, &params, &result), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_null(program);
    ck_assert_ptr_null(kernel);

    coop_context_release(NULL);
    coop_program_release(NULL);
    coop_kernel_release(NULL);
    ck_assert_str_eq(coop_context_message(NULL), "");
    ck_assert_int_eq(coop_channel_parse(NULL), -1);
}
END_TEST

/* With a context, the failure is also explained on it. */
START_TEST(null_arguments_with_context)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    TU_ASSERT_STATUS(ctx, coop_program_create(ctx, NULL, NULL, &program), COOP_ERR_INVALID_ARGUMENT,
                     "coop_program_create");
    TU_ASSERT_STATUS(ctx, coop_program_create(ctx, "kernel void k(void) {}", NULL, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "coop_program_create");
    TU_ASSERT_STATUS(ctx, coop_program_create_from_file(ctx, NULL, NULL, &program), COOP_ERR_INVALID_ARGUMENT,
                     "coop_program_create_from_file");
    TU_ASSERT_STATUS(ctx, coop_program_create_from_file(ctx, "x.cl", NULL, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "coop_program_create_from_file");

    double mean_us = 0.0, min_us = 0.0;
    TU_ASSERT_STATUS(ctx, coop_channel_roundtrip(ctx, 1, NULL, &min_us), COOP_ERR_INVALID_ARGUMENT,
                     "coop_channel_roundtrip");
    TU_ASSERT_STATUS(ctx, coop_channel_roundtrip(ctx, 1, &mean_us, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "coop_channel_roundtrip");
    TU_ASSERT_STATUS(ctx, coop_channel_roundtrip(ctx, 0, &mean_us, &min_us), COOP_ERR_INVALID_ARGUMENT,
                     "coop_channel_roundtrip");

    coop_barrier_params params = {.barriers = 1};
    coop_barrier_result result;
    TU_ASSERT_STATUS(ctx, coop_measure_barrier(ctx, NULL, &result), COOP_ERR_INVALID_ARGUMENT,
                     "coop_measure_barrier");
    TU_ASSERT_STATUS(ctx, coop_measure_barrier(ctx, &params, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "coop_measure_barrier");

    coop_kernel *kernel = tu_kernel(ctx, "kernel void k(global int *a) { a[0] = 1; }", NULL, "k", &program);
    coop_kernel *unused = NULL;
    TU_ASSERT_STATUS(ctx, coop_kernel_create(program, NULL, &unused), COOP_ERR_INVALID_ARGUMENT,
                     "coop_kernel_create");
    TU_ASSERT_STATUS(ctx, coop_kernel_create(program, "k", NULL), COOP_ERR_INVALID_ARGUMENT, "coop_kernel_create");
    ck_assert_ptr_null(unused);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* Out of host memory, made on purpose: with the address-space limit at the current size the
 * heap cannot grow, and the free space it has is taken, block by block, until malloc() returns
 * NULL. (RLIMIT_DATA would be the natural limit, but some kernels do not enforce it.) */
enum { HOG_BLOCKS = 4096 };
typedef struct heap_hog {
    void *blocks[HOG_BLOCKS];
    size_t count;
    struct rlimit saved;
} heap_hog;

static void hog_heap(heap_hog *hog)
{
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(statm);
    ck_assert_int_eq(fscanf(statm, "%lu", &pages), 1);
    fclose(statm);
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &hog->saved), 0);
    struct rlimit current = {pages * (rlim_t)sysconf(_SC_PAGESIZE), hog->saved.rlim_max};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &current), 0);
    hog->count = 0;
    for (size_t size = 1 << 16; size >= 16; size /= 2)
        while (hog->count < HOG_BLOCKS && (hog->blocks[hog->count] = malloc(size)) != NULL)
            hog->count++;
}

static void release_heap(heap_hog *hog)
{
    while (hog->count > 0)
        free(hog->blocks[--hog->count]);
    setrlimit(RLIMIT_AS, &hog->saved);
}

/* AddressSanitizer (make sanitize) maps memory as it goes and ends the process when the limit
 * refuses it, so the test is skipped there. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ADDRESS_SANITIZER 1
#else
#define UNDER_ADDRESS_SANITIZER 0
#endif

/* The first allocation of each comes before any OpenCL call. */
START_TEST(out_of_host_memory)
{
    if (UNDER_ADDRESS_SANITIZER) {
        printf("test_errors: out_of_host_memory skipped under AddressSanitizer\n");
        return;
    }
    static heap_hog hog;
    tu_env(2);
    coop_device_info *devices = (coop_device_info *)1;
    size_t count = 99;
    coop_context *ctx = (coop_context *)1;
    hog_heap(&hog);
    size_t blocks = hog.count;
    coop_status list_status = coop_list_devices(&devices, &count);
    coop_status create_status = coop_context_create(NULL, &ctx);
    release_heap(&hog);

    ck_assert_uint_lt(blocks, HOG_BLOCKS);
    ck_assert_int_eq(list_status, COOP_ERR_NO_MEMORY);
    ck_assert_ptr_null(devices);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(create_status, COOP_ERR_NO_MEMORY);
    ck_assert_ptr_null(ctx);

    /* With memory back, the same calls work. */
    ck_assert_int_eq(coop_list_devices(&devices, &count), COOP_OK);
    free(devices);
}
END_TEST

static Suite *errors_suite(void)
{
    Suite *suite = suite_create("errors");
    TCase *names = tcase_create("names");
    tcase_add_test(names, strerror_messages_are_distinct_and_non_empty);
    tcase_add_test(names, strerror_names_the_table_entries);
    tcase_add_test(names, strerror_of_unknown_codes);
    tcase_add_test(names, cl_error_names);
    tcase_add_test(names, cl_error_names_are_distinct);
    tcase_add_test(names, target_and_channel_names);
    suite_add_tcase(suite, names);

    TCase *nulls = tu_tcase("null arguments", 60);
    tcase_add_test(nulls, null_arguments_without_context);
    tcase_add_test(nulls, null_arguments_with_context);
    tcase_add_test(nulls, out_of_host_memory);
    suite_add_tcase(suite, nulls);
    return suite;
}

int main(void)
{
    return tu_run(errors_suite());
}
