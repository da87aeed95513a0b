/* test_discovery.c: occupancy discovery and persistent launches (libcoop/src/discovery.c,
 * libcoop/src/launch.c, and coop_enter() in coop_device/discovery.h). On PoCL a compute unit is a
 * worker thread running one group at a time, so discovery must never find more than
 * POCL_MAX_PTHREAD_COUNT groups. It finds all of them when every worker gets a time slice within
 * the window, which a quiet machine gives and a busy one may not (fewer groups are then correct):
 * the tests that expect every worker close the poll once they registered (max_groups) and give
 * them a long window. */
#include "testutil.h"

#include "internal.h"

#include <unistd.h>

#define CAPACITY 64 /* groups the record kernel can log */
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

/* Every registered group logs (its id, the group count it was given); every work-item counts
 * itself under its group's id. */
static const char record_source[] =
    "kernel void record(COOP_PARAMS, global uint *log, global uint *items)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    uint group = coop_group_id(&ctx);\n"
    "    coop_fetch_add(&items[min(group, (uint)CAPACITY)], 1);\n"
    "    if (coop_local_linear_id() == 0) {\n"
    "        uint slot = coop_fetch_add(&log[0], 1);\n"
    "        if (slot < CAPACITY) {\n"
    "            log[1 + 2 * slot] = group;\n"
    "            log[2 + 2 * slot] = coop_num_groups(&ctx);\n"
    "        }\n"
    "    }\n"
    "}\n";

typedef struct record_run {
    coop_context *ctx;
    coop_program *program;
    coop_kernel *kernel;
    cl_mem log;
    cl_mem items;
} record_run;

static record_run record_setup(unsigned workers)
{
    record_run run = {.ctx = tu_context(workers)};
    run.kernel = tu_kernel(run.ctx, record_source, "-DCAPACITY=" STRINGIFY(CAPACITY), "record", &run.program);
    run.log = tu_buffer(run.ctx, 1 + 2 * CAPACITY);
    run.items = tu_buffer(run.ctx, CAPACITY + 1);
    TU_ASSERT_OK(run.ctx, coop_kernel_set_buffer(run.kernel, 0, run.log));
    TU_ASSERT_OK(run.ctx, coop_kernel_set_buffer(run.kernel, 1, run.items));
    return run;
}

static void record_teardown(record_run *run)
{
    clReleaseMemObject(run->items);
    clReleaseMemObject(run->log);
    coop_kernel_release(run->kernel);
    coop_program_release(run->program);
    coop_context_release(run->ctx);
}

/* Runs the record kernel on cleared buffers and checks that from 1 to `at_most` groups ran, with
 * ids 0..groups-1 each once, all told the same count, and that every work-item of each saw its
 * group's id. */
static coop_run_stats record_check(record_run *run, const coop_launch *launch, unsigned at_most)
{
    cl_uint log[1 + 2 * CAPACITY] = {0}, items[CAPACITY + 1] = {0};
    tu_write(run->ctx, run->log, log, 1 + 2 * CAPACITY);
    tu_write(run->ctx, run->items, items, CAPACITY + 1);
    coop_run_stats stats = {0};
    TU_ASSERT_OK(run->ctx, coop_kernel_run(run->kernel, launch, &stats));
    unsigned found = stats.groups;
    ck_assert_msg(found >= 1 && found <= at_most, "discovery found %u groups, at most %u can be co-resident",
                  found, at_most);

    tu_read(run->ctx, run->log, log, 1 + 2 * CAPACITY);
    tu_read(run->ctx, run->items, items, CAPACITY + 1);
    ck_assert_uint_eq(log[0], found);
    unsigned times_seen[CAPACITY] = {0};
    for (unsigned slot = 0; slot < found; slot++) {
        cl_uint id = log[1 + 2 * slot], groups = log[2 + 2 * slot];
        ck_assert_msg(id < found, "a group ran with id %u of %u", id, found);
        ck_assert_uint_eq(groups, found);
        times_seen[id]++;
    }
    size_t local = launch && launch->local_size ? launch->local_size : 256;
    for (unsigned id = 0; id < found; id++) {
        ck_assert_msg(times_seen[id] == 1, "group id %u ran %u times", id, times_seen[id]);
        ck_assert_uint_eq(items[id], local);
    }
    for (unsigned id = found; id <= CAPACITY; id++)
        ck_assert_uint_eq(items[id], 0);
    ck_assert_double_le(stats.discovery_ms, stats.run_ms);
    return stats;
}

