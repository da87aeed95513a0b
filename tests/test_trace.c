/* test_trace.c: trace mode (libcoop/src/trace.c, and the COOP_TRACING code of coop_kernel.h and
 * coop_scheduler.h). Traced runs of tests/kernels/trace.cl under chaos with a periodic task are
 * read back with jansson and checked: the file parses; every group's spans are disjoint and in
 * order; its roles follow the protocol's transitions (a forked group resumes as a member, a
 * killed one goes to a task or the pool...); at every moment the groups in member spans are
 * exactly as many as the M counter says, with ids 0 .. M-1 (so a kill took the largest ones);
 * the trace's kills, forks, resizes, tasks and member 0's barriers are the report's; and each
 * task's gather and execution times computed from the trace are the report's. A buffer too small
 * for the run reports dropped events and still gives a valid file. Untraced runs have no trace
 * code: COOP_TRACING is defined only in a traced run's build. */
#include "testutil.h"

#include "coop_layout.h"

#include <jansson.h>
#include <math.h>

#define KERNEL_FILE "tests/kernels/trace.cl"

enum {
    WORKERS = 3,             /* three groups: a task can take two, so sweeps take parked members */
    AGENT_WORKERS = 4,       /* queue channel: one worker kept free, one group is the agent */
    LOCAL_SIZE = 8,
    ELEMENTS = 512,
    MIN_ROUNDS = 12,
    MAX_ROUNDS = 100000,
    SEEDS = 6,               /* chaos seeds per test, more (up to 4 times) until chaos did everything */
    EVENTS = 1 << 16         /* per group: the rounds go on until the tasks are done, thousands of
                                barriers where a task waits long for the agent */
};

/* The times in the file have 0.1 ns steps; sums of two of them differ from the report's by less. */
#define TIME_TOLERANCE_US 0.002

/* ---- Running the traced megakernel -------------------------------------------------------- */

typedef struct trace_env {
    coop_context *ctx;
    coop_program *program;
    coop_kernel *kernel;
    cl_mem data, task_groups, go, rounds_done;
    char dir[64];            /* where the trace files go */
    char path[128];          /* the last one */
} trace_env;

