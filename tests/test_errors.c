/* test_errors.c: status messages and OpenCL error names (libcoop/src/errors.c), NULL arguments to
 * every public function, and the edges of the API: every field a call reads is checked, and a bad
 * one is COOP_ERR_INVALID_ARGUMENT with a message naming it. */
#include "testutil.h"

#include <math.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

/* coop_launch_groups returns no status: a NULL context gives 0 (it used to crash), local size 0
 * the default local size's bound. */
START_TEST(launch_groups_edges)
{
    ck_assert_uint_eq(coop_launch_groups(NULL, 256), 0);
    ck_assert_uint_eq(coop_launch_groups(NULL, 0), 0);
    coop_context *ctx = tu_context(2);
    ck_assert_uint_gt(coop_launch_groups(ctx, 256), 0);
    ck_assert_uint_eq(coop_launch_groups(ctx, 0), coop_launch_groups(ctx, 256));
    coop_context_release(ctx);
}
END_TEST

/* Only a regular file is read as a program, and anything else is refused at once: a directory
 * used to ask for 2^63 bytes, and a FIFO would wait for a writer. */
START_TEST(program_file_that_is_not_a_regular_file)
{
    coop_context *ctx = tu_context(2);
    coop_program *program = (coop_program *)1;
    TU_ASSERT_STATUS(ctx, coop_program_create_from_file(ctx, "tests", NULL, &program), COOP_ERR_IO,
                     "tests: is a directory, not a source file");
    ck_assert_ptr_null(program);
    TU_ASSERT_STATUS(ctx, coop_program_create_from_file(ctx, "/dev/null", NULL, &program), COOP_ERR_IO,
                     "/dev/null: is not a regular file");
    char fifo[] = "/tmp/test_errors.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(fifo));
    char path[sizeof fifo + 8];
    snprintf(path, sizeof path, "%s/fifo", fifo);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    char expected[sizeof path + 32];
    snprintf(expected, sizeof expected, "%s: is not a regular file", path);
    TU_ASSERT_STATUS(ctx, coop_program_create_from_file(ctx, path, NULL, &program), COOP_ERR_IO, expected);
    unlink(path);
    rmdir(fifo);
    coop_context_release(ctx);
}
END_TEST

/* A persistent kernel and a megakernel that end at once, for the launches below. */
static const char quick_source[] =
    "kernel void quick(COOP_PARAMS)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "}\n"
    "kernel void mega(COOP_PARAMS)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx))\n"
    "        COOP_GROUP_SYNC();\n"
    "}\n";

/* One bad field each; the calls are otherwise valid (field_ok checks that). */
typedef enum bad_field {
    FIELD_NONE,
    RUN_TIMEOUT_NEGATIVE,
    RUN_TIMEOUT_NAN,
    RUN_TIMEOUT_INFINITE,
    RUN_WINDOW_NEGATIVE,
    RUN_LAUNCH_GROUPS,
    RUN_LOCAL_SIZE_LARGE,
    MEGA_LOCAL_SIZE_SMALL,
    MEGA_LAUNCH_TIMEOUT,
    MEGA_WATCHDOG,
    MEGA_TAKE,
    MEGA_TAKE_COUNT_ZERO,
    MEGA_TAKE_COUNT_LARGE,
    MEGA_TAKE_COUNT_UNREAD,
    MEGA_REPEATS_ONCE,
    MEGA_PERIOD,
    MEGA_START_NAN,
    MEGA_WORKGROUPS,
    MEGA_PLANS_NULL,
    MEGA_REPORT_NULL,
    BARRIER_COUNT,
    BARRIER_LOCAL_SIZE,
    BARRIER_LOCAL_SIZE_HUGE,
    ROUNDTRIP_ROUNDS,
    BAD_FIELDS
} bad_field;

