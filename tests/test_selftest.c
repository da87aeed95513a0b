/* test_selftest.c: the global barrier, through coop_measure_barrier() (libcoop/src/selftest.c
 * and selftest.cl) and through a persistent kernel of our own (coop_device/barrier.h has one barrier
 * algorithm: docs/DESIGN.md, section 6). With more PoCL workers than cores every barrier waits
 * for time slices (milliseconds), so those runs are kept short. */
#include "testutil.h"

#include <unistd.h>

/* coop_measure_barrier on `groups` groups even on a busy machine: it closes discovery once
 * max_groups registered, and the window (from the environment) is long enough for every
 * worker to get a time slice first (see tu_pin_groups). */
static void pin_groups(coop_barrier_params *params, unsigned groups)
{
    char window[32];
    snprintf(window, sizeof window, "%d", TU_PINNED_WINDOW_US);
    setenv("COOP_DISCOVERY_WINDOW_US", window, 1);
    params->max_groups = groups;
}

static const struct {
    unsigned workers;
    size_t local_size;
    unsigned barriers;
    const char *build_options;
} measure_cases[] = {
    {2, 1, 3000, NULL},
    {2, 256, 3000, NULL},
    {4, 256, 200, NULL},
};

/* On a busy machine a plain kernel's spinning barrier takes about a time slice of the OS each
 * (make check beside 8 busy processes: 10000 barriers on 2 groups did not finish in 60 s), so the
 * runs are shorter and the limit (COOP_TIMEOUT_S) is 10 minutes: only a hang fails. */
START_TEST(measure_barrier)
{
    unsigned workers = measure_cases[_i].workers;
    setenv("COOP_TIMEOUT_S", "600", 1);
    coop_context *ctx = tu_context(workers);
    coop_barrier_params params = {
        .local_size = measure_cases[_i].local_size,
        .barriers = measure_cases[_i].barriers,
        .build_options = measure_cases[_i].build_options,
    };
    pin_groups(&params, workers);
    coop_barrier_result result;
    memset(&result, 0xff, sizeof result);
    TU_ASSERT_OK(ctx, coop_measure_barrier(ctx, &params, &result));
    ck_assert_uint_eq(result.failures, 0);
    ck_assert_uint_eq(result.groups, workers);
    ck_assert_uint_eq(result.barriers, params.barriers);
    ck_assert_uint_eq(result.local_size, params.local_size);
    ck_assert_int_eq(result.device_timed, 0); /* PoCL kernels have no clock */
    ck_assert_double_gt(result.us_per_barrier, 0.0);
    ck_assert_double_gt(result.discovery_ms, 0.0);
    coop_context_release(ctx);
}
END_TEST

START_TEST(measure_barrier_defaults_and_max_groups)
{
    coop_context *ctx = tu_context(4);
    coop_barrier_params params = {.barriers = 1000};
    pin_groups(&params, 2);
    coop_barrier_result result;
    TU_ASSERT_OK(ctx, coop_measure_barrier(ctx, &params, &result));
    ck_assert_uint_eq(result.failures, 0);
    ck_assert_uint_eq(result.groups, 2);
    ck_assert_uint_eq(result.local_size, 256);
    coop_context_release(ctx);
}
END_TEST

START_TEST(measure_barrier_build_error)
{
    coop_context *ctx = tu_context(2);
    coop_barrier_params params = {.barriers = 10, .build_options = "-cl-no-such-option"};
    coop_barrier_result result;
    TU_ASSERT_STATUS(ctx, TU_QUIETLY(coop_measure_barrier(ctx, &params, &result)), COOP_ERR_BUILD,
                     "-cl-no-such-option");
    coop_context_release(ctx);
}
END_TEST

/* Rounds of next[i] = 3 cur[i] + (cur[j] ^ r), j = (i + 1 + 37 r) mod n, with cur and next
 * swapping each round. j mostly belongs to another group, so every round needs what other
 * groups wrote in the previous one; a grid-stride loop spreads the n elements over however many
 * groups discovery found (pinned to every worker). */
