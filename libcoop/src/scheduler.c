/* Host side of the scheduler: runs a megakernel, submits high-priority tasks and measures them
 * (its watchdog is watch.c, its plans' checks plans.c, the spawn queue's host side spawn.c; the
 * device side is libcoop/include/coop_device/). */
#include "mega.h"
#include "share.h"
#include "strict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(COOP_CTRL_REQ_DEPTH == COOP_CTRL_REQ_SLOT + 4 && COOP_CTRL_REQ_TASK == COOP_CTRL_REQ_SLOT + 1,
               "a request's slot, task, want, range and depth are five words in a row");
_Static_assert(COOP_TASKS_IN_FLIGHT_MAX == COOP_TASK_SLOTS, "coop.h's task runs in flight = the device's slots");

/* Control-block words (and 64-bit pairs of them) as coop_request.h accesses them, on the host: the
 * channel's SVM words, with the orders of coop_device/atomics.h's primitives (on a CPU, device scope is
 * what the host sees). The host has no device clock (coop_device_time): a traced run stamps
 * T_REQUEST itself. */
static inline uint32_t coop_load_relaxed(volatile uint32_t *word)
{
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void coop_store_relaxed(volatile uint32_t *word, uint32_t value)
{
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

static inline void coop_store_release(volatile uint32_t *word, uint32_t value)
{
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

static inline uint64_t coop_exchange64(volatile uint64_t *pair, uint64_t value)
{
    return __atomic_exchange_n(pair, value, __ATOMIC_ACQ_REL);
}

static inline uint64_t coop_load_relaxed64(volatile uint64_t *pair)
{
    return __atomic_load_n(pair, __ATOMIC_RELAXED);
}

static inline uint64_t coop_cas64(volatile uint64_t *pair, uint64_t expected, uint64_t desired)
{
    __atomic_compare_exchange_n(pair, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected;
}

static inline uint64_t coop_device_time(volatile uint32_t *slot)
{
    (void)slot;
    return 0;
}

/* The host applying its own requests checks what a check build's agent checks there (K7, T6,
 * T7), in every run: a few loads per request. A broken rule is counted in the control block's
 * CHECKS words as the device counts one (coop_device/checks.h), where the tests read them. */
static void coop_host_check_fail(volatile uint32_t *ctrl, unsigned rule, uint32_t a, uint32_t b, uint32_t c)
{
    volatile uint32_t *words = &ctrl[COOP_CTRL_CHECKS + 4u * rule];
    if (__atomic_fetch_add(&words[0], 1u, __ATOMIC_RELAXED) == 0) {
        __atomic_store_n(&words[1], a, __ATOMIC_RELAXED);
        __atomic_store_n(&words[2], b, __ATOMIC_RELAXED);
        __atomic_store_n(&words[3], c, __ATOMIC_RELAXED);
    }
}
#define COOP_CHECK(ctrl, holds, rule, a, b, c)                     \
    do {                                                           \
        if (!(holds))                                              \
            coop_host_check_fail((ctrl), (rule), (a), (b), (c));   \
    } while (0)

#include "coop_request.h"

/* Makes request m->seq, whose words are in block `block`'s mailbox, the kernel's: with the control
 * block in the channel the host applies it itself, as the agent does on the device
 * (coop_apply_request, coop_request.h); else its sequence number tells the agent. */
static coop_status publish(mega *m, uint32_t kind, unsigned slot, unsigned block)
{
    if (!m->direct)
        return block_store(m, block, COOP_CTRL_REQ_SEQ, m->seq);
    volatile uint32_t *ctrl = m->ctx->channel.host + block * COOP_CHAN_WORDS + COOP_CHAN_CTRL;
    /* a traced task's time of request, on the trace clock (which the host reads too) */
    if (kind == COOP_REQ_TASK && m->tracing) {
        uint64_t now = coop_trace_host_ticks(&m->timeline);
        coop_store_relaxed(&ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_T_REQUEST)], COOP_LOW_HALF(now));
        coop_store_relaxed(&ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_T_REQUEST) + 1], COOP_HIGH_HALF(now));
    }
    coop_apply_request(ctrl, m->seq);
    return COOP_OK;
}

/* share.c's request to one block: a move, share kill tokens, or the shutdown of block 1 .. K-1. */
static coop_status share_send(void *run, unsigned block, uint32_t kind, uint32_t slot, uint32_t task, uint32_t want)
{
    mega *m = run;
    const uint32_t fields[4] = {kind, slot, task, want};
    coop_status status = coop_share_mailbox_free(m->share, block);
    for (unsigned i = 0; i < 4 && status == COOP_OK; i++)
        status = block_store(m, block, COOP_CTRL_REQ_KIND + i, fields[i]);
    if (status != COOP_OK)
        return status;
    coop_share_sent(m->share, block, ++m->seq);
    return publish(m, kind, 0, block);
}


