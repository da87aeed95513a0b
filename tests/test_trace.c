/* test_trace.c: trace mode (libcoop/src/trace.c, and the COOP_TRACING code of
 * libcoop/include/coop_device/). Traced runs of tests/kernels/trace.cl under chaos with a periodic task are
 * read back with jansson and checked: the file parses; every group's spans are disjoint and in
 * order; its roles follow the protocol's transitions (a forked group resumes as a member, a
 * killed one goes to a task or the pool...); at every moment the groups in member spans are
 * exactly as many as the M counter says, with ids 0 .. M-1 (so a kill took the largest ones);
 * the trace's kills, forks, resizes, tasks and member 0's barriers are the report's; only member
 * 0 resizes, at most once per resizing barrier; the scheduler's words are at rest after the run;
 * and each task's gather and execution times computed from the trace are the report's. A buffer
 * too small for the run reports dropped events and still gives a valid file. Untraced runs have
 * no trace code: COOP_TRACING is defined only in a traced run's build. */
#define _XOPEN_SOURCE 700 /* mknod */
#include "trace_check.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define KERNEL_FILE "tests/kernels/trace.cl"
/* trace-verify is a Check program: a CK_RUN_CASE meant for this one would make it check nothing */
#define TRACE_VERIFY "env -u CK_RUN_CASE -u CK_RUN_SUITE build/tests/trace-verify"

enum {
    WORKERS = 3,             /* three groups: a task can take two, so sweeps take parked members */
    AGENT_WORKERS = 4,       /* queue channel: one worker kept free, one group is the agent */
    LOCAL_SIZE = 8,
    ELEMENTS = 512,
    MIN_ROUNDS = 12,
    MAX_ROUNDS = 4000,       /* so that no group records more than EVENTS, however long the tasks wait */
    SEEDS = 6,               /* chaos seeds per test, more (up to 4 times) until chaos did everything */
    EVENTS = 1 << 16         /* per group: two barriers a round and a few role changes at most */
};

/* ---- Running the traced megakernel -------------------------------------------------------- */

typedef struct trace_env {
    unsigned groups;         /* co-resident groups the runs close discovery at */
    coop_context *ctx;
    coop_program *program;
    coop_kernel *kernel;
    cl_mem data, task_groups, go, rounds_done;
    char dir[64];            /* where the trace files go */
    char path[128];          /* the last one */
} trace_env;