static const char rounds_source[] =
    "kernel void mix_rounds(COOP_PARAMS, uint n, uint rounds, global uint *a, global uint *b,\n"
    "                       global uint *groups)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    size_t stride = coop_global_size(&ctx, 0);\n"
    "    for (uint r = 0; r < rounds; r++) {\n"
    "        global uint *cur = (r & 1) ? b : a;\n"
    "        global uint *next = (r & 1) ? a : b;\n"
    "        for (size_t i = coop_global_id(&ctx, 0); i < n; i += stride)\n"
    "            next[i] = 3u * cur[i] + (cur[(i + 1 + 37u * r) % n] ^ r);\n"
    "        coop_global_barrier(&ctx);\n"
    "    }\n"
    "    if (coop_group_id(&ctx) == 0 && coop_local_linear_id() == 0)\n"
    "        groups[0] = coop_num_groups(&ctx);\n"
    "}\n";

static void mix_rounds_reference(cl_uint *a, cl_uint *b, cl_uint n, cl_uint rounds)
{
    for (cl_uint r = 0; r < rounds; r++) {
        const cl_uint *cur = (r & 1) ? b : a;
        cl_uint *next = (r & 1) ? a : b;
        for (cl_uint i = 0; i < n; i++)
            next[i] = 3u * cur[i] + (cur[(i + 1 + 37u * r) % n] ^ r);
    }
}

enum { ELEMENTS = 1000 };

static const struct {
    unsigned workers;
    size_t local_size;
    cl_uint rounds;
    const char *build_options;
} rounds_cases[] = {
    {2, 64, 2000, NULL},
    {2, 1, 500, NULL},
    {4, 32, 60, NULL},
};

START_TEST(rounds_match_the_cpu)
{
    unsigned workers = rounds_cases[_i].workers;
    cl_uint rounds = rounds_cases[_i].rounds, n = ELEMENTS;
    coop_context *ctx = tu_context(workers);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, rounds_source, rounds_cases[_i].build_options, "mix_rounds", &program);

    static cl_uint a[ELEMENTS], b[ELEMENTS], expected_a[ELEMENTS], expected_b[ELEMENTS];
    for (cl_uint i = 0; i < n; i++)
        a[i] = expected_a[i] = i * 2654435761u;
    memset(expected_b, 0, sizeof expected_b);
    mix_rounds_reference(expected_a, expected_b, n, rounds);

    cl_mem a_buffer = tu_buffer(ctx, n), b_buffer = tu_buffer(ctx, n), groups = tu_buffer(ctx, 1);
    tu_write(ctx, a_buffer, a, n);
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 0, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 1, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 2, a_buffer));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 3, b_buffer));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 4, groups));
    /* Every worker's group, even on a busy machine: with one group the barrier would wait for no one. */
    coop_launch launch = {.local_size = rounds_cases[_i].local_size};
    tu_pin_groups(&launch, ctx, workers);
    coop_run_stats stats = {0};
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, &stats));
    ck_assert_uint_eq(stats.groups, workers);

    cl_uint kernel_groups = 0;
    tu_read(ctx, groups, &kernel_groups, 1);
    ck_assert_uint_eq(kernel_groups, stats.groups);
    tu_read(ctx, a_buffer, a, n);
    tu_read(ctx, b_buffer, b, n);
    for (cl_uint i = 0; i < n; i++) {
        ck_assert_msg(a[i] == expected_a[i], "a[%u] = %u, expected %u", i, a[i], expected_a[i]);
        ck_assert_msg(b[i] == expected_b[i], "b[%u] = %u, expected %u", i, b[i], expected_b[i]);
    }
    clReleaseMemObject(groups);
    clReleaseMemObject(b_buffer);
    clReleaseMemObject(a_buffer);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

static Suite *selftest_suite(void)
{
    Suite *suite = suite_create("selftest");
    TCase *measure = tu_tcase("measure barrier", 660);
    tcase_add_loop_test(measure, measure_barrier, 0, sizeof measure_cases / sizeof measure_cases[0]);
    tcase_add_test(measure, measure_barrier_defaults_and_max_groups);
    tcase_add_test(measure, measure_barrier_build_error);
    suite_add_tcase(suite, measure);

    TCase *rounds = tu_tcase("own kernel", 120);
    tcase_add_loop_test(rounds, rounds_match_the_cpu, 0, sizeof rounds_cases / sizeof rounds_cases[0]);
    suite_add_tcase(suite, rounds);
    return suite;
}

int main(void)
{
    return tu_run(selftest_suite());
}