static const unsigned worker_counts[] = {2, 4, 8};
static const size_t local_sizes[] = {1, 64, 256};

/* Loop index i: worker_counts[i / 3] workers, groups of local_sizes[i % 3] work-items.
 * With more workers than cores, a worker may wait longer than the default 20 ms window for a
 * time slice before its group registers (measured on 2 cores, first launch in a process: 8
 * workers were under-counted in up to 9 runs of 20, 4 workers in 2 of 30); those cases use a
 * 250 ms window, which no run on a quiet machine missed. Other work on the cores can still
 * delay a worker past it: the default launch finds at most every worker, and the same launch
 * pinned to every worker (closed when all registered, with a long window) finds all of them. */
START_TEST(finds_every_worker)
{
    unsigned workers = worker_counts[_i / 3];
    size_t local = local_sizes[_i % 3];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int oversubscribed = cores < 1 || workers > (unsigned long)cores;
    record_run run = record_setup(workers);
    coop_launch launch = {.local_size = local, .discovery_window_us = oversubscribed ? 250e3 : 0.0};
    coop_run_stats stats = record_check(&run, &launch, workers);
    ck_assert_uint_eq(stats.launched_groups, 2 * workers); /* the CPU default */
    ck_assert_double_ge(stats.discovery_ms, oversubscribed ? 250.0 : 20.0);

    tu_pin_groups(&launch, run.ctx, workers);
    stats = record_check(&run, &launch, workers);
    ck_assert_uint_eq(stats.groups, workers);
    ck_assert_uint_eq(stats.launched_groups, 2 * workers);
    record_teardown(&run);
}
END_TEST

/* The poll closes as soon as max_groups registered, without waiting out the window. */
START_TEST(max_groups_caps_the_groups)
{
    record_run run = record_setup(4);
    coop_launch launch = {.local_size = 64, .max_groups = 3, .discovery_window_us = 10e6};
    coop_run_stats stats = record_check(&run, &launch, 3);
    ck_assert_uint_eq(stats.groups, 3);
    ck_assert_double_lt(stats.discovery_ms, 10e3);
    ck_assert_uint_eq(stats.launched_groups, 3); /* only as many as asked for */
    launch.max_groups = 1;
    stats = record_check(&run, &launch, 1);
    ck_assert_uint_eq(stats.groups, 1);
    ck_assert_uint_eq(stats.launched_groups, 1);
    record_teardown(&run);
}
END_TEST

/* Asking for more groups than are co-resident (but fewer than the default launch) launches that
 * many and still finds only co-resident ones. */
START_TEST(max_groups_beyond_residency)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    record_run run = record_setup(4);
    coop_launch launch = {.local_size = 64, .max_groups = 6,
                          .discovery_window_us = cores < 4 ? 250e3 : 0.0};
    coop_run_stats stats = record_check(&run, &launch, 4);
    ck_assert_uint_eq(stats.launched_groups, 6);
    record_teardown(&run);
}
END_TEST

/* A launch of fewer groups than workers: all of them (the poll closes when both registered), and
 * max_groups cannot raise that. */
START_TEST(launch_groups_bound_the_groups)
{
    record_run run = record_setup(4);
    coop_launch launch = {.local_size = 64, .launch_groups = 2, .max_groups = 100,
                          .discovery_window_us = TU_PINNED_WINDOW_US};
    coop_run_stats stats = record_check(&run, &launch, 2);
    ck_assert_uint_eq(stats.groups, 2);
    ck_assert_uint_eq(stats.launched_groups, 2);
    record_teardown(&run);
}
END_TEST

START_TEST(window_from_the_launch)
{
    record_run run = record_setup(2);
    coop_launch launch = {.local_size = 64, .discovery_window_us = 150e3};
    coop_run_stats stats = record_check(&run, &launch, 2);
    ck_assert_double_ge(stats.discovery_ms, 150.0);
    record_teardown(&run);
}
END_TEST

START_TEST(window_from_the_environment)
{
    record_run run = record_setup(2);
    setenv("COOP_DISCOVERY_WINDOW_US", "150000", 1);
    coop_launch launch = {.local_size = 64};
    coop_run_stats stats = record_check(&run, &launch, 2);
    ck_assert_double_ge(stats.discovery_ms, 150.0);
    record_teardown(&run);
}
END_TEST

/* Launches reuse the context's device area: a second run starts from a clean poll (record_check
 * checks each run's ids against its own count). */
START_TEST(repeated_runs)
{
    record_run run = record_setup(2);
    coop_launch launch = {.local_size = 64};
    for (int i = 0; i < 3; i++)
        record_check(&run, &launch, 2);
    record_teardown(&run);
}
END_TEST

