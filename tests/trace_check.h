/* trace_check.h: reading a libcoop trace file (Chrome trace event JSON, libcoop/src/trace.c)
 * back with jansson, and the checks every trace must pass (header only; link -ljansson). */
#ifndef TRACE_CHECK_H
#define TRACE_CHECK_H

#include "testutil.h"

#include "coop_layout.h"

#include <jansson.h>
#include <math.h>

/* The times in the file have 0.1 ns steps; sums of two of them differ from the report's by less. */
#define TIME_TOLERANCE_US 0.002

typedef struct tc_span {
    double start, end;
    const char *cat;
    long id;                 /* member and parked spans: the virtual id */
    int forked;              /* a member span that a fork started */
    unsigned kernel;         /* several cooperative kernels: the kernel block (args "kernel") */
} tc_span;

typedef struct tc_track {
    tc_span *spans;
    size_t count;
    unsigned barriers[COOP_MAX_KERNELS]; /* barrier instants, by kernel */
} tc_track;

typedef struct tc_change {
    double ts;
    unsigned value;
    unsigned kernel;
} tc_change;

typedef struct tc_trace {
    json_t *root, *other;
    tc_track *tracks;        /* by tid: 0 the host, g + 1 group g */
    size_t track_count;
    tc_change *members;      /* the M counters (several kernels: one each) */
    size_t member_count;
    unsigned kernels;        /* cooperative kernels: otherData's "kernels" entries, or 1 */
    double complete_until;   /* INFINITY when nothing was dropped */
} tc_trace;

static inline json_t *tc_member(json_t *object, const char *key, const char *what)
{
    json_t *value = json_object_get(object, key);
    ck_assert_msg(value != NULL, "%s has no \"%s\"", what, key);
    return value;
}

static inline double tc_number(json_t *object, const char *key, const char *what)
{
    json_t *value = tc_member(object, key, what);
    ck_assert_msg(json_is_number(value), "%s: \"%s\" is not a number", what, key);
    return json_number_value(value);
}

static inline const char *tc_text(json_t *object, const char *key, const char *what)
{
    json_t *value = tc_member(object, key, what);
    ck_assert_msg(json_is_string(value), "%s: \"%s\" is not a string", what, key);
    return json_string_value(value);
}