static const char *const bad_field_messages[BAD_FIELDS] = {
    [RUN_TIMEOUT_NEGATIVE] = "coop_kernel_run: launch->timeout_s = -1 is not a time: expected 0 (the default) or a "
                             "positive finite number",
    [RUN_TIMEOUT_NAN] = "coop_kernel_run: launch->timeout_s = nan is not a time",
    [RUN_TIMEOUT_INFINITE] = "coop_kernel_run: launch->timeout_s = inf is not a time",
    [RUN_WINDOW_NEGATIVE] = "coop_kernel_run: launch->discovery_window_us = -5 is not a time",
    [RUN_LAUNCH_GROUPS] = "coop_kernel_run: launch->launch_groups = 2147483648: at most 2147483647 groups are "
                          "launched for discovery",
    [RUN_LOCAL_SIZE_LARGE] = "coop_kernel_run: launch->local_size: local size 1048576 is too large for kernel 'quick'",
    [MEGA_LOCAL_SIZE_SMALL] = "coop_mega_run: params->launch.local_size: local size 2 is too small for megakernel "
                              "'mega' on PoCL (at least 3: PoCL's compiler aborts below)",
    [MEGA_LAUNCH_TIMEOUT] = "coop_mega_run: params->launch.timeout_s = -1 is not a time",
    [MEGA_WATCHDOG] = "coop_mega_run: params->watchdog_s = -2 is not a time",
    [MEGA_TAKE] = "coop_mega_run: plans[0].take = 77 is not a coop_take (COOP_TAKE_COUNT, COOP_TAKE_ONE, "
                  "COOP_TAKE_QUARTER, COOP_TAKE_HALF or COOP_TAKE_ALL_BUT_ONE)",
    [MEGA_TAKE_COUNT_ZERO] = "coop_mega_run: plans[0].take_count = 0: COOP_TAKE_COUNT takes from 1 to 4095 groups",
    [MEGA_TAKE_COUNT_LARGE] = "coop_mega_run: plans[0].take_count = 5000: COOP_TAKE_COUNT takes from 1 to 4095 groups",
    [MEGA_TAKE_COUNT_UNREAD] = "coop_mega_run: plans[0].take_count = 3: only COOP_TAKE_COUNT reads it (take is "
                               "COOP_TAKE_ONE)",
    [MEGA_REPEATS_ONCE] = "coop_mega_run: plans[1].repeats = 3: a one-off task (period_ms = 0) runs once",
    [MEGA_PERIOD] = "coop_mega_run: plans[1].period_ms = -5 is not a time",
    [MEGA_START_NAN] = "coop_mega_run: plans[0].start_ms = nan is not a time",
    [MEGA_WORKGROUPS] = "coop_mega_run: plans[1].workgroups = 0: a task runs at least one workgroup",
    [MEGA_PLANS_NULL] = "coop_mega_run: plans is NULL and plan_count is 2",
    [MEGA_REPORT_NULL] = "coop_mega_run: report is NULL",
    [BARRIER_COUNT] = "coop_measure_barrier: params->barriers = 0: it measures at least one barrier",
    [BARRIER_LOCAL_SIZE] = "coop_measure_barrier: params->local_size: local size 1048576 is too large for kernel "
                           "'coop_barrier_check'",
    /* refused before the buffers it sizes are made (CL_INVALID_BUFFER_SIZE before) */
    [BARRIER_LOCAL_SIZE_HUGE] = "coop_measure_barrier: params->local_size: local size 1099511627776 is too large for "
                                "kernel 'coop_barrier_check'",
    [ROUNDTRIP_ROUNDS] = "coop_channel_roundtrip: rounds = 0: it times at least one round trip",
};

/* Makes the call that reads `field` with it bad (or, for FIELD_NONE, with every field good) and
 * returns its status. */
static coop_status call_with(coop_context *ctx, bad_field field)
{
    coop_program *program = NULL;
    coop_kernel *quick = tu_kernel(ctx, quick_source, NULL, "quick", &program), *mega = NULL;
    TU_ASSERT_OK(ctx, coop_kernel_create(program, "mega", &mega));
    coop_launch launch = {.local_size = 16};
    coop_mega_params params = {.launch = launch};
    /* two one-off tasks whose workgroups do nothing */
    coop_task_plan plans[2] = {{.task = 0, .workgroups = 1, .take = COOP_TAKE_ONE},
                               {.task = 0, .workgroups = 1, .take = COOP_TAKE_COUNT, .take_count = 1}};
    coop_barrier_params barrier = {.local_size = 16, .barriers = 10};
    coop_mega_report report;
    coop_mega_report *report_out = &report;
    coop_task_plan *plans_in = plans;
    double mean_us = 0.0, min_us = 0.0;
    unsigned rounds = 1;
    switch (field) {
    case RUN_TIMEOUT_NEGATIVE: launch.timeout_s = -1; break;
    case RUN_TIMEOUT_NAN: launch.timeout_s = NAN; break;
    case RUN_TIMEOUT_INFINITE: launch.timeout_s = INFINITY; break;
    case RUN_WINDOW_NEGATIVE: launch.discovery_window_us = -5; break;
    case RUN_LAUNCH_GROUPS: launch.launch_groups = 0x80000000u; break;
    case RUN_LOCAL_SIZE_LARGE: launch.local_size = 1 << 20; break;
    case MEGA_LOCAL_SIZE_SMALL: params.launch.local_size = 2; break;
    case MEGA_LAUNCH_TIMEOUT: params.launch.timeout_s = -1; break;
    case MEGA_WATCHDOG: params.watchdog_s = -2; break;
    case MEGA_TAKE: plans[0].take = (coop_take)77; break;
    case MEGA_TAKE_COUNT_ZERO: plans[0].take = COOP_TAKE_COUNT; break;
    case MEGA_TAKE_COUNT_LARGE: plans[0].take = COOP_TAKE_COUNT; plans[0].take_count = 5000; break;
    case MEGA_TAKE_COUNT_UNREAD: plans[0].take_count = 3; break;
    case MEGA_REPEATS_ONCE: plans[1].repeats = 3; break;
    case MEGA_PERIOD: plans[1].period_ms = -5; break;
    case MEGA_START_NAN: plans[0].start_ms = NAN; break;
    case MEGA_WORKGROUPS: plans[1].workgroups = 0; break;
    case MEGA_PLANS_NULL: plans_in = NULL; break;
    case MEGA_REPORT_NULL: report_out = NULL; break;
    case BARRIER_COUNT: barrier.barriers = 0; break;
    case BARRIER_LOCAL_SIZE: barrier.local_size = 1 << 20; break;
    case BARRIER_LOCAL_SIZE_HUGE: barrier.local_size = (size_t)1 << 40; break;
    case ROUNDTRIP_ROUNDS: rounds = 0; break;
    default: break;
    }
    coop_status status;
    if (field == FIELD_NONE) {
        status = coop_kernel_run(quick, &launch, NULL);
        if (status == COOP_OK)
            status = coop_mega_run(mega, &params, plans, 2, &report);
        if (status == COOP_OK) {
            coop_mega_report_free(&report);
            coop_barrier_result result;
            status = coop_measure_barrier(ctx, &barrier, &result);
        }
        if (status == COOP_OK)
            status = coop_channel_roundtrip(ctx, rounds, &mean_us, &min_us);
    } else if (field < MEGA_LOCAL_SIZE_SMALL) {
        status = coop_kernel_run(quick, &launch, NULL);
    } else if (field < BARRIER_COUNT) {
        memset(&report, 0xff, sizeof report);
        status = coop_mega_run(mega, &params, plans_in, 2, report_out);
        if (report_out) /* a refused run reports nothing */
            ck_assert_uint_eq(report.record_count, 0);
    } else if (field < ROUNDTRIP_ROUNDS) {
        coop_barrier_result result;
        status = coop_measure_barrier(ctx, &barrier, &result);
    } else {
        status = coop_channel_roundtrip(ctx, rounds, &mean_us, &min_us);
    }
    coop_kernel_release(quick);
    coop_kernel_release(mega);
    coop_program_release(program);
    return status;
}