/* What a task request asks for: a plan's due run, or a run spawned on the device. */
typedef struct run_spec {
    unsigned task, workgroups, want, depth;
    const unsigned *args;
    size_t plan;                /* the plan, or the chain's (plan_count: the cooperative kernel's) */
    int spawned;                /* spawned on the device: `want` is COOP_SPAWN_WANT_OF's */
} run_spec;

/* Sends a request: the task run `run` into task slot `slot`, or the shutdown (run NULL). The
 * mailbox is free: the last request was applied, as the host saw it start (T6, A1). */
static coop_status send_request(mega *m, uint32_t kind, const run_spec *run, unsigned slot)
{
    unsigned block = 0, limit = m->limit;
    uint32_t want = run ? run->want : 0;
    /* several cooperative kernels: the run goes to the block holding the most groups, and takes
     * from those (docs/DESIGN.md section 17), a spawned one too, whichever block spawned it; the
     * shutdown ends blocks 1 .. K-1 first */
    if (run && m->share) {
        block = coop_share_task_block(m->share, &limit);
        coop_share_before_task(m->share, block);
        if (!run->spawned)
            want = coop_groups_to_take(&m->plans[run->plan], limit ? limit : 1u);
        else if (want > (limit ? limit : 1u))
            want = limit ? limit : 1u;
    } else if (m->share) {
        coop_share_shutdown(m->share);
    }
    coop_status status = coop_share_mailbox_free(m->share, block);
    if (status == COOP_OK)
        status = block_store(m, block, COOP_CTRL_REQ_KIND, kind);
    if (run) {
        const uint32_t fields[5] = {slot, run->task, want, run->workgroups, run->depth};
        for (unsigned i = 0; i < 5 && status == COOP_OK; i++)
            status = block_store(m, block, COOP_CTRL_REQ_SLOT + i, fields[i]);
        for (unsigned i = 0; i < COOP_TASK_ARGS && status == COOP_OK; i++)
            status = block_store(m, block, COOP_CTRL_REQ_ARGS + i, run->args[i]);
    }
    if (status == COOP_OK && run)
        status = coop_spawns_note(m, m->seq + 1, run->plan, m->runs + 1);
    if (status != COOP_OK)
        return status;
    coop_share_sent(m->share, block, ++m->seq);
    if (run) {
        flight *f = &m->slots[slot];
        f->seq = m->seq;
        f->number = ++m->runs;
        f->task = run->task;
        f->want = want;
        f->block = block;
        f->depth = run->depth;
        f->request_us = coop_now_us();
        f->running_us = 0;
    }
    return publish(m, kind, slot, block);
}

/* Whether plan a's due run (due at due_a) comes before plan b's in due order: the earlier due
 * time, then the lower plan index (the order one task at a time served them). */
static int due_before(double due_a, size_t a, double due_b, size_t b)
{
    return due_a < due_b || (due_a == due_b && a < b);
}

/* A run's deadline, in ms since discovery, from its due time: INFINITY for none. */
static double deadline_of(const coop_task_plan *plan, double due_ms)
{
    double relative = plan->deadline_ms > 0 ? plan->deadline_ms : plan->period_ms;
    return relative > 0 ? due_ms + relative : INFINITY;
}

/* Whether due run a is more urgent than due run b under the policy (section 10.1). */
static int more_urgent(const mega *m, const due_run *a, const due_run *b)
{
    if (m->policy == COOP_POLICY_EDF) {
        if (a->deadline_ms != b->deadline_ms)
            return a->deadline_ms < b->deadline_ms;
    } else if (a->priority != b->priority) {
        return a->priority > b->priority;
    }
    return due_before(a->due_ms, a->key, b->due_ms, b->key);
}

/* A spawned run as a due run (section 10.2): its chain's plan's priority and deadline (from
 * when the host took it), or the cooperative kernel's spawn_priority and spawn_deadline_ms. */
static due_run spawned_due(mega *m, unsigned index)
{
    spawn_run *run = &m->spawns[index];
    due_run due = {.due_ms = run->due_ms, .deadline_ms = INFINITY, .key = m->plan_count + run->order,
                   .overtaken = &run->overtaken, .spawn = index + 1, .plan = run->plan};
    if (run->plan < m->plan_count) {
        due.priority = m->plans[run->plan].priority;
        due.deadline_ms = deadline_of(&m->plans[run->plan], run->due_ms);
    } else {
        due.priority = m->params->spawn_priority;
        if (m->params->spawn_deadline_ms > 0)
            due.deadline_ms = run->due_ms + m->params->spawn_deadline_ms;
    }
    return due;
}