static trace_env env_open(unsigned workers, const char *channel)
{
    trace_env env = {0};
    tu_env(workers);
    if (channel)
        setenv("COOP_CHANNEL", channel, 1);
    coop_options options = {.platform = TU_POCL_PLATFORM};
    TU_ASSERT_OK(env.ctx, coop_context_create(&options, &env.ctx));
    TU_ASSERT_OK(env.ctx, coop_program_create_from_file(env.ctx, KERNEL_FILE, NULL, &env.program));
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

static unsigned plan_runs(const coop_task_plan *plan)
{
    return plan->period_ms > 0 ? plan->repeats : 1;
}

/* Runs the megakernel under chaos seed `seed` with `plan` (may be NULL), traced into
 * env->path with `events` per group (0: the default); checks what it computed. */
static void run_traced(trace_env *env, unsigned seed, const coop_task_plan *plan, unsigned events,
                       coop_mega_report *report)
{
    cl_uint target = plan ? plan_runs(plan) * plan->workgroups : 0;
    TU_ASSERT_OK(env->ctx, coop_kernel_set_arg(env->kernel, 5, sizeof target, &target));
    static cl_uint zeros[ELEMENTS];
    tu_write(env->ctx, env->data, zeros, ELEMENTS);
    tu_write(env->ctx, env->task_groups, zeros, 1);
    tu_write(env->ctx, env->rounds_done, zeros, 1);
    snprintf(env->path, sizeof env->path, "%s/seed-%u.json", env->dir, seed);
    coop_mega_params params = {.launch = {.local_size = LOCAL_SIZE}, .chaos_seed = seed, .watchdog_s = 60,
                               .trace_file = env->path, .trace_events = events};
    TU_ASSERT_OK(env->ctx, coop_mega_run(env->kernel, &params, plan, plan ? 1 : 0, report));
    cl_uint data[ELEMENTS], rounds = 0, groups = 0;
    tu_read(env->ctx, env->data, data, ELEMENTS);
    tu_read(env->ctx, env->rounds_done, &rounds, 1);
    tu_read(env->ctx, env->task_groups, &groups, 1);
    ck_assert_uint_ge(rounds, MIN_ROUNDS);
    for (unsigned i = 0; i < ELEMENTS; i++)
        ck_assert_msg(data[i] == rounds, "seed %u: data[%u] = %u after %u rounds", seed, i, data[i], rounds);
    ck_assert_uint_eq(groups, target);
    ck_assert_uint_eq(report->record_count, plan ? plan_runs(plan) : 0);
}

/* ---- Reading the trace back ----------------------------------------------------------------- */

typedef struct span {
    double start, end;
    const char *cat;
    long id;                 /* member and parked spans: the virtual id */
    int forked;              /* a member span that a fork started */
} span;

typedef struct track {
    span *spans;
    size_t count;
    unsigned barriers;       /* barrier instants */
} track;

typedef struct change {
    double ts;
    unsigned value;
} change;

typedef struct trace {
    json_t *root, *other;
    track *tracks;           /* by tid: 0 the host, g + 1 group g */
    size_t track_count;
    change *members;         /* the M counter */
    size_t member_count;
    double complete_until;   /* INFINITY when nothing was dropped */
} trace;

static json_t *member(json_t *object, const char *key, const char *what)
{
    json_t *value = json_object_get(object, key);
    ck_assert_msg(value != NULL, "%s has no \"%s\"", what, key);
    return value;
}

static double number(json_t *object, const char *key, const char *what)
{
    json_t *value = member(object, key, what);
    ck_assert_msg(json_is_number(value), "%s: \"%s\" is not a number", what, key);
    return json_number_value(value);
}

static const char *text(json_t *object, const char *key, const char *what)
{
    json_t *value = member(object, key, what);
    ck_assert_msg(json_is_string(value), "%s: \"%s\" is not a string", what, key);
    return json_string_value(value);
}

static int by_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static int by_time(const void *a, const void *b)
{
    const change *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* Parses the file (which must be valid JSON in the Chrome trace event format) into tracks. */
static trace load_trace(const char *path)
{
    trace t = {0};
    json_error_t error;
    t.root = json_load_file(path, 0, &error);
    ck_assert_msg(t.root != NULL, "%s does not parse: line %d, column %d: %s", path, error.line, error.column,
                  error.text);
    ck_assert(json_is_object(t.root));
    t.other = member(t.root, "otherData", path);
    json_t *events = member(t.root, "traceEvents", path);
    ck_assert(json_is_array(events));
    json_t *complete = member(t.other, "complete_until_us", "otherData");
    t.complete_until = json_is_null(complete) ? INFINITY : json_number_value(complete);
    t.track_count = (size_t)number(t.other, "groups", "otherData") + 1;
    t.tracks = calloc(t.track_count, sizeof *t.tracks);
    size_t n = json_array_size(events);
    t.members = calloc(n ? n : 1, sizeof *t.members);
    ck_assert(t.tracks && t.members);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(events, i);
        const char *ph = text(e, "ph", "an event");
        if (!strcmp(ph, "M"))
            continue;
        double ts = number(e, "ts", "an event");
        if (!strcmp(ph, "C")) {
            if (!strcmp(text(e, "name", "a counter"), "M (active members)"))
                t.members[t.member_count++] =
                    (change){ts, (unsigned)number(member(e, "args", "a counter"), "members", "its args")};
            continue;
        }
        size_t tid = (size_t)number(e, "tid", "an event");
        ck_assert_uint_lt(tid, t.track_count);
        track *tr = &t.tracks[tid];
        if (!strcmp(ph, "i") && !strcmp(text(e, "cat", "an instant"), "barrier"))
            tr->barriers++;
        if (strcmp(ph, "X") != 0)
            continue;
        double dur = number(e, "dur", "a span");
        ck_assert_msg(dur >= 0, "a span of negative duration at %f", ts);
        json_t *args = member(e, "args", "a span");
        span s = {ts, ts + dur, text(e, "cat", "a span"), -1, json_object_get(args, "forked_at") != NULL};
        if (!strcmp(s.cat, "member") || !strcmp(s.cat, "parked"))
            s.id = (long)number(args, "id", "a member span");
        tr->spans = realloc(tr->spans, (tr->count + 1) * sizeof *tr->spans);
        ck_assert_ptr_nonnull(tr->spans);
        tr->spans[tr->count++] = s;
    }
    for (size_t k = 0; k < t.track_count; k++)
        qsort(t.tracks[k].spans, t.tracks[k].count, sizeof *t.tracks[k].spans, by_start);
    qsort(t.members, t.member_count, sizeof *t.members, by_time);
    return t;
}

static void free_trace(trace *t)
{
    for (size_t k = 0; k < t->track_count; k++)
        free(t->tracks[k].spans);
    free(t->tracks);
    free(t->members);
    json_decref(t->root);
}

/* The protocol's role transitions: what a group may do after each role ("" before its first). */
static int allowed(const char *from, const char *to)
{
    static const char *const moves[][2] = {
        {"", "member"},           {"", "idle"},              {"", "agent"},
        {"member", "parked"},     {"member", "killed"},      {"member", "idle"},    /* idle: finished */
        {"parked", "member"},     {"parked", "killed"},
        {"killed", "gathering"},  {"killed", "idle"},
        {"idle", "member"},       {"idle", "gathering"},                            /* member: forked */
        {"gathering", "task"},    {"gathering", "idle"},
        {"task", "task"},         {"task", "idle"},
    };
    if (!strcmp(to, "unknown"))   /* the rest of a group whose buffer filled */
        return 1;
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        if (!strcmp(moves[i][0], from) && !strcmp(moves[i][1], to))
            return 1;
    return 0;
}

/* Every group's spans are disjoint and in order, and its roles follow the protocol: a member
 * span after an idle one was started by a fork, and only then. */
static void check_spans(const trace *t, const char *what)
{
    for (size_t tid = 1; tid < t->track_count; tid++) {
        const track *tr = &t->tracks[tid];
        for (size_t i = 0; i < tr->count; i++) {
            const span *s = &tr->spans[i];
            const char *before = i ? tr->spans[i - 1].cat : "";
            if (i)
                ck_assert_msg(tr->spans[i - 1].end <= s->start + TIME_TOLERANCE_US,
                              "%s: group %zu: span '%s' [%f, %f) overlaps '%s' from %f", what, tid - 1, before,
                              tr->spans[i - 1].start, tr->spans[i - 1].end, s->cat, s->start);
            ck_assert_msg(allowed(before, s->cat), "%s: group %zu goes from '%s' to '%s' at %f us", what, tid - 1,
                          before, s->cat, s->start);
            if (!strcmp(s->cat, "member"))
                ck_assert_msg(s->forked == !strcmp(before, "idle"),
                              "%s: group %zu: a member span at %f after '%s' %s forked", what, tid - 1, s->start,
                              before, s->forked ? "is" : "is not");
        }
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Between any two moments where something changes, the groups in member (or parked) spans are
 * as many as the M counter says, each with its own id; and until the first member finished, the
 * ids are 0 .. M-1 (members finish in any order). Returns the moments checked. */
static size_t check_members(const trace *t, const char *what)
{
    size_t capacity = 2 * t->member_count + 2, count = 0;
    for (size_t tid = 1; tid < t->track_count; tid++)
        capacity += 2 * t->tracks[tid].count;
    double *times = malloc(capacity * sizeof *times);
    ck_assert_ptr_nonnull(times);
    for (size_t i = 0; i < t->member_count; i++)
        times[count++] = t->members[i].ts;
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t i = 0; i < t->tracks[tid].count; i++) {
            times[count++] = t->tracks[tid].spans[i].start;
            times[count++] = t->tracks[tid].spans[i].end;
        }
    qsort(times, count, sizeof *times, compare_doubles);
    ck_assert_msg(t->member_count > 0, "%s: no M counter", what);
    double first_finish = INFINITY; /* a member span followed by an idle one: the member finished */
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k + 1 < t->tracks[tid].count; k++)
            if (!strcmp(t->tracks[tid].spans[k].cat, "member") && !strcmp(t->tracks[tid].spans[k + 1].cat, "idle") &&
                t->tracks[tid].spans[k].end < first_finish)
                first_finish = t->tracks[tid].spans[k].end;
    size_t checked = 0;
    unsigned char *seen = calloc(COOP_MAX_GROUPS, 1);
    ck_assert_ptr_nonnull(seen);
    for (size_t i = 0; i + 1 < count; i++) {
        if (times[i + 1] - times[i] < 2 * TIME_TOLERANCE_US || times[i + 1] > t->complete_until)
            continue;
        double probe = (times[i] + times[i + 1]) / 2;
        long m = -1;
        for (size_t k = 0; k < t->member_count && t->members[k].ts <= probe; k++)
            m = t->members[k].value;
        if (m < 0)
            continue; /* before discovery closed */
        memset(seen, 0, COOP_MAX_GROUPS);
        long in_spans = 0;
        for (size_t tid = 1; tid < t->track_count; tid++)
            for (size_t k = 0; k < t->tracks[tid].count; k++) {
                const span *s = &t->tracks[tid].spans[k];
                if (s->id >= 0 && s->start < probe && probe < s->end) {
                    in_spans++;
                    ck_assert_msg(s->id < COOP_MAX_GROUPS && !seen[s->id], "%s: at %f us member id %ld twice", what,
                                  probe, s->id);
                    ck_assert_msg(s->id < m || probe > first_finish, "%s: at %f us member id %ld with M = %ld", what,
                                  probe, s->id, m);
                    seen[s->id] = 1;
                }
            }
        ck_assert_msg(in_spans == m, "%s: at %f us %ld groups are members, the M counter says %ld", what, probe,
                      in_spans, m);
        checked++;
    }
    free(seen);
    free(times);
    return checked;
}

static unsigned count_spans(const trace *t, const char *cat, int forked_only)
{
    unsigned count = 0;
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k < t->tracks[tid].count; k++)
            count += !strcmp(t->tracks[tid].spans[k].cat, cat) && (!forked_only || t->tracks[tid].spans[k].forked);
    return count;
}

