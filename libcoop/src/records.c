/* A task run's record (coop_task_record) once its slot's task is done, with its device times
 * where the kernel wrote them: for the runs the host sent (scheduler.c) and the spawned runs an
 * agent applied itself (spawn.c). */
#include "mega.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t load_time(mega *m, unsigned block, unsigned slot)
{
    uint32_t low = 0, high = 0;
    block_load(m, block, slot, &low);
    block_load(m, block, slot + 1, &high);
    return COOP_JOIN_HALVES(low, high);
}

coop_status coop_mega_record(mega *m, unsigned slot, double done_us)
{
    uint64_t ticks[3] = {0, 0, 0};
    if (m->device_clock) {
        unsigned block = m->slots[slot].block;
        ticks[0] = load_time(m, block, COOP_CTRL_SLOT(slot, COOP_SLOT_T_REQUEST));
        ticks[1] = load_time(m, block, COOP_CTRL_SLOT(slot, COOP_SLOT_T_GATHERED));
        ticks[2] = load_time(m, block, COOP_CTRL_SLOT(slot, COOP_SLOT_T_DONE));
    }
    return coop_mega_record_run(m, &m->slots[slot], ticks, done_us);
}

coop_status coop_mega_record_run(mega *m, flight *f, const uint64_t ticks[3], double done_us)
{
    if (m->record_count == m->record_capacity) {
        size_t capacity = m->record_capacity ? 2 * m->record_capacity : 64;
        coop_task_record *grown = realloc(m->records, capacity * sizeof *grown);
        if (!grown)
            return coop_fail(m->ctx, COOP_ERR_NO_MEMORY, "out of memory recording tasks");
        m->records = grown;
        coop_trace_task *more = realloc(m->tasks, capacity * sizeof *more);
        if (!more)
            return coop_fail(m->ctx, COOP_ERR_NO_MEMORY, "out of memory recording tasks");
        m->tasks = more;
        m->record_capacity = capacity;
    }
    coop_trace_task *t = &m->tasks[m->record_count];
    coop_task_record *r = &m->records[m->record_count++];
    memset(r, 0, sizeof *r);
    r->plan = f->plan < m->plan_count || f->plan == COOP_PLAN_PENDING ? (unsigned)f->plan : COOP_PLAN_KERNEL;
    r->task = f->task;
    r->spawned = f->spawned;
    r->spawned_by = f->spawned_by;
    r->depth = f->depth;
    r->kernel = f->block;
    r->spawn_kernel = f->spawned_in;
    r->groups = f->want;
    r->request = f->number;
    r->due_ms = f->due_ms;
    r->deadline_ms = isfinite(f->deadline_ms) ? f->deadline_ms : 0.0;
    r->overtaken = f->overtaken;
    r->in_flight = f->in_flight;
    r->request_ms = (f->request_us - m->run.discovered_us) / 1e3;
    r->response_us = done_us - f->request_us;
    r->deadline_met = (done_us - m->run.discovered_us) / 1e3 <= f->deadline_ms;
    *t = (coop_trace_task){.request = f->number, .seq = f->seq, .plan = r->plan, .task = f->task, .groups = r->groups,
                           .sent_us = f->request_us, .done_us = done_us, .due_ms = f->due_ms,
                           .deadline_ms = r->deadline_ms,
                           .deadline_met = r->deadline_met};
    if (m->device_clock) {
        t->request_tick = ticks[0];
        t->gathered_tick = ticks[1];
        t->done_tick = ticks[2];
    }
    /* Timed by the device (fill_report converts, once the clock's rate is known), or by the host. */
    r->device_timed = t->request_tick > 0 && t->gathered_tick >= t->request_tick && t->done_tick >= t->gathered_tick;
    if (!r->device_timed) {
        double running_us = f->running_us > 0 ? f->running_us : done_us;
        r->gather_us = running_us - f->request_us;
        r->exec_us = done_us - running_us;
    }
    /* a spawned run's wait in the queue: by the device's clock from the spawn to the request
     * (converted with the rest, fill_report), else by the host's from when it took it */
    t->spawn_tick = f->spawned && r->device_timed && f->spawn_tick && f->spawn_tick <= t->request_tick
                        ? f->spawn_tick
                        : 0;
    if (f->spawned && !t->spawn_tick)
        r->spawn_wait_us = f->request_us - f->spawn_seen_us;
    f->used = 0;
    m->in_flight--;
    return COOP_OK;
}