/* coop_match_devices reads the selection of coop_options; a channel that is no coop_channel_kind is
 * refused there as coop_context_create refuses it. */
START_TEST(match_devices_names_a_bad_channel)
{
    tu_env(2);
    coop_options options = {.channel = (coop_channel_kind)9};
    coop_device_info *matched = (coop_device_info *)1;
    size_t count = 1;
    char why[256];
    ck_assert_int_eq(coop_match_devices(&options, &matched, &count, why, sizeof why), COOP_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(why, "coop_match_devices: options->channel = 9 is not a coop_channel_kind (COOP_CHANNEL_AUTO .. "
                          "COOP_CHANNEL_QUEUE)");
    ck_assert_ptr_null(matched);
    ck_assert_uint_eq(count, 0);
    options.channel = COOP_CHANNEL_QUEUE;
    ck_assert_int_eq(coop_match_devices(&options, &matched, &count, why, sizeof why), COOP_OK);
    ck_assert_uint_ge(count, 1);
    free(matched);
}
END_TEST

/* coop_barrier_params.build_options go to the compiler, which alone can judge them: a build they
 * break is COOP_ERR_BUILD, its message naming the field before the compiler's log. */
START_TEST(barrier_build_options_are_named)
{
    coop_context *ctx = tu_context(2);
    coop_barrier_params params = {.local_size = 16, .barriers = 1, .build_options = "-cl-no-such-option"};
    coop_barrier_result result;
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_measure_barrier(ctx, &params, &result)), COOP_ERR_BUILD,
                     "coop_measure_barrier: params->build_options = '-cl-no-such-option': building '<source>'");
    coop_context_release(ctx);
}
END_TEST

/* The calls below with every field good succeed: the bad field alone makes each fail. */
START_TEST(fields_all_good)
{
    coop_context *ctx = tu_context(2);
    TU_ASSERT_OK(ctx, call_with(ctx, FIELD_NONE));
    coop_context_release(ctx);
}
END_TEST

START_TEST(bad_field_is_named)
{
    bad_field field = (bad_field)(_i + 1);
    coop_context *ctx = tu_context(2);
    TU_ASSERT_STATUS(ctx, call_with(ctx, field), COOP_ERR_INVALID_ARGUMENT, bad_field_messages[field]);
    coop_context_release(ctx);
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

    TCase *edges = tu_tcase("edges", 120);
    tcase_add_test(edges, launch_groups_edges);
    tcase_add_test(edges, program_file_that_is_not_a_regular_file);
    tcase_add_test(edges, fields_all_good);
    tcase_add_test(edges, match_devices_names_a_bad_channel);
    tcase_add_test(edges, barrier_build_options_are_named);
    tcase_add_loop_test(edges, bad_field_is_named, 0, BAD_FIELDS - 1);
    suite_add_tcase(suite, edges);
    return suite;
}

int main(void)
{
    return tu_run(errors_suite());
}