static trace_env env_open(unsigned workers, const char *channel)
{
    /* the queue channel keeps a worker free for its transfers */
    trace_env env = {.groups = channel && !strcmp(channel, "queue") ? workers - 1 : workers};
    tu_env(workers);
    if (channel)
        setenv("COOP_CHANNEL", channel, 1);
    coop_options options = {.platform = TU_POCL_PLATFORM};
    TU_ASSERT_OK(env.ctx, coop_context_create(&options, &env.ctx));
    TU_ASSERT_OK(env.ctx, coop_program_create_from_file(env.ctx, KERNEL_FILE, TU_CHECK_OPTIONS, &env.program));
    TU_ASSERT_OK(env.ctx, coop_kernel_create(env.program, "trace_mega", &env.kernel));
    env.data = tu_buffer(env.ctx, ELEMENTS);
    env.task_groups = tu_buffer(env.ctx, 1);
    env.go = tu_buffer(env.ctx, MAX_ROUNDS);
    env.rounds_done = tu_buffer(env.ctx, 1);
    const cl_uint numbers[3] = {ELEMENTS, MIN_ROUNDS, MAX_ROUNDS};
    TU_ASSERT_OK(env.ctx, coop_kernel_set_buffer(env.kernel, 0, env.data));
    for (unsigned i = 0; i < 3; i++)
        TU_ASSERT_OK(env.ctx, coop_kernel_set_arg(env.kernel, 1 + i, sizeof numbers[i], &numbers[i]));
    TU_ASSERT_OK(env.ctx, coop_kernel_set_buffer(env.kernel, 4, env.task_groups));
    TU_ASSERT_OK(env.ctx, coop_kernel_set_buffer(env.kernel, 6, env.go));
    TU_ASSERT_OK(env.ctx, coop_kernel_set_buffer(env.kernel, 7, env.rounds_done));
    snprintf(env.dir, sizeof env.dir, "/tmp/test_trace.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(env.dir));
    return env;
}

static void env_close(trace_env *env)
{
    const cl_mem buffers[4] = {env->data, env->task_groups, env->go, env->rounds_done};
    for (unsigned i = 0; i < 4; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(env->kernel);
    coop_program_release(env->program);
    coop_context_release(env->ctx);
    char command[160];
    snprintf(command, sizeof command, "rm -rf '%s'", env->dir);
    ck_assert_int_eq(system(command), 0);
}

/* Runs the megakernel under chaos seed `seed` with `plans`, `in_flight` of their runs at once
 * (0: one), traced into env->path with `events` per group (0: the default); checks what it
 * computed. A periodic task is submitted while the rounds go on, which may be fewer times than
 * planned on a busy machine, where the rounds can reach max_rounds first. */
static void run_traced_plans(trace_env *env, unsigned seed, const coop_task_plan *plans, size_t plan_count,
                             unsigned in_flight, unsigned events, coop_mega_report *report)
{
    cl_uint target = 0, planned = 0;
    for (size_t p = 0; p < plan_count; p++) {
        target += tu_plan_runs(&plans[p]) * plans[p].workgroups;
        planned += tu_plan_runs(&plans[p]);
    }
    TU_ASSERT_OK(env->ctx, coop_kernel_set_arg(env->kernel, 5, sizeof target, &target));
    static cl_uint zeros[ELEMENTS];
    tu_write(env->ctx, env->data, zeros, ELEMENTS);
    tu_write(env->ctx, env->task_groups, zeros, 1);
    tu_write(env->ctx, env->rounds_done, zeros, 1);
    snprintf(env->path, sizeof env->path, "%s/seed-%u.json", env->dir, seed);
    /* discovery closes once every worker's group is in, and waits long for one on a busy machine */
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE, .max_groups = env->groups,
                                          .discovery_window_us = 2e6},
                               .chaos_seed = seed, .watchdog_s = 60, .trace_file = env->path, .trace_events = events,
                               .tasks_in_flight = in_flight};
    TU_ASSERT_OK(env->ctx, coop_mega_run(env->kernel, &params, plans, plan_count, report));
    char what[32];
    snprintf(what, sizeof what, "chaos seed %u", seed);
    tu_assert_mega_at_rest(env->ctx, report, what);
    cl_uint data[ELEMENTS], rounds = 0, groups = 0;
    tu_read(env->ctx, env->data, data, ELEMENTS);
    tu_read(env->ctx, env->rounds_done, &rounds, 1);
    tu_read(env->ctx, env->task_groups, &groups, 1);
    ck_assert_uint_ge(rounds, MIN_ROUNDS);
    for (unsigned i = 0; i < ELEMENTS; i++)
        ck_assert_msg(data[i] == rounds, "seed %u: data[%u] = %u after %u rounds", seed, i, data[i], rounds);
    ck_assert_uint_le(report->record_count, planned);
    ck_assert_uint_ge(report->record_count, plan_count ? 1 : 0);
    cl_uint ran = 0;
    for (size_t k = 0; k < report->record_count; k++)
        ran += plans[report->records[k].plan].workgroups;
    ck_assert_uint_eq(groups, ran);
}

static void run_traced(trace_env *env, unsigned seed, const coop_task_plan *plan, unsigned events,
                       coop_mega_report *report)
{
    run_traced_plans(env, seed, plan, plan ? 1 : 0, 0, events, report);
}

/* Everything about one complete trace, against the run's report. */
static void check_trace(const char *path, const coop_mega_report *report, const char *what)
{
    ck_assert_uint_eq(report->trace_dropped, 0);
    tc_check_complete(path, report, what);
}

/* ---- Tests ---------------------------------------------------------------------------------- */

/* Takes two of the three groups every 2 ms, four times: with tokens for two, the largest member
 * sweeps the one below it, parked at its offer. */
static const coop_task_plan periodic = {
    .task = 0, .workgroups = 5, .take = COOP_TAKE_COUNT, .take_count = 2, .period_ms = 2, .repeats = 4};

/* Seeds from `first` (and more, up to four times as many, until chaos has killed, forked and
 * resized), each run traced and its trace checked. */