static inline int tc_by_start(const void *a, const void *b)
{
    const tc_span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static inline int tc_by_time(const void *a, const void *b)
{
    const tc_change *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* An event's kernel block: its args' "kernel", 0 where it has none (a megakernel of one). */
static inline unsigned tc_kernel_of(json_t *args)
{
    json_t *kernel = args ? json_object_get(args, "kernel") : NULL;
    unsigned k = kernel ? (unsigned)json_number_value(kernel) : 0u;
    ck_assert_msg(k < COOP_MAX_KERNELS, "an event of kernel %u", k);
    return k;
}

/* Parses the file (which must be valid JSON in the Chrome trace event format) into tracks. */
static inline tc_trace tc_load(const char *path)
{
    tc_trace t = {0};
    json_error_t error;
    t.root = json_load_file(path, 0, &error);
    ck_assert_msg(t.root != NULL, "%s does not parse: line %d, column %d: %s", path, error.line, error.column,
                  error.text);
    ck_assert(json_is_object(t.root));
    t.other = tc_member(t.root, "otherData", path);
    json_t *events = tc_member(t.root, "traceEvents", path);
    ck_assert(json_is_array(events));
    json_t *complete = tc_member(t.other, "complete_until_us", "otherData");
    t.complete_until = json_is_null(complete) ? INFINITY : json_number_value(complete);
    t.track_count = (size_t)tc_number(t.other, "groups", "otherData") + 1;
    json_t *kernels = json_object_get(t.other, "kernels");
    t.kernels = kernels ? (unsigned)json_array_size(kernels) : 1u;
    t.tracks = calloc(t.track_count, sizeof *t.tracks);
    size_t n = json_array_size(events);
    t.members = calloc(n ? n : 1, sizeof *t.members);
    ck_assert(t.tracks && t.members);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(events, i);
        const char *ph = tc_text(e, "ph", "an event");
        if (!strcmp(ph, "M"))
            continue;
        double ts = tc_number(e, "ts", "an event");
        if (!strcmp(ph, "C")) {
            const char *name = tc_text(e, "name", "a counter");
            unsigned kernel = 0;
            if (!strcmp(name, "M (active members)") ||
                sscanf(name, "M (active members) of kernel %u", &kernel) == 1)
                t.members[t.member_count++] =
                    (tc_change){ts, (unsigned)tc_number(tc_member(e, "args", "a counter"), "members", "its args"),
                                kernel};
            continue;
        }
        size_t tid = (size_t)tc_number(e, "tid", "an event");
        ck_assert_uint_lt(tid, t.track_count);
        tc_track *tr = &t.tracks[tid];
        if (!strcmp(ph, "i") && !strcmp(tc_text(e, "cat", "an instant"), "barrier"))
            tr->barriers[tc_kernel_of(json_object_get(e, "args"))]++;
        if (strcmp(ph, "X") != 0)
            continue;
        double dur = tc_number(e, "dur", "a span");
        ck_assert_msg(dur >= 0, "a span of negative duration at %f", ts);
        json_t *args = tc_member(e, "args", "a span");
        tc_span s = {ts, ts + dur, tc_text(e, "cat", "a span"), -1, json_object_get(args, "forked_at") != NULL,
                     tc_kernel_of(args)};
        if (!strcmp(s.cat, "member") || !strcmp(s.cat, "parked"))
            s.id = (long)tc_number(args, "id", "a member span");
        tr->spans = realloc(tr->spans, (tr->count + 1) * sizeof *tr->spans);
        ck_assert_ptr_nonnull(tr->spans);
        tr->spans[tr->count++] = s;
    }
    for (size_t k = 0; k < t.track_count; k++)
        if (t.tracks[k].count) /* an empty track has no array */
            qsort(t.tracks[k].spans, t.tracks[k].count, sizeof *t.tracks[k].spans, tc_by_start);
    qsort(t.members, t.member_count, sizeof *t.members, tc_by_time);
    return t;
}

static inline void tc_free(tc_trace *t)
{
    for (size_t k = 0; k < t->track_count; k++)
        free(t->tracks[k].spans);
    free(t->tracks);
    free(t->members);
    json_decref(t->root);
}

/* The protocol's role transitions: what a group may do after each role ("" before its first). */
static inline int tc_allowed(const char *from, const char *to)
{
    static const char *const moves[][2] = {
        {"", "member"},           {"", "idle"},              {"", "agent"},
        {"member", "parked"},     {"member", "killed"},      {"member", "idle"},    /* idle: finished */
        {"parked", "member"},     {"parked", "killed"},
        {"killed", "gathering"},  {"killed", "idle"},
        {"idle", "member"},       {"idle", "gathering"},                            /* member: forked */
        {"idle", "idle"},                                               /* moved to another kernel */
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
static inline void tc_check_spans(const tc_trace *t, const char *what)
{
    for (size_t tid = 1; tid < t->track_count; tid++) {
        const tc_track *tr = &t->tracks[tid];
        for (size_t i = 0; i < tr->count; i++) {
            const tc_span *s = &tr->spans[i];
            const char *before = i ? tr->spans[i - 1].cat : "";
            if (i)
                ck_assert_msg(tr->spans[i - 1].end <= s->start + TIME_TOLERANCE_US,
                              "%s: group %zu: span '%s' [%f, %f) overlaps '%s' from %f", what, tid - 1, before,
                              tr->spans[i - 1].start, tr->spans[i - 1].end, s->cat, s->start);
            ck_assert_msg(tc_allowed(before, s->cat), "%s: group %zu goes from '%s' to '%s' at %f us", what, tid - 1,
                          before, s->cat, s->start);
            if (i && !strcmp(before, "idle") && !strcmp(s->cat, "idle"))
                ck_assert_msg(tr->spans[i - 1].kernel != s->kernel,
                              "%s: group %zu: two idle spans in kernel %u meet at %f us (no move between)", what,
                              tid - 1, s->kernel, s->start);
            if (i && strcmp(s->cat, "idle") && strcmp(s->cat, "unknown"))
                ck_assert_msg(tr->spans[i - 1].kernel == s->kernel,
                              "%s: group %zu went from kernel %u's '%s' to kernel %u's '%s' at %f us: only idle "
                              "groups move", what, tid - 1, tr->spans[i - 1].kernel, before, s->kernel, s->cat,
                              s->start);
            if (!strcmp(s->cat, "member"))
                ck_assert_msg(s->forked == !strcmp(before, "idle"),
                              "%s: group %zu: a member span at %f after '%s' %s forked", what, tid - 1, s->start,
                              before, s->forked ? "is" : "is not");
        }
    }
}

static inline int tc_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Kernel `kernel`'s M counter at `ts` (-1 before its first change). */
static inline long tc_m_at(const tc_trace *t, unsigned kernel, double ts)
{
    long m = -1;
    for (size_t k = 0; k < t->member_count && t->members[k].ts <= ts; k++)
        if (t->members[k].kernel == kernel)
            m = t->members[k].value;
    return m;
}

/* Kernel `kernel` (0 in a megakernel of one): between any two moments where something changes,
 * the groups in its member (or parked) spans are as many as its M counter says, each with its
 * own id; and until its first member finished, the ids are 0 .. M-1 (members finish in any
 * order). Returns the moments checked. */
static inline size_t tc_check_kernel_members(const tc_trace *t, unsigned kernel, const char *what)
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
    qsort(times, count, sizeof *times, tc_compare);
    ck_assert_msg(tc_m_at(t, kernel, INFINITY) >= 0, "%s: no M counter for kernel %u", what, kernel);
    double first_finish = INFINITY; /* a member span followed by an idle one: the member finished */
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k + 1 < t->tracks[tid].count; k++)
            if (!strcmp(t->tracks[tid].spans[k].cat, "member") && !strcmp(t->tracks[tid].spans[k + 1].cat, "idle") &&
                t->tracks[tid].spans[k].kernel == kernel && t->tracks[tid].spans[k].end < first_finish)
                first_finish = t->tracks[tid].spans[k].end;
    size_t checked = 0;
    unsigned char *seen = calloc(COOP_MAX_GROUPS, 1);
    ck_assert_ptr_nonnull(seen);
    for (size_t i = 0; i + 1 < count; i++) {
        if (times[i + 1] - times[i] < 2 * TIME_TOLERANCE_US || times[i + 1] > t->complete_until)
            continue;
        double probe = (times[i] + times[i + 1]) / 2;
        long m = tc_m_at(t, kernel, probe);
        if (m < 0)
            continue; /* before discovery closed */
        memset(seen, 0, COOP_MAX_GROUPS);
        long in_spans = 0;
        for (size_t tid = 1; tid < t->track_count; tid++)
            for (size_t k = 0; k < t->tracks[tid].count; k++) {
                const tc_span *s = &t->tracks[tid].spans[k];
                if (s->id >= 0 && s->kernel == kernel && s->start < probe && probe < s->end) {
                    in_spans++;
                    ck_assert_msg(s->id < COOP_MAX_GROUPS && !seen[s->id], "%s: at %f us member id %ld twice", what,
                                  probe, s->id);
                    ck_assert_msg(s->id < m || probe > first_finish, "%s: at %f us member id %ld with M = %ld", what,
                                  probe, s->id, m);
                    seen[s->id] = 1;
                }
            }
        ck_assert_msg(in_spans == m, "%s: at %f us %ld groups are members of kernel %u, its M counter says %ld",
                      what, probe, in_spans, kernel, m);
        checked++;
    }
    /* only the largest members are killed: a killed member's id is at least M right after */
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 1; k < t->tracks[tid].count; k++) {
            const tc_span *s = &t->tracks[tid].spans[k];
            if (strcmp(s->cat, "killed") || s->kernel != kernel || s->start > t->complete_until)
                continue;
            long m = tc_m_at(t, kernel, s->start);
            long id = t->tracks[tid].spans[k - 1].id;
            ck_assert_msg(id >= m, "%s: member %ld killed at %f us, leaving M = %ld", what, id, s->start, m);
        }
    free(seen);
    free(times);
    return checked;
}

