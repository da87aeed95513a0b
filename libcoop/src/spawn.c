/* Host side of the spawn queue (docs/DESIGN.md section 10.2): takes the runs the device spawned
 * (coop_device/spawn.h) into the host's list, where scheduler.c's send_next weighs them with the
 * plans' due runs. The entries are read from the channel: the control block's queue itself when
 * it is in the channel (SVM), or the agent's copy of it (coop_device/agent.h, coop_agent_spawns). */
#include "mega.h"

#include <stdlib.h>

/* The full request number whose low 28 bits (a status word's) are `kept`: the last one sent
 * with them. */
static uint32_t full_request(const mega *m, uint32_t kept)
{
    return m->seq - ((m->seq - kept) & 0x0fffffffu);
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
        coop_status status = coop_channel_load(m->ctx, COOP_CHAN_CTRL + COOP_CTRL_SPAWN_ENTRY(ticket, COOP_SPAWN_READY),
                                               &ready);
        if (status != COOP_OK)
            return status;
        if (ready != ticket + 1u)
            return COOP_OK;
        uint32_t words[COOP_SPAWN_WORDS] = {0};
        for (unsigned w = 1; w < COOP_SPAWN_WORDS && status == COOP_OK; w++)
            status = coop_channel_load(m->ctx, COOP_CHAN_CTRL + COOP_CTRL_SPAWN_ENTRY(ticket, w), &words[w]);
        if (status != COOP_OK)
            return status;
        spawn_run *run = &m->spawns[m->spawn_count++];
        *run = (spawn_run){.task = words[COOP_SPAWN_TASK], .workgroups = words[COOP_SPAWN_RANGE],
                           .depth = words[COOP_SPAWN_DEPTH], .spawner = words[COOP_SPAWN_SPAWNER],
                           .spawn_tick = COOP_JOIN_HALVES(words[COOP_SPAWN_T_SPAWN], words[COOP_SPAWN_T_SPAWN + 1]),
                           .seen_us = now_us, .due_ms = (now_us - m->run.discovered_us) / 1e3,
                           .order = m->spawn_order++, .plan = m->plan_count};
        for (unsigned i = 0; i < COOP_TASK_ARGS; i++)
            run->args[i] = words[COOP_SPAWN_ARGS + i];
        if (run->spawner) {
            run->spawner = full_request(m, run->spawner);
            if (run->spawner < m->chain_capacity)
                run->plan = m->chain_plan[run->spawner];
        }
        m->spawn_tail = ticket + 1u;
        /* release: this host's reads of the entry before the spawners (through the agent where
         * there is one) may write it again (S1) */
        if ((status = coop_channel_store(m->ctx, COOP_CHAN_CTRL + COOP_CTRL_SPAWN_TAIL, m->spawn_tail)) != COOP_OK)
            return status;
    }
    return COOP_OK;
}