static void traced_seeds(unsigned workers, const char *channel, unsigned first)
{
    trace_env env = env_open(workers, channel);
    unsigned kills = 0, forks = 0, resizes = 0, seed = first;
    for (; seed < first + SEEDS || (!(kills && forks && resizes) && seed < first + 4 * SEEDS); seed++) {
        coop_mega_report report;
        char what[64];
        snprintf(what, sizeof what, "chaos seed %u", seed);
        run_traced(&env, seed, &periodic, EVENTS, &report);
        check_trace(env.path, &report, what);
        kills += report.kills;
        forks += report.forks;
        resizes += report.resizes;
        coop_mega_report_free(&report);
    }
    ck_assert_msg(kills && forks && resizes, "seeds %u..%u: %u kills, %u forks, %u resizes", first, seed - 1, kills,
                  forks, resizes);
    env_close(&env);
}

START_TEST(traced_runs_under_chaos)
{
    traced_seeds(WORKERS, NULL, 1);
}
END_TEST

/* Without chaos: the task's kill tokens alone take the groups (parked and swept). */
START_TEST(traced_run_without_chaos)
{
    trace_env env = env_open(WORKERS, NULL);
    coop_mega_report report;
    run_traced(&env, 0, &periodic, EVENTS, &report);
    check_trace(env.path, &report, "no chaos");
    ck_assert_uint_ge(report.kills, 2);
    /* trace-verify (for traces written on other machines) passes the file and fails it once its
     * report claims a kill more than its spans show */
    char command[512], *text = tu_read_file(env.path, NULL), *kills = strstr(text, "\"kills\":");
    ck_assert_ptr_nonnull(kills);
    snprintf(command, sizeof command, TRACE_VERIFY " %s >/dev/null 2>&1", env.path);
    ck_assert_int_eq(system(command), 0);
    char edited[160];
    snprintf(edited, sizeof edited, "%s/edited.json", env.dir);
    FILE *out = fopen(edited, "w");
    ck_assert_ptr_nonnull(out);
    fprintf(out, "%.*s\"kills\":%u%s", (int)(kills - text), text, report.kills + 1,
            kills + strlen("\"kills\":") + strspn(kills + strlen("\"kills\":"), "0123456789"));
    fclose(out);
    free(text);
    snprintf(command, sizeof command, TRACE_VERIFY " %s >/dev/null 2>&1", edited);
    int status = system(command);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "trace-verify passed a trace with a kill too many");
    coop_mega_report_free(&report);
    env_close(&env);
}
END_TEST

/* Two periodic plans of one group each, due together, two in flight, under a few chaos seeds:
 * each request's gathering spans, request, gathered and done instants and flow arrows agree with
 * its record (tc_check_complete), and the trace's task spans carry the records' new fields.
 * (Whether a second run is sent before the first is done depends on the machine's timing: it is
 * not asserted.) */
START_TEST(traced_tasks_in_flight)
{
    const coop_task_plan plans[2] = {
        {.task = 0, .workgroups = 3, .take = COOP_TAKE_ONE, .period_ms = 2, .repeats = 3, .priority = 1},
        {.task = 0, .workgroups = 4, .take = COOP_TAKE_ONE, .period_ms = 2, .repeats = 3, .deadline_ms = 50},
    };
    trace_env env = env_open(WORKERS, NULL);
    for (unsigned seed = 0; seed < 3; seed++) {
        coop_mega_report report;
        char what[64];
        snprintf(what, sizeof what, "two in flight, chaos seed %u", seed);
        run_traced_plans(&env, seed, plans, 2, 2, EVENTS, &report);
        check_trace(env.path, &report, what);
        char *text = tu_read_file(env.path, NULL);
        ck_assert_msg(strstr(text, "\"overtaken\":") && strstr(text, "\"in_flight\":") &&
                          strstr(text, "\"deadline_ms\":"), "%s: the task spans lack the records' fields", what);
        free(text);
        coop_mega_report_free(&report);
    }
    env_close(&env);
}
END_TEST

/* trace-verify fails a trace where member 0 resized twice at one barrier (R1): a real trace
 * with one resize instant doubled and its report's count of resizes raised to match, so that
 * only the order of the instants is wrong. */