/* tc_check_kernel_members for every kernel; returns the moments checked. */
static inline size_t tc_check_members(const tc_trace *t, const char *what)
{
    size_t checked = 0;
    for (unsigned k = 0; k < t->kernels; k++)
        checked += tc_check_kernel_members(t, k, what);
    return checked;
}

static inline unsigned tc_count_spans(const tc_trace *t, const char *cat, int forked_only)
{
    unsigned count = 0;
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k < t->tracks[tid].count; k++)
            count += !strcmp(t->tracks[tid].spans[k].cat, cat) && (!forked_only || t->tracks[tid].spans[k].forked);
    return count;
}

/* Instants of category `cat` whose args' `field` is `value` (field NULL: every
 * one), and the last one's time in *ts (ts may be NULL). */
static inline unsigned tc_count_instants_with(const tc_trace *t, const char *cat, const char *field, unsigned value,
                                              double *ts)
{
    json_t *events = json_object_get(t->root, "traceEvents");
    unsigned count = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        json_t *c = json_object_get(e, "cat");
        if (strcmp(json_string_value(json_object_get(e, "ph")), "i") || !c || strcmp(json_string_value(c), cat))
            continue;
        if (field && (unsigned)tc_number(tc_member(e, "args", cat), field, cat) != value)
            continue;
        count++;
        if (ts)
            *ts = tc_number(e, "ts", cat);
    }
    return count;
}

