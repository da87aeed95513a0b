/* Trace mode, host side: reads the groups' event buffers after a traced megakernel run, puts them
 * and the host's own events (task requests, completions, deadlines) on one time base, turns them
 * into role spans, and writes the Chrome trace event format (JSON) that Perfetto and
 * chrome://tracing open (README, "Traces"). The device side is coop_device/trace.h and the code
 * under COOP_TRACING in the other coop_device/ files; the layout of the buffers is coop_layout.h's
 * "Trace mode". */
#include "trace.h"

#include "json_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HOST_TSC 1
#else
#define HOST_TSC 0
#endif

/* ---- Clock ---------------------------------------------------------------------------------- */

coop_status coop_trace_open(coop_context *ctx, const char *path, unsigned capacity, coop_trace *trace)
{
    memset(trace, 0, sizeof *trace);
    trace->path = path;
    trace->capacity = capacity;
    const coop_device_info *info = &ctx->info;
    if (info->target == COOP_TARGET_NVIDIA) {
        trace->us_per_tick = 1e-3; /* %globaltimer counts nanoseconds */
    } else if (info->target == COOP_TARGET_POCL && !info->is_gpu && HOST_TSC) {
        /* PoCL's CPU device runs the groups on this machine's cores, whose time-stamp counter the
         * kernels read (__builtin_readcyclecounter): its rate comes from the run's own length */
        trace->tsc = 1;
    } else {
        return coop_fail(ctx, COOP_ERR_DEVICE_UNSUPPORTED,
                         "coop_mega_run: trace '%s': device '%s' (target %s) has no clock libcoop can trace with "
                         "(NVIDIA's %%globaltimer, or PoCL's CPU device on an x86-64 host)",
                         path, info->name, coop_target_name(info->target));
    }
    int error = coop_outfile_open(&trace->file, path);
    if (error == ENOMEM)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "trace '%s': out of memory", path);
    char reason[256];
    if (error)
        return coop_fail(ctx, COOP_ERR_IO, "trace '%s': %s", path,
                         coop_outfile_reason(&trace->file, error, reason, sizeof reason));
    trace->out = trace->file.stream;
    trace->start_us = coop_now_us();
    trace->start_ticks = coop_trace_host_ticks(trace);
    return COOP_OK;
}

void coop_trace_discard(coop_trace *trace)
{
    if (!trace->out)
        return;
    coop_outfile_abandon(&trace->file);
    trace->out = NULL;
}

uint64_t coop_trace_host_ticks(const coop_trace *trace)
{
#if HOST_TSC
    return trace->tsc ? (uint64_t)__rdtsc() : 0;
#else
    (void)trace;
    return 0;
#endif
}

void coop_trace_stop_clock(coop_trace *trace)
{
    if (!trace->tsc)
        return;
    trace->end_us = coop_now_us();
    trace->end_ticks = coop_trace_host_ticks(trace);
    if (trace->end_ticks > trace->start_ticks && trace->end_us > trace->start_us)
        trace->us_per_tick = (trace->end_us - trace->start_us) / (double)(trace->end_ticks - trace->start_ticks);
}

/* ---- Reading the buffers ----------------------------------------------------------------- */

typedef struct event {
    uint64_t tick;
    unsigned kind, a, b;
    unsigned block;            /* the kernel block the group was in */
    double ts;                 /* us since T0, after clamping to the group's previous event */
} event;

typedef struct group_events {
    event *events;
    unsigned kept;             /* events in the buffer */
    unsigned recorded;         /* events the group recorded, kept or not */
} group_events;

/* The time base: device ticks since T0 as microseconds, host microseconds likewise. */
typedef struct time_base {
    uint64_t t0;               /* device ticks at T0 */
    double us_per_tick;
    double t0_host_us;         /* the host's time at T0 */
    double uncertainty_us;     /* half the width of the interval t0_host_us was taken from */
} time_base;

static double device_ts(const time_base *base, uint64_t tick)
{
    return tick >= base->t0 ? (double)(tick - base->t0) * base->us_per_tick
                            : -(double)(base->t0 - tick) * base->us_per_tick;
}

static double host_ts(const time_base *base, double host_us)
{
    return host_us - base->t0_host_us;
}

/* Where T0 lies on the host's clock. With the time-stamp counter, exactly. With NVIDIA's clock,
 * between bounds: the leader read T0 after the host wrote the close and before the host saw its
 * count of groups; a request took its device time after the host sent it; a task's device done
 * came before the host saw it done. */