START_TEST(second_resize_at_one_barrier_fails)
{
    trace_env env = env_open(WORKERS, NULL);
    coop_mega_report report;
    for (unsigned seed = 1;; seed++) {
        ck_assert_msg(seed <= 4 * SEEDS, "seeds 1..%u made no resize", seed - 1);
        run_traced(&env, seed, &periodic, EVENTS, &report);
        check_trace(env.path, &report, "chaos");
        if (report.resizes)
            break;
        coop_mega_report_free(&report);
    }
    char *text = tu_read_file(env.path, NULL);
    char *resize = strstr(text, "\"cat\":\"resize\"");
    char *count = strstr(text, "\"resizes\":");
    ck_assert(resize && count);
    char *line = resize, *line_end = strchr(resize, '\n');
    while (line > text && line[-1] != '\n')
        line--;
    ck_assert_msg(line_end && line_end[-1] == ',', "the resize instant is the last event");
    char *count_end = count + strlen("\"resizes\":");
    count_end += strspn(count_end, "0123456789");
    char edited[160];
    snprintf(edited, sizeof edited, "%s/edited.json", env.dir);
    FILE *out = fopen(edited, "w");
    ck_assert_ptr_nonnull(out);
    if (count < line) /* the report (otherData) comes first */
        fprintf(out, "%.*s\"resizes\":%u%.*s%.*s%s", (int)(count - text), text, report.resizes + 1,
                (int)(line_end + 1 - count_end), count_end, (int)(line_end + 1 - line), line, line_end + 1);
    else
        fprintf(out, "%.*s%.*s%.*s\"resizes\":%u%s", (int)(line_end + 1 - text), text, (int)(line_end + 1 - line),
                line, (int)(count - line_end - 1), line_end + 1, report.resizes + 1, count_end);
    fclose(out);
    free(text);
    char command[512], log[160];
    snprintf(log, sizeof log, "%s/verify.log", env.dir);
    snprintf(command, sizeof command, TRACE_VERIFY " %s >%s 2>&1", edited, log);
    int status = system(command);
    char *said = tu_read_file(log, NULL);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1 && strstr(said, "had its resize already"),
                  "trace-verify on a trace with two resizes at one barrier: status %d, said: %s", status, said);
    free(said);
    coop_mega_report_free(&report);
    env_close(&env);
}
END_TEST

/* The agent path: the agent group applies the requests, at its own times. */
START_TEST(traced_runs_with_an_agent)
{
    traced_seeds(AGENT_WORKERS, "queue", 101);
}
END_TEST

/* A sweep while a member below the sweeper has finished (tests/kernels/trace.cl's
 * trace_finish_mega): a task taking two of the three groups puts kill tokens out, member 0 then
 * finishes, and the largest takes a token at its next offer. Its sweep must not wait for the
 * trace to count the finished member back in: it spun there for ever, which the watchdog
 * reported as "running". The run is traced without chaos and its trace checked as the others. */
START_TEST(sweep_after_members_finished)
{
    tu_env(WORKERS);
    coop_context *ctx = NULL;
    coop_options options = {.platform = TU_POCL_PLATFORM};
    TU_ASSERT_OK(ctx, coop_context_create(&options, &ctx));
    coop_program *program = NULL;
    coop_kernel *kernel = NULL;
    TU_ASSERT_OK(ctx, coop_program_create_from_file(ctx, KERNEL_FILE, TU_CHECK_OPTIONS, &program));
    TU_ASSERT_OK(ctx, coop_kernel_create(program, "trace_finish_mega", &kernel));
    cl_mem task_groups = tu_buffer(ctx, 1), offers = tu_buffer(ctx, 1);
    const cl_uint zero[1] = {0};
    tu_write(ctx, task_groups, zero, 1);
    tu_write(ctx, offers, zero, 1);
    const coop_task_plan two = {.task = 0, .workgroups = 2, .take = COOP_TAKE_COUNT, .take_count = 2};
    cl_uint target = two.workgroups;
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, task_groups));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, 1, sizeof target, &target));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 2, offers));
    char dir[64] = "/tmp/test_trace.XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/finish.json", dir);
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE, .max_groups = WORKERS,
                                          .discovery_window_us = 2e6},
                               .watchdog_s = 60, .trace_file = path, .trace_events = EVENTS};
    coop_mega_report report;
    TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, &two, 1, &report));
    tu_assert_mega_at_rest(ctx, &report, "finished members");
    cl_uint ran = 0, offered = 0;
    tu_read(ctx, task_groups, &ran, 1);
    tu_read(ctx, offers, &offered, 1);
    ck_assert_uint_eq(report.record_count, 1);
    ck_assert_uint_eq(ran, target);
    ck_assert_msg(report.groups == WORKERS && report.kills == 1 && offered > 0,
                  "%u groups, %u kills, %u offers: the largest member was not swept", report.groups, report.kills,
                  offered);
    check_trace(path, &report, "finished members");
    coop_mega_report_free(&report);
    clReleaseMemObject(task_groups);
    clReleaseMemObject(offers);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
    char command[160];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}