/* Instants of category `cat`, and (request != 0) their time for that request in *ts. */
static unsigned count_instants(const trace *t, const char *cat, unsigned request, double *ts)
{
    json_t *events = json_object_get(t->root, "traceEvents");
    unsigned count = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        json_t *c = json_object_get(e, "cat");
        if (strcmp(json_string_value(json_object_get(e, "ph")), "i") || !c || strcmp(json_string_value(c), cat))
            continue;
        if (request && (unsigned)number(json_object_get(e, "args"), "request", cat) != request)
            continue;
        count++;
        if (ts)
            *ts = number(e, "ts", cat);
    }
    return count;
}

/* Flow arrows into groups, from request `request`'s time. */
static unsigned count_flows(const trace *t, unsigned request)
{
    char name[32];
    snprintf(name, sizeof name, "request %u", request);
    json_t *events = json_object_get(t->root, "traceEvents");
    unsigned count = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        json_t *n = json_object_get(e, "name");
        count += !strcmp(json_string_value(json_object_get(e, "ph")), "f") && n && !strcmp(json_string_value(n), name);
    }
    return count;
}

/* The trace's counts and task times are the report's. */
static void check_report(const trace *t, const coop_mega_report *report, const char *what)
{
    json_t *counts = member(t->other, "report", "otherData");
    ck_assert_uint_eq(number(counts, "kills", what), report->kills);
    ck_assert_uint_eq(number(counts, "forks", what), report->forks);
    ck_assert_uint_eq(number(t->other, "dropped_events", what), report->trace_dropped);
    ck_assert_uint_eq(number(t->other, "events", what), report->trace_events);
    unsigned kills = count_spans(t, "killed", 0), forks = count_spans(t, "member", 1);
    unsigned resizes = count_instants(t, "resize", 0, NULL), tasks = count_instants(t, "done", 0, NULL);
    ck_assert_msg(kills == report->kills && forks == report->forks && resizes == report->resizes &&
                      tasks == report->tasks,
                  "%s: the trace has %u kills, %u forks, %u resizes, %u tasks; the report %u, %u, %u, %u", what, kills,
                  forks, resizes, tasks, report->kills, report->forks, report->resizes, report->tasks);
    /* member 0 is never killed or forked: one group's, counting every barrier it arrived at */
    unsigned barriers = 0;
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k < t->tracks[tid].count; k++)
            if (t->tracks[tid].spans[k].id == 0 && !strcmp(t->tracks[tid].spans[k].cat, "member"))
                barriers = t->tracks[tid].barriers;
    ck_assert_msg(barriers == report->barriers, "%s: member 0's track has %u barriers, the report %u", what, barriers,
                  report->barriers);
    unsigned taken = 0;
    for (size_t k = 0; k < report->record_count; k++)
        taken += report->records[k].groups;
    ck_assert_uint_eq(count_spans(t, "gathering", 0), taken);
    for (size_t k = 0; k < report->record_count; k++) {
        const coop_task_record *r = &report->records[k];
        unsigned request = (unsigned)k + 1;
        double requested = 0, gathered = 0, done = 0;
        ck_assert_uint_eq(count_instants(t, "request", request, &requested), 1);
        ck_assert_uint_eq(count_instants(t, "gathered", request, &gathered), 1);
        ck_assert_uint_eq(count_instants(t, "done", request, &done), 1);
        ck_assert_int_eq(r->device_timed, 1);
        ck_assert_msg(fabs(gathered - requested - r->gather_us) < TIME_TOLERANCE_US &&
                          fabs(done - gathered - r->exec_us) < TIME_TOLERANCE_US,
                      "%s: task %zu: gather %.4f us and execution %.4f us in the trace, %.4f and %.4f in the report",
                      what, k, gathered - requested, done - gathered, r->gather_us, r->exec_us);
        ck_assert_msg(count_flows(t, request) == r->groups, "%s: task %zu took %u groups, the trace has %u arrows",
                      what, k, r->groups, count_flows(t, request));
    }
}