/* Every registered group writes its id + 1 at its discovery ticket. */
static const char tickets_source[] =
    "kernel void tickets(COOP_PARAMS, global uint *ids)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    if (coop_local_linear_id() == 0 && ctx.physical < CAPACITY)\n"
    "        ids[ctx.physical] = coop_group_id(&ctx) + 1u;\n"
    "}\n";

/* Virtual ids by ticket (coop_scheduler_enter): the first `near` tickets take ids 0, 1, ..., the
 * rest ids against ticket order, so that the next ticket gets the largest id. Written out here
 * independently of COOP_ID_OF_TICKET. Loop index: near 8 (the default; 6 workers: all of them
 * in ticket order), 2 (both parts), 0 (against ticket order all through). */
START_TEST(ids_follow_the_tickets)
{
    static const char *const options[] = {"-DCAPACITY=" STRINGIFY(CAPACITY),
                                          "-DCAPACITY=" STRINGIFY(CAPACITY) " -DCOOP_NEAR_IDS=2u",
                                          "-DCAPACITY=" STRINGIFY(CAPACITY) " -DCOOP_NEAR_IDS=0u"};
    static const unsigned nears[] = {8, 2, 0};
    enum { WORKERS = 6 };
    coop_context *ctx = tu_context(WORKERS);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, tickets_source, options[_i], "tickets", &program);
    cl_mem ids_buffer = tu_buffer(ctx, CAPACITY);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, ids_buffer));
    coop_launch launch = {.local_size = 16};
    tu_pin_groups(&launch, ctx, WORKERS);
    coop_run_stats stats = {0};
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &launch, &stats));
    cl_uint ids[CAPACITY];
    tu_read(ctx, ids_buffer, ids, CAPACITY);
    unsigned groups = stats.groups, near = nears[_i] < groups ? nears[_i] : groups;
    ck_assert_msg(groups >= 1 && groups <= WORKERS, "discovery found %u groups", groups);
    for (unsigned ticket = 0; ticket < groups; ticket++) {
        unsigned expected = ticket < near ? ticket : groups - 1u - (ticket - near);
        ck_assert_msg(ids[ticket] == expected + 1u, "near %u, %u groups: ticket %u got id %d, expected %u", nears[_i],
                      groups, ticket, (int)ids[ticket] - 1, expected);
    }
    for (unsigned ticket = groups; ticket < CAPACITY; ticket++)
        ck_assert_uint_eq(ids[ticket], 0);
    clReleaseMemObject(ids_buffer);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* Without COOP_ENTER no group ever registers: the launch fails once the kernel has ended. */
START_TEST(kernel_without_enter)
{
    static const char source[] =
        "kernel void no_enter(COOP_PARAMS, global uint *out)\n"
        "{\n"
        "    out[get_global_id(0)] = 1;\n"
        "}\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "no_enter", &program);
    cl_mem out = tu_buffer(ctx, 4 * 64);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, out));
    coop_launch launch = {.local_size = 64, .timeout_s = 30};
    double start_us = coop_now_us();
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, &launch, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "must start with COOP_ENTER");
    ck_assert_ptr_nonnull(strstr(coop_context_message(ctx), "'no_enter'"));
    ck_assert_double_lt(coop_now_us() - start_us, 10e6);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* With `wait` set, each group waits for the host to write the channel's echo slot, which it does
 * only after coop_kernel_run gave up. */
static const char wait_for_host_source[] =
    "kernel void wait_for_host(COOP_PARAMS, uint wait)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    if (wait && coop_local_linear_id() == 0)\n"
    "        while (coop_host_load(&coop_chan_[COOP_CHAN_ECHO_IN]) == 0)\n"
    "            ;\n"
    "    COOP_GROUP_SYNC();\n"
    "}\n";

/* The limit counts from the launch, and PoCL compiles a kernel at its first launch (seconds on a
 * busy machine), so a run without waiting compiles it first. max_groups and a long window close
 * the poll as soon as both groups registered, so that only the waiting run itself can run out
 * of time. */