END_TEST

/* A buffer of 24 events per group fills early: the run still succeeds, the report and the file
 * count the dropped events, and the file is still a valid trace up to where it is complete. */
START_TEST(small_buffer_drops_events)
{
    trace_env env = env_open(WORKERS, NULL);
    coop_mega_report report;
    run_traced(&env, 3, &periodic, 24, &report);
    ck_assert_uint_gt(report.trace_dropped, 0);
    tc_trace t = tc_load(env.path);
    ck_assert_msg(isfinite(t.complete_until), "complete_until_us is not a time though %lu events were dropped",
                  report.trace_dropped);
    ck_assert_uint_eq(tc_number(t.other, "dropped_events", "otherData"), report.trace_dropped);
    ck_assert_uint_le(tc_number(t.other, "events", "otherData"), 24 * WORKERS);
    tc_check_spans(&t, "small buffer");
    tc_check_members(&t, "small buffer");
    ck_assert_uint_gt(tc_count_spans(&t, "unknown", 0), 0);
    ck_assert_uint_gt(tc_count_instants(&t, "dropped", 0, NULL), 0);
    for (size_t i = 0; i < t.member_count; i++)
        ck_assert_double_le(t.members[i].ts, t.complete_until);
    tc_free(&t);
    coop_mega_report_free(&report);
    env_close(&env);
}
END_TEST

/* COOP_TRACE_FILE traces a run whose parameters name no file; an argument set after the first
 * traced run reaches the traced kernel too. */
START_TEST(trace_file_from_the_environment)
{
    trace_env env = env_open(WORKERS, NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/from-env.json", env.dir);
    setenv("COOP_TRACE_FILE", path, 1);
    coop_mega_report report;
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE}};
    cl_uint target = 0;
    TU_ASSERT_OK(env.ctx, coop_kernel_set_arg(env.kernel, 5, sizeof target, &target));
    TU_ASSERT_OK(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report));
    ck_assert_uint_gt(report.trace_events, 0);
    check_trace(path, &report, "COOP_TRACE_FILE");
    coop_mega_report_free(&report);
    cl_uint rounds = 0, min_rounds = MIN_ROUNDS + 5;
    TU_ASSERT_OK(env.ctx, coop_kernel_set_arg(env.kernel, 2, sizeof min_rounds, &min_rounds));
    TU_ASSERT_OK(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report));
    tu_read(env.ctx, env.rounds_done, &rounds, 1);
    ck_assert_uint_eq(rounds, MIN_ROUNDS + 5);
    coop_mega_report_free(&report);
    unsetenv("COOP_TRACE_FILE");
    env_close(&env);
}
END_TEST

/* A kernel that refuses to build with COOP_TRACING set runs untraced, and fails to build for a
 * traced run: only a traced run's build has the trace code. */
START_TEST(untraced_runs_have_no_trace_code)
{
    static const char source[] =
        "kernel void mega(COOP_PARAMS)\n"
        "{\n"
        "#if COOP_TRACING\n"
        "#error \"built with COOP_TRACING\"\n"
        "#endif\n"
        "    COOP_ENTER(ctx);\n"
        "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx))\n"
        "        COOP_GROUP_SYNC();\n"
        "}\n";
    coop_context *ctx = tu_context(2);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, "mega", &program);
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE}};
    coop_mega_report report;
    TU_ASSERT_OK(ctx, coop_mega_run(kernel, &params, NULL, 0, &report));
    ck_assert_uint_eq(report.trace_events, 0);
    coop_mega_report_free(&report);
    params.trace_file = "/tmp/test_trace-never-written.json";
    tu_stderr_capture();     /* PoCL's clang prints its count of the expected errors */
    coop_status status = coop_mega_run(kernel, &params, NULL, 0, &report);
    tu_stderr_release();
    TU_ASSERT_STATUS(ctx, status, COOP_ERR_BUILD, "built with COOP_TRACING");
    ck_assert_int_ne(access(params.trace_file, F_OK), 0);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}
END_TEST

/* The kernel headers as an untraced run's build sees them (COOP_TRACING unset) hold no trace code
 * once preprocessed, for either target; a traced build's do. */