/* Instants of category `cat`, and (request != 0) their time for that request in *ts. */
static inline unsigned tc_count_instants(const tc_trace *t, const char *cat, unsigned request, double *ts)
{
    return tc_count_instants_with(t, cat, request ? "request" : NULL, request, ts);
}

/* Flow arrows into groups, from request `request`'s time. */
static inline unsigned tc_count_flows(const tc_trace *t, unsigned request)
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

/* The track of kernel `kernel`'s member 0 (0: none). */
static inline size_t tc_member0(const tc_trace *t, unsigned kernel)
{
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k < t->tracks[tid].count; k++)
            if (t->tracks[tid].spans[k].id == 0 && t->tracks[tid].spans[k].kernel == kernel &&
                !strcmp(t->tracks[tid].spans[k].cat, "member"))
                return tid;
    return 0;
}

/* The barriers of kernel `kernel` its member 0 arrived at. */
static inline unsigned tc_member0_barriers(const tc_trace *t, unsigned kernel)
{
    size_t tid = tc_member0(t, kernel);
    return tid ? t->tracks[tid].barriers[kernel] : 0u;
}

/* The trace's counts and task times are the report's. */
static inline void tc_check_report(const tc_trace *t, const coop_mega_report *report, const char *what)
{
    json_t *counts = tc_member(t->other, "report", "otherData");
    ck_assert_uint_eq(tc_number(counts, "kills", what), report->kills);
    ck_assert_uint_eq(tc_number(counts, "forks", what), report->forks);
    ck_assert_uint_eq(tc_number(t->other, "dropped_events", what), report->trace_dropped);
    ck_assert_uint_eq(tc_number(t->other, "events", what), report->trace_events);
    unsigned kills = tc_count_spans(t, "killed", 0), forks = tc_count_spans(t, "member", 1);
    unsigned resizes = tc_count_instants(t, "resize", 0, NULL), tasks = tc_count_instants(t, "done", 0, NULL);
    ck_assert_msg(kills == report->kills && forks == report->forks && resizes == report->resizes &&
                      tasks == report->tasks,
                  "%s: the trace has %u kills, %u forks, %u resizes, %u tasks; the report %u, %u, %u, %u", what, kills,
                  forks, resizes, tasks, report->kills, report->forks, report->resizes, report->tasks);
    /* each kernel's member 0 is never killed or forked: one group's, counting every barrier of
     * its kernel it arrived at (the report sums the kernels') */
    unsigned barriers = 0;
    for (unsigned kernel = 0; kernel < t->kernels; kernel++)
        barriers += tc_member0_barriers(t, kernel);
    ck_assert_msg(barriers == report->barriers, "%s: member 0's track has %u barriers, the report %u", what, barriers,
                  report->barriers);
    unsigned taken = 0;
    for (size_t k = 0; k < report->record_count; k++)
        taken += report->records[k].groups;
    ck_assert_uint_eq(tc_count_spans(t, "gathering", 0), taken);
    for (size_t k = 0; k < report->record_count; k++) {
        const coop_task_record *r = &report->records[k];
        unsigned request = (unsigned)k + 1;
        double requested = 0, gathered = 0, done = 0;
        ck_assert_uint_eq(tc_count_instants(t, "request", request, &requested), 1);
        ck_assert_uint_eq(tc_count_instants(t, "gathered", request, &gathered), 1);
        ck_assert_uint_eq(tc_count_instants(t, "done", request, &done), 1);
        ck_assert_int_eq(r->device_timed, 1);
        ck_assert_msg(fabs(gathered - requested - r->gather_us) < TIME_TOLERANCE_US &&
                          fabs(done - gathered - r->exec_us) < TIME_TOLERANCE_US,
                      "%s: task %zu: gather %.4f us and execution %.4f us in the trace, %.4f and %.4f in the report",
                      what, k, gathered - requested, done - gathered, r->gather_us, r->exec_us);
        ck_assert_msg(tc_count_flows(t, request) == r->groups, "%s: task %zu took %u groups, the trace has %u arrows",
                      what, k, r->groups, tc_count_flows(t, request));
    }
}

