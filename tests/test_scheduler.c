/* test_scheduler.c: megakernels under libcoop's scheduler (libcoop/src/scheduler.c, and its
 * kernel side libcoop/include/coop_device/): cooperative kernels that shrink and grow under chaos mode, the
 * scheduler's promises checked from inside them, high-priority tasks beside them, the agent
 * path, the watchdog, and argument errors. The megakernels are in tests/kernels/scheduler.cl.
 *
 * Two PoCL workers on the two cores of the test machine: with more workers than cores every
 * barrier waits for time slices, so only a few tests use more: the agent path (a group for the
 * agent and a worker kept free for the queue channel: four workers, a few seeds) and tasks that
 * take members at their offer_kill (three to five workers). Every run pins discovery to
 * all of its groups (mega_launch), so that a busy machine cannot leave chaos nothing to kill. */
#include "testutil.h"

#include "kernels/scheduler_checks.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KERNEL_FILE "tests/kernels/scheduler.cl"
#define KERNEL_OPTIONS "-I tests/kernels " TU_CHECK_OPTIONS

enum {
    WORKERS = 2,
    AGENT_WORKERS = 4,       /* queue channel: one worker kept free, one group is the agent */
    TASK_WORKERS = 3,        /* three members, so that a kill can wait for the one above it */
    SEEDS_PER_TEST = 25,
    CHAOS_TESTS = 4,         /* 4 x 25 = 100 seeds per kernel */
    AGENT_SEEDS = 3,
    TASK_LOCAL_SIZE = 64     /* scheduler.cl's TASK_LOCAL_SIZE */
};

/* A context on PoCL with `workers` workers (channel from COOP_CHANNEL if `channel` is set) and
 * the test megakernels built. */
typedef struct mega_env {
    coop_context *ctx;
    coop_program *program;
    unsigned agent;          /* the run uses an agent group (the channel is not SVM) */
} mega_env;

/* ... with the megakernels built with `options` */
static mega_env env_open_options(unsigned workers, const char *channel, const char *build_options)
{
    mega_env env = {0};
    tu_env(workers);
    if (channel)
        setenv("COOP_CHANNEL", channel, 1);
    coop_options options = {.platform = TU_POCL_PLATFORM};
    TU_ASSERT_OK(env.ctx, coop_context_create(&options, &env.ctx));
    ck_assert_uint_eq(coop_context_device(env.ctx)->compute_units, workers);
    if (channel)
        ck_assert_int_eq(coop_context_channel(env.ctx), coop_channel_parse(channel));
    env.agent = coop_context_channel(env.ctx) != COOP_CHANNEL_SVM;
    TU_ASSERT_OK(env.ctx, coop_program_create_from_file(env.ctx, KERNEL_FILE, build_options, &env.program));
    return env;
}

static mega_env env_open(unsigned workers, const char *channel)
{
    return env_open_options(workers, channel, KERNEL_OPTIONS);
}

static void env_close(mega_env *env)
{
    coop_program_release(env->program);
    coop_context_release(env->ctx);
}

static coop_kernel *env_kernel(mega_env *env, const char *name)
{
    coop_kernel *kernel = NULL;
    TU_ASSERT_OK(env->ctx, coop_kernel_create(env->program, name, &kernel));
    return kernel;
}

/* Groups a run on `workers` workers has: every worker, less one kept free for the queue channel. */
static unsigned expected_groups(const mega_env *env, unsigned workers)
{
    return env->agent ? workers - 1 : workers;
}

/* A launch of groups of `local_size` that finds every group a run on `workers` workers has, even
 * on a busy machine: kills, forks and tasks need them all (see tu_pin_groups). */
static coop_launch mega_launch(const mega_env *env, size_t local_size, unsigned workers)
{
    coop_launch launch = {.local_size = local_size};
    tu_pin_groups(&launch, env->ctx, expected_groups(env, workers));
    return launch;
}

static void set_uint(mega_env *env, coop_kernel *kernel, unsigned index, cl_uint value)
{
    TU_ASSERT_OK(env->ctx, coop_kernel_set_arg(kernel, index, sizeof value, &value));
}

static void set_buffer(mega_env *env, coop_kernel *kernel, unsigned index, cl_mem buffer)
{
    TU_ASSERT_OK(env->ctx, coop_kernel_set_buffer(kernel, index, buffer));
}

static void clear(mega_env *env, cl_mem buffer, size_t words)
{
    cl_uint *zeros = calloc(words, sizeof *zeros);
    ck_assert_ptr_nonnull(zeros);
    tu_write(env->ctx, buffer, zeros, words);
    free(zeros);
}