START_TEST(trace_code_is_compiled_out)
{
    static const char *const targets[] = {"-DCOOP_TARGET_POCL=1", "-DCOOP_TARGET_NVIDIA=1"};
    static const char *const calls[] = {"coop_trace_at(", "coop_trace_clock(", "coop_trace_members(",
                                        "coop_trace_store64(", "coop_trace_load64("};
    char dir[] = "/tmp/test_trace-cpp.XXXXXX", source[64], preprocessed[64], command[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(source, sizeof source, "%s/headers.cl", dir);
    snprintf(preprocessed, sizeof preprocessed, "%s/headers.i", dir);
    FILE *file = fopen(source, "w");
    ck_assert_ptr_nonnull(file);
    fputs("#include \"coop_kernel.h\"\n", file);
    fclose(file);
    for (unsigned target = 0; target < 2; target++) {
        for (int traced = 0; traced <= 1; traced++) {
            snprintf(command, sizeof command, "cpp -P -Ilibcoop/include %s %s %s -o %s", targets[target],
                     traced ? "-DCOOP_TRACING=1" : "", source, preprocessed);
            ck_assert_msg(system(command) == 0, "%s failed", command);
            char *text = tu_read_file(preprocessed, NULL);
            for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
                ck_assert_msg((strstr(text, calls[i]) != NULL) == traced, "%s: %s %s", command, calls[i],
                              traced ? "is missing" : "is compiled in");
            free(text);
        }
    }
    unlink(source);
    unlink(preprocessed);
    rmdir(dir);
}
END_TEST

/* Bad trace parameters are refused before anything runs; a file that cannot be written too. */
START_TEST(trace_parameter_errors)
{
    trace_env env = env_open(2, NULL);
    coop_mega_report report;
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE}, .trace_file = ""};
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: params->trace_file is empty");
    params.trace_file = env.path;
    snprintf(env.path, sizeof env.path, "%s/x.json", env.dir);
    params.trace_events = COOP_TRACE_MAX_EVENTS + 1;
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report), COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run: params->trace_events = 1048577: a group's trace buffer holds from 1 to 1048576");
    params.trace_events = 0;
    params.trace_file = "/nonexistent-directory/trace.json";
    cl_uint target = 0; /* the kernel is ready to run: the file alone is wrong */
    TU_ASSERT_OK(env.ctx, coop_kernel_set_arg(env.kernel, 5, sizeof target, &target));
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report), COOP_ERR_IO,
                     "trace '/nonexistent-directory/trace.json': No such file or directory");
    env_close(&env);
}
END_TEST

/* A trace that cannot be written leaves its path as it was: a full device (a node like /dev/full,
 * made in the test's folder) is still there and the message says why; a device that takes
 * everything (like /dev/null) gets the trace and stays; an existing regular file is replaced
 * through a temporary file beside it, keeping its mode. Device nodes need root (CI and the
 * developers' machines run as root); elsewhere that part says it is skipped. */
START_TEST(failed_traces_leave_the_path_alone)
{
    trace_env env = env_open(2, NULL);
    coop_mega_report report;
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE, .max_groups = env.groups,
                                          .discovery_window_us = 2e6},
                               .watchdog_s = 60, .trace_file = env.path};
    cl_uint target = 0;
    TU_ASSERT_OK(env.ctx, coop_kernel_set_arg(env.kernel, 5, sizeof target, &target));
    char full[160], null[160];
    snprintf(full, sizeof full, "%s/full", env.dir);
    snprintf(null, sizeof null, "%s/null", env.dir);
    if (mknod(full, S_IFCHR | 0666, makedev(1, 7)) == 0 && mknod(null, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        struct stat info;
        params.trace_file = full;
        TU_ASSERT_STATUS(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report), COOP_ERR_IO,
                         "could not be written: No space left on device");
        ck_assert_msg(stat(full, &info) == 0 && S_ISCHR(info.st_mode), "the full device %s is gone", full);
        params.trace_file = null;
        TU_ASSERT_OK(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report));
        coop_mega_report_free(&report);
        ck_assert_msg(stat(null, &info) == 0 && S_ISCHR(info.st_mode), "the null device %s is gone", null);
    } else {
        printf("failed_traces_leave_the_path_alone: mknod: %s; device nodes not tried\n", strerror(errno));
    }
    /* an existing regular file is replaced whole, keeping its mode, and nothing else is left */
    char old[160];
    snprintf(old, sizeof old, "%s/old.json", env.dir);
    FILE *file = fopen(old, "w");
    ck_assert_ptr_nonnull(file);
    fputs("old trace\n", file);
    fclose(file);
    ck_assert_int_eq(chmod(old, 0640), 0);
    params.trace_file = old;
    TU_ASSERT_OK(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report));
    coop_mega_report_free(&report);
    struct stat info;
    ck_assert_int_eq(stat(old, &info), 0);
    ck_assert_msg((info.st_mode & 0777) == 0640, "%s: mode %o after the trace", old, (unsigned)(info.st_mode & 0777));
    char *text = tu_read_file(old, NULL);
    ck_assert_msg(text[0] == '{', "%s holds no trace: '%.40s'", old, text);
    free(text);
    char command[256];
    snprintf(command, sizeof command, "ls -A '%s' | grep -v -x -e full -e null -e old.json", env.dir);
    ck_assert_msg(system(command) != 0, "files left in %s beside the trace", env.dir);
    env_close(&env);
}
END_TEST