/* The due time of plan p's next submission in ms since launch, or -1 if it has no more. */
static double next_due_ms(const mega *m, size_t p, int cooperative_done)
{
    const coop_task_plan *plan = &m->plans[p];
    if (plan->period_ms <= 0)
        return m->sent[p] ? -1.0 : plan->start_ms;
    /* The first submission always happens (a short kernel may finish before the host first
     * looks); the later ones only while the cooperative kernel runs. */
    if ((m->sent[p] && cooperative_done) || (plan->repeats && m->sent[p] >= plan->repeats))
        return -1.0;
    return plan->start_ms + m->sent[p] * plan->period_ms;
}

/* Whether a run of plan p is in flight: its next run waits for it (P2). Spawned runs count for
 * no plan. */
static int plan_in_flight(const mega *m, size_t p)
{
    for (unsigned slot = 0; slot < COOP_TASK_SLOTS; slot++)
        if (m->slots[slot].used && !m->slots[slot].spawned && m->slots[slot].plan == p)
            return 1;
    return 0;
}

/* Sends the most urgent due run, planned or spawned (P1: a run overtaken overtake_limit times
 * goes first; P2: a plan's run only once its last is done), if a slot is free and none gathers
 * (T6). Sets *pending if a plan has runs still to come or a spawned run waits. */
static coop_status send_next(mega *m, double now_ms, int cooperative_done, int *pending)
{
    due_run *due = m->candidates;
    size_t count = 0;
    for (size_t p = 0; p < m->plan_count; p++) {
        double at = next_due_ms(m, p, cooperative_done);
        if (at < 0)
            continue;
        *pending = 1;
        /* P2: a plan with a run in flight is neither chosen nor overtaken */
        if (at <= now_ms && !plan_in_flight(m, p))
            due[count++] = (due_run){.due_ms = at, .deadline_ms = deadline_of(&m->plans[p], at),
                                     .priority = m->plans[p].priority, .key = p, .overtaken = &m->overtaken[p],
                                     .plan = p};
    }
    for (unsigned i = 0; i < m->spawn_count; i++)
        due[count++] = spawned_due(m, i);
    *pending |= m->spawn_count > 0;
    if (!count || m->gathering >= 0 || m->in_flight >= m->slot_limit)
        return COOP_OK;
    size_t chosen = 0, starved = count;
    for (size_t k = 0; k < count; k++) {
        if (more_urgent(m, &due[k], &due[chosen]))
            chosen = k;
        if (*due[k].overtaken >= m->overtake_limit &&
            (starved == count || due_before(due[k].due_ms, due[k].key, due[starved].due_ms, due[starved].key)))
            starved = k;
    }
    if (starved < count)
        chosen = starved;
    unsigned slot = 0;
    while (m->slots[slot].used)
        slot++;
    for (size_t k = 0; k < count; k++)
        if (k != chosen && due_before(due[k].due_ms, due[k].key, due[chosen].due_ms, due[chosen].key))
            (*due[k].overtaken)++;
    const due_run *c = &due[chosen];
    flight *f = &m->slots[slot];
    *f = (flight){.used = 1, .plan = c->plan, .overtaken = *c->overtaken, .in_flight = m->in_flight + 1,
                  .due_ms = c->due_ms, .deadline_ms = c->deadline_ms};
    run_spec run = {.plan = c->plan};
    spawn_run taken; /* a spawned run's words: run.args points into it until the request is sent */
    if (!c->spawn) {
        const coop_task_plan *plan = &m->plans[c->plan];
        run.task = plan->task;
        run.workgroups = plan->workgroups;
        run.want = coop_groups_to_take(plan, m->limit);
        run.args = plan->args;
        m->overtaken[c->plan] = 0;
        m->sent[c->plan]++;
    } else {
        taken = m->spawns[c->spawn - 1];
        /* the list keeps the order the host took the runs in */
        for (unsigned i = c->spawn; i < m->spawn_count; i++)
            m->spawns[i - 1] = m->spawns[i];
        m->spawn_count--;
        if (m->task_count >= 0 && taken.task >= (unsigned long)m->task_count)
            return coop_fail(m->ctx, COOP_ERR_INVALID_ARGUMENT,
                             "megakernel '%s': a run spawned task %u, and it has %ld tasks; the kernel still "
                             "runs and the process must exit", m->run.name, taken.task, m->task_count);
        f->spawned = 1;
        f->spawned_by = taken.spawner;
        f->spawn_tick = taken.spawn_tick;
        f->spawn_seen_us = taken.seen_us;
        f->spawned_in = taken.kernel;
        run.spawned = 1;
        run.task = taken.task;
        run.workgroups = taken.workgroups;
        run.want = COOP_SPAWN_WANT_OF(taken.workgroups, taken.cap, m->limit);
        run.depth = taken.depth;
        run.args = taken.args;
    }
    m->in_flight++;
    m->gathering = (int)slot;
    return send_request(m, COOP_REQ_TASK, &run, slot);
}

