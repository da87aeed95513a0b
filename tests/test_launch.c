/* test_launch.c: persistent launches (libcoop/src/launch.c) and what their time limit means: the
 * clock starts once the device runs the kernel, so PoCL's compile at the first launch does not
 * count (it is reported as compile_ms), and a kernel that runs out of time is reported with
 * where its groups are, which global barrier they wait at and which never arrived (where.c).
 * Timing is asserted only where a loaded machine makes it safer, never tighter. */
#include "testutil.h"

#include "internal.h"

/* Every group but group `late` goes through `barriers` global barriers; group `late` goes through
 * all but the last and then waits for the host (the channel's echo slot) before the last one. */
static const char late_group_source[] =
    "kernel void late_group(COOP_PARAMS, uint barriers, uint late)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    for (uint b = 1; b <= barriers; b++) {\n"
    "        if (b == barriers && coop_group_id(&ctx) == late && coop_local_linear_id() == 0)\n"
    "            while (coop_host_load(&coop_chan_[COOP_CHAN_ECHO_IN]) == 0)\n"
    "                ;\n"
    "        coop_global_barrier(&ctx);\n"
    "    }\n"
    "}\n";

/* `workers` groups (the poll waits for all of them, however loaded the machine) where group 0 is
 * late for barrier `barriers`: the time limit reports the others waiting there and group 0 as
 * never arrived; then the host lets group 0 through and the kernel ends. */
static void assert_late_group_reported(unsigned workers, unsigned barriers)
{
    coop_context *ctx = tu_context(workers);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, late_group_source, NULL, "late_group", &program);
    cl_uint args[2] = {barriers, 0};
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 0, sizeof args[0], &args[0]));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 1, sizeof args[1], &args[1]));
    coop_launch launch = {.local_size = 16, .max_groups = workers, .discovery_window_us = 30e6, .timeout_s = 1.5};
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, &launch, NULL), COOP_ERR_TIMEOUT, "did not complete within 1.5 s");
    char expected[160];
    snprintf(expected, sizeof expected,
             "kernel 'late_group' on %u groups did not complete within 1.5 s: %u group%s waiting at global barrier "
             "#%u, group 0 never arrived; it is still running",
             workers, workers - 1, workers == 2 ? "" : "s", barriers);
    const char *message = coop_context_message(ctx);
    ck_assert_msg(strstr(message, expected) != NULL, "message: %s\nexpected: %s", message, expected);
    TU_ASSERT_OK(ctx, coop_channel_store(ctx, COOP_CHAN_ECHO_IN, 1));
    ck_assert_int_eq(clFinish(coop_context_queue(ctx)), CL_SUCCESS);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}

START_TEST(timeout_names_the_barrier_and_the_late_group)
{
    assert_late_group_reported(2, 1);
}
END_TEST

START_TEST(timeout_names_a_later_barrier)
{
    assert_late_group_reported(4, 3);
}
END_TEST

/* A kernel that takes PoCL seconds to compile at its first launch (`STATEMENTS` statements its
 * run skips) and a time limit shorter than that: the run succeeds, since the clock starts when
 * the kernel runs, and the compile is reported apart. The kernel cache is off, so the compile
 * happens here whatever ran before; a loaded machine only makes it longer. */
enum { STATEMENTS = 2000 };

static char *slow_to_compile_source(void)
{
    size_t size = 256 + 64 * STATEMENTS, used = 0;
    char *source = malloc(size);
    ck_assert_ptr_nonnull(source);
    used += (size_t)snprintf(source + used, size - used,
                             "kernel void slow(COOP_PARAMS, global float *data, uint never)\n"
                             "{\n"
                             "    COOP_ENTER(ctx);\n"
                             "    float x = data[get_local_id(0)];\n"
                             "    if (never == 12345u) {\n");
    for (unsigned i = 0; i < STATEMENTS; i++)
        used += (size_t)snprintf(source + used, size - used, "        x = x * data[%u] + sin(x * %u.5f);\n", i % 16,
                                 i);
    snprintf(source + used, size - used, "    }\n    data[get_local_id(0)] = x;\n}\n");
    return source;
}

START_TEST(compile_is_not_counted_in_the_limit)
{
    tu_env(2);
    setenv("POCL_KERNEL_CACHE", "0", 1);
    coop_context *ctx = tu_context(2);
    char *source = slow_to_compile_source();
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "slow", &program);
    free(source);
    cl_mem data = tu_buffer(ctx, 16);
    cl_uint never = 0;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 1, sizeof never, &never));
    const double limit_s = 1.0;
    coop_launch launch = {.local_size = 16, .timeout_s = limit_s};
    coop_run_stats stats = {0};
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, &stats));
    ck_assert_msg(stats.compile_ms > limit_s * 1e3,
                  "the kernel compiled in %.0f ms, within the %.1f s limit, so this tests nothing: raise STATEMENTS",
                  stats.compile_ms, limit_s);
    ck_assert_double_le(stats.discovery_ms, stats.run_ms);
    /* A second launch at the same local size, with no compile before it, keeps the limit too. */
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, &stats));
    clReleaseMemObject(data);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

static Suite *launch_suite(void)
{
    Suite *suite = suite_create("launch");
    TCase *limits = tu_tcase("time limits", 300);
    tcase_add_test(limits, timeout_names_the_barrier_and_the_late_group);
    tcase_add_test(limits, timeout_names_a_later_barrier);
    tcase_add_test(limits, compile_is_not_counted_in_the_limit);
    suite_add_tcase(suite, limits);
    return suite;
}

int main(void)
{
    return tu_run(launch_suite());
}