/* ---- Runs that end early ------------------------------------------------------------------ */

/* Group 1 never reaches the second barrier (the watchdog's case); the barriers of `forever_mega`
 * keep completing, so that only the time limit ends it; `early_mega` ends without the shutdown
 * (an error). */
static const char early_source[] =
    "kernel void stall_mega(COOP_PARAMS, global uint *flag)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {\n"
    "        if (role == COOP_ROLE_COOP) {\n"
    "            coop_global_barrier(&ctx);\n"
    "            if (coop_group_id(&ctx) == 1 && get_local_id(0) == 0)\n"
    "                while (!coop_load_acquire(flag))\n"
    "                    ;\n"
    "            coop_global_barrier(&ctx);\n"
    "            if (coop_group_id(&ctx) == 0 && get_local_id(0) == 0)\n"
    "                coop_store_release(flag, 1u);\n"
    "        }\n"
    "        COOP_GROUP_SYNC();\n"
    "    }\n"
    "}\n"
    "kernel void forever_mega(COOP_PARAMS, global uint *flag)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {\n"
    "        if (role == COOP_ROLE_COOP)\n"
    "            while (!coop_load_acquire(flag))\n"
    "                coop_global_barrier(&ctx);\n"
    "        COOP_GROUP_SYNC();\n"
    "    }\n"
    "}\n"
    "kernel void early_mega(COOP_PARAMS, global uint *flag)\n"
    "{\n"
    "    COOP_ENTER(ctx);\n"
    "    if (get_local_id(0) == 0)\n"
    "        flag[0] = 1u;\n"
    "}\n";

/* Runs megakernel `name` of early_source traced on two groups of three workers (the third
 * serves the read of the trace beside a kernel that still runs), expects `status` with `fragment`
 * in its message, and checks the trace it left: it parses, says why the run ended early, holds
 * events (`min_events` at least) in role spans that follow the protocol, and the message names
 * it. */