/* R1 in kernel `kernel`: only its member 0 decides a resize, and at most once per resizing
 * barrier: every resize instant of the kernel is on member 0's track, and between it and the
 * kernel's barrier instant before it there is no other resize and that barrier was a resizing one. (A group's instants are in the file in the
 * order it recorded them; member 0 records a barrier after its wait, its resize after that.)
 * Returns the resizes seen. */
static inline unsigned tc_check_kernel_resizes(const tc_trace *t, unsigned kernel, const char *what)
{
    size_t member0 = tc_member0(t, kernel);
    json_t *events = json_object_get(t->root, "traceEvents");
    long barrier = -1;     /* member 0's last barrier, or -1 before its first */
    int may_resize = 0;    /* that barrier was a resizing one, and no resize followed it yet */
    unsigned resizes = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        json_t *c = json_object_get(e, "cat");
        if (strcmp(json_string_value(json_object_get(e, "ph")), "i") || !c)
            continue;
        size_t tid = (size_t)tc_number(e, "tid", "an instant");
        if (tc_kernel_of(json_object_get(e, "args")) != kernel)
            continue;
        if (!strcmp(json_string_value(c), "barrier") && tid == member0) {
            json_t *args = tc_member(e, "args", "a barrier");
            barrier = (long)tc_number(args, "barrier", "a barrier");
            may_resize = json_is_true(tc_member(args, "resizing", "a barrier"));
        } else if (!strcmp(json_string_value(c), "resize")) {
            double ts = tc_number(e, "ts", "a resize");
            ck_assert_msg(tid == member0, "%s: a resize at %f us on group %zu's track; member 0 is group %zu", what,
                          ts, tid - 1, member0 - 1);
            ck_assert_msg(may_resize, "%s: a resize at %f us after barrier %ld, which %s", what, ts, barrier,
                          barrier < 0 ? "member 0 had not reached" : "was not resizing or had its resize already");
            may_resize = 0;
            resizes++;
        }
    }
    return resizes;
}

/* R1 in every kernel (tc_check_kernel_resizes); returns the resizes seen. */
static inline unsigned tc_check_resizes(const tc_trace *t, const char *what)
{
    unsigned resizes = 0;
    for (unsigned k = 0; k < t->kernels; k++)
        resizes += tc_check_kernel_resizes(t, k, what);
    return resizes;
}