/* Follows the requests in flight: the gather of the last one sent (over once TASK_STATUS shows it
 * RUNNING: only then may the next one go, T6), and each slot's task until it is DONE. */
static coop_status follow_tasks(mega *m, double now_us)
{
    coop_status status;
    if (m->gathering >= 0) {
        flight *f = &m->slots[m->gathering];
        uint32_t task = 0;
        if ((status = block_load(m, f->block, COOP_CTRL_TASK_STATUS, &task)) != COOP_OK)
            return status;
        uint32_t word = COOP_TASK_STATUS_WORD(COOP_TASK_SEQ_KEPT(f->seq), (uint32_t)m->gathering, COOP_TASK_RUNNING);
        /* where the agent also applies spawned runs, TASK_STATUS may name one already: the slot
         * says the gather is over too (the agent holds a request back while another gathers) */
        if (task != word && m->spawn_slot &&
            (status = block_load(m, f->block, COOP_CTRL_SLOT(m->gathering, COOP_SLOT_STATUS), &task)) != COOP_OK)
            return status;
        if (task == word || (m->spawn_slot && task == COOP_TASK_STATUS_SET(word, COOP_TASK_DONE))) {
            if (f->running_us == 0)
                f->running_us = now_us;
            m->gathering = -1;
        }
    }
    for (unsigned slot = 0; slot < COOP_TASK_SLOTS; slot++) {
        flight *f = &m->slots[slot];
        uint32_t word = 0;
        if (!f->used)
            continue;
        if ((status = block_load(m, f->block, COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS), &word)) != COOP_OK)
            return status;
        uint32_t mine = COOP_TASK_STATUS_WORD(COOP_TASK_SEQ_KEPT(f->seq), slot, 0u);
        if (COOP_TASK_STATUS_SET(word, 0u) != mine)
            continue;
        if (COOP_TASK_STATUS_OF(word) == COOP_TASK_RUNNING && f->running_us == 0)
            f->running_us = now_us;
        /* the slot is free once done, but the gather counts as over only by TASK_STATUS: its
         * starter may store RUNNING there after the task's groups have finished */
        if (COOP_TASK_STATUS_OF(word) == COOP_TASK_DONE && (int)slot != m->gathering &&
            (status = coop_mega_record(m, slot, now_us)) != COOP_OK)
            return status;
    }
    return COOP_OK;
}

/* Several cooperative kernels: share.c's pass, told the gathering request's block and how many
 * groups it still needs. Returns 1 once every kernel has finished. */
static int share_step(mega *m, double now_us)
{
    int block = -1;
    unsigned need = 0;
    if (m->gathering >= 0) {
        const flight *f = &m->slots[m->gathering];
        uint32_t joined = 0;
        block = (int)f->block;
        block_load(m, f->block, COOP_CTRL_SLOT((unsigned)m->gathering, COOP_SLOT_JOINED), &joined);
        need = f->want > joined ? f->want - joined : 0;
    }
    /* else a spawned run the agent applied may gather (section 10.2): it counted on the groups
     * its block held, which moves out of the block may have taken meanwhile; its want (the
     * agent copies no JOINED: an over-count, whose extra groups wait idle there) */
    for (unsigned k = 0; block < 0 && m->spawn_slot && k < m->kernels; k++) {
        uint32_t task = 0, want = 0;
        block_load(m, k, COOP_CTRL_TASK_STATUS, &task);
        if (COOP_TASK_STATUS_OF(task) != COOP_TASK_GATHERING || !(COOP_TASK_STATUS_SEQ(task) & COOP_SPAWN_SEQ_BIT))
            continue;
        block_load(m, k, COOP_CTRL_SLOT(COOP_TASK_STATUS_SLOT(task), COOP_SLOT_WANT), &want);
        block = (int)k;
        need = want;
    }
    return coop_share_step(m->share, now_us, block, need);
}

