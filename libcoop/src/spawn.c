/* Host side of the spawn queue (docs/DESIGN.md section 10.2): takes the runs the device spawned
 * (coop_device/spawn.h) into the host's list, where scheduler.c's send_next weighs them with the
 * plans' due runs. The entries are read from the channel: the control block's queue itself when
 * it is in the channel (SVM), or the agent's copy of it (coop_device/agent.h, coop_agent_spawns). */
#include "mega.h"

#include <math.h>
#include <stdlib.h>

/* The full request number whose low 28 bits (a status word's) are `kept`: the last one sent
 * with them, or an agent-served run's number (COOP_SPAWN_SEQ_BIT set), which is all kept. */
static uint32_t full_request(const mega *m, uint32_t kept)
{
    return kept & COOP_SPAWN_SEQ_BIT ? kept : m->seq - ((m->seq - kept) & (COOP_SPAWN_SEQ_BIT - 1u));
}

/* The plan a run spawned by request `spawner` is in the chain of: the spawner's (a request the
 * host sent), COOP_PLAN_PENDING for an agent-served spawner (fill_report resolves it), or
 * plan_count for the cooperative kernel's chains. */
static size_t chain_of(const mega *m, uint32_t spawner)
{
    if (!spawner)
        return m->plan_count;
    if (spawner & COOP_SPAWN_SEQ_BIT)
        return COOP_PLAN_PENDING;
    return spawner < m->chain_capacity ? m->chain_plan[spawner] : m->plan_count;
}

coop_status coop_spawns_note(mega *m, uint32_t seq, size_t plan)
{
    if (seq >= m->chain_capacity) {
        size_t capacity = m->chain_capacity ? 2 * m->chain_capacity : 256;
        while (capacity <= seq)
            capacity *= 2;
        size_t *grown = realloc(m->chain_plan, capacity * sizeof *grown);
        if (!grown)
            return coop_fail(m->ctx, COOP_ERR_NO_MEMORY, "out of memory recording tasks");
        m->chain_plan = grown;
        m->chain_capacity = capacity;
    }
    m->chain_plan[seq] = plan;
    return COOP_OK;
}

coop_status coop_spawns_take(mega *m, double now_us)
{
    while (m->spawn_count < COOP_SPAWN_QUEUE) {
        uint32_t ticket = m->spawn_tail, ready = 0;
        /* acquire (coop_channel_load): pairs with the spawner's release of READY, or the agent's
         * release of its copy, after the entry's words */
        coop_status status = ctrl_load(m, COOP_CTRL_SPAWN_ENTRY(ticket, COOP_SPAWN_READY), &ready);
        if (status != COOP_OK)
            return status;
        if (ready != ticket + 1u)
            return COOP_OK;
        uint32_t words[COOP_SPAWN_WORDS] = {0};
        for (unsigned w = 1; w < COOP_SPAWN_WORDS && status == COOP_OK; w++)
            status = ctrl_load(m, COOP_CTRL_SPAWN_ENTRY(ticket, w), &words[w]);
        if (status != COOP_OK)
            return status;
        spawn_run *run = &m->spawns[m->spawn_count++];
        *run = (spawn_run){.task = words[COOP_SPAWN_TASK], .workgroups = words[COOP_SPAWN_RANGE],
                           .cap = words[COOP_SPAWN_WANT],
                           .depth = words[COOP_SPAWN_DEPTH], .spawner = words[COOP_SPAWN_SPAWNER],
                           .spawn_tick = COOP_JOIN_HALVES(words[COOP_SPAWN_T_SPAWN], words[COOP_SPAWN_T_SPAWN + 1]),
                           .seen_us = now_us, .due_ms = (now_us - m->run.discovered_us) / 1e3,
                           .order = m->spawn_order++, .plan = m->plan_count};
        for (unsigned i = 0; i < COOP_TASK_ARGS; i++)
            run->args[i] = words[COOP_SPAWN_ARGS + i];
        if (run->spawner) {
            run->spawner = full_request(m, run->spawner);
            run->plan = chain_of(m, run->spawner);
        }
        m->spawn_tail = ticket + 1u;
        /* release: this host's reads of the entry before the spawners (through the agent where
         * there is one) may write it again (S1) */
        if ((status = ctrl_store(m, COOP_CTRL_SPAWN_TAIL, m->spawn_tail)) != COOP_OK)
            return status;
    }
    return COOP_OK;
}

coop_status coop_spawns_follow(mega *m, double now_us)
{
    for (unsigned slot = m->spawn_slot; m->spawn_slot && slot < COOP_TASK_SLOTS; slot++) {
        uint32_t status = 0;
        /* acquire: pairs with the agent's release of the status, after the slot's words */
        coop_status failed =
            ctrl_load(m, COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS), &status);
        if (failed != COOP_OK)
            return failed;
        if (!status || COOP_TASK_STATUS_SEQ(status) == m->acked[slot])
            continue;
        if (!m->seen_us[slot])
            m->seen_us[slot] = now_us;
        if (COOP_TASK_STATUS_OF(status) != COOP_TASK_DONE)
            continue;
        uint32_t words[COOP_SLOT_SPAWNER - COOP_SLOT_TASK + 1] = {0};
        for (unsigned w = 0; w <= COOP_SLOT_SPAWNER - COOP_SLOT_TASK && failed == COOP_OK; w++)
            failed = ctrl_load(m, COOP_CTRL_SLOT(slot, COOP_SLOT_TASK + w), &words[w]);
        if (failed != COOP_OK)
            return failed;
#define SLOT_WORD(name) words[COOP_SLOT_##name - COOP_SLOT_TASK]
        uint32_t spawner = SLOT_WORD(SPAWNER) ? full_request(m, SLOT_WORD(SPAWNER)) : 0;
        double seen_us = m->seen_us[slot];
        /* its record, as for a run the host sent (coop_mega_record), timed by the host from when
         * it first saw the slot busy where the device has no clock */
        m->slots[slot] = (flight){.used = 1, .plan = chain_of(m, spawner), .seq = COOP_TASK_STATUS_SEQ(status),
                                  .number = COOP_TASK_STATUS_SEQ(status),
                                  .task = SLOT_WORD(TASK), .want = SLOT_WORD(WANT), .in_flight = m->in_flight + 1,
                                  .spawned = 1, .spawned_by = spawner, .depth = SLOT_WORD(DEPTH),
                                  .spawn_tick = COOP_JOIN_HALVES(SLOT_WORD(T_SPAWN), words[COOP_SLOT_T_SPAWN + 1 -
                                                                                           COOP_SLOT_TASK]),
                                  .spawn_seen_us = seen_us, .due_ms = (seen_us - m->run.discovered_us) / 1e3,
                                  .deadline_ms = INFINITY, .request_us = seen_us};
#undef SLOT_WORD
        m->in_flight++;
        if ((failed = coop_mega_record(m, slot, now_us)) != COOP_OK)
            return failed;
        m->acked[slot] = COOP_TASK_STATUS_SEQ(status);
        m->seen_us[slot] = 0;
        /* the agent may give the slot to the next spawned run once it reads this */
        failed = ctrl_store(m, COOP_CTRL_SPAWN_ACK + slot, m->acked[slot]);
        if (failed != COOP_OK)
            return failed;
    }
    return COOP_OK;
}