static void early_run(const char *name, const coop_mega_params *settings, coop_status status, const char *fragment,
                      const char *cause, unsigned long min_events)
{
    coop_context *ctx = tu_context(3);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, early_source, NULL, name, &program);
    cl_mem flag = tu_buffer(ctx, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, 0, flag));
    char dir[] = "/tmp/test_trace-early.XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    coop_mega_params params = *settings;
    params.launch.local_size = LOCAL_SIZE;
    params.trace_file = path;
    tu_pin_groups(&params.launch, ctx, 2);
    coop_mega_report report;
    TU_ASSERT_STATUS(ctx, coop_mega_run(kernel, &params, NULL, 0, &report), status, fragment);
    char *message = strdup(coop_context_message(ctx)), said[192];
    snprintf(said, sizeof said, "; trace '%s' holds the events recorded until then (", path);
    ck_assert_msg(strstr(message, said), "message: %s", message);
    tc_trace t = tc_load(path);
    json_t *early = tc_member(t.other, "ended_early", "otherData");
    ck_assert_msg(json_is_object(early), "%s: ended_early is not an object", path);
    ck_assert_str_eq(tc_text(early, "cause", "ended_early"), cause);
    ck_assert_str_eq(tc_text(early, "status", "ended_early"), status == COOP_ERR_TIMEOUT ? "COOP_ERR_TIMEOUT"
                                                                                       : "COOP_ERR_OPENCL");
    /* the trace's message is the run's, without what the run then said of the trace */
    const char *why = tc_text(early, "message", "ended_early");
    ck_assert_msg(!strncmp(message, why, strlen(why)) && strstr(message, said) == message + strlen(why),
                  "the trace says '%s', the run '%s'", why, message);
    unsigned long events = (unsigned long)tc_number(t.other, "events", "otherData");
    ck_assert_msg(events >= min_events, "%s: %lu events, expected at least %lu", path, events, min_events);
    ck_assert_uint_eq(tc_number(t.other, "groups", "otherData"), 2);
    ck_assert_int_eq(atol(strstr(message, said) + strlen(said)), (long)events);
    tc_check_spans(&t, name);
    tc_free(&t);
    free(message);
    /* trace-verify checks complete runs: it fails this one, saying why */
    char command[256], log[96];
    snprintf(log, sizeof log, "%s/verify.log", dir);
    snprintf(command, sizeof command, TRACE_VERIFY " %s >%s 2>&1", path, log);
    int verified = system(command);
    char *verify_said = tu_read_file(log, NULL);
    ck_assert_msg(WIFEXITED(verified) && WEXITSTATUS(verified) == 1 && strstr(verify_said, "the run ended early"),
                  "trace-verify on a run that ended early: status %d, said: %s", verified, verify_said);
    free(verify_said);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
    if (status == COOP_ERR_TIMEOUT)
        return; /* the kernel still runs: the test leaves with _exit() */
    clReleaseMemObject(flag);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
}

/* The watchdog ends a run where group 1 never reaches the second barrier: the trace holds
 * group 0's first barrier and says the watchdog ended the run. The kernel still runs: the test
 * leaves with _exit(). */
START_TEST(watchdog_run_leaves_its_trace)
{
    coop_mega_params params = {.watchdog_s = 1};
    early_run("stall_mega", &params, COOP_ERR_TIMEOUT,
              "no progress for 1.", "watchdog", 4);
    _exit(0);
}
END_TEST

/* Barriers that complete for ever are progress: the time limit ends the run, and its trace holds
 * what fitted the buffers (the rest dropped). */
START_TEST(time_limited_run_leaves_its_trace)
{
    coop_mega_params params = {.launch = {.timeout_s = 3}, .watchdog_s = 60};
    early_run("forever_mega", &params, COOP_ERR_TIMEOUT,
              "megakernel 'forever_mega': not complete within its time limit of 3.0 s", "time limit", 100);
    _exit(0);
}
END_TEST

/* A kernel that ends before the shutdown is an error; its trace is read once it has ended. */
START_TEST(failed_run_leaves_its_trace)
{
    coop_mega_params params = {.watchdog_s = 60};
    early_run("early_mega", &params, COOP_ERR_OPENCL, "megakernel 'early_mega' ended before it was told to", "error",
              0);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *suite = suite_create("trace");
    TCase *runs = tu_tcase("traced runs", 240);
    tcase_add_test(runs, traced_runs_under_chaos);
    tcase_add_test(runs, traced_run_without_chaos);
    tcase_add_test(runs, traced_tasks_in_flight);
    tcase_add_test(runs, second_resize_at_one_barrier_fails);
    tcase_add_test(runs, traced_runs_with_an_agent);
    tcase_add_test(runs, small_buffer_drops_events);
    tcase_add_test(runs, sweep_after_members_finished);
    tcase_add_test(runs, trace_file_from_the_environment);
    tcase_add_test(runs, failed_traces_leave_the_path_alone);
    suite_add_tcase(suite, runs);
    TCase *errors = tu_tcase("errors", 120);
    tcase_add_test(errors, untraced_runs_have_no_trace_code);
    tcase_add_test(errors, trace_code_is_compiled_out);
    tcase_add_test(errors, trace_parameter_errors);
    suite_add_tcase(suite, errors);
    TCase *early = tu_tcase("early ends", 240);
    tcase_add_test(early, watchdog_run_leaves_its_trace);
    tcase_add_test(early, time_limited_run_leaves_its_trace);
    tcase_add_test(early, failed_run_leaves_its_trace);
    suite_add_tcase(suite, early);
    return suite;
}

int main(void)
{
    return tu_run(trace_suite());
}