/* One pass of the host loop; sets *finished once the megakernel has been told to end. */
static coop_status step(mega *m, double watchdog_s, int *finished)
{
    double now_us = coop_now_us();
    coop_status status;
    if (coop_launch_ended(&m->run, &status))
        return status != COOP_OK ? status
                                 : coop_fail(m->ctx, COOP_ERR_OPENCL,
                                             "megakernel '%s' ended before it was told to: does every group loop "
                                             "over coop_schedule()?", m->run.name);
    if (now_us - m->run.start_us > m->run.timeout_s * 1e6) {
        char what[128];
        snprintf(what, sizeof what, "not complete within its time limit of %.1f s (launch.timeout_s, COOP_TIMEOUT_S)",
                 m->run.timeout_s);
        return coop_diagnose(m, "time limit", what);
    }
    uint32_t state = 0;
    if ((status = ctrl_load(m, COOP_CTRL_STATE, &state)) != COOP_OK)
        return status;
    m->member_time_us += m->members * (now_us - m->sample_us);
    m->sample_us = now_us;
    m->members = COOP_STATE_MEMBERS(state);
    int cooperative_done = m->members && COOP_STATE_FINISHED(state) == m->members;
    if (m->share)
        cooperative_done = share_step(m, now_us);
    if (cooperative_done && m->cooperative_done_us == 0)
        m->cooperative_done_us = now_us;

    if (m->in_flight && m->trace && now_us - m->traced_us > 10000) {
        m->traced_us = now_us;
        coop_trace_words(m);
    }
    if (m->in_flight && (status = follow_tasks(m, now_us)) != COOP_OK)
        return status;
    /* after follow_tasks: a run spawned by a task the host saw done is in the queue already */
    if (!m->spawn_slot)
        status = coop_spawns_take(m, now_us);
    else if (!m->ctx->hold_spawn_records || cooperative_done)
        status = coop_spawns_follow(m, now_us);
    if (status != COOP_OK)
        return status;
    int pending = 0;
    uint32_t sent = m->seq;
    if ((status = send_next(m, (now_us - m->run.discovered_us) / 1e3, cooperative_done, &pending)) != COOP_OK)
        return status;
    if (m->seq != sent)
        return COOP_OK;
    /* every ticket reserved before the members finished and the tasks ended has been taken, in
     * every kernel block: the heads are read after STATE and the slots' statuses (acquire) that
     * showed them; where the agent serves the queues, its busy word says so, and that its runs
     * are done and recorded (section 10.2) */
    int left = 0;
    if (cooperative_done && !pending && !m->in_flight && (status = coop_spawns_left(m, &left)) != COOP_OK)
        return status;
    if (cooperative_done && !pending && !m->in_flight && !left) {
        *finished = 1;
        return send_request(m, COOP_REQ_SHUTDOWN, NULL, 0);
    }
    if ((status = coop_watch(m, now_us, watchdog_s, cooperative_done)) != COOP_OK)
        return status;
    coop_poll_pause(m->ctx, 0, m->in_flight ? 20 : 200); /* finer while a task runs, to time it */
    return COOP_OK;
}