/* Everything about one complete trace. */
static void check_trace(const char *path, const coop_mega_report *report, const char *what)
{
    trace t = load_trace(path);
    ck_assert_msg(isinf(t.complete_until), "%s: events were dropped", what);
    ck_assert_uint_eq(report->trace_dropped, 0);
    check_spans(&t, what);
    ck_assert_uint_gt(check_members(&t, what), 0);
    check_report(&t, report, what);
    free_trace(&t);
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

/* A buffer of 24 events per group fills early: the run still succeeds, the report and the file
 * count the dropped events, and the file is still a valid trace up to where it is complete. */
START_TEST(small_buffer_drops_events)
{
    trace_env env = env_open(WORKERS, NULL);
    coop_mega_report report;
    run_traced(&env, 3, &periodic, 24, &report);
    ck_assert_uint_gt(report.trace_dropped, 0);
    trace t = load_trace(env.path);
    ck_assert_msg(isfinite(t.complete_until), "complete_until_us is not a time though %lu events were dropped",
                  report.trace_dropped);
    ck_assert_uint_eq(number(t.other, "dropped_events", "otherData"), report.trace_dropped);
    ck_assert_uint_le(number(t.other, "events", "otherData"), 24 * WORKERS);
    check_spans(&t, "small buffer");
    check_members(&t, "small buffer");
    ck_assert_uint_gt(count_spans(&t, "unknown", 0), 0);
    ck_assert_uint_gt(count_instants(&t, "dropped", 0, NULL), 0);
    for (size_t i = 0; i < t.member_count; i++)
        ck_assert_double_le(t.members[i].ts, t.complete_until);
    free_trace(&t);
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
    TU_ASSERT_STATUS(ctx, coop_mega_run(kernel, &params, NULL, 0, &report), COOP_ERR_BUILD, "built with COOP_TRACING");
    ck_assert_int_ne(access(params.trace_file, F_OK), 0);
    coop_kernel_release(kernel);
    coop_program_release(program);
    coop_context_release(ctx);
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
    TU_ASSERT_STATUS(env.ctx, coop_mega_run(env.kernel, &params, NULL, 0, &report), COOP_ERR_IO,
                     "trace '/nonexistent-directory/trace.json': No such file or directory");
    env_close(&env);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *suite = suite_create("trace");
    TCase *runs = tu_tcase("traced runs", 240);
    tcase_add_test(runs, traced_runs_under_chaos);
    tcase_add_test(runs, traced_run_without_chaos);
    tcase_add_test(runs, traced_runs_with_an_agent);
    tcase_add_test(runs, small_buffer_drops_events);
    tcase_add_test(runs, trace_file_from_the_environment);
    suite_add_tcase(suite, runs);
    TCase *errors = tu_tcase("errors", 120);
    tcase_add_test(errors, untraced_runs_have_no_trace_code);
    tcase_add_test(errors, trace_parameter_errors);
    suite_add_tcase(suite, errors);
    return suite;
}

int main(void)
{
    return tu_run(trace_suite());
}