static void assert_run_times_out(coop_context *ctx, const coop_launch *launch, const char *limit)
{
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, wait_for_host_source, NULL, "wait_for_host", &program);
    cl_uint wait = 0;
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 0, sizeof wait, &wait));
    coop_launch compile = *launch;
    compile.timeout_s = 60;
    TU_ASSERT_OK(ctx, coop_kernel_run(kernel, &compile, NULL));
    wait = 1;
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 0, sizeof wait, &wait));
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, launch, NULL), COOP_ERR_TIMEOUT, "did not complete within");
    const char *message = coop_context_message(ctx);
    ck_assert_msg(strstr(message, "'wait_for_host' on 2 groups") && strstr(message, limit), "message: %s", message);
    TU_ASSERT_OK(ctx, coop_channel_store(ctx, COOP_CHAN_ECHO_IN, 1));
    ck_assert_int_eq(clFinish(coop_context_queue(ctx)), CL_SUCCESS);
    coop_kernel_release(kernel);
    coop_program_release(program);
}

START_TEST(run_timeout_from_the_launch)
{
    coop_context *ctx = tu_context(2);
    coop_launch launch = {.local_size = 16, .max_groups = 2, .discovery_window_us = TU_PINNED_WINDOW_US,
                          .timeout_s = 1.0};
    assert_run_times_out(ctx, &launch, "within 1.0 s");
    coop_context_release(ctx);
}
END_TEST

START_TEST(run_timeout_from_the_environment)
{
    coop_context *ctx = tu_context(2);
    setenv("COOP_TIMEOUT_S", "1.5", 1);
    coop_launch launch = {.local_size = 16, .max_groups = 2, .discovery_window_us = TU_PINNED_WINDOW_US};
    assert_run_times_out(ctx, &launch, "within 1.5 s");
    coop_context_release(ctx);
}
END_TEST

/* Groups that wait for the host before COOP_ENTER never register, so the poll cannot close. */
START_TEST(discovery_timeout)
{
    static const char source[] =
        "kernel void late_enter(COOP_PARAMS)\n"
        "{\n"
        "    if (coop_local_linear_id() == 0)\n"
        "        while (coop_host_load(&coop_chan_[COOP_CHAN_ECHO_IN]) == 0)\n"
        "            ;\n"
        "    COOP_GROUP_SYNC();\n"
        "    COOP_ENTER(ctx);\n"
        "}\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "late_enter", &program);
    coop_launch launch = {.local_size = 16, .timeout_s = 0.5};
    TU_ASSERT_STATUS(ctx, coop_kernel_run(kernel, &launch, NULL), COOP_ERR_TIMEOUT,
                     "discovery for kernel 'late_enter': 0 groups registered");
    ck_assert_ptr_nonnull(strstr(coop_context_message(ctx), "after 0.5 s"));
    /* Let the groups through, and the leader close the poll. */
    TU_ASSERT_OK(ctx, coop_channel_store(ctx, COOP_CHAN_ECHO_IN, 1));
    TU_ASSERT_OK(ctx, coop_channel_store(ctx, COOP_CHAN_CLOSE, 1));
    ck_assert_int_eq(clFinish(coop_context_queue(ctx)), CL_SUCCESS);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

START_TEST(local_size_too_large)
{
    record_run run = record_setup(2);
    size_t too_large = coop_context_device(run.ctx)->max_local_size * 2;
    coop_launch launch = {.local_size = too_large};
    char expected[64];
    snprintf(expected, sizeof expected, "local size %zu is too large", too_large);
    TU_ASSERT_STATUS(run.ctx, coop_kernel_run(run.kernel, &launch, NULL), COOP_ERR_INVALID_ARGUMENT, expected);
    record_teardown(&run);
}
END_TEST

static Suite *discovery_suite(void)
{
    Suite *suite = suite_create("discovery");
    TCase *occupancy = tu_tcase("occupancy", 120);
    tcase_add_loop_test(occupancy, finds_every_worker, 0, 9);
    tcase_add_test(occupancy, max_groups_caps_the_groups);
    tcase_add_test(occupancy, launch_groups_bound_the_groups);
    tcase_add_test(occupancy, max_groups_beyond_residency);
    tcase_add_test(occupancy, window_from_the_launch);
    tcase_add_test(occupancy, window_from_the_environment);
    tcase_add_test(occupancy, repeated_runs);
    tcase_add_loop_test(occupancy, ids_follow_the_tickets, 0, 3);
    suite_add_tcase(suite, occupancy);

    TCase *failures = tu_tcase("failures", 60);
    tcase_add_test(failures, kernel_without_enter);
    tcase_add_test(failures, run_timeout_from_the_launch);
    tcase_add_test(failures, run_timeout_from_the_environment);
    tcase_add_test(failures, discovery_timeout);
    tcase_add_test(failures, local_size_too_large);
    suite_add_tcase(suite, failures);
    return suite;
}

int main(void)
{
    return tu_run(discovery_suite());
}