static void fill_report(mega *m, coop_mega_report *report)
{
    uint32_t value = 0;
    unsigned *fields[5] = {&report->kills, &report->forks, &report->resizes, &report->tasks, &report->barriers};
    const unsigned slots[5] = {COOP_CTRL_KILL_COUNT, COOP_CTRL_FORK_COUNT, COOP_CTRL_RESIZE_COUNT,
                               COOP_CTRL_TASKS_DONE, COOP_CTRL_BARRIERS};
    for (int i = 0; i < 5; i++) {
        value = 0;
        ctrl_load(m, slots[i], &value);
        *fields[i] = value;
        /* several cooperative kernels: the other blocks' counts too */
        for (unsigned block = 1; block < coop_share_kernels(m->share); block++) {
            value = 0;
            block_load(m, block, slots[i], &value);
            *fields[i] += value;
        }
    }
    double run_us = coop_now_us() - m->run.start_us;
    double member_span_us = m->sample_us - m->run.discovered_us;
    report->mean_members = member_span_us > 0 ? m->member_time_us / member_span_us : m->members;
    report->discovery_ms = (m->run.discovered_us - m->run.start_us) / 1e3;
    report->run_ms = run_us / 1e3;
    report->compile_ms = m->run.compile_us / 1e3;
    report->cooperative_ms = (m->cooperative_done_us - m->run.discovered_us) / 1e3;
    /* in request order: runs in flight together end in any order (an insertion sort, as they
     * mostly end in order) */
    for (size_t k = 1; k < m->record_count; k++) {
        coop_task_record r = m->records[k];
        coop_trace_task t = m->tasks[k];
        size_t j = k;
        for (; j > 0 && m->records[j - 1].request > r.request; j--) {
            m->records[j] = m->records[j - 1];
            m->tasks[j] = m->tasks[j - 1];
        }
        m->records[j] = r;
        m->tasks[j] = t;
    }
    /* an agent-served run's chain, from its spawner's record (spawners come first in request
     * order, but for agent-served ones, which may end before their spawner does) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t k = 0; k < m->record_count; k++)
            for (size_t j = 0; m->records[k].plan == COOP_PLAN_PENDING && j < m->record_count; j++)
                if (m->records[j].request == m->records[k].spawned_by && m->records[j].plan != COOP_PLAN_PENDING) {
                    m->records[k].plan = m->tasks[k].plan = m->records[j].plan;
                    changed = 1;
                }
    }
    for (size_t k = 0; k < m->record_count; k++) {
        coop_task_record *r = &m->records[k];
        const coop_trace_task *t = &m->tasks[k];
        if (r->plan == COOP_PLAN_PENDING)
            r->plan = COOP_PLAN_KERNEL;
        if (r->device_timed) {
            r->gather_us = (double)(t->gathered_tick - t->request_tick) * m->us_per_tick;
            r->exec_us = (double)(t->done_tick - t->gathered_tick) * m->us_per_tick;
        }
        if (t->spawn_tick)
            r->spawn_wait_us = (double)(t->request_tick - t->spawn_tick) * m->us_per_tick;
    }
    report->records = m->records;
    report->record_count = m->record_count;
    m->records = NULL;
}

/* Several cooperative kernels: their names, weights and figures, for the trace. */
static void trace_kernels(mega *m)
{
    coop_trace *t = &m->timeline;
    t->kernels = coop_share_kernels(m->share);
    const unsigned *weights = coop_share_weights(m->share);
    coop_share_report(m->share, t->kernel_reports);
    for (unsigned k = 0; k < t->kernels; k++) {
        snprintf(t->kernel_names[k], sizeof t->kernel_names[k], "%s", coop_share_name(m->share, k));
        t->weights[k] = weights[k];
    }
}

/* A traced run that failed once its groups ran (the watchdog, the time limit, an error): the
 * trace of what they recorded, its otherData saying why the run ended early. The failure stays the
 * status, its message saying where the trace is or why there is none. */
static coop_status trace_failed_run(mega *m, const coop_mega_report *report, coop_status failure,
                                    const char *path)
{
    coop_context *ctx = m->ctx;
    char *why = strdup(coop_context_message(ctx));
    if (!why) {
        coop_trace_discard(&m->timeline);
        return failure;
    }
    coop_mega_report partial = {.groups = report->groups, .members_start = report->members_start,
                                .agent = report->agent};
    fill_report(m, &partial);
    const coop_trace_end early = {.cause = m->ended ? m->ended : "error", .status = failure, .message = why};
    unsigned long events = 0, dropped = 0;
    coop_status written = coop_trace_write(ctx, &m->timeline, &m->run, &partial, m->tasks, partial.record_count,
                                           m->direct, &early, &events, &dropped);
    coop_mega_report_free(&partial);
    if (written == COOP_OK)
        coop_fail(ctx, failure, "%s; trace '%s' holds the events recorded until then (%lu kept, %lu dropped)", why,
                  path, events, dropped);
    else
        coop_fail(ctx, failure, "%s; no trace written: %s", why, coop_context_message(ctx));
    free(why);
    return failure;
}

static coop_status mega_run(coop_kernel *kernel, const coop_mega_params *params, const coop_kernel_share *kernels,
                            size_t kernel_count, const coop_task_plan *plans, size_t plan_count,
                            coop_mega_report *report, coop_kernel_report *kernel_reports)
{
    if (!kernel)
        return COOP_ERR_INVALID_ARGUMENT;
    coop_context *ctx = kernel->program->ctx;
    if (!report)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_mega_run: report is NULL");
    memset(report, 0, sizeof *report);
    if (plan_count && !plans)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT, "coop_mega_run: plans is NULL and plan_count is %zu",
                         plan_count);
    coop_mega_params defaults = {0};
    if (!params)
        params = &defaults;
    coop_status status = coop_check_plans(ctx, kernel, plans, plan_count);
    if (status == COOP_OK)
        status = coop_check_time(ctx, "coop_mega_run: params->watchdog_s", params->watchdog_s);
    double chaos = 0.0, trace = 0.0, watchdog_s = params->watchdog_s;
    if (status == COOP_OK && !params->chaos_seed)
        status = coop_env_number(ctx, COOP_ENV_CHAOS, &chaos);
    if (status == COOP_OK)
        status = coop_env_number(ctx, COOP_ENV_TRACE, &trace);
    if (status == COOP_OK && !watchdog_s)
        status = coop_env_number(ctx, COOP_ENV_WATCHDOG_S, &watchdog_s);
    const char *trace_file = params->trace_file ? params->trace_file : coop_env_text(COOP_ENV_TRACE_FILE);
    if (status == COOP_OK && params->trace_file && !*params->trace_file)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "coop_mega_run: params->trace_file is empty (NULL: no trace, or COOP_TRACE_FILE)");
    if (status == COOP_OK && params->tasks_in_flight > COOP_TASKS_IN_FLIGHT_MAX)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "coop_mega_run: params->tasks_in_flight = %u: from 1 to %u task runs in flight (0: 1)",
                           params->tasks_in_flight, COOP_TASKS_IN_FLIGHT_MAX);
    if (status == COOP_OK && (unsigned)params->policy > COOP_POLICY_EDF)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "coop_mega_run: params->policy = %d is not a coop_policy (COOP_POLICY_PRIORITY or "
                           "COOP_POLICY_EDF)", (int)params->policy);
    if (status == COOP_OK && params->overtake_limit > COOP_OVERTAKE_MAX)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "coop_mega_run: params->overtake_limit = %u: a due run is overtaken from 1 to %u times "
                           "(0: 4)", params->overtake_limit, COOP_OVERTAKE_MAX);
    if (status == COOP_OK && params->spawn_priority > COOP_PRIORITY_MAX)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "coop_mega_run: params->spawn_priority = %u: a priority is from 0 to %u",
                           params->spawn_priority, COOP_PRIORITY_MAX);
    if (status == COOP_OK)
        status = coop_check_time(ctx, "coop_mega_run: params->spawn_deadline_ms", params->spawn_deadline_ms);
    if (status == COOP_OK && params->trace_events > COOP_TRACE_MAX_EVENTS)
        status = coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                           "coop_mega_run: params->trace_events = %u: a group's trace buffer holds from 1 to %u "
                           "events (0: %u)", params->trace_events, COOP_TRACE_MAX_EVENTS, COOP_TRACE_DEFAULT_EVENTS);
    coop_share *share = NULL;
    if (status == COOP_OK)
        status = coop_share_open(ctx, kernel, kernels, kernel_count, &share);
    /* before a traced run's build, which takes long */
    if (status == COOP_OK && kernel->persistent)
        status = coop_check_args_set(kernel);
    if (status != COOP_OK) {
        coop_share_free(share);
        return status;
    }
    coop_start start = {
        .what = "coop_mega_run: params->launch.",
        .megakernel = 1,
        .members = params->members,
        .agent = ctx->channel.kind != COOP_CHANNEL_SVM,
        .chaos_seed = params->chaos_seed ? params->chaos_seed : (unsigned)chaos,
    };
    unsigned slot_limit = params->tasks_in_flight ? params->tasks_in_flight : 1;
    /* with an agent, the task slots the host leaves free are the agent's for a program's spawned
     * runs (coop-merge marks a program that spawns) */
    const char *source = kernel->program->source;
    start.spawn_slot = start.agent && slot_limit < COOP_TASK_SLOTS && source && strstr(source, "coop-spawns: 1")
                           ? slot_limit
                           : 0;
    mega m = {.ctx = ctx, .params = params, .plans = plans, .plan_count = plan_count, .spawn_slot = start.spawn_slot,
              .direct = ctx->channel.kind == COOP_CHANNEL_SVM, .trace = trace != 0.0,
              .device_clock = ctx->info.target == COOP_TARGET_NVIDIA, .us_per_tick = 1e-3, .gathering = -1,
              .slot_limit = slot_limit, .policy = params->policy,
              .overtake_limit = params->overtake_limit ? params->overtake_limit : 4, .share = share,
              .kernels = coop_share_kernels(share)};
    if (m.share)
        coop_share_attach(m.share, share_send, &m);
    start.kernels = coop_share_kernels(m.share);
    start.weights = coop_share_weights(m.share);
    /* A traced run takes the kernel built with COOP_TRACING=1 and a trace area in the device area. */
    coop_kernel traced = *kernel;
    if (trace_file) {
        start.trace_capacity = params->trace_events ? params->trace_events : COOP_TRACE_DEFAULT_EVENTS;
        status = coop_trace_open(ctx, trace_file, start.trace_capacity, &m.timeline);
        if (status == COOP_OK)
            status = coop_kernel_traced(kernel, &traced.cl);
        if (status != COOP_OK) {
            coop_trace_discard(&m.timeline);
            coop_share_free(m.share);
            return status;
        }
        m.tracing = m.device_clock = 1;
        kernel = &traced;
    }
    m.sent = calloc(plan_count ? plan_count : 1, sizeof *m.sent);
    m.overtaken = calloc(plan_count ? plan_count : 1, sizeof *m.overtaken);
    m.candidates = calloc(plan_count + COOP_SPAWN_QUEUE, sizeof *m.candidates);
    m.task_count = coop_program_tasks(kernel);
    if (!m.sent || !m.overtaken || !m.candidates) {
        free(m.sent);
        free(m.overtaken);
        free(m.candidates);
        coop_trace_discard(&m.timeline);
        coop_share_free(m.share);
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory");
    }
    status = coop_launch_begin(kernel, &params->launch, &start, &m.run);
    int launched = status == COOP_OK;
    if (status == COOP_OK && start.agent && m.run.groups < 2)
        status = coop_fail(ctx, COOP_ERR_DEVICE_UNSUPPORTED,
                           "megakernel '%s': only one group is co-resident, and channel '%s' needs a second "
                           "one as the scheduler's agent", m.run.name, coop_channel_name(ctx->channel.kind));
    if (status == COOP_OK) {
        /* With an agent, the channel's copy of the state appears once the agent runs. */
        uint32_t state = 0;
        double asked_us = coop_now_us();
        while (status == COOP_OK && !COOP_STATE_MEMBERS(state) && coop_now_us() - asked_us < 5e6)
            status = ctrl_load(&m, COOP_CTRL_STATE, &state);
        if (status == COOP_OK && !COOP_STATE_MEMBERS(state))
            status = coop_fail(ctx, COOP_ERR_TIMEOUT, "megakernel '%s': the scheduler's agent did not report "
                               "within 5 s", m.run.name);
        m.members = COOP_STATE_MEMBERS(state);
        m.limit = m.run.groups - (start.agent ? 1u : 0u);
        unsigned members_start = start.members && start.members < m.limit ? start.members : m.limit;
        m.sample_us = m.run.discovered_us;
        if (status == COOP_OK && m.share)
            status = coop_share_start(m.share, m.run.groups, m.run.discovered_us);
        report->groups = m.run.groups;
        report->members_start = members_start;
        report->agent = start.agent;
        if (!watchdog_s)
            watchdog_s = 10.0;
        int finished = 0;
        while (status == COOP_OK && !finished)
            status = step(&m, watchdog_s, &finished);
    }
    if (status == COOP_OK) {
        status = coop_launch_wait(&m.run);
        if (status == COOP_ERR_TIMEOUT)
            m.ended = "time limit";
    }
    if (status == COOP_OK)
        status = coop_share_started(m.share);
    if (m.tracing) {
        coop_trace_stop_clock(&m.timeline);
        m.us_per_tick = m.timeline.us_per_tick;
    }
    if (status == COOP_OK)
        fill_report(&m, report);
    if (status == COOP_OK && m.share && kernel_reports)
        coop_share_report(m.share, kernel_reports);
    if (m.tracing && m.share)
        trace_kernels(&m);
    if (status == COOP_OK && m.tracing) {
        status = coop_trace_write(ctx, &m.timeline, &m.run, report, m.tasks, report->record_count, m.direct, NULL,
                                  &report->trace_events, &report->trace_dropped);
        if (status != COOP_OK)
            coop_mega_report_free(report);
    } else if (m.tracing && launched && status != COOP_ERR_NO_MEMORY) {
        /* a host out of memory writes nothing more: the trace would take more */
        status = trace_failed_run(&m, report, status, trace_file);
    } else if (m.tracing) {
        coop_trace_discard(&m.timeline);
    }
    free(m.records);
    free(m.tasks);
    free(m.sent);
    free(m.overtaken);
    free(m.candidates);
    free(m.chains);
    coop_share_free(m.share);
    return status;
}

coop_status coop_mega_run(coop_kernel *kernel, const coop_mega_params *params, const coop_task_plan *plans,
                          size_t plan_count, coop_mega_report *report)
{
    return mega_run(kernel, params, NULL, 0, plans, plan_count, report, NULL);
}

coop_status coop_mega_run_shared(coop_kernel *kernel, const coop_mega_params *params,
                                 const coop_kernel_share *kernels, size_t kernel_count, const coop_task_plan *plans,
                                 size_t plan_count, coop_mega_report *report, coop_kernel_report *kernel_reports)
{
    if (kernel && kernel_count == 0) {
        if (report)
            memset(report, 0, sizeof *report);
        return coop_fail(kernel->program->ctx, COOP_ERR_INVALID_ARGUMENT,
                         "coop_mega_run_shared: kernel_count is 0 (a megakernel holds at least one cooperative "
                         "kernel)");
    }
    return mega_run(kernel, params, kernels, kernel_count, plans, plan_count, report, kernel_reports);
}

void coop_mega_report_free(coop_mega_report *report)
{
    if (!report)
        return;
    free(report->records);
    report->records = NULL;
    report->record_count = 0;
}