static cl_uint mix(cl_uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* No rule checked inside the kernel was broken; `what` names the run in the failure. */
static void assert_rules_kept(const cl_uint *checks, const char *what)
{
    static const char *const rules[CHK_RULES] = {
        "virtual id >= M or M > N (id, M, where)",
        "offer_kill killed a group other than M-1 (id, M before, -)",
        "transmit state differs from the forking work-item 0's (first field, id, local id)",
        "fork broke k <= N-M or M <= N (M before, k, M after)",
        "members of one round saw different M (round, M, M)",
        "task workgroup id out of range (id, workgroups, task)",
        "a staged and restored transmit state changed (byte, got, expected)",
    };
    for (unsigned rule = 0; rule < CHK_RULES; rule++) {
        const cl_uint *detail = &checks[CHK_DETAIL + 4 * rule];
        ck_assert_msg(checks[rule] == 0, "%s: %s, %u times; first: %u, %u, %u", what, rules[rule], checks[rule],
                      detail[0], detail[1], detail[2]);
    }
}

/* Report fields every successful run must have, and the scheduler's words at rest after it. */
static void assert_report_shape(const mega_env *env, const coop_mega_report *report, unsigned workers,
                                const char *what)
{
    unsigned groups = expected_groups(env, workers);
    ck_assert_msg(report->groups == groups, "%s: %u groups, expected %u", what, report->groups, groups);
    ck_assert_int_eq(report->agent, (int)env->agent);
    ck_assert_double_ge(report->mean_members, 0.0);
    ck_assert_double_le(report->mean_members, groups - env->agent);
    ck_assert_double_gt(report->discovery_ms, 0.0);
    ck_assert_double_ge(report->run_ms, report->discovery_ms);
    tu_assert_mega_at_rest(env->ctx, report, what);
}

/* ---- Tree reduction with resizing barriers ------------------------------------------------ */

enum { REDUCE_LOG_N = 9, REDUCE_N = 1 << REDUCE_LOG_N, REDUCE_PHASE2 = 30,
       REDUCE_ROUNDS = REDUCE_LOG_N + 1 + REDUCE_PHASE2, REDUCE_LOCAL_SIZE = 16 };

typedef struct reduce_run {
    mega_env *env;
    coop_kernel *kernel;
    cl_mem buf, data, out, round_m, round_groups, round_ids, checks;
    cl_uint input[REDUCE_N], expected[REDUCE_N];
} reduce_run;

static void reduce_reference(const cl_uint *data, cl_uint *out)
{
    cl_uint total = 0;
    for (unsigned i = 0; i < REDUCE_N; i++)
        total += data[i];
    memset(out, 0, REDUCE_N * sizeof *out);
    for (cl_uint r = REDUCE_LOG_N + 1; r < REDUCE_ROUNDS; r++)
        for (unsigned i = 0; i < REDUCE_N; i++)
            out[i] = out[i] * 3u + (data[i] ^ (total + r));
}

static void reduce_open(reduce_run *run, mega_env *env)
{
    run->env = env;
    run->kernel = env_kernel(env, "reduce_mega");
    run->buf = tu_buffer(env->ctx, REDUCE_N);
    run->data = tu_buffer(env->ctx, REDUCE_N);
    run->out = tu_buffer(env->ctx, REDUCE_N);
    run->round_m = tu_buffer(env->ctx, REDUCE_ROUNDS);
    run->round_groups = tu_buffer(env->ctx, REDUCE_ROUNDS);
    run->round_ids = tu_buffer(env->ctx, REDUCE_ROUNDS);
    run->checks = tu_buffer(env->ctx, CHK_WORDS);
    for (unsigned i = 0; i < REDUCE_N; i++)
        run->input[i] = mix(i + 1) >> 8;
    reduce_reference(run->input, run->expected);
    tu_write(env->ctx, run->data, run->input, REDUCE_N);
    const cl_mem buffers[3] = {run->buf, run->data, run->out};
    for (unsigned i = 0; i < 3; i++)
        set_buffer(env, run->kernel, i, buffers[i]);
    set_uint(env, run->kernel, 3, REDUCE_LOG_N);
    set_uint(env, run->kernel, 4, REDUCE_PHASE2);
    set_buffer(env, run->kernel, 5, run->round_m);
    set_buffer(env, run->kernel, 6, run->round_groups);
    set_buffer(env, run->kernel, 7, run->round_ids);
    set_buffer(env, run->kernel, 8, run->checks);
    set_uint(env, run->kernel, 9, env->agent);
}

static void reduce_close(reduce_run *run)
{
    const cl_mem buffers[7] = {run->buf,          run->data,      run->out,   run->round_m,
                               run->round_groups, run->round_ids, run->checks};
    for (unsigned i = 0; i < 7; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(run->kernel);
}

/* Runs the reduction once under chaos seed `seed` (0: none) and checks everything; the report
 * is left in *report. */
static void reduce_once(reduce_run *run, unsigned seed, unsigned workers, coop_mega_report *report)
{
    mega_env *env = run->env;
    char what[64];
    snprintf(what, sizeof what, "reduce, chaos seed %u", seed);
    tu_write(env->ctx, run->buf, run->input, REDUCE_N);
    clear(env, run->out, REDUCE_N);
    clear(env, run->round_m, REDUCE_ROUNDS);
    clear(env, run->round_groups, REDUCE_ROUNDS);
    clear(env, run->round_ids, REDUCE_ROUNDS);
    clear(env, run->checks, CHK_WORDS);
    coop_mega_params params = {.launch = mega_launch(env, REDUCE_LOCAL_SIZE, workers), .chaos_seed = seed,
                               .watchdog_s = 20};
    TU_ASSERT_OK(env->ctx, coop_mega_run(run->kernel, &params, NULL, 0, report));
    assert_report_shape(env, report, workers, what);

    static cl_uint out[REDUCE_N], buf[REDUCE_N];
    cl_uint round_m[REDUCE_ROUNDS], round_groups[REDUCE_ROUNDS], round_ids[REDUCE_ROUNDS], checks[CHK_WORDS];
    tu_read(env->ctx, run->out, out, REDUCE_N);
    tu_read(env->ctx, run->buf, buf, REDUCE_N);
    tu_read(env->ctx, run->round_m, round_m, REDUCE_ROUNDS);
    tu_read(env->ctx, run->round_groups, round_groups, REDUCE_ROUNDS);
    tu_read(env->ctx, run->round_ids, round_ids, REDUCE_ROUNDS);
    tu_read(env->ctx, run->checks, checks, CHK_WORDS);
    assert_rules_kept(checks, what);
    for (unsigned i = 0; i < REDUCE_N; i++) {
        ck_assert_msg(out[i] == run->expected[i], "%s: out[%u] = %u, expected %u", what, i, out[i], run->expected[i]);
        ck_assert_msg(buf[i] == 0, "%s: buf[%u] = %u was not cleared", what, i, buf[i]);
    }
    /* Each round had M members, with ids 0 .. M-1: resizes killed the largest ids. */
    for (unsigned r = 0; r < REDUCE_ROUNDS; r++) {
        ck_assert_msg(round_m[r] >= 1 && round_m[r] < 32 && round_groups[r] == round_m[r],
                      "%s: round %u had M = %u but %u groups took part", what, r, round_m[r], round_groups[r]);
        ck_assert_msg(round_ids[r] == (1u << round_m[r]) - 1u, "%s: round %u had M = %u but ids 0x%x took part",
                      what, r, round_m[r], round_ids[r]);
    }
    /* What the kernel saw agrees with what the scheduler counted. */
    ck_assert_msg(checks[CHK_KILLS] == report->kills, "%s: %u groups saw a kill, the report says %u", what,
                  checks[CHK_KILLS], report->kills);
    ck_assert_msg(checks[CHK_FORKED] == report->forks, "%s: %u forked groups started, the report says %u", what,
                  checks[CHK_FORKED], report->forks);
    ck_assert_uint_le(checks[CHK_MAX_M], report->groups - report->agent);
    ck_assert_uint_eq(report->tasks, 0);
    ck_assert_uint_eq(report->record_count, 0);
    ck_assert_uint_le(report->barriers, REDUCE_ROUNDS);
    ck_assert_uint_le(report->resizes, REDUCE_ROUNDS);
}

/* Without chaos and without tasks nothing asks for a kill and no group is idle: the run keeps
 * all its members and completes every barrier. */
START_TEST(reduce_without_chaos_keeps_its_members)
{
    mega_env env = env_open(WORKERS, NULL);
    reduce_run run;
    reduce_open(&run, &env);
    coop_mega_report report;
    reduce_once(&run, 0, WORKERS, &report);
    ck_assert_uint_eq(report.members_start, WORKERS);
    ck_assert_uint_eq(report.kills, 0);
    ck_assert_uint_eq(report.forks, 0);
    ck_assert_uint_eq(report.resizes, 0);
    ck_assert_uint_eq(report.barriers, REDUCE_ROUNDS);
    ck_assert_double_eq_tol(report.mean_members, WORKERS, 0.01);
    coop_mega_report_free(&report);
    reduce_close(&run);
    env_close(&env);
}
END_TEST

/* Whether a chaos test runs seed `seed` of those from `first`: the `seeds` it asks for, and more
 * (up to four times as many) until chaos has done everything it must show (`all_seen`). Whether
 * a fork happens depends on a killed group being idle again when a fork is offered or decided,
 * which is timing on PoCL (three seeds on the agent path once saw no fork). */
static int more_seeds(unsigned seed, unsigned first, unsigned seeds, int all_seen)
{
    return seed < first + seeds || (!all_seen && seed < first + 4 * seeds);
}

/* Runs seeds from first_seed (see more_seeds) until chaos has killed, forked and resized; every
 * seed run is checked. */
static void reduce_seeds(unsigned workers, const char *channel, unsigned first_seed, unsigned seeds)
{
    mega_env env = env_open(workers, channel);
    reduce_run run;
    reduce_open(&run, &env);
    unsigned kills = 0, forks = 0, resizes = 0, seed = first_seed;
    for (; more_seeds(seed, first_seed, seeds, kills && forks && resizes); seed++) {
        coop_mega_report report;
        reduce_once(&run, seed, workers, &report);
        kills += report.kills;
        forks += report.forks;
        resizes += report.resizes;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0 && resizes > 0, "seeds %u..%u: %u kills, %u forks, %u resizes",
                  first_seed, seed - 1, kills, forks, resizes);
    reduce_close(&run);
    env_close(&env);
}

START_TEST(reduce_under_chaos)
{
    reduce_seeds(WORKERS, NULL, 1 + _i * SEEDS_PER_TEST, SEEDS_PER_TEST);
}
END_TEST

/* ---- Rounds split over the shared M, with offers between them ------------------------------ */

/* Three workers: with two, the only member a fork leaves in place is the forking one, which
 * knows of its own fork; with three, a member that neither forked nor died must see the new M. */
enum { OFFERS_N = 4096, OFFERS_ROUNDS = 40, OFFERS_LOCAL_SIZE = 16, OFFERS_WORKERS = 3 };

/* Runs offers_mega under chaos seeds first .. first + seeds - 1: every element is incremented
 * once per round whatever the offers did to M, and every group's shared M equals M. */
static void offers_seeds(unsigned first, unsigned seeds)
{
    mega_env env = env_open(OFFERS_WORKERS, NULL);
    coop_kernel *kernel = env_kernel(&env, "offers_mega");
    cl_mem data = tu_buffer(env.ctx, OFFERS_N), checks_buffer = tu_buffer(env.ctx, CHK_WORDS);
    set_buffer(&env, kernel, 0, data);
    set_uint(&env, kernel, 1, OFFERS_N);
    set_uint(&env, kernel, 2, OFFERS_ROUNDS);
    set_buffer(&env, kernel, 3, checks_buffer);
    set_uint(&env, kernel, 4, env.agent);
    unsigned kills = 0, forks = 0;
    for (unsigned seed = first; seed < first + seeds; seed++) {
        char what[64];
        snprintf(what, sizeof what, "offer rounds, chaos seed %u", seed);
        clear(&env, data, OFFERS_N);
        clear(&env, checks_buffer, CHK_WORDS);
        coop_mega_params params = {.launch = mega_launch(&env, OFFERS_LOCAL_SIZE, OFFERS_WORKERS), .chaos_seed = seed,
                                   .watchdog_s = 20};
        coop_mega_report report;
        TU_ASSERT_OK(env.ctx, coop_mega_run(kernel, &params, NULL, 0, &report));
        assert_report_shape(&env, &report, OFFERS_WORKERS, what);
        static cl_uint out[OFFERS_N];
        cl_uint checks[CHK_WORDS];
        tu_read(env.ctx, data, out, OFFERS_N);
        tu_read(env.ctx, checks_buffer, checks, CHK_WORDS);
        assert_rules_kept(checks, what);
        for (unsigned i = 0; i < OFFERS_N; i++)
            ck_assert_msg(out[i] == OFFERS_ROUNDS, "%s: element %u was incremented %u times, expected %u", what, i,
                          out[i], OFFERS_ROUNDS);
        ck_assert_msg(checks[CHK_KILLS] == report.kills && checks[CHK_FORK_SUM] == report.forks &&
                          checks[CHK_FORKED] == report.forks,
                      "%s: kernel saw %u kills, %u forks (%u started); the report says %u, %u", what,
                      checks[CHK_KILLS], checks[CHK_FORK_SUM], checks[CHK_FORKED], report.kills, report.forks);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "seeds %u..%u: %u kills, %u forks", first, first + seeds - 1, kills,
                  forks);
    clReleaseMemObject(data);
    clReleaseMemObject(checks_buffer);
    coop_kernel_release(kernel);
    env_close(&env);
}

START_TEST(shared_m_follows_offers_under_chaos)
{
    offers_seeds(1 + _i * SEEDS_PER_TEST, SEEDS_PER_TEST);
}
END_TEST

/* ---- Work stealing with offer_kill / offer_fork -------------------------------------------- */

enum { STEAL_CHUNKS = 1024, STEAL_CHUNK_SIZE = 64, STEAL_ITEMS = STEAL_CHUNKS * STEAL_CHUNK_SIZE,
       STEAL_LOCAL_SIZE = 16 };

enum { STEAL_TASK_GROUPS = 12 };

typedef struct steal_run {
    mega_env *env;
    coop_kernel *kernel;
    cl_mem next, done, counter, out, checks;
} steal_run;

static void steal_open(steal_run *run, mega_env *env)
{
    run->env = env;
    run->kernel = env_kernel(env, "steal_mega");
    run->next = tu_buffer(env->ctx, 1);
    run->done = tu_buffer(env->ctx, STEAL_ITEMS);
    run->counter = tu_buffer(env->ctx, 1);
    run->out = tu_buffer(env->ctx, STEAL_TASK_GROUPS * STEAL_LOCAL_SIZE);
    run->checks = tu_buffer(env->ctx, CHK_WORDS);
    set_buffer(env, run->kernel, 0, run->next);
    set_uint(env, run->kernel, 1, STEAL_CHUNKS);
    set_uint(env, run->kernel, 2, STEAL_CHUNK_SIZE);
    set_buffer(env, run->kernel, 3, run->done);
    set_buffer(env, run->kernel, 4, run->counter);
    set_buffer(env, run->kernel, 6, run->out);
    set_buffer(env, run->kernel, 7, run->checks);
    set_uint(env, run->kernel, 8, env->agent);
}

static void steal_close(steal_run *run)
{
    const cl_mem buffers[5] = {run->next, run->done, run->counter, run->out, run->checks};
    for (unsigned i = 0; i < 5; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(run->kernel);
}

/* Runs the work-stealing kernel once (chaos seed `seed`, 0: none; `members` groups at the start,
 * 0: all; `task`: a one-off plan for task 0, or NULL) and checks it; the kernel's check words go
 * to `checks`. */
static void steal_once(steal_run *run, unsigned seed, unsigned workers, unsigned members,
                       const coop_task_plan *task, coop_mega_report *report, cl_uint *checks)
{
    mega_env *env = run->env;
    char what[64];
    snprintf(what, sizeof what, "steal, chaos seed %u", seed);
    cl_uint target = task ? task->workgroups : 0;
    if (task) {
        ck_assert_uint_eq(task->task, 0);
        ck_assert_uint_le(task->workgroups, STEAL_TASK_GROUPS);
        ck_assert_uint_eq(task->args[1], task->workgroups);
    }
    set_uint(env, run->kernel, 5, target);
    clear(env, run->next, 1);
    clear(env, run->done, STEAL_ITEMS);
    clear(env, run->counter, 1);
    clear(env, run->out, STEAL_TASK_GROUPS * STEAL_LOCAL_SIZE);
    clear(env, run->checks, CHK_WORDS);
    coop_mega_params params = {.launch = mega_launch(env, STEAL_LOCAL_SIZE, workers), .members = members,
                               .chaos_seed = seed, .watchdog_s = 20};
    TU_ASSERT_OK(env->ctx, coop_mega_run(run->kernel, &params, task, task ? 1 : 0, report));
    assert_report_shape(env, report, workers, what);

    static cl_uint done[STEAL_ITEMS];
    cl_uint next = 0, counter = 0, out[STEAL_TASK_GROUPS * STEAL_LOCAL_SIZE];
    tu_read(env->ctx, run->done, done, STEAL_ITEMS);
    tu_read(env->ctx, run->next, &next, 1);
    tu_read(env->ctx, run->counter, &counter, 1);
    tu_read(env->ctx, run->out, out, STEAL_TASK_GROUPS * STEAL_LOCAL_SIZE);
    tu_read(env->ctx, run->checks, checks, CHK_WORDS);
    assert_rules_kept(checks, what);
    for (unsigned i = 0; i < STEAL_ITEMS; i++)
        ck_assert_msg(done[i] == 1, "%s: item %u was processed %u times", what, i, done[i]);
    ck_assert_uint_ge(next, STEAL_CHUNKS);
    ck_assert_uint_eq(counter, target);
    for (unsigned g = 0; g < STEAL_TASK_GROUPS; g++)
        for (unsigned lid = 0; lid < STEAL_LOCAL_SIZE; lid++) {
            unsigned i = g * STEAL_LOCAL_SIZE + lid;
            cl_uint expected = g < target ? g * 7u + lid + task->args[0] : 0u;
            ck_assert_msg(out[i] == expected, "%s: task out[%u] = %u, expected %u", what, i, out[i], expected);
        }
    ck_assert_uint_eq(report->record_count, task ? 1 : 0);
    ck_assert_uint_eq(report->tasks, task ? 1 : 0);
    ck_assert_msg(checks[CHK_KILLS] == report->kills, "%s: %u groups saw a kill, the report says %u", what,
                  checks[CHK_KILLS], report->kills);
    ck_assert_msg(checks[CHK_FORK_SUM] == report->forks && checks[CHK_FORKED] == report->forks,
                  "%s: offer_fork returned %u groups in all and %u started, the report says %u", what,
                  checks[CHK_FORK_SUM], checks[CHK_FORKED], report->forks);
    ck_assert_uint_le(checks[CHK_MAX_M], report->groups - report->agent);
    ck_assert_uint_eq(report->barriers, 0);
    ck_assert_uint_eq(report->resizes, 0);
}

START_TEST(steal_without_chaos_keeps_its_members)
{
    mega_env env = env_open(WORKERS, NULL);
    steal_run run;
    steal_open(&run, &env);
    coop_mega_report report;
    cl_uint checks[CHK_WORDS];
    steal_once(&run, 0, WORKERS, 0, NULL, &report, checks);
    ck_assert_uint_eq(report.members_start, WORKERS);
    ck_assert_uint_eq(report.kills, 0);
    ck_assert_uint_eq(report.forks, 0);
    coop_mega_report_free(&report);
    steal_close(&run);
    env_close(&env);
}
END_TEST

/* One member of two at the start: its first offer_fork starts the idle group, k = N - M = 1. */
START_TEST(steal_fork_takes_the_idle_group)
{
    mega_env env = env_open(WORKERS, NULL);
    steal_run run;
    steal_open(&run, &env);
    coop_mega_report report;
    cl_uint checks[CHK_WORDS];
    steal_once(&run, 0, WORKERS, 1, NULL, &report, checks);
    ck_assert_uint_eq(checks[CHK_FIRST_FORK_M], 1);
    ck_assert_uint_eq(checks[CHK_FIRST_FORK_K], WORKERS - 1);
    ck_assert_uint_eq(report.forks, WORKERS - 1);
    ck_assert_uint_eq(report.kills, 0);
    ck_assert_uint_eq(checks[CHK_MAX_M], WORKERS);
    ck_assert_double_ge(report.mean_members, 1.0);
    /* The kernel forks within microseconds of its start, before the host first reads M. */
    ck_assert_msg(report.members_start == 1, "members_start is %u, but the run started with 1 member",
                  report.members_start);
    coop_mega_report_free(&report);
    steal_close(&run);
    env_close(&env);
}
END_TEST

/* A task that wants every group but one from three members: its kill tokens reach the members
 * at their offer_kill, where the largest kills itself and the one below it, wanting to go too,
 * waits at its offer until then (it parks and is swept). */
START_TEST(steal_gives_groups_to_a_task)
{
    static const coop_task_plan task = {
        .task = 0, .workgroups = STEAL_TASK_GROUPS, .take = COOP_TAKE_ALL_BUT_ONE, .args = {300, STEAL_TASK_GROUPS}};
    mega_env env = env_open(TASK_WORKERS, NULL);
    steal_run run;
    steal_open(&run, &env);
    for (unsigned repeat = 0; repeat < 3; repeat++) {
        coop_mega_report report;
        cl_uint checks[CHK_WORDS];
        steal_once(&run, 0, TASK_WORKERS, 0, &task, &report, checks);
        ck_assert_uint_eq(report.records[0].groups, TASK_WORKERS - 1);
        ck_assert_msg(report.kills >= TASK_WORKERS - 1, "%u kills for a task that took %u groups", report.kills,
                      TASK_WORKERS - 1);
        coop_mega_report_free(&report);
    }
    steal_close(&run);
    env_close(&env);
}
END_TEST

/* Runs seeds from first_seed (see more_seeds) until chaos has both killed and forked; every
 * seed run is checked. */
static void steal_seeds(unsigned workers, const char *channel, unsigned first_seed, unsigned seeds)
{
    mega_env env = env_open(workers, channel);
    steal_run run;
    steal_open(&run, &env);
    unsigned kills = 0, forks = 0, seed = first_seed;
    for (; more_seeds(seed, first_seed, seeds, kills && forks); seed++) {
        coop_mega_report report;
        cl_uint checks[CHK_WORDS];
        steal_once(&run, seed, workers, 0, NULL, &report, checks);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills > 0 && forks > 0, "seeds %u..%u: %u kills, %u forks", first_seed, seed - 1, kills, forks);
    steal_close(&run);
    env_close(&env);
}

START_TEST(steal_under_chaos)
{
    steal_seeds(WORKERS, NULL, 1 + _i * SEEDS_PER_TEST, SEEDS_PER_TEST);
}
END_TEST

/* ---- The report's counters under chaos ----------------------------------------------------- */

/* members_start is M when the cooperative kernel started, even when chaos kills a group before
 * the host first looks. */
START_TEST(report_members_start_under_chaos)
{
    mega_env env = env_open(WORKERS, NULL);
    steal_run run;
    steal_open(&run, &env);
    unsigned wrong = 0, first_wrong_seed = 0, first_wrong_value = 0;
    for (unsigned seed = 1; seed <= SEEDS_PER_TEST; seed++) {
        coop_mega_report report;
        cl_uint checks[CHK_WORDS];
        steal_once(&run, seed, WORKERS, 0, NULL, &report, checks);
        if (report.members_start != WORKERS && !wrong++) {
            first_wrong_seed = seed;
            first_wrong_value = report.members_start;
        }
        coop_mega_report_free(&report);
    }
    ck_assert_msg(wrong == 0, "members_start was not %u in %u of %u runs (first: seed %u, %u)", WORKERS, wrong,
                  SEEDS_PER_TEST, first_wrong_seed, first_wrong_value);
    steal_close(&run);
    env_close(&env);
}
END_TEST

/* Every round of the reduction ends in a resizing barrier, so the report must count
 * REDUCE_ROUNDS barriers, including those that a group killed at the barrier before completes
 * by leaving. */
START_TEST(report_counts_every_barrier_under_chaos)
{
    mega_env env = env_open(WORKERS, NULL);
    reduce_run run;
    reduce_open(&run, &env);
    unsigned wrong = 0, first_wrong_seed = 0, first_wrong_value = 0;
    for (unsigned seed = 1; seed <= SEEDS_PER_TEST; seed++) {
        coop_mega_report report;
        reduce_once(&run, seed, WORKERS, &report);
        if (report.barriers != REDUCE_ROUNDS && !wrong++) {
            first_wrong_seed = seed;
            first_wrong_value = report.barriers;
        }
        coop_mega_report_free(&report);
    }
    ck_assert_msg(wrong == 0, "the report did not count %u barriers in %u of %u runs (first: seed %u, %u)",
                  REDUCE_ROUNDS, wrong, SEEDS_PER_TEST, first_wrong_seed, first_wrong_value);
    reduce_close(&run);
    env_close(&env);
}
END_TEST

/* ---- Tasks beside a cooperative kernel ----------------------------------------------------- */

enum { UNTIL_N = 256, MIN_ROUNDS = 20, MAX_ROUNDS = 200000, TASK_GROUPS_MAX = 40 };

typedef struct tasks_run {
    mega_env *env;
    coop_kernel *kernel;
    cl_mem data, counter, go, rounds_done, out, in, sums, checks, flags;
    cl_uint input[TASK_GROUPS_MAX * TASK_LOCAL_SIZE];
} tasks_run;

static void tasks_open(tasks_run *run, mega_env *env)
{
    run->env = env;
    run->kernel = env_kernel(env, "tasks_mega");
    run->data = tu_buffer(env->ctx, UNTIL_N);
    run->counter = tu_buffer(env->ctx, 1);
    run->go = tu_buffer(env->ctx, MAX_ROUNDS);
    run->rounds_done = tu_buffer(env->ctx, 1);
    run->out = tu_buffer(env->ctx, TASK_GROUPS_MAX * TASK_LOCAL_SIZE);
    run->in = tu_buffer(env->ctx, TASK_GROUPS_MAX * TASK_LOCAL_SIZE);
    run->sums = tu_buffer(env->ctx, TASK_GROUPS_MAX);
    run->checks = tu_buffer(env->ctx, CHK_WORDS);
    run->flags = tu_buffer(env->ctx, 2);
    for (unsigned i = 0; i < TASK_GROUPS_MAX * TASK_LOCAL_SIZE; i++)
        run->input[i] = mix(i + 7) >> 12;
    tu_write(env->ctx, run->in, run->input, TASK_GROUPS_MAX * TASK_LOCAL_SIZE);
    set_buffer(env, run->kernel, 0, run->data);
    set_uint(env, run->kernel, 1, UNTIL_N);
    set_uint(env, run->kernel, 2, MIN_ROUNDS);
    set_uint(env, run->kernel, 3, MAX_ROUNDS);
    set_buffer(env, run->kernel, 4, run->counter);
    set_buffer(env, run->kernel, 6, run->go);
    set_buffer(env, run->kernel, 7, run->rounds_done);
    set_buffer(env, run->kernel, 8, run->out);
    set_buffer(env, run->kernel, 9, run->in);
    set_buffer(env, run->kernel, 10, run->sums);
    set_buffer(env, run->kernel, 11, run->checks);
    set_uint(env, run->kernel, 12, env->agent);
    set_buffer(env, run->kernel, 13, run->flags);
}

static void tasks_close(tasks_run *run)
{
    const cl_mem buffers[9] = {run->data, run->counter, run->go, run->rounds_done,
                               run->out, run->in, run->sums, run->checks, run->flags};
    for (unsigned i = 0; i < 9; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(run->kernel);
}

/* A plan's deadline from a run's due time (0: none), as docs/DESIGN.md section 10.1 has it. */
static double plan_deadline(const coop_task_plan *plan)
{
    return plan->deadline_ms > 0 ? plan->deadline_ms : plan->period_ms;
}

/* Runs the task megakernel with `plans` (chaos seed `seed`) and `flight`'s tasks_in_flight,
 * policy and overtake_limit, and checks the cooperative kernel's data, each task's output
 * against the CPU, and the records: one per run, in request order, each overtaken at most the
 * limit (P1), each run's due time and deadline the plan's. */
static void tasks_flight(tasks_run *run, unsigned workers, const coop_task_plan *plans, size_t plan_count,
                         unsigned seed, const coop_mega_params *flight, coop_mega_report *report)
{
    mega_env *env = run->env;
    char what[64];
    snprintf(what, sizeof what, "tasks, chaos seed %u", seed);
    cl_uint target = 0;
    unsigned runs_of_task[2] = {0, 0}, arg_of_task[2] = {0, 0}, groups_of_task[2] = {0, 0};
    unsigned runs_of_plan[8] = {0};
    ck_assert_uint_le(plan_count, 8);
    for (size_t p = 0; p < plan_count; p++) {
        ck_assert_uint_lt(plans[p].task, 2);
        ck_assert_uint_le(plans[p].workgroups, TASK_GROUPS_MAX);
        ck_assert_uint_eq(plans[p].args[1], plans[p].workgroups);
        target += tu_plan_runs(&plans[p]) * plans[p].workgroups;
        runs_of_task[plans[p].task] += tu_plan_runs(&plans[p]);
        arg_of_task[plans[p].task] = plans[p].args[0];
        groups_of_task[plans[p].task] = plans[p].workgroups;
    }
    set_uint(env, run->kernel, 5, target);
    static cl_uint data[UNTIL_N];
    for (unsigned i = 0; i < UNTIL_N; i++)
        data[i] = i;
    tu_write(env->ctx, run->data, data, UNTIL_N);
    clear(env, run->counter, 1);
    clear(env, run->rounds_done, 1);
    clear(env, run->out, TASK_GROUPS_MAX * TASK_LOCAL_SIZE);
    clear(env, run->sums, TASK_GROUPS_MAX);
    clear(env, run->checks, CHK_WORDS);
    coop_mega_params params = {.launch = mega_launch(env, TASK_LOCAL_SIZE, workers), .chaos_seed = seed,
                               .watchdog_s = 20, .tasks_in_flight = flight->tasks_in_flight,
                               .policy = flight->policy, .overtake_limit = flight->overtake_limit};
    unsigned slots = flight->tasks_in_flight ? flight->tasks_in_flight : 1;
    unsigned limit = flight->overtake_limit ? flight->overtake_limit : 4;
    TU_ASSERT_OK(env->ctx, coop_mega_run(run->kernel, &params, plans, plan_count, report));
    assert_report_shape(env, report, workers, what);

    cl_uint rounds = 0, counter = 0, checks[CHK_WORDS];
    tu_read(env->ctx, run->rounds_done, &rounds, 1);
    tu_read(env->ctx, run->counter, &counter, 1);
    tu_read(env->ctx, run->checks, checks, CHK_WORDS);
    assert_rules_kept(checks, what);
    ck_assert_msg(rounds >= MIN_ROUNDS && rounds < MAX_ROUNDS, "%s: the cooperative kernel ran %u rounds", what,
                  rounds);
    ck_assert_msg(counter == target, "%s: %u task workgroups ran, expected %u", what, counter, target);

    /* The cooperative kernel's result, for the number of rounds it ran. */
    static cl_uint got[UNTIL_N];
    tu_read(env->ctx, run->data, got, UNTIL_N);
    for (cl_uint r = 0; r < rounds; r++)
        for (unsigned i = 0; i < UNTIL_N; i++)
            data[i] = data[i] * 5u + r;
    for (unsigned i = 0; i < UNTIL_N; i++)
        ck_assert_msg(got[i] == data[i], "%s: data[%u] = %u after %u rounds, expected %u", what, i, got[i], rounds,
                      data[i]);

    /* Task 0 adds g * 7 + lid + arg to its element once per run; task 1 adds arg times its
     * segment's sum to sums[g] once per run. */
    static cl_uint out[TASK_GROUPS_MAX * TASK_LOCAL_SIZE];
    cl_uint sums[TASK_GROUPS_MAX];
    tu_read(env->ctx, run->out, out, TASK_GROUPS_MAX * TASK_LOCAL_SIZE);
    tu_read(env->ctx, run->sums, sums, TASK_GROUPS_MAX);
    for (unsigned g = 0; g < TASK_GROUPS_MAX; g++) {
        for (unsigned lid = 0; lid < TASK_LOCAL_SIZE; lid++) {
            cl_uint expected = g < groups_of_task[0] ? runs_of_task[0] * (g * 7u + lid + arg_of_task[0]) : 0u;
            unsigned i = g * TASK_LOCAL_SIZE + lid;
            ck_assert_msg(out[i] == expected, "%s: task 0 out[%u] = %u, expected %u", what, i, out[i], expected);
        }
        cl_uint segment = 0;
        for (unsigned lid = 0; lid < TASK_LOCAL_SIZE; lid++)
            segment += run->input[g * TASK_LOCAL_SIZE + lid];
        cl_uint expected = g < groups_of_task[1] ? runs_of_task[1] * arg_of_task[1] * segment : 0u;
        ck_assert_msg(sums[g] == expected, "%s: task 1 sums[%u] = %u, expected %u", what, g, sums[g], expected);
    }

    /* One record per run, in the order they ran, each timed sensibly. */
    size_t expected_records = 0;
    for (size_t p = 0; p < plan_count; p++)
        expected_records += tu_plan_runs(&plans[p]);
    ck_assert_uint_eq(report->record_count, expected_records);
    ck_assert_uint_eq(report->tasks, expected_records);
    for (size_t k = 0; k < report->record_count; k++) {
        const coop_task_record *r = &report->records[k];
        ck_assert_uint_lt(r->plan, plan_count);
        const coop_task_plan *plan = &plans[r->plan];
        ck_assert_msg(r->gather_us >= 0 && r->exec_us >= 0 && r->response_us >= r->gather_us,
                      "%s: record %zu: gather %.1f us, exec %.1f us, response %.1f us", what, k, r->gather_us,
                      r->exec_us, r->response_us);
        double due_ms = plan->start_ms + runs_of_plan[r->plan] * plan->period_ms;
        ck_assert_msg(r->request_ms >= due_ms, "%s: record %zu (run %u of plan %u) requested at %.3f ms, before it "
                      "was due", what, k, runs_of_plan[r->plan], r->plan, r->request_ms);
        ck_assert_msg(r->request == k + 1, "%s: record %zu is request %u: records out of request order", what, k,
                      r->request);
        ck_assert_msg(r->due_ms == due_ms, "%s: record %zu due at %g ms, expected %g", what, k, r->due_ms, due_ms);
        ck_assert_msg(r->deadline_ms == (plan_deadline(plan) > 0 ? due_ms + plan_deadline(plan) : 0.0),
                      "%s: record %zu's deadline %g ms, plan %u due at %g ms", what, k, r->deadline_ms, r->plan,
                      due_ms);
        ck_assert_msg(r->overtaken <= limit, "%s: record %zu overtaken %u times, the limit is %u", what, k,
                      r->overtaken, limit);
        ck_assert_msg(r->in_flight >= 1 && r->in_flight <= slots, "%s: record %zu sent with %u in flight (at most %u)",
                      what, k, r->in_flight, slots);
        ck_assert_int_eq(r->device_timed, 0); /* PoCL kernels have no clock */
        if (plan_deadline(plan) <= 0)
            ck_assert_int_eq(r->deadline_met, 1);
        ck_assert_uint_ge(r->groups, 1);
        ck_assert_uint_le(r->groups, report->groups - report->agent - 1);
        if (k > 0)
            ck_assert_double_ge(r->request_ms, report->records[k - 1].request_ms);
        runs_of_plan[r->plan]++;
    }
    for (size_t p = 0; p < plan_count; p++)
        ck_assert_uint_eq(runs_of_plan[p], tu_plan_runs(&plans[p]));
    ck_assert_msg(checks[CHK_KILLS] == report->kills, "%s: %u groups saw a kill, the report says %u", what,
                  checks[CHK_KILLS], report->kills);
    ck_assert_msg(checks[CHK_FORKED] == report->forks, "%s: %u forked groups started, the report says %u", what,
                  checks[CHK_FORKED], report->forks);
    /* Without chaos every group is a member until the first task asks for some: they come from
     * kills. (A later task may find the groups an earlier one gave back still idle.) */
    if (!seed && report->record_count)
        ck_assert_msg(report->kills >= report->records[0].groups, "%s: %u kills, and the first task took %u groups",
                      what, report->kills, report->records[0].groups);
}

/* One task at a time, by due time: today's defaults. */
static void tasks_once(tasks_run *run, unsigned workers, const coop_task_plan *plans, size_t plan_count,
                       unsigned seed, coop_mega_report *report)
{
    const coop_mega_params defaults = {0};
    tasks_flight(run, workers, plans, plan_count, seed, &defaults, report);
}

static const coop_task_plan one_off_task = {
    .task = 0, .workgroups = 37, .take = COOP_TAKE_ONE, .start_ms = 1, .args = {1000, 37}};

static const coop_task_plan periodic_task = {
    .task = 1, .workgroups = 5, .take = COOP_TAKE_ONE, .period_ms = 5, .repeats = 3, .args = {3, 5}};

/* 37 task workgroups on the one group the task takes, while the cooperative kernel runs. */
START_TEST(task_runs_beside_the_cooperative_kernel)
{
    mega_env env = env_open(WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    coop_mega_report report;
    tasks_once(&run, WORKERS, &one_off_task, 1, 0, &report);
    ck_assert_uint_eq(report.records[0].groups, 1);
    ck_assert_uint_ge(report.kills, 1);
    coop_mega_report_free(&report);
    tasks_close(&run);
    env_close(&env);
}
END_TEST

START_TEST(periodic_task_runs_its_repeats)
{
    mega_env env = env_open(WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    coop_mega_report report;
    tasks_once(&run, WORKERS, &periodic_task, 1, 0, &report);
    ck_assert_uint_eq(report.record_count, 3);
    for (size_t k = 0; k < report.record_count; k++)
        ck_assert_uint_eq(report.records[k].plan, 0);
    coop_mega_report_free(&report);
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* Two plans (tasks 0 and 1 of the megakernel), without chaos and under a few seeds. */
START_TEST(two_task_plans)
{
    const coop_task_plan plans[2] = {one_off_task, periodic_task};
    mega_env env = env_open(WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    for (unsigned seed = 0; seed < 5; seed++) {
        coop_mega_report report;
        tasks_once(&run, WORKERS, plans, 2, seed * 7919u, &report);
        coop_mega_report_free(&report);
    }
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* ---- Several tasks in flight, by priority or deadline (docs/DESIGN.md section 10.1) -------- */

/* The plans a test sends in the order the policy must give, as the records' plan indices. */
static void assert_plan_order(const coop_mega_report *report, const unsigned *plans, size_t count, const char *what)
{
    ck_assert_uint_eq(report->record_count, count);
    for (size_t k = 0; k < count; k++)
        ck_assert_msg(report->records[k].plan == plans[k], "%s: request %zu ran plan %u, expected plan %u", what,
                      k + 1, report->records[k].plan, plans[k]);
}

/* Three one-off plans, all due at once, of priorities 1, 3 and 2 (tasks 0, 1, 0 with the same
 * arguments, so that task 0's output is twice one run's): with one, two and three in flight, the
 * requests go in priority order, plans 1, 2, 0, and every output matches the CPU's. A limit of
 * two overtakes does not change that order; a limit of one does: plan 0, overtaken once by plan
 * 1, goes second. */
START_TEST(priorities_order_the_requests)
{
    coop_task_plan plans[3] = {
        {.task = 0, .workgroups = 5, .take = COOP_TAKE_ONE, .args = {11, 5}, .priority = 1},
        {.task = 1, .workgroups = 6, .take = COOP_TAKE_ONE, .args = {3, 6}, .priority = 3},
        {.task = 0, .workgroups = 5, .take = COOP_TAKE_ONE, .args = {11, 5}, .priority = 2},
    };
    static const unsigned order[3] = {1, 2, 0};
    mega_env env = env_open(TASK_WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    for (unsigned in_flight = 1; in_flight <= 3; in_flight++) {
        char what[64];
        snprintf(what, sizeof what, "priorities, %u in flight", in_flight);
        coop_mega_params flight = {.tasks_in_flight = in_flight};
        coop_mega_report report;
        tasks_flight(&run, TASK_WORKERS, plans, 3, 0, &flight, &report);
        assert_plan_order(&report, order, 3, what);
        /* all due at once, so in due order by plan index: plans 1 and 2 overtook plan 0 */
        for (size_t k = 0; k < 3; k++)
            ck_assert_uint_eq(report.records[k].overtaken, report.records[k].plan == 0 ? 2 : 0);
        coop_mega_report_free(&report);
    }
    static const unsigned starved_order[3] = {1, 0, 2};
    const coop_mega_params once = {.tasks_in_flight = 2, .overtake_limit = 1};
    coop_mega_report report;
    tasks_flight(&run, TASK_WORKERS, plans, 3, 0, &once, &report);
    assert_plan_order(&report, starved_order, 3, "overtake limit 1");
    ck_assert_uint_eq(report.records[1].overtaken, 1);
    coop_mega_report_free(&report);
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* The same plans without priorities go in plan order (the due order, as one task at a time
 * served them); under COOP_POLICY_EDF with deadlines 30, 10 and 20 ms, by deadline: plans 1, 2,
 * 0, each record's deadline its due time plus its plan's. */
START_TEST(edf_orders_by_deadline)
{
    coop_task_plan plans[3] = {
        {.task = 0, .workgroups = 5, .take = COOP_TAKE_ONE, .args = {11, 5}, .deadline_ms = 30},
        {.task = 1, .workgroups = 6, .take = COOP_TAKE_ONE, .args = {3, 6}, .deadline_ms = 10},
        {.task = 0, .workgroups = 5, .take = COOP_TAKE_ONE, .args = {11, 5}, .deadline_ms = 20},
    };
    static const unsigned due_order[3] = {0, 1, 2}, deadline_order[3] = {1, 2, 0};
    mega_env env = env_open(TASK_WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    coop_mega_report report;
    const coop_mega_params by_priority = {.tasks_in_flight = 2};
    tasks_flight(&run, TASK_WORKERS, plans, 3, 0, &by_priority, &report);
    assert_plan_order(&report, due_order, 3, "equal priorities");
    coop_mega_report_free(&report);
    for (unsigned in_flight = 1; in_flight <= 2; in_flight++) {
        const coop_mega_params edf = {.tasks_in_flight = in_flight, .policy = COOP_POLICY_EDF};
        tasks_flight(&run, TASK_WORKERS, plans, 3, 0, &edf, &report);
        assert_plan_order(&report, deadline_order, 3, "earliest deadline first");
        for (size_t k = 0; k < 3; k++)
            ck_assert_double_eq(report.records[k].deadline_ms, plans[report.records[k].plan].deadline_ms);
        coop_mega_report_free(&report);
    }
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* P1: a low-priority one-off plan first in due order, and a high-priority periodic one due
 * again at every send (period 1 us, six runs). With an overtake limit of 2 the high one goes
 * twice, then the low one (overtaken exactly twice), then the high one's other four runs, none
 * of them overtaken. The same with three in flight, and by earliest deadline first (the low
 * plan has no deadline, the high one's is its period). */
START_TEST(low_priority_is_overtaken_at_most_the_limit)
{
    const coop_task_plan plans[2] = {
        {.task = 1, .workgroups = 3, .take = COOP_TAKE_ONE, .args = {5, 3}},
        {.task = 0, .workgroups = 3, .take = COOP_TAKE_ONE, .period_ms = 0.001, .repeats = 6, .args = {9, 3},
         .priority = 7},
    };
    static const unsigned order[7] = {1, 1, 0, 1, 1, 1, 1};
    mega_env env = env_open(TASK_WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    for (unsigned variant = 0; variant < 3; variant++) {
        /* one and three in flight by priority; one by deadline, where the low plan has none */
        unsigned in_flight = variant == 1 ? 3 : 1;
        coop_policy policy = variant == 2 ? COOP_POLICY_EDF : COOP_POLICY_PRIORITY;
        char what[64];
        snprintf(what, sizeof what, "overtake limit 2, %u in flight, policy %d", in_flight, (int)policy);
        const coop_mega_params flight = {.tasks_in_flight = in_flight, .policy = policy, .overtake_limit = 2};
        coop_mega_report report;
        tasks_flight(&run, TASK_WORKERS, plans, 2, 0, &flight, &report);
        assert_plan_order(&report, order, 7, what);
        for (size_t k = 0; k < 7; k++)
            ck_assert_msg(report.records[k].overtaken == (k == 2 ? 2u : 0u), "%s: request %zu overtaken %u times",
                          what, k + 1, report.records[k].overtaken);
        coop_mega_report_free(&report);
    }
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* Task 2 (sent first: higher priority) waits for a flag that only task 3 sets: with two in flight
 * task 3 runs beside it on its own group, and task 2 sees the flag; with one in flight (the old
 * runtime's only way) it gives up after its polls. */
static cl_uint rendezvous(unsigned in_flight, coop_mega_report *report)
{
    const coop_task_plan plans[2] = {
        {.task = 2, .workgroups = 1, .take = COOP_TAKE_ONE, .args = {1024}, .priority = 2},
        {.task = 3, .workgroups = 1, .take = COOP_TAKE_ONE, .priority = 1},
    };
    mega_env env = env_open(TASK_WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    set_uint(&env, run.kernel, 5, 2);
    clear(&env, run.counter, 1);
    clear(&env, run.rounds_done, 1);
    clear(&env, run.checks, CHK_WORDS);
    clear(&env, run.flags, 2);
    coop_mega_params params = {.launch = mega_launch(&env, TASK_LOCAL_SIZE, TASK_WORKERS), .watchdog_s = 20,
                               .tasks_in_flight = in_flight};
    TU_ASSERT_OK(env.ctx, coop_mega_run(run.kernel, &params, plans, 2, report));
    assert_report_shape(&env, report, TASK_WORKERS, "rendezvous");
    cl_uint flags[2], counter = 0, checks[CHK_WORDS];
    tu_read(env.ctx, run.flags, flags, 2);
    tu_read(env.ctx, run.counter, &counter, 1);
    tu_read(env.ctx, run.checks, checks, CHK_WORDS);
    assert_rules_kept(checks, "rendezvous");
    ck_assert_uint_eq(flags[0], 1);
    ck_assert_uint_eq(counter, 2);
    ck_assert_uint_eq(report->record_count, 2);
    ck_assert_uint_eq(report->records[0].plan, 0);
    ck_assert_uint_eq(report->records[1].plan, 1);
    tasks_close(&run);
    env_close(&env);
    return flags[1];
}

START_TEST(tasks_in_flight_run_together)
{
    coop_mega_report report;
    cl_uint waited = rendezvous(2, &report);
    ck_assert_msg(waited == 1, "task 2 %s the flag task 3 sets", waited == 2 ? "gave up waiting for" : "never read");
    ck_assert_uint_eq(report.records[1].in_flight, 2);
    coop_mega_report_free(&report);
}
END_TEST

/* P2: a plan's runs never overlap. Task 2 waits (4 << 20 polls: milliseconds on any device) for a
 * flag no task sets, longer than its 1 ms period, with two slots: each run is sent only once the
 * host saw the one before done, alone in flight (before P2 the second run went 1 ms after the
 * first, beside it, both writing the plan's outputs). */
START_TEST(a_plan_runs_one_at_a_time)
{
    const coop_task_plan plan = {.task = 2, .workgroups = 1, .take = COOP_TAKE_ONE, .args = {4}, .period_ms = 1,
                                 .repeats = 3};
    mega_env env = env_open(TASK_WORKERS, NULL);
    tasks_run run;
    tasks_open(&run, &env);
    set_uint(&env, run.kernel, 5, 3);
    clear(&env, run.counter, 1);
    clear(&env, run.rounds_done, 1);
    clear(&env, run.checks, CHK_WORDS);
    clear(&env, run.flags, 2);
    coop_mega_params params = {.launch = mega_launch(&env, TASK_LOCAL_SIZE, TASK_WORKERS), .watchdog_s = 20,
                               .tasks_in_flight = 2};
    coop_mega_report report;
    TU_ASSERT_OK(env.ctx, coop_mega_run(run.kernel, &params, &plan, 1, &report));
    assert_report_shape(&env, &report, TASK_WORKERS, "one plan, two slots");
    cl_uint flags[2], checks[CHK_WORDS];
    tu_read(env.ctx, run.flags, flags, 2);
    tu_read(env.ctx, run.checks, checks, CHK_WORDS);
    assert_rules_kept(checks, "one plan, two slots");
    ck_assert_uint_eq(flags[1], 2); /* every run gave up waiting */
    ck_assert_uint_eq(report.record_count, 3);
    for (size_t i = 0; i < report.record_count; i++) {
        const coop_task_record *r = &report.records[i];
        ck_assert_uint_eq(r->in_flight, 1);
        if (i > 0) {
            const coop_task_record *before = &report.records[i - 1];
            ck_assert_msg(r->request_ms * 1e3 >= before->request_ms * 1e3 + before->response_us,
                          "run %zu sent at %.3f ms, before run %zu (sent at %.3f ms) was done %.1f us later", i + 1,
                          r->request_ms, i, before->request_ms, before->response_us);
        }
    }
    coop_mega_report_free(&report);
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* Under chaos in a check build (T6-T8 in the headers, the kernel's own rules), three plans drawn
 * from the seed: tasks 0 and 1, one-off or periodic (1 to 3 ms, 1 to 4 runs), one or two groups,
 * priorities 0 to 3 and deadlines 0 or 5 to 20 ms, two to four in flight, either policy. Every
 * output matches the CPU's; every record is overtaken at most the limit (2). */
static void tasks_in_flight_seeds(unsigned workers, const char *channel, unsigned first, unsigned seeds)
{
    mega_env env = env_open(workers, channel);
    tasks_run run;
    tasks_open(&run, &env);
    unsigned kills = 0, forks = 0;
    for (unsigned seed = first; seed < first + seeds; seed++) {
        coop_task_plan plans[3];
        cl_uint draw = mix(seed + 101u);
        for (unsigned p = 0; p < 3; p++) {
            cl_uint bits = mix(draw + p);
            /* a task's plans share its workgroups and arguments: tasks_flight's CPU reference */
            unsigned task = p == 2 ? bits & 1u : p, workgroups = task ? 5 : 7;
            plans[p] = (coop_task_plan){.task = task, .workgroups = workgroups, .take = COOP_TAKE_COUNT,
                                        .take_count = 1 + (bits >> 1 & 1u), .start_ms = (bits >> 2 & 3u) * 0.5,
                                        .priority = bits >> 4 & 3u, .args = {task ? 3u : 1000u, workgroups}};
            if (bits >> 6 & 1u) {
                plans[p].period_ms = 1 + (bits >> 7 & 1u) + (bits >> 8 & 1u);
                plans[p].repeats = 1 + (bits >> 9 & 3u);
            }
            if (bits >> 11 & 1u)
                plans[p].deadline_ms = 5 + (bits >> 12 & 15u);
        }
        const coop_mega_params flight = {.tasks_in_flight = 2 + (draw >> 20) % 3,
                                         .policy = draw >> 24 & 1u ? COOP_POLICY_EDF : COOP_POLICY_PRIORITY,
                                         .overtake_limit = 2};
        coop_mega_report report;
        tasks_flight(&run, workers, plans, 3, seed * 7919u, &flight, &report);
        kills += report.kills;
        forks += report.forks;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills && forks, "seeds %u..%u: %u kills, %u forks: chaos did not run", first, first + seeds - 1,
                  kills, forks);
    tasks_close(&run);
    env_close(&env);
}

START_TEST(tasks_in_flight_under_chaos)
{
    tasks_in_flight_seeds(TASK_WORKERS, NULL, 1 + 10 * (unsigned)_i, 10);
}
END_TEST


/* ---- Choreographies of one task -----------------------------------------------------------
 * choreography_mega (scheduler.cl) with `rule` on `members` of `workers` groups, built with
 * `options`: one task that wants `want` groups and runs `workgroups` workgroups of
 * task_accumulate from `first`. Asserts the report, the kernel's rules, the task's output and
 * that exactly two members died for it; returns how many times member 1 offered kill. */
static unsigned run_choreography(unsigned rule, const char *options, unsigned workers, unsigned members,
                                 unsigned want, unsigned workgroups, cl_uint first, const char *what)
{
    ck_assert_uint_le(workgroups, TASK_GROUPS_MAX);
    const coop_task_plan task = {.task = 0, .workgroups = workgroups, .take = COOP_TAKE_COUNT, .take_count = want,
                                 .start_ms = 1, .args = {first, workgroups}};
    mega_env env = env_open_options(workers, NULL, options);
    coop_kernel *kernel = env_kernel(&env, "choreography_mega");
    cl_mem done = tu_buffer(env.ctx, 1), offers = tu_buffer(env.ctx, 1);
    cl_mem out = tu_buffer(env.ctx, workgroups * TASK_LOCAL_SIZE), checks_buffer = tu_buffer(env.ctx, CHK_WORDS);
    set_uint(&env, kernel, 0, rule);
    set_buffer(&env, kernel, 1, done);
    set_uint(&env, kernel, 2, workgroups);
    set_buffer(&env, kernel, 3, offers);
    set_buffer(&env, kernel, 4, out);
    set_buffer(&env, kernel, 5, checks_buffer);
    coop_mega_params params = {.launch = mega_launch(&env, TASK_LOCAL_SIZE, workers), .members = members,
                               .watchdog_s = 20};
    coop_mega_report report;
    TU_ASSERT_OK(env.ctx, coop_mega_run(kernel, &params, &task, 1, &report));
    assert_report_shape(&env, &report, workers, what);
    cl_uint checks[CHK_WORDS], task_groups = 0, member_1_offers = 0;
    static cl_uint got[TASK_GROUPS_MAX * TASK_LOCAL_SIZE];
    tu_read(env.ctx, checks_buffer, checks, CHK_WORDS);
    tu_read(env.ctx, done, &task_groups, 1);
    tu_read(env.ctx, offers, &member_1_offers, 1);
    tu_read(env.ctx, out, got, workgroups * TASK_LOCAL_SIZE);
    assert_rules_kept(checks, what);
    ck_assert_uint_eq(task_groups, workgroups);
    for (unsigned g = 0; g < workgroups; g++)
        for (unsigned lid = 0; lid < TASK_LOCAL_SIZE; lid++)
            ck_assert_uint_eq(got[g * TASK_LOCAL_SIZE + lid], g * 7u + lid + first);
    ck_assert_uint_eq(report.members_start, members);
    ck_assert_uint_eq(report.record_count, 1);
    ck_assert_uint_eq(report.records[0].groups, want);
    ck_assert_msg(report.kills == 2 && checks[CHK_KILLS] == 2, "%s: %u kills (%u seen by the kernel), expected 2",
                  what, report.kills, checks[CHK_KILLS]);
    coop_mega_report_free(&report);
    const cl_mem buffers[4] = {done, offers, out, checks_buffer};
    for (unsigned i = 0; i < 4; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(kernel);
    env_close(&env);
    return member_1_offers;
}

/* CHOREO_GIVE_BACK on three members and two idle groups, the kill-token give-back delayed until
 * the task has started (COOP_TEST_GIVE_BACK_LATE): the idle groups join a task that wants three
 * groups, member 2 takes two tokens, kills itself and gives one back, member 1 takes the last one
 * and starts the task. The late give-back must not bring a token back: at rest KILLS is 0
 * (tu_assert_mega_at_rest, in run_choreography's assert_report_shape), and only the two members
 * the task needed died. */
START_TEST(tokens_given_back_after_the_start_are_dropped)
{
    run_choreography(CHOREO_GIVE_BACK, KERNEL_OPTIONS " -DCOOP_TEST_GIVE_BACK_LATE=1", 5, 3, 3, 6, 500u,
                     "tokens given back late");
}
END_TEST

/* CHOREO_RESIZE_GIVE_BACK on three members and two idle groups, built with
 * COOP_TEST_GIVE_BACK_LATE: member 0's resize decision takes two of the task's three tokens,
 * member 2 dies at its offer before the barrier completes, and the commit, at M = 2, kills member
 * 1 alone and gives the spare token back once the task has started. It must be dropped: at rest
 * KILLS is 0, and no later decision or offer spent it on a third kill. */
START_TEST(resize_tokens_given_back_after_the_start_are_dropped)
{
    run_choreography(CHOREO_RESIZE_GIVE_BACK, KERNEL_OPTIONS " -DCOOP_TEST_GIVE_BACK_LATE=1", 5, 3, 3, 6, 700u,
                     "resize tokens given back late");
}
END_TEST

/* CHOREO_SWEEP_HOLD on three members and no idle groups: a task wants two groups, member 1 parks
 * at its offer, and member 2's sweep takes both tokens and, built with
 * COOP_TEST_SWEEP_HOLDS_TOKENS, holds them while member 1 stays parked (its park timeout raised
 * far past the hold). Member 1 then reads no tokens left, but the task still wants its kills:
 * it must stay parked, so that the sweep claims it and it dies at its first offer. (A member
 * that gave up on reading no tokens was passed over and died only at its next offer.) */
START_TEST(parked_member_outlasts_a_sweep_holding_the_tokens)
{
    unsigned member_1_offers =
        run_choreography(CHOREO_SWEEP_HOLD,
                         KERNEL_OPTIONS " -DCOOP_TEST_SWEEP_HOLDS_TOKENS=1 -DCOOP_PARK_POLLS=0x40000000u", 3, 3, 2,
                         4, 300u, "sweep holding the tokens");
    ck_assert_msg(member_1_offers == 1,
                  "member 1 offered kill %u times, expected once: it gave up its park while member 2's sweep "
                  "held every token, and the sweep passed it over",
                  member_1_offers);
}
END_TEST

/* ---- The agent path: queue channel, control block in device memory ------------------------ */

START_TEST(agent_reduce_under_chaos)
{
    reduce_seeds(AGENT_WORKERS, "queue", 1, AGENT_SEEDS);
}
END_TEST

START_TEST(agent_steal_under_chaos)
{
    steal_seeds(AGENT_WORKERS, "queue", 1, AGENT_SEEDS);
}
END_TEST

/* With the agent, whose check build also checks T6 and T7 where it applies each request. */
START_TEST(agent_runs_tasks_in_flight)
{
    tasks_in_flight_seeds(AGENT_WORKERS, "queue", 100, 3);
}
END_TEST

START_TEST(agent_runs_tasks)
{
    const coop_task_plan plans[2] = {one_off_task, periodic_task};
    mega_env env = env_open(AGENT_WORKERS, "queue");
    ck_assert_uint_eq(env.agent, 1);
    tasks_run run;
    tasks_open(&run, &env);
    coop_mega_report report;
    tasks_once(&run, AGENT_WORKERS, plans, 2, 0, &report);
    ck_assert_int_eq(report.agent, 1);
    coop_mega_report_free(&report);
    tasks_close(&run);
    env_close(&env);
}
END_TEST

/* ---- Watchdog ------------------------------------------------------------------------------ */

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec / 1e9;
}

/* Group 1 never reaches the second barrier. The megakernel then spins for ever, so the test
 * process leaves with _exit() once the assertions have passed. */
START_TEST(watchdog_names_the_missing_group)
{
    mega_env env = env_open(WORKERS, NULL);
    coop_kernel *kernel = env_kernel(&env, "stall_mega");
    cl_mem flag = tu_buffer(env.ctx, 1);
    set_buffer(&env, kernel, 0, flag);
    coop_mega_params params = {.launch = mega_launch(&env, 16, WORKERS), .watchdog_s = 1};
    coop_mega_report report;
    double start_s = seconds_now();
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, &params, NULL, 0, &report), COOP_ERR_TIMEOUT,
                     "waiting at global barrier #2");
    double elapsed_s = seconds_now() - start_s;
    const char *message = coop_context_message(env.ctx);
    ck_assert_msg(strstr(message, "group 1 never arrived"), "message: %s", message);
    ck_assert_msg(strstr(message, "'stall_mega'"), "message: %s", message);
    /* a kernel that only works long between barriers is told the knob */
    ck_assert_msg(strstr(message, "needs a larger watchdog_s or COOP_WATCHDOG_S)"), "message: %s", message);
    /* The quiet time it reports is the configured one (polls add a little); the whole call also
     * includes the launch, PoCL's compilation of the kernel and discovery, which take seconds on a
     * busy machine. */
    const char *quiet = strstr(message, "no progress for ");
    ck_assert_msg(quiet != NULL, "message: %s", message);
    double quiet_s = atof(quiet + strlen("no progress for "));
    ck_assert_msg(quiet_s >= 1.0 && quiet_s < 2.0, "the watchdog fired after %.2f s without progress", quiet_s);
    ck_assert_msg(elapsed_s >= 1.0 && elapsed_s < 40.0, "coop_mega_run returned after %.2f s", elapsed_s);
    _exit(0);
}
END_TEST

/* ---- Errors -------------------------------------------------------------------------------- */

START_TEST(plan_without_workgroups)
{
    mega_env env = env_open(WORKERS, NULL);
    coop_kernel *kernel = env_kernel(&env, "tasks_mega");
    coop_task_plan plans[2] = {one_off_task, periodic_task};
    plans[1].workgroups = 0;
    coop_mega_report report;
    memset(&report, 0xff, sizeof report);
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: plans[1].workgroups = 0: a task runs at least one workgroup");
    ck_assert_uint_eq(report.record_count, 0);
    ck_assert_ptr_null(report.records);
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, NULL, 1, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: plans is NULL and plan_count is 1");
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, plans, 1, NULL), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: report is NULL");
    ck_assert_int_eq(coop_mega_run(NULL, NULL, NULL, 0, &report), COOP_ERR_INVALID_ARGUMENT);
    coop_mega_report_free(NULL);
    coop_kernel_release(kernel);
    env_close(&env);
}
END_TEST

/* A priority, a deadline, and the run's in-flight, policy and overtake settings out of range are
 * refused before the launch, each named; the defaults (all 0) are today's behaviour. */
START_TEST(bad_priorities_and_flights_are_refused)
{
    mega_env env = env_open(WORKERS, NULL);
    coop_kernel *kernel = env_kernel(&env, "tasks_mega");
    coop_task_plan plans[2] = {one_off_task, periodic_task};
    coop_mega_report report;
    plans[1].priority = COOP_PRIORITY_MAX + 1;
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: plans[1].priority = 256: a priority is from 0 to 255");
    plans[1].priority = COOP_PRIORITY_MAX;
    plans[0].deadline_ms = -1;
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: plans[0].deadline_ms = -1 is not a time: expected 0 (the default) or a "
                     "positive finite number");
    plans[0].deadline_ms = 0;
    coop_mega_params params = {.tasks_in_flight = COOP_TASKS_IN_FLIGHT_MAX + 1};
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, &params, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: params->tasks_in_flight = 5: from 1 to 4 task runs in flight (0: 1)");
    params = (coop_mega_params){.policy = (coop_policy)7};
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, &params, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: params->policy = 7 is not a coop_policy (COOP_POLICY_PRIORITY or "
                     "COOP_POLICY_EDF)");
    params = (coop_mega_params){.overtake_limit = COOP_OVERTAKE_MAX + 1};
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, &params, plans, 2, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: params->overtake_limit = 1001: a due run is overtaken from 1 to 1000 times "
                     "(0: 4)");
    ck_assert_uint_eq(report.record_count, 0);
    coop_kernel_release(kernel);
    env_close(&env);
}
END_TEST

/* The megakernel docs/TUTORIAL.md's "A cooperative megakernel written by hand" shows, written as a user
 * would from that section (tests/kernels/by_hand.cl): a cooperative kernel with transmit state
 * and a task, under chaos so that forked groups restore it. Every element ends at `count`, and
 * the task's 37 workgroups each wrote theirs. */
START_TEST(hand_written_megakernel_runs)
{
    enum { N = 1000, COUNT = 40, TASK_GROUPS = 37, LOCAL = 256 };
    mega_env env = {0};
    tu_env(WORKERS);
    coop_options options = {.platform = TU_POCL_PLATFORM};
    TU_ASSERT_OK(env.ctx, coop_context_create(&options, &env.ctx));
    TU_ASSERT_OK(env.ctx, coop_program_create_from_file(env.ctx, "tests/kernels/by_hand.cl", NULL, &env.program));
    coop_kernel *kernel = env_kernel(&env, "mega");
    cl_mem data = tu_buffer(env.ctx, N), out = tu_buffer(env.ctx, TASK_GROUPS * LOCAL);
    set_buffer(&env, kernel, 0, data);
    set_uint(&env, kernel, 1, N);
    set_uint(&env, kernel, 2, COUNT);
    set_buffer(&env, kernel, 3, out);
    coop_task_plan plan = {.task = 0, .workgroups = TASK_GROUPS, .take = COOP_TAKE_ONE, .start_ms = 1};
    for (unsigned seed = 0; seed < 3; seed++) {
        clear(&env, data, N);
        clear(&env, out, TASK_GROUPS * LOCAL);
        coop_mega_params params = {.launch = mega_launch(&env, LOCAL, WORKERS), .chaos_seed = seed,
                                   .watchdog_s = 20};
        coop_mega_report report;
        TU_ASSERT_OK(env.ctx, coop_mega_run(kernel, &params, &plan, 1, &report));
        ck_assert_uint_eq(report.record_count, 1);
        coop_mega_report_free(&report);
        static cl_uint got[TASK_GROUPS * LOCAL];
        tu_read(env.ctx, data, got, N);
        for (unsigned i = 0; i < N; i++)
            ck_assert_msg(got[i] == COUNT, "chaos seed %u: data[%u] = %u, expected %u", seed, i, got[i], COUNT);
        tu_read(env.ctx, out, got, TASK_GROUPS * LOCAL);
        for (unsigned g = 0; g < TASK_GROUPS; g++)
            for (unsigned lid = 0; lid < LOCAL; lid++)
                ck_assert_msg(got[g * LOCAL + lid] == g * 7u + lid + 1u, "chaos seed %u: out[%u] = %u, expected %u",
                              seed, g * LOCAL + lid, got[g * LOCAL + lid], g * 7u + lid + 1u);
    }
    clReleaseMemObject(data);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    env_close(&env);
}
END_TEST

/* PoCL runs a group's work-items in loops on its worker thread's stack, which is `ulimit -s`
 * large: a megakernel's stack use per work-item, times the local size, must fit. The
 * hand-written megakernel at local size 1024 needs between 448 and 512 KB (2026-11-28, PoCL 3.1);
 * issue 40.3 saw one overflow the stack after a change to the kernel header. It must still run
 * with 1 MB (build/tests/by-hand-run, tests/tools/fail-alloc-run.c). */
START_TEST(hand_written_megakernel_fits_a_small_stack)
{
    enum { STACK_BYTES = 1024 * 1024 };
    tu_env(WORKERS);
    fflush(NULL);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        struct rlimit limit = {.rlim_cur = STACK_BYTES, .rlim_max = STACK_BYTES};
        if (setrlimit(RLIMIT_STACK, &limit) == 0)
            execl("build/tests/by-hand-run", "build/tests/by-hand-run", "1024", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert_msg(!WIFSIGNALED(status), "by-hand-run at local size 1024 with a %d KB stack: signal %d (%s)",
                  STACK_BYTES / 1024, WTERMSIG(status), strsignal(WTERMSIG(status)));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "by-hand-run exited with %d",
                  WEXITSTATUS(status));
}
END_TEST

/* A persistent kernel whose groups never loop over coop_schedule() just ends (on the groups the
 * default launch found: every worker on a quiet machine, maybe fewer on a busy one). */
START_TEST(kernel_that_is_not_a_megakernel)
{
    mega_env env = env_open(WORKERS, NULL);
    coop_kernel *kernel = env_kernel(&env, "no_schedule");
    cl_mem out = tu_buffer(env.ctx, 1);
    set_buffer(&env, kernel, 0, out);
    coop_mega_report report;
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, NULL, 0, &report), COOP_ERR_OPENCL,
                     "does every group loop over coop_schedule()?");
    cl_uint groups = 0;
    tu_read(env.ctx, out, &groups, 1);
    ck_assert_msg(groups >= 1 && groups <= WORKERS, "%u groups ran on %u workers", groups, WORKERS);
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    env_close(&env);
}
END_TEST

/* The queue channel on two workers leaves one group: none is left for the agent. */
START_TEST(agent_needs_a_second_group)
{
    mega_env env = env_open(WORKERS, "queue");
    coop_kernel *kernel = env_kernel(&env, "no_schedule");
    cl_mem out = tu_buffer(env.ctx, 1);
    set_buffer(&env, kernel, 0, out);
    coop_mega_report report;
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(kernel, NULL, NULL, 0, &report), COOP_ERR_DEVICE_UNSUPPORTED,
                     "only one group is co-resident, and channel 'queue' needs a second one");
    clReleaseMemObject(out);
    coop_kernel_release(kernel);
    env_close(&env);
}
END_TEST

START_TEST(take_parse)
{
    static const struct {
        const char *text;
        coop_take take;
        unsigned count;
    } good[] = {
        {"one", COOP_TAKE_ONE, 0},
        {"quarter", COOP_TAKE_QUARTER, 0},
        {"half", COOP_TAKE_HALF, 0},
        {"all-but-one", COOP_TAKE_ALL_BUT_ONE, 0},
        {"12", COOP_TAKE_COUNT, 12},
        {"1", COOP_TAKE_COUNT, 1},
        {"4095", COOP_TAKE_COUNT, 4095},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        coop_take take = (coop_take)-1;
        unsigned count = 99;
        ck_assert_msg(coop_take_parse(good[i].text, &take, &count) == 0, "'%s' was refused", good[i].text);
        ck_assert_int_eq(take, good[i].take);
        ck_assert_uint_eq(count, good[i].count);
    }
    static const char *const bad[] = {"", "0", "x", "-3", "4096", "12x", " 12", "+5", "one ", "all"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        coop_take take = COOP_TAKE_HALF;
        unsigned count = 99;
        ck_assert_msg(coop_take_parse(bad[i], &take, &count) == -1, "'%s' was accepted", bad[i]);
    }
    coop_take take;
    unsigned count;
    ck_assert_int_eq(coop_take_parse(NULL, &take, &count), -1);
    ck_assert_int_eq(coop_take_parse("one", NULL, &count), -1);
    ck_assert_int_eq(coop_take_parse("one", &take, NULL), -1);
}
END_TEST

static Suite *scheduler_suite(void)
{
    Suite *suite = suite_create("scheduler");
    TCase *reduce = tu_tcase("reduction with resizing barriers", 120);
    tcase_add_test(reduce, reduce_without_chaos_keeps_its_members);
    tcase_add_loop_test(reduce, reduce_under_chaos, 0, CHAOS_TESTS);
    suite_add_tcase(suite, reduce);

    TCase *steal = tu_tcase("work stealing with offer_kill and offer_fork", 120);
    tcase_add_test(steal, steal_without_chaos_keeps_its_members);
    tcase_add_test(steal, steal_fork_takes_the_idle_group);
    tcase_add_test(steal, steal_gives_groups_to_a_task);
    tcase_add_loop_test(steal, steal_under_chaos, 0, CHAOS_TESTS);
    suite_add_tcase(suite, steal);

    TCase *offers = tu_tcase("rounds split over the shared M, offers between them", 120);
    tcase_add_loop_test(offers, shared_m_follows_offers_under_chaos, 0, CHAOS_TESTS);
    suite_add_tcase(suite, offers);

    TCase *report = tu_tcase("report under chaos", 120);
    tcase_add_test(report, report_members_start_under_chaos);
    tcase_add_test(report, report_counts_every_barrier_under_chaos);
    suite_add_tcase(suite, report);

    TCase *tasks = tu_tcase("tasks", 120);
    tcase_add_test(tasks, task_runs_beside_the_cooperative_kernel);
    tcase_add_test(tasks, hand_written_megakernel_runs);
    tcase_add_test(tasks, hand_written_megakernel_fits_a_small_stack);
    tcase_add_test(tasks, periodic_task_runs_its_repeats);
    tcase_add_test(tasks, two_task_plans);
    tcase_add_test(tasks, tokens_given_back_after_the_start_are_dropped);
    tcase_add_test(tasks, resize_tokens_given_back_after_the_start_are_dropped);
    tcase_add_test(tasks, parked_member_outlasts_a_sweep_holding_the_tokens);
    tcase_add_test(tasks, priorities_order_the_requests);
    tcase_add_test(tasks, edf_orders_by_deadline);
    tcase_add_test(tasks, low_priority_is_overtaken_at_most_the_limit);
    tcase_add_test(tasks, tasks_in_flight_run_together);
    tcase_add_test(tasks, a_plan_runs_one_at_a_time);
    tcase_add_loop_test(tasks, tasks_in_flight_under_chaos, 0, 2);
    suite_add_tcase(suite, tasks);

    TCase *agent = tu_tcase("agent", 120);
    tcase_add_test(agent, agent_reduce_under_chaos);
    tcase_add_test(agent, agent_steal_under_chaos);
    tcase_add_test(agent, agent_runs_tasks);
    tcase_add_test(agent, agent_runs_tasks_in_flight);
    suite_add_tcase(suite, agent);

    TCase *errors = tu_tcase("watchdog and errors", 60);
    tcase_add_test(errors, watchdog_names_the_missing_group);
    tcase_add_test(errors, plan_without_workgroups);
    tcase_add_test(errors, bad_priorities_and_flights_are_refused);
    tcase_add_test(errors, kernel_that_is_not_a_megakernel);
    tcase_add_test(errors, agent_needs_a_second_group);
    tcase_add_test(errors, take_parse);
    suite_add_tcase(suite, errors);
    return suite;
}

int main(void)
{
    return tu_run(scheduler_suite());
}