static void find_time_base(const coop_trace *trace, const coop_running *run, const coop_trace_task *tasks,
                           size_t task_count, time_base *base)
{
    base->us_per_tick = trace->us_per_tick;
    if (trace->tsc) {
        base->t0_host_us = trace->start_us + (double)((int64_t)(base->t0 - trace->start_ticks)) * base->us_per_tick;
        base->uncertainty_us = 0.0;
        return;
    }
    double low = run->closing_us, high = run->acknowledged_us;
    for (size_t k = 0; k < task_count; k++) {
        const coop_trace_task *t = &tasks[k];
        if (!t->request_tick || !t->done_tick)
            continue;
        double request_since_t0 = device_ts(base, t->request_tick), done_since_t0 = device_ts(base, t->done_tick);
        if (t->sent_us - request_since_t0 > low)
            low = t->sent_us - request_since_t0;
        if (t->done_us - done_since_t0 < high)
            high = t->done_us - done_since_t0;
    }
    base->t0_host_us = (low + high) / 2.0;
    base->uncertainty_us = fabs(high - low) / 2.0;
}

/* How long a read of the trace area beside a kernel that still runs may take: a device that
 * serves none (PoCL with every worker thread in one of the kernel's groups) never does. */
#define BESIDE_READ_LIMIT_US 2e6

/* Reads the trace area of `groups` groups back from the device area: once the kernel has ended,
 * through its own queue; while it still runs (a run that failed), through the side queue, which
 * the device may serve beside the kernel, within BESIDE_READ_LIMIT_US. */
static coop_status read_events(coop_context *ctx, const coop_trace *trace, coop_running *run, uint32_t **area)
{
    unsigned kernels = trace->kernels > 1 ? trace->kernels : 1;
    size_t words = coop_trace_area_words(kernels, run->groups, trace->capacity);
    *area = malloc(words * sizeof **area);
    if (!*area)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "trace '%s': out of memory reading %zu MiB of events", trace->path,
                         words * sizeof **area >> 20);
    coop_status ended_status = COOP_OK;
    int running = run->event && !coop_launch_ended(run, &ended_status);
    cl_event done = NULL;
    cl_int err = clEnqueueReadBuffer(running ? ctx->side_queue : ctx->queue, ctx->dev_area, running ? CL_FALSE : CL_TRUE,
                                     (size_t)kernels * COOP_DEV_WORDS * sizeof(uint32_t), words * sizeof(uint32_t),
                                     *area, 0, NULL,
                                     running ? &done : NULL);
    if (err == CL_SUCCESS && running) {
        clFlush(ctx->side_queue);
        double asked_us = coop_now_us();
        cl_int state = CL_QUEUED;
        while (clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL) == CL_SUCCESS &&
               state > CL_COMPLETE && coop_now_us() - asked_us < BESIDE_READ_LIMIT_US)
            coop_poll_pause(ctx, 20, 1000);
        clReleaseEvent(done);
        if (state > CL_COMPLETE) {
            *area = NULL; /* the read may still land in it */
            return coop_fail(ctx, COOP_ERR_TIMEOUT,
                             "trace '%s': the device ran no read of the trace buffers beside the kernel, which still "
                             "runs, within %.0f s", trace->path, BESIDE_READ_LIMIT_US / 1e6);
        }
        if (state < 0)
            err = state;
    }
    if (err != CL_SUCCESS) {
        free(*area);
        *area = NULL;
        return coop_fail_cl(ctx, err, "reading the trace buffers");
    }
    return COOP_OK;
}

/* Events whose time comes from the members' word (coop_trace_members) or T0, the same for
 * every group, rather than from the recording group's own clock read. */
static int shared_time(unsigned kind)
{
    return kind == COOP_EV_START || kind == COOP_EV_INIT || kind == COOP_EV_MEMBERS || kind == COOP_EV_KILLED ||
           kind == COOP_EV_FINISHED || kind == COOP_EV_FORKED;
}

static uint64_t word64(const uint32_t *word)
{
    return COOP_JOIN_HALVES(word[0], word[1]);
}

/* ---- Writing JSON ---------------------------------------------------------------------------- */

typedef struct writer {
    FILE *out;
    int first;                 /* no event written yet */
    unsigned long flows;
    const coop_trace *trace;   /* several kernels: their names */
} writer;

/* Several kernels: the events of a group say which kernel it served, in their args and names. */
static int several(const writer *w)
{
    return w->trace->kernels > 1;
}

/* `args` with the kernel block appended (several kernels). */
static const char *with_kernel(const writer *w, char *args, size_t size, unsigned block)
{
    size_t length = strlen(args);
    if (several(w) && length + 1 < size)
        snprintf(args + length, size - length, "%s\"kernel\":%u", length ? "," : "", block);
    return args;
}

/* Microseconds with 0.1 ns: distinct ticks of a time-stamp counter stay distinct. */
static void json_time(FILE *out, double us)
{
    fprintf(out, "%.4f", us);
}

static double rounded(double us)
{
    return round(us * 1e4) / 1e4;
}