/* The report a file holds: otherData's counts, and a record per task (the host's task spans,
 * by request) in records[0 .. max-1]. */
static inline coop_mega_report tc_report_of(const tc_trace *t, coop_task_record *records, size_t max,
                                            const char *what)
{
    json_t *counts = tc_member(t->other, "report", "otherData");
    coop_mega_report report = {
        .kills = (unsigned)tc_number(counts, "kills", what), .forks = (unsigned)tc_number(counts, "forks", what),
        .resizes = (unsigned)tc_number(counts, "resizes", what), .tasks = (unsigned)tc_number(counts, "tasks", what),
        .barriers = (unsigned)tc_number(counts, "barriers", what), .records = records,
        .trace_events = (unsigned long)tc_number(t->other, "events", what),
        .trace_dropped = (unsigned long)tc_number(t->other, "dropped_events", what)};
    json_t *events = json_object_get(t->root, "traceEvents");
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        json_t *c = json_object_get(e, "cat");
        if (strcmp(json_string_value(json_object_get(e, "ph")), "X") || !c || strcmp(json_string_value(c), "task") ||
            tc_number(e, "tid", what) != 0)
            continue;
        json_t *args = tc_member(e, "args", "a task span");
        size_t k = (size_t)tc_number(args, "request", "a task span") - 1;
        ck_assert_msg(k < max, "%s: request %zu, more than %zu", what, k + 1, max);
        records[k] = (coop_task_record){
            .plan = (unsigned)tc_number(args, "plan", what), .groups = (unsigned)tc_number(args, "groups", what),
            .gather_us = tc_number(args, "gather_us", what), .exec_us = tc_number(args, "exec_us", what),
            .response_us = tc_number(args, "response_us", what),
            .deadline_met = json_is_true(tc_member(args, "deadline_met", what)),
            .device_timed = json_is_true(tc_member(args, "device_timed", what))};
        report.record_count = k + 1 > report.record_count ? k + 1 : report.record_count;
    }
    return report;
}

/* Spans of category `cat` in kernel `kernel` (forked_only: member spans a fork started). */
static inline unsigned tc_count_kernel_spans(const tc_trace *t, unsigned kernel, const char *cat, int forked_only)
{
    unsigned count = 0;
    for (size_t tid = 1; tid < t->track_count; tid++)
        for (size_t k = 0; k < t->tracks[tid].count; k++) {
            const tc_span *s = &t->tracks[tid].spans[k];
            count += s->kernel == kernel && !strcmp(s->cat, cat) && (!forked_only || s->forked);
        }
    return count;
}

/* Several cooperative kernels: each kernel's part of the trace is what its coop_kernel_report
 * says: its members at the start (member spans from time 0), kills (killed spans in its block),
 * forks (member spans a fork started), resizes, its member 0's barriers, the groups that moved
 * out of and into its block (move instants), and otherData's "kernels" entry holds its figures. */
