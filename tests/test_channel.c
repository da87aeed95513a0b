/* test_channel.c: the host <-> running-kernel channel and its backends (libcoop/src/channel.c,
 * selected through coop_context_create()). PoCL has svm and queue; nvhost is NVIDIA's. */
#include "testutil.h"

enum { ROUNDS = 50 };

/* Runs round trips on ctx and checks that they completed and were timed. */
static void assert_roundtrip(coop_context *ctx)
{
    double mean_us = -1.0, min_us = -1.0;
    TU_ASSERT_OK(ctx, coop_channel_roundtrip(ctx, ROUNDS, &mean_us, &min_us));
    ck_assert_double_gt(min_us, 0.0);
    ck_assert_double_le(min_us, mean_us);
    ck_assert_double_lt(mean_us, 1e6);
}

/* A context created with COOP_CHANNEL=`text` and no channel in the options. */
static coop_context *context_from_environment(const char *text)
{
    tu_env(2);
    setenv("COOP_CHANNEL", text, 1);
    coop_options options = {.platform = TU_POCL_PLATFORM};
    coop_context *ctx = NULL;
    TU_ASSERT_OK(ctx, coop_context_create(&options, &ctx));
    return ctx;
}

static const coop_channel_kind pocl_backends[] = {COOP_CHANNEL_SVM, COOP_CHANNEL_QUEUE};

START_TEST(backend_by_options)
{
    coop_context *ctx = tu_context_channel(2, pocl_backends[_i]);
    ck_assert_int_eq(coop_context_channel(ctx), pocl_backends[_i]);
    assert_roundtrip(ctx);
    coop_context_release(ctx);
}
END_TEST

static const struct {
    const char *text;
    coop_channel_kind kind;
} environment_cases[] = {
    {"svm", COOP_CHANNEL_SVM},
    {"QUEUE", COOP_CHANNEL_QUEUE},
    {"Auto", COOP_CHANNEL_SVM},
};

START_TEST(backend_by_environment)
{
    coop_context *ctx = context_from_environment(environment_cases[_i].text);
    ck_assert_int_eq(coop_context_channel(ctx), environment_cases[_i].kind);
    assert_roundtrip(ctx);
    coop_context_release(ctx);
}
END_TEST

/* The echo program is built once per context; round trips can be repeated. */
START_TEST(repeated_roundtrips)
{
    coop_context *ctx = tu_context_channel(2, COOP_CHANNEL_QUEUE);
    assert_roundtrip(ctx);
    assert_roundtrip(ctx);
    coop_context_release(ctx);
}
END_TEST

START_TEST(options_override_the_environment)
{
    tu_env(2);
    setenv("COOP_CHANNEL", "carrier-pigeon", 1);
    coop_options options = {.platform = TU_POCL_PLATFORM, .channel = COOP_CHANNEL_QUEUE};
    coop_context *ctx = NULL;
    TU_ASSERT_OK(ctx, coop_context_create(&options, &ctx));
    ck_assert_int_eq(coop_context_channel(ctx), COOP_CHANNEL_QUEUE);
    coop_context_release(ctx);
}
END_TEST

START_TEST(nvhost_is_unsupported_on_pocl)
{
    tu_env(2);
    coop_options options = {.platform = TU_POCL_PLATFORM, .channel = COOP_CHANNEL_NVHOST};
    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(&options, &ctx), COOP_ERR_CHANNEL_UNSUPPORTED, "cl_nv_create_buffer");
    ck_assert_ptr_nonnull(strstr(coop_context_message(ctx), "COOP_CHANNEL=svm"));
    coop_context_release(ctx);

    setenv("COOP_CHANNEL", "NVHost", 1);
    options.channel = COOP_CHANNEL_AUTO;
    ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(&options, &ctx), COOP_ERR_CHANNEL_UNSUPPORTED, "cl_nv_create_buffer");
    coop_context_release(ctx);
}
END_TEST

START_TEST(bad_environment_value)
{
    tu_env(2);
    setenv("COOP_CHANNEL", "carrier-pigeon", 1);
    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(NULL, &ctx), COOP_ERR_INVALID_ARGUMENT,
                     "COOP_CHANNEL: 'carrier-pigeon' is not a channel backend");
    coop_context_release(ctx);
}
END_TEST

/* A value outside coop_channel_kind is refused before any device is touched. */
START_TEST(channel_value_out_of_range)
{
    tu_env(2);
    coop_options options = {.platform = TU_POCL_PLATFORM, .channel = (coop_channel_kind)42};
    coop_context *ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(&options, &ctx), COOP_ERR_INVALID_ARGUMENT,
                     "options->channel = 42 is not a coop_channel_kind");
    coop_context_release(ctx);
    options.channel = (coop_channel_kind)-1;
    ctx = NULL;
    TU_ASSERT_STATUS(ctx, coop_context_create(&options, &ctx), COOP_ERR_INVALID_ARGUMENT,
                     "options->channel = -1 is not a coop_channel_kind");
    coop_context_release(ctx);
}
END_TEST