/* Starts an event: {"ph":PH,"pid":1,"tid":TID,"ts":TS ... (the caller adds the rest and "}"). */
static void begin_event(writer *w, const char *ph, unsigned tid, double ts)
{
    fprintf(w->out, "%s\n{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":", w->first ? "" : ",", ph, tid);
    json_time(w->out, ts);
    w->first = 0;
}

/* A span [start, end): its duration is the difference of the rounded ends, so that spans that
 * meet in time meet in the file too. */
static void span(writer *w, unsigned tid, double start, double end, const char *cat, const char *name,
                 const char *args)
{
    begin_event(w, "X", tid, start);
    fprintf(w->out, ",\"dur\":");
    json_time(w->out, rounded(end) - rounded(start) > 0 ? rounded(end) - rounded(start) : 0.0);
    fprintf(w->out, ",\"cat\":\"%s\",\"name\":", cat);
    coop_json_text(w->out, name);
    fprintf(w->out, ",\"args\":{%s}}", args ? args : "");
}

static void instant(writer *w, unsigned tid, double ts, const char *cat, const char *name, const char *args)
{
    begin_event(w, "i", tid, ts);
    fprintf(w->out, ",\"s\":\"t\",\"cat\":\"%s\",\"name\":", cat);
    coop_json_text(w->out, name);
    fprintf(w->out, ",\"args\":{%s}}", args ? args : "");
}

static void counter(writer *w, double ts, const char *name, const char *field, unsigned value)
{
    begin_event(w, "C", 0, ts);
    fprintf(w->out, ",\"name\":");
    coop_json_text(w->out, name);
    fprintf(w->out, ",\"args\":{\"%s\":%u}}", field, value);
}

/* Several kernels: otherData's "kernels", each one's name, weight and report. */
static void write_kernels(FILE *out, const coop_trace *trace)
{
    fprintf(out, ",\"kernels\":[");
    for (unsigned k = 0; k < trace->kernels; k++) {
        const coop_kernel_report *r = &trace->kernel_reports[k];
        fprintf(out, "%s{\"kernel\":%u,\"name\":", k ? "," : "", k);
        coop_json_text(out, trace->kernel_names[k]);
        fprintf(out, ",\"weight\":%u,\"members_start\":%u,\"members_max\":%u,\"group_ms\":%.4f,"
                "\"mean_members\":%.4f,\"finish_ms\":%.4f,\"kills\":%u,\"forks\":%u,\"resizes\":%u,"
                "\"barriers\":%u,\"moved_in\":%u,\"moved_out\":%u,\"moves_asked\":%u,\"share_kills\":%u,"
                "\"group_all_ms\":%.4f}",
                trace->weights[k], r->members_start, r->members_max, r->group_ms, r->mean_members, r->finish_ms,
                r->kills, r->forks, r->resizes, r->barriers, r->moved_in, r->moved_out, r->moves_asked,
                r->share_kills, r->group_all_ms);
    }
    fputc(']', out);
}

/* A flow arrow from (from_tid, from_ts) to the span enclosing (to_tid, to_ts). */
static void flow(writer *w, unsigned from_tid, double from_ts, unsigned to_tid, double to_ts, const char *name)
{
    unsigned long id = ++w->flows;
    begin_event(w, "s", from_tid, from_ts);
    fprintf(w->out, ",\"id\":%lu,\"cat\":\"take\",\"name\":", id);
    coop_json_text(w->out, name);
    fputc('}', w->out);
    begin_event(w, "f", to_tid, to_ts);
    fprintf(w->out, ",\"bp\":\"e\",\"id\":%lu,\"cat\":\"take\",\"name\":", id);
    coop_json_text(w->out, name);
    fputc('}', w->out);
}

static void thread_name(writer *w, unsigned tid, const char *name)
{
    fprintf(w->out, "%s\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":",
            w->first ? "" : ",", tid);
    coop_json_text(w->out, name);
    fprintf(w->out, "}},\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":"
            "{\"sort_index\":%u}}", tid, tid);
    w->first = 0;
}

/* ---- Role spans ------------------------------------------------------------------------------ */

/* What a group does between two of its events. */
typedef enum role {
    ROLE_NONE = 0,
    ROLE_MEMBER,       /* runs the cooperative kernel */
    ROLE_PARKED,       /* a member waiting at its offer_kill to be killed */
    ROLE_KILLED,       /* killed, not yet in a task or the pool */
    ROLE_IDLE,
    ROLE_GATHERING,    /* joined a task, waiting for its other groups */
    ROLE_TASK,         /* runs a task workgroup */
    ROLE_AGENT,
    ROLE_UNKNOWN       /* after the group's buffer filled */
} role;

static const char *const role_cats[] = {"", "member", "parked", "killed", "idle", "gathering", "task", "agent",
                                        "unknown"};

static const char *killed_how(unsigned how)
{
    switch (how) {
    case COOP_KILLED_CHAOS: return "chaos";
    case COOP_KILLED_SWEEP: return "sweep";
    case COOP_KILLED_SWEPT: return "swept";
    case COOP_KILLED_RESIZE: return "resize";
    default: return "?";
    }
}

/* A group's current role and what names it. */
typedef struct role_state {
    role now;
    double since;
    unsigned id, forked, point, how, request, task, workgroup;
    unsigned block;            /* the kernel block the role is in */
} role_state;

/* Idle spans of every group, for the idle counter. */
typedef struct interval {
    double start, end;
} interval;

typedef struct intervals {
    interval *items;
    size_t count, capacity;
} intervals;

/* A growing array's items with room for one more of `size` bytes (the same block, or a larger
 * one: *capacity then grows); NULL when out of memory, the array left as it was. */
static void *reserve(void *items, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return items;
    size_t more = *capacity ? 2 * *capacity : 256;
    void *grown = realloc(items, more * size);
    if (grown)
        *capacity = more;
    return grown;
}

static int add_interval(intervals *list, double start, double end)
{
    interval *items = reserve(list->items, &list->capacity, list->count, sizeof *items);
    if (!items)
        return -1;
    list->items = items;
    list->items[list->count++] = (interval){start, end};
    return 0;
}

/* Ends the current role's span at `end` (writing it) and starts `next` there, in kernel block
 * `block`. */
static int change_role(writer *w, unsigned tid, role_state *state, role next, double end, unsigned block,
                       intervals *idle)
{
    if (state->now != ROLE_NONE) {
        char name[64], args[192], named[160];
        args[0] = '\0';
        switch (state->now) {
        case ROLE_MEMBER:
            snprintf(name, sizeof name, "member %u", state->id);
            if (state->forked)
                snprintf(args, sizeof args, "\"id\":%u,\"forked_at\":%u", state->id, state->point);
            else
                snprintf(args, sizeof args, "\"id\":%u", state->id);
            break;
        case ROLE_PARKED:
            snprintf(name, sizeof name, "parked %u", state->id);
            snprintf(args, sizeof args, "\"id\":%u", state->id);
            break;
        case ROLE_KILLED:
            snprintf(name, sizeof name, "killed (%s)", killed_how(state->how));
            snprintf(args, sizeof args, "\"id\":%u,\"how\":\"%s\"", state->id, killed_how(state->how));
            break;
        case ROLE_GATHERING:
            snprintf(name, sizeof name, "joined request %u", state->request);
            snprintf(args, sizeof args, "\"request\":%u", state->request);
            break;
        case ROLE_TASK:
            snprintf(name, sizeof name, "task %u", state->task);
            snprintf(args, sizeof args, "\"task\":%u,\"workgroup\":%u,\"request\":%u", state->task, state->workgroup,
                     state->request);
            break;
        case ROLE_UNKNOWN:
            snprintf(name, sizeof name, "events dropped");
            break;
        default:
            snprintf(name, sizeof name, "%s", role_cats[state->now]);
        }
        if (several(w) && state->now != ROLE_AGENT && state->now != ROLE_UNKNOWN) {
            /* the kernel's name first: "bfs member 3", "sssp idle", "bfs task 0" */
            snprintf(named, sizeof named, "%s %s", w->trace->kernel_names[state->block], name);
        } else {
            snprintf(named, sizeof named, "%s", name);
        }
        span(w, tid, state->since, end, role_cats[state->now], named, with_kernel(w, args, sizeof args, state->block));
        if (state->now == ROLE_IDLE && add_interval(idle, state->since, end) != 0)
            return -1;
        if (state->now == ROLE_MEMBER)
            state->forked = 0; /* only the span the fork started says so */
    }
    state->now = next;
    state->since = end;
    state->block = block;
    return 0;
}

/* Counter changes: (time, value) pairs. */
typedef struct sample {
    double ts;
    unsigned value;
} sample;

typedef struct samples {
    sample *items;
    size_t count, capacity;
} samples;

static int add_sample(samples *list, double ts, unsigned value)
{
    sample *items = reserve(list->items, &list->capacity, list->count, sizeof *items);
    if (!items)
        return -1;
    list->items = items;
    list->items[list->count++] = (sample){ts, value};
    return 0;
}

static int by_time(const void *a, const void *b)
{
    double x = ((const sample *)a)->ts, y = ((const sample *)b)->ts;
    return (x > y) - (x < y);
}

/* The task run of the request a kernel's event names (its sequence number, as far as an event's
 * a holds it) in the host's list; NULL if the host has no record of it. A run the agent spawned
 * itself has COOP_SPAWN_SEQ_BIT in its number, which an event's a cannot hold: not matched. */
static const coop_trace_task *find_task(const coop_trace_task *tasks, size_t count, unsigned seq)
{
    for (size_t k = 0; k < count; k++)
        if (!(tasks[k].seq & COOP_SPAWN_SEQ_BIT) && COOP_EVENT_A(tasks[k].seq) == seq)
            return &tasks[k];
    return NULL;
}

/* The run number of the request an event names (its sequence number where the host has no record). */
static unsigned run_number(const coop_trace_task *tasks, size_t count, unsigned seq)
{
    const coop_trace_task *t = find_task(tasks, count, seq);
    return t ? t->request : seq;
}

/* Everything one group recorded: its role spans, barriers and scheduler events, and an arrow
 * from each task request it joined; the member counter's changes go to `members`, its idle spans
 * to `idle`. A group whose buffer filled ends in an "unknown" span until `end_ts`. */
static int write_group(writer *w, unsigned g, const group_events *ge, const time_base *base, double end_ts,
                       int direct, const coop_trace_task *tasks, size_t task_count, samples *members,
                       intervals *idle)
{
    unsigned tid = g + 1;
    role_state state = {0};
    char name[96], args[192];
    int exited = 0;
    for (unsigned i = 0; i < ge->kept; i++) {
        const event *e = &ge->events[i];
        double ts = e->ts;
        int failed = 0;
        switch (e->kind) {
        case COOP_EV_START:
            state.id = e->b;
            failed = change_role(w, tid, &state, e->a == COOP_ROLE_COOP ? ROLE_MEMBER
                                                 : e->a == COOP_ROLE_AGENT ? ROLE_AGENT
                                                                           : ROLE_IDLE, ts, e->block, idle);
            break;
        case COOP_EV_INIT:
            /* one kernel's count at T0; several kernels' are their START events' (write_trace) */
            if (!several(w))
                failed = add_sample(&members[0], ts, e->a);
            break;
        case COOP_EV_PARK:
            failed = change_role(w, tid, &state, ROLE_PARKED, ts, e->block, idle);
            break;
        case COOP_EV_UNPARK:
            failed = change_role(w, tid, &state, ROLE_MEMBER, ts, e->block, idle);
            break;
        case COOP_EV_KILLED:
            failed = change_role(w, tid, &state, ROLE_KILLED, ts, e->block, idle);
            state.how = e->a;
            break;
        case COOP_EV_FINISHED:
            failed = change_role(w, tid, &state, ROLE_IDLE, ts, e->block, idle);
            break;
        case COOP_EV_FORKED:
            failed = change_role(w, tid, &state, ROLE_MEMBER, ts, e->block, idle);
            state.id = e->b;
            state.forked = 1;
            state.point = COOP_EVENT_BARRIER_NUMBER(e->a);
            break;
        case COOP_EV_IDLE:
        case COOP_EV_LEAVE:
            if (state.now != ROLE_IDLE)
                failed = change_role(w, tid, &state, ROLE_IDLE, ts, e->block, idle);
            break;
        case COOP_EV_JOIN: {
            failed = change_role(w, tid, &state, ROLE_GATHERING, ts, e->block, idle);
            state.request = run_number(tasks, task_count, e->a);
            /* the arrow from the request to this group: from the device's request time, on the
             * agent's track or the host's */
            const coop_trace_task *t = find_task(tasks, task_count, e->a);
            if (t && t->request_tick) {
                snprintf(name, sizeof name, "request %u", t->request);
                flow(w, direct ? 0 : t->agent_tid, device_ts(base, t->request_tick), tid, ts, name);
            }
            break;
        }
        case COOP_EV_TASK:
            failed = change_role(w, tid, &state, ROLE_TASK, ts, e->block, idle);
            state.task = e->a;
            state.workgroup = e->b;
            break;
        case COOP_EV_EXIT:
            failed = change_role(w, tid, &state, ROLE_NONE, ts, e->block, idle);
            exited = 1;
            break;
        case COOP_EV_BARRIER:
            snprintf(name, sizeof name, "barrier %u", COOP_EVENT_BARRIER_NUMBER(e->a));
            snprintf(args, sizeof args, "\"barrier\":%u,\"resizing\":%s,\"wait_us\":%.4f",
                     COOP_EVENT_BARRIER_NUMBER(e->a), e->a & COOP_TRACE_RESIZING ? "true" : "false",
                     e->b * base->us_per_tick);
            instant(w, tid, ts, "barrier", name, with_kernel(w, args, sizeof args, e->block));
            break;
        case COOP_EV_MEMBERS:
            failed = add_sample(&members[e->block], ts, e->a);
            break;
        case COOP_EV_MOVED:
            failed = change_role(w, tid, &state, ROLE_IDLE, ts, e->block, idle);
            snprintf(name, sizeof name, "moved to %s", w->trace->kernel_names[e->block]);
            snprintf(args, sizeof args, "\"from\":%u,\"to\":%u", e->a, e->block);
            instant(w, tid, ts, "move", name, args);
            break;
        case COOP_EV_FORK:
            snprintf(name, sizeof name, "fork %u", e->a);
            snprintf(args, sizeof args, "\"groups\":%u,\"first_id\":%u", e->a, e->b);
            instant(w, tid, ts, "fork", name, with_kernel(w, args, sizeof args, e->block));
            break;
        case COOP_EV_RESIZE:
            snprintf(args, sizeof args, "\"members\":%u,\"kills\":%u,\"forked\":%u", e->a,
                     COOP_EVENT_RESIZE_KILLS(e->b), COOP_EVENT_RESIZE_FORKED(e->b));
            instant(w, tid, ts, "resize", "resize", with_kernel(w, args, sizeof args, e->block));
            break;
        case COOP_EV_REQUEST:
        case COOP_EV_GATHERED:
        case COOP_EV_DONE: {
            const char *cat = e->kind == COOP_EV_REQUEST ? "request" : e->kind == COOP_EV_GATHERED ? "gathered" : "done";
            unsigned number = run_number(tasks, task_count, e->a);
            snprintf(name, sizeof name, "%s %u", cat, number);
            snprintf(args, sizeof args, "\"request\":%u", number);
            instant(w, tid, ts, cat, name, with_kernel(w, args, sizeof args, e->block));
            break;
        }
        default:
            break;
        }
        if (failed)
            return -1;
    }
    if (ge->recorded > ge->kept) {
        double last = ge->kept ? ge->events[ge->kept - 1].ts : 0.0;
        if (change_role(w, tid, &state, ROLE_UNKNOWN, last, state.block, idle) != 0 ||
            change_role(w, tid, &state, ROLE_NONE, end_ts > last ? end_ts : last, state.block, idle) != 0)
            return -1;
        snprintf(name, sizeof name, "%u events dropped", ge->recorded - ge->kept);
        snprintf(args, sizeof args, "\"dropped\":%u", ge->recorded - ge->kept);
        instant(w, tid, last, "dropped", name, args);
    } else if (!exited && state.now != ROLE_NONE) {
        if (change_role(w, tid, &state, ROLE_NONE, end_ts, state.block, idle) != 0)
            return -1;
    }
    return 0;
}

/* The idle counter, from every group's idle spans, up to `until`. */
static int write_idle_counter(writer *w, const intervals *idle, double until)
{
    samples changes = {0};
    for (size_t i = 0; i < idle->count; i++) {
        if (add_sample(&changes, idle->items[i].start, 1) != 0 || add_sample(&changes, idle->items[i].end, 0) != 0) {
            free(changes.items);
            return -1;
        }
    }
    if (changes.count) /* none in a run that ended before any group idled: no array */
        qsort(changes.items, changes.count, sizeof *changes.items, by_time);
    if (!changes.count || changes.items[0].ts > 0.0)
        counter(w, 0.0, "idle groups", "idle", 0);
    unsigned count = 0;
    for (size_t i = 0; i < changes.count; i++) {
        count += changes.items[i].value ? 1u : (unsigned)-1;
        if (changes.items[i].ts > until)
            break;
        if (i + 1 == changes.count || changes.items[i + 1].ts != changes.items[i].ts)
            counter(w, changes.items[i].ts, "idle groups", "idle", count);
    }
    free(changes.items);
    return 0;
}

/* The host's events: a span per task from its request to when the host saw it done, with its
 * figures; its request's device time on the host's track when the host applied it (direct); a
 * missed deadline. */
static void write_host(writer *w, const time_base *base, const coop_trace_task *tasks, size_t task_count,
                       const coop_mega_report *report, double discovered_us, int direct)
{
    char name[96], args[448];
    for (size_t k = 0; k < task_count; k++) {
        const coop_trace_task *t = &tasks[k];
        const coop_task_record *r = k < report->record_count ? &report->records[k] : NULL;
        double start = direct && t->request_tick ? device_ts(base, t->request_tick) : host_ts(base, t->sent_us);
        if (r && r->spawned)
            snprintf(name, sizeof name, "task %u (spawned by request %u, request %u)", t->task, r->spawned_by,
                     t->request);
        else
            snprintf(name, sizeof name, "task %u (plan %u, request %u)", t->task, t->plan, t->request);
        snprintf(args, sizeof args,
                 "\"request\":%u,\"plan\":%u,\"task\":%u,\"groups\":%u,\"gather_us\":%.4f,\"exec_us\":%.4f,"
                 "\"response_us\":%.4f,\"deadline_met\":%s,\"device_timed\":%s,\"due_ms\":%.4f,"
                 "\"deadline_ms\":%.4f,\"overtaken\":%u,\"in_flight\":%u,\"spawned\":%s,\"spawned_by\":%u,"
                 "\"depth\":%u,\"spawn_wait_us\":%.4f",
                 t->request, t->plan, t->task, t->groups, r ? r->gather_us : 0.0, r ? r->exec_us : 0.0,
                 r ? r->response_us : 0.0, t->deadline_met ? "true" : "false", r && r->device_timed ? "true" : "false",
                 t->due_ms, t->deadline_ms, r ? r->overtaken : 0u, r ? r->in_flight : 0u,
                 r && r->spawned ? "true" : "false", r ? r->spawned_by : 0u, r ? r->depth : 0u,
                 r ? r->spawn_wait_us : 0.0);
        span(w, 0, start, host_ts(base, t->done_us), "task", name, args);
        /* a spawned run's spawn, where the device's clock timed it */
        if (t->spawn_tick) {
            snprintf(name, sizeof name, "spawn of request %u", t->request);
            snprintf(args, sizeof args, "\"request\":%u,\"spawned_by\":%u", t->request, r ? r->spawned_by : 0u);
            instant(w, 0, device_ts(base, t->spawn_tick), "spawn", name, args);
        }
        if (direct && t->request_tick) {
            snprintf(name, sizeof name, "request %u", t->request);
            snprintf(args, sizeof args, "\"request\":%u", t->request);
            instant(w, 0, start, "request", name, args);
        }
        if (t->deadline_ms > 0 && !t->deadline_met) {
            snprintf(name, sizeof name, "deadline missed (request %u)", t->request);
            snprintf(args, sizeof args, "\"request\":%u", t->request);
            instant(w, 0, host_ts(base, discovered_us + t->deadline_ms * 1e3), "deadline", name, args);
        }
    }
}

coop_status coop_trace_write(coop_context *ctx, coop_trace *trace, coop_running *run, const coop_mega_report *report,
                             coop_trace_task *tasks, size_t task_count, int direct, const coop_trace_end *early,
                             unsigned long *events_out, unsigned long *dropped_out)
{
    unsigned groups = run->groups;
    uint32_t *area = NULL;
    coop_status status = read_events(ctx, trace, run, &area);
    if (status != COOP_OK) {
        coop_trace_discard(trace);
        return status;
    }
    unsigned kernels = trace->kernels > 1 ? trace->kernels : 1;
    /* the area as read: blocks 1 .. K-1's own words, then the shared area (coop_layout.h) */
    const uint32_t *shared = area + (size_t)(kernels - 1) * COOP_TRACE_KERNEL_WORDS;
    group_events *all = calloc(groups ? groups : 1, sizeof *all);
    event *events = NULL;
    size_t total = 0;
    for (unsigned g = 0; g < groups; g++)
        total += shared[COOP_TRACE_COUNT + g] < trace->capacity ? shared[COOP_TRACE_COUNT + g] : trace->capacity;
    events = malloc((total ? total : 1) * sizeof *events);
    samples members[COOP_KERNELS_MAX] = {{0}};
    intervals idle = {0};
    FILE *out = trace->out;
    if (!all || !events) {
        status = coop_fail(ctx, COOP_ERR_NO_MEMORY, "trace '%s': out of memory", trace->path);
        goto done;
    }

    time_base base = {.t0 = word64(&shared[COOP_TRACE_T0])};
    find_time_base(trace, run, tasks, task_count, &base);
    unsigned long kept_total = 0, dropped_total = 0;
    double end_ts = 0.0, complete_ts = INFINITY;
    unsigned agent_tid = 0;
    unsigned starting[COOP_KERNELS_MAX] = {0}; /* each kernel's members at T0 */
    size_t next = 0;
    for (unsigned g = 0; g < groups; g++) {
        group_events *ge = &all[g];
        ge->recorded = shared[COOP_TRACE_COUNT + g];
        ge->kept = ge->recorded < trace->capacity ? ge->recorded : trace->capacity;
        ge->events = &events[next];
        next += ge->kept;
        const uint32_t *words = &shared[COOP_TRACE_EVENTS + (size_t)g * trace->capacity * COOP_TRACE_EVENT_WORDS];
        double last = -INFINITY;
        unsigned shared = 0; /* events before this index keep their time */
        for (unsigned i = 0; i < ge->kept; i++) {
            const uint32_t *word = &words[(size_t)i * COOP_TRACE_EVENT_WORDS];
            event *e = &ge->events[i];
            e->tick = word64(word);
            e->kind = COOP_EVENT_KIND(word[2]);
            e->a = COOP_EVENT_A(word[2]);
            e->block = COOP_EVENT_BLOCK(word[2]) < kernels ? COOP_EVENT_BLOCK(word[2]) : 0;
            e->b = word[3];
            /* A group's events are in its order, but its own clock reads may be ahead of the
             * members' word's times by the cores' disagreement (coop_device/trace.h): a time
             * from the word pulls this group's own reads since its last such time back to it,
             * so that the member spans change exactly when the M counter does. */
            e->ts = device_ts(&base, e->tick);
            if (e->ts < last && shared_time(e->kind)) {
                double floor_ts = shared ? ge->events[shared - 1].ts : -INFINITY;
                if (e->ts < floor_ts)
                    e->ts = floor_ts;
                for (unsigned k = shared; k < i; k++)
                    if (ge->events[k].ts > e->ts)
                        ge->events[k].ts = e->ts;
            } else if (e->ts < last) {
                e->ts = last;
            }
            last = e->ts;
            if (shared_time(e->kind))
                shared = i + 1;
            if (e->kind == COOP_EV_START && e->a == COOP_ROLE_AGENT)
                agent_tid = g + 1;
            if (e->kind == COOP_EV_START && e->a == COOP_ROLE_COOP)
                starting[e->block]++;
        }
        if (ge->kept && last > end_ts)
            end_ts = last;
        kept_total += ge->kept;
        if (ge->recorded > ge->kept) {
            dropped_total += ge->recorded - ge->kept;
            if (last < complete_ts)
                complete_ts = ge->kept ? last : 0.0;
        }
    }
    for (size_t k = 0; k < task_count; k++)
        tasks[k].agent_tid = agent_tid;

    writer w = {.out = out, .first = 1, .trace = trace};
    const coop_device_info *info = &ctx->info;
    fprintf(out, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"producer\":\"libcoop %s\",\"kernel\":",
            COOP_VERSION_STRING);
    coop_json_text(out, run->name);
    fprintf(out, ",\"device\":");
    coop_json_text(out, info->name);
    fprintf(out, ",\"clock\":\"%s\",\"us_per_tick\":%.9g,\"time_zero\":\"discovery closed on the device\","
            "\"host_uncertainty_us\":%.3f,\"groups\":%u,\"members_start\":%u,\"agent\":%s,\"events_per_group\":%u,"
            "\"events\":%lu,\"dropped_events\":%lu,\"complete_until_us\":",
            trace->tsc ? "tsc" : "globaltimer", base.us_per_tick, base.uncertainty_us, groups, report->members_start,
            report->agent ? "true" : "false", trace->capacity, kept_total, dropped_total);
    if (dropped_total)
        json_time(out, complete_ts);
    else
        fprintf(out, "null");
    fprintf(out, ",\"ended_early\":");
    if (early) {
        fprintf(out, "{\"cause\":\"%s\",\"status\":\"%s\",\"message\":", early->cause,
                coop_status_name(early->status));
        coop_json_text(out, early->message);
        fputc('}', out);
    } else {
        fprintf(out, "null");
    }
    fprintf(out, ",\"report\":{\"kills\":%u,\"forks\":%u,\"resizes\":%u,\"tasks\":%u,\"barriers\":%u}",
            report->kills, report->forks, report->resizes, report->tasks, report->barriers);
    if (several(&w))
        write_kernels(out, trace);
    fprintf(out, "},\n\"traceEvents\":[");
    fprintf(out, "\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":");
    char process[320];
    snprintf(process, sizeof process, "megakernel %s on %s", run->name, info->name);
    coop_json_text(out, process);
    fprintf(out, "}}");
    w.first = 0;
    thread_name(&w, 0, "host (libcoop)");
    for (unsigned g = 0; g < groups; g++) {
        char label[64];
        snprintf(label, sizeof label, g + 1 == agent_tid ? "group %u (agent)" : "group %u", g);
        thread_name(&w, g + 1, label);
    }
    write_host(&w, &base, tasks, task_count, report, run->discovered_us, direct);
    for (unsigned k = 0; several(&w) && k < kernels; k++) {
        if (add_sample(&members[k], 0.0, starting[k]) != 0) {
            status = coop_fail(ctx, COOP_ERR_NO_MEMORY, "trace '%s': out of memory", trace->path);
            goto done;
        }
    }
    for (unsigned g = 0; g < groups; g++) {
        if (write_group(&w, g, &all[g], &base, end_ts, direct, tasks, task_count, members, &idle) != 0) {
            status = coop_fail(ctx, COOP_ERR_NO_MEMORY, "trace '%s': out of memory", trace->path);
            goto done;
        }
    }
    /* Each change of a kernel's member count has its own time (coop_trace_members); the counter
     * stops where a full buffer may have lost some. Several kernels: a counter each. */
    for (unsigned k = 0; k < kernels; k++) {
        char name[96];
        if (several(&w))
            snprintf(name, sizeof name, "M (active members) of kernel %u (%s)", k, trace->kernel_names[k]);
        else
            snprintf(name, sizeof name, "M (active members)");
        if (members[k].count)
            qsort(members[k].items, members[k].count, sizeof *members[k].items, by_time);
        for (size_t i = 0; i < members[k].count && members[k].items[i].ts <= complete_ts; i++)
            counter(&w, members[k].items[i].ts, name, "members", members[k].items[i].value);
    }
    if (write_idle_counter(&w, &idle, complete_ts) != 0) {
        status = coop_fail(ctx, COOP_ERR_NO_MEMORY, "trace '%s': out of memory", trace->path);
        goto done;
    }
    fprintf(out, "\n]}\n");
    *events_out = kept_total;
    *dropped_out = dropped_total;

done:
    if (status == COOP_OK) {
        int error = coop_outfile_commit(&trace->file);
        trace->out = NULL;
        char reason[256];
        if (error)
            status = coop_fail(ctx, COOP_ERR_IO, "trace '%s': could not be written: %s", trace->path,
                               coop_outfile_reason(&trace->file, error, reason, sizeof reason));
    } else {
        coop_trace_discard(trace);
    }
    for (unsigned k = 0; k < COOP_KERNELS_MAX; k++)
        free(members[k].items);
    free(idle.items);
    free(events);
    free(all);
    free(area);
    return status;
}