static inline void tc_check_kernels(const tc_trace *t, const coop_kernel_report *reports, unsigned count,
                                    const char *what)
{
    ck_assert_msg(t->kernels == count, "%s: the trace has %u kernels, the run %u", what, t->kernels, count);
    json_t *entries = tc_member(t->other, "kernels", "otherData");
    for (unsigned k = 0; k < count; k++) {
        const coop_kernel_report *r = &reports[k];
        unsigned starting = 0;
        for (size_t tid = 1; tid < t->track_count; tid++)
            starting += t->tracks[tid].count && t->tracks[tid].spans[0].start == 0.0 &&
                        t->tracks[tid].spans[0].kernel == k && !strcmp(t->tracks[tid].spans[0].cat, "member");
        unsigned kills = tc_count_kernel_spans(t, k, "killed", 0), forks = tc_count_kernel_spans(t, k, "member", 1);
        unsigned out = tc_count_instants_with(t, "move", "from", k, NULL),
                 in = tc_count_instants_with(t, "move", "to", k, NULL);
        unsigned resizes = tc_count_instants_with(t, "resize", "kernel", k, NULL), barriers = tc_member0_barriers(t, k);
        ck_assert_msg(starting == r->members_start && kills == r->kills && forks == r->forks && out == r->moved_out &&
                          in == r->moved_in && resizes == r->resizes && barriers == r->barriers,
                      "%s: kernel %u: the trace has %u members at the start, %u kills, %u forks, %u groups moved "
                      "out and %u in, %u resizes, %u barriers of member 0; the report %u, %u, %u, %u, %u, %u, %u",
                      what, k, starting, kills, forks, out, in, resizes, barriers, r->members_start, r->kills,
                      r->forks, r->moved_out, r->moved_in, r->resizes, r->barriers);
        json_t *entry = json_array_get(entries, k);
        ck_assert_msg(entry && (unsigned)tc_number(entry, "kernel", what) == k &&
                          (unsigned)tc_number(entry, "kills", what) == r->kills &&
                          (unsigned)tc_number(entry, "moved_in", what) == r->moved_in &&
                          fabs(tc_number(entry, "group_ms", what) - r->group_ms) < 1e-3,
                      "%s: otherData.kernels[%u] is not kernel %u's report", what, k, k);
    }
}

/* Kernel k's report as otherData's "kernels" holds it (a trace a program wrote). */
static inline coop_kernel_report tc_kernel_report_of(const tc_trace *t, unsigned k, const char *what)
{
    json_t *entry = json_array_get(tc_member(t->other, "kernels", "otherData"), k);
    ck_assert_msg(entry != NULL, "%s: otherData.kernels has no entry %u", what, k);
    return (coop_kernel_report){
        .members_start = (unsigned)tc_number(entry, "members_start", what),
        .members_max = (unsigned)tc_number(entry, "members_max", what),
        .group_ms = tc_number(entry, "group_ms", what), .mean_members = tc_number(entry, "mean_members", what),
        .finish_ms = tc_number(entry, "finish_ms", what), .kills = (unsigned)tc_number(entry, "kills", what),
        .forks = (unsigned)tc_number(entry, "forks", what), .resizes = (unsigned)tc_number(entry, "resizes", what),
        .barriers = (unsigned)tc_number(entry, "barriers", what),
        .moved_in = (unsigned)tc_number(entry, "moved_in", what),
        .moved_out = (unsigned)tc_number(entry, "moved_out", what),
        .moves_asked = (unsigned)tc_number(entry, "moves_asked", what),
        .share_kills = (unsigned)tc_number(entry, "share_kills", what),
        .group_all_ms = tc_number(entry, "group_all_ms", what)};
}

/* Everything about one complete trace (nothing dropped): it parses, passes the checks above and
 * agrees with `report`, or (NULL) with the report the file holds: counts, and each task's groups,
 * gather and execution times. */
static inline void tc_check_complete(const char *path, const coop_mega_report *report, const char *what)
{
    enum { MAX_TASKS = 1 << 16 };
    tc_trace t = tc_load(path);
    json_t *early = json_object_get(t.other, "ended_early");
    ck_assert_msg(!early || json_is_null(early), "%s: the run ended early (%s): not a complete run's trace", what,
                  early ? json_string_value(json_object_get(early, "message")) : "");
    ck_assert_msg(isinf(t.complete_until), "%s: events were dropped", what);
    tc_check_spans(&t, what);
    ck_assert_uint_gt(tc_check_members(&t, what), 0);
    coop_task_record *records = NULL;
    coop_mega_report held;
    if (!report) {
        records = calloc(MAX_TASKS, sizeof *records);
        ck_assert_ptr_nonnull(records);
        held = tc_report_of(&t, records, MAX_TASKS, what);
        report = &held;
    }
    tc_check_report(&t, report, what);
    ck_assert_uint_eq(tc_check_resizes(&t, what), report->resizes);
    free(records);
    tc_free(&t);
}

/* A complete trace a program wrote (--trace), against the report it holds. */
static inline void tc_check_file(const char *path, const char *what)
{
    tc_check_complete(path, NULL, what);
}

#endif