START_TEST(parse_channel_names)
{
    ck_assert_int_eq(coop_channel_parse("svm"), COOP_CHANNEL_SVM);
    ck_assert_int_eq(coop_channel_parse("SVM"), COOP_CHANNEL_SVM);
    ck_assert_int_eq(coop_channel_parse("NvHost"), COOP_CHANNEL_NVHOST);
    ck_assert_int_eq(coop_channel_parse("queue"), COOP_CHANNEL_QUEUE);
    ck_assert_int_eq(coop_channel_parse("AUTO"), COOP_CHANNEL_AUTO);
    ck_assert_int_eq(coop_channel_parse(""), -1);
    ck_assert_int_eq(coop_channel_parse("sv"), -1);
    ck_assert_int_eq(coop_channel_parse("svmx"), -1);
    ck_assert_int_eq(coop_channel_parse("queue "), -1);
    ck_assert_int_eq(coop_channel_parse(NULL), -1);
}
END_TEST

/* Discovery talks to the running kernel through the channel: a persistent kernel runs on every
 * PoCL backend. */
static const char record_groups_source[] =
    "kernel void record_groups(COOP_PARAMS, global uint *groups)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    if (coop_local_linear_id() == 0)\n"
    "        coop_fetch_add(&groups[0], 1);\n"
    "}\n";

/* Runs record_groups on a context with `workers` workers, discovery pinned to `expected` groups
 * (tu_pin_groups), and checks that they ran. */
static void assert_persistent_run(coop_channel_kind channel, unsigned workers, unsigned expected)
{
    coop_context *ctx = tu_context_channel(workers, channel);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, record_groups_source, NULL, "record_groups", &program);
    cl_mem groups = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, groups));
    coop_launch launch = {.local_size = 16, .timeout_s = 20};
    tu_pin_groups(&launch, ctx, expected);
    coop_run_stats stats = {0};
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, &stats));
    cl_uint ran = 0;
    tu_read(ctx, groups, &ran, 1);
    ck_assert_uint_eq(stats.groups, expected);
    ck_assert_uint_eq(ran, expected);
    clReleaseMemObject(groups);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}

START_TEST(persistent_kernel_over_svm)
{
    assert_persistent_run(COOP_CHANNEL_SVM, 2, 2);
}
END_TEST

/* PoCL executes the side queue's reads and writes on the same worker threads as the kernel's
 * groups, so one worker is kept free for them. */
START_TEST(persistent_kernel_over_queue)
{
    assert_persistent_run(COOP_CHANNEL_QUEUE, 3, 2);
}
END_TEST

/* With one worker nothing is left for the queue channel's transfers: a persistent launch is
 * refused instead of hanging (the context itself can still be made). */
START_TEST(queue_needs_a_free_compute_unit)
{
    tu_env(1);
    setenv("COOP_CHANNEL", "queue", 1);
    coop_options options = {.platform = TU_POCL_PLATFORM};
    coop_context *ctx = NULL;
    TU_ASSERT_OK(ctx, coop_context_create(&options, &ctx));
    ck_assert_uint_eq(coop_context_device(ctx)->compute_units, 1);
    ck_assert_int_eq(coop_context_channel(ctx), COOP_CHANNEL_QUEUE);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, record_groups_source, NULL, "record_groups", &program);
    cl_mem groups = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, groups));
    coop_launch launch = {.local_size = 16, .timeout_s = 20};
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, &launch, NULL), COOP_ERR_CHANNEL_UNSUPPORTED,
                     "compute unit free");
    cl_uint ran = 1;
    tu_read(ctx, groups, &ran, 1);
    ck_assert_uint_eq(ran, 0);
    clReleaseMemObject(groups);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

static Suite *channel_suite(void)
{
    Suite *suite = suite_create("channel");
    TCase *backends = tu_tcase("backends", 60);
    tcase_add_loop_test(backends, backend_by_options, 0, sizeof pocl_backends / sizeof pocl_backends[0]);
    tcase_add_loop_test(backends, backend_by_environment, 0, sizeof environment_cases / sizeof environment_cases[0]);
    tcase_add_test(backends, repeated_roundtrips);
    tcase_add_test(backends, persistent_kernel_over_svm);
    tcase_add_test(backends, persistent_kernel_over_queue);
    tcase_add_test(backends, queue_needs_a_free_compute_unit);
    suite_add_tcase(suite, backends);

    TCase *selection = tu_tcase("selection", 60);
    tcase_add_test(selection, options_override_the_environment);
    tcase_add_test(selection, nvhost_is_unsupported_on_pocl);
    tcase_add_test(selection, bad_environment_value);
    tcase_add_test(selection, channel_value_out_of_range);
    tcase_add_test(selection, parse_channel_names);
    suite_add_tcase(suite, selection);
    return suite;
}

int main(void)
{
    return tu_run(channel_suite());
}
