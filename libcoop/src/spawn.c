/* Host side of the spawn queue (docs/DESIGN.md section 10.2): takes the runs the device spawned
 * (coop_device/spawn.h) into the host's list, where scheduler.c's send_next weighs them with the
 * plans' due runs. The entries are read from the channel: the control block's queue itself when
 * it is in the channel (SVM), or the agent's copy of it (coop_device/agent.h, coop_agent_spawns);
 * with several cooperative kernels, every kernel block's queue (docs/DESIGN.md section 17). */
#include "mega.h"

#include <math.h>
#include <stdlib.h>

/* The full request number whose low 28 bits (a status word's) are `kept`: the last one sent
 * with them, or an agent-served run's number (COOP_SPAWN_SEQ_BIT set), which is all kept. */
static uint32_t full_request(const mega *m, uint32_t kept)
{
    return kept & COOP_SPAWN_SEQ_BIT ? kept : m->seq - ((m->seq - kept) & (COOP_SPAWN_SEQ_BIT - 1u));
}

/* The spawning run of a spawned one, from the low 28 bits of its request number (`kept`, a status
 * word's): its number among the task runs, as its record has it (an agent-served run's is its
 * own request number), and in *plan the plan its chain began from: the spawner's, COOP_PLAN_PENDING
 * for an agent-served spawner (fill_report resolves it), or plan_count for the cooperative
 * kernel's chains (`kept` 0: the kernel spawned it, number 0). */
static uint32_t spawner_of(const mega *m, uint32_t kept, size_t *plan)
{
    *plan = m->plan_count;
    if (!kept)
        return 0;
    uint32_t seq = full_request(m, kept);
    if (seq & COOP_SPAWN_SEQ_BIT) {
        *plan = COOP_PLAN_PENDING;
        return seq;
    }
    if (seq >= m->chain_capacity)
        return seq;
    *plan = m->chains[seq].plan;
    return m->chains[seq].number;
}

coop_status coop_spawns_note(mega *m, uint32_t seq, size_t plan, uint32_t number)
{
    if (seq >= m->chain_capacity) {
        size_t capacity = m->chain_capacity ? 2 * m->chain_capacity : 256;
        while (capacity <= seq)
            capacity *= 2;
        struct chain_note *grown = realloc(m->chains, capacity * sizeof *grown);
        if (!grown)
            return coop_fail(m->ctx, COOP_ERR_NO_MEMORY, "out of memory recording tasks");
        m->chains = grown;
        m->chain_capacity = capacity;
    }
    m->chains[seq] = (struct chain_note){.plan = plan, .number = number};
    return COOP_OK;
}

/* Takes block k's next ticket into the list if its entry is complete; sets *taken. */
static coop_status take_one(mega *m, unsigned k, double now_us, int *taken)
{
    uint32_t ticket = m->spawn_tail[k], ready = 0;
    *taken = 0;
    /* acquire (coop_channel_load): pairs with the spawner's release of READY, or the agent's
     * release of its copy, after the entry's words */
    coop_status status = block_load(m, k, COOP_CTRL_SPAWN_ENTRY(ticket, COOP_SPAWN_READY), &ready);
    if (status != COOP_OK || ready != ticket + 1u)
        return status;
    uint32_t words[COOP_SPAWN_WORDS] = {0};
    for (unsigned w = 1; w < COOP_SPAWN_WORDS && status == COOP_OK; w++)
        status = block_load(m, k, COOP_CTRL_SPAWN_ENTRY(ticket, w), &words[w]);
    if (status != COOP_OK)
        return status;
    spawn_run *run = &m->spawns[m->spawn_count++];
    *run = (spawn_run){.task = words[COOP_SPAWN_TASK], .workgroups = words[COOP_SPAWN_RANGE],
                       .cap = words[COOP_SPAWN_WANT],
                       .depth = words[COOP_SPAWN_DEPTH], .spawner = words[COOP_SPAWN_SPAWNER],
                       .spawn_tick = COOP_JOIN_HALVES(words[COOP_SPAWN_T_SPAWN], words[COOP_SPAWN_T_SPAWN + 1]),
                       .seen_us = now_us, .due_ms = (now_us - m->run.discovered_us) / 1e3,
                       .order = m->spawn_order++, .plan = m->plan_count, .kernel = k};
    for (unsigned i = 0; i < COOP_TASK_ARGS; i++)
        run->args[i] = words[COOP_SPAWN_ARGS + i];
    run->spawner = spawner_of(m, run->spawner, &run->plan);
    m->spawn_tail[k] = ticket + 1u;
    *taken = 1;
    /* release: this host's reads of the entry before the spawners (through the agent where
     * there is one) may write it again (S1) */
    return block_store(m, k, COOP_CTRL_SPAWN_TAIL, m->spawn_tail[k]);
}

coop_status coop_spawns_take(mega *m, double now_us)
{
    /* a ticket of each block in turn: a block whose queue fills faster than the host sends takes
     * no other block's place in the list */
    for (int more = 1; more && m->spawn_count < COOP_SPAWN_QUEUE;) {
        more = 0;
        for (unsigned k = 0; k < m->kernels && m->spawn_count < COOP_SPAWN_QUEUE; k++) {
            int taken = 0;
            coop_status status = take_one(m, k, now_us, &taken);
            if (status != COOP_OK)
                return status;
            more |= taken;
        }
    }
    return COOP_OK;
}

coop_status coop_spawns_left(mega *m, int *left)
{
    uint32_t value = 0;
    coop_status status = COOP_OK;
    *left = 0;
    if (m->spawn_slot) {
        status = ctrl_load(m, COOP_CTRL_SPAWN_BUSY, &value);
        *left = value != 0;
        return status;
    }
    for (unsigned k = 0; k < m->kernels && status == COOP_OK && !*left; k++) {
        status = block_load(m, k, COOP_CTRL_SPAWN_HEAD, &value);
        *left = value != m->spawn_tail[k];
    }
    return status;
}

/* Records the agent-served run in task slot `slot` of block k once it is done. */
static coop_status follow_slot(mega *m, unsigned k, unsigned slot, double now_us)
{
    uint32_t status = 0;
    /* acquire: pairs with the agent's release of the status, after the slot's words */
    coop_status failed = block_load(m, k, COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS), &status);
    if (failed != COOP_OK || !status || COOP_TASK_STATUS_SEQ(status) == m->acked[k][slot])
        return failed;
    if (!m->seen_us[k][slot])
        m->seen_us[k][slot] = now_us;
    if (COOP_TASK_STATUS_OF(status) != COOP_TASK_DONE)
        return COOP_OK;
    uint32_t words[COOP_SLOT_SPAWN_KERNEL - COOP_SLOT_TASK + 1] = {0};
    /* one kernel: the agent copies no SPAWN_KERNEL word (its block is 0) */
    unsigned last = m->kernels > 1 ? COOP_SLOT_SPAWN_KERNEL : COOP_SLOT_SPAWNER;
    for (unsigned w = 0; w <= last - COOP_SLOT_TASK && failed == COOP_OK; w++)
        failed = block_load(m, k, COOP_CTRL_SLOT(slot, COOP_SLOT_TASK + w), &words[w]);
    if (failed != COOP_OK)
        return failed;
#define SLOT_WORD(name) words[COOP_SLOT_##name - COOP_SLOT_TASK]
    size_t plan = m->plan_count;
    uint32_t spawner = spawner_of(m, SLOT_WORD(SPAWNER), &plan);
    double seen_us = m->seen_us[k][slot];
    /* its record, as for a run the host sent (coop_mega_record), timed by the host from when
     * it first saw the slot busy where the device has no clock */
    m->slots[slot] = (flight){.used = 1, .block = k, .plan = plan,
                              .seq = COOP_TASK_STATUS_SEQ(status), .number = COOP_TASK_STATUS_SEQ(status),
                              .task = SLOT_WORD(TASK), .want = SLOT_WORD(WANT), .in_flight = m->in_flight + 1,
                              .spawned = 1, .spawned_by = spawner, .depth = SLOT_WORD(DEPTH),
                              .spawned_in = SLOT_WORD(SPAWN_KERNEL),
                              .spawn_tick = COOP_JOIN_HALVES(SLOT_WORD(T_SPAWN), words[COOP_SLOT_T_SPAWN + 1 -
                                                                                       COOP_SLOT_TASK]),
                              .spawn_seen_us = seen_us, .due_ms = (seen_us - m->run.discovered_us) / 1e3,
                              .deadline_ms = INFINITY, .request_us = seen_us};
#undef SLOT_WORD
    m->in_flight++;
    if ((failed = coop_mega_record(m, slot, now_us)) != COOP_OK)
        return failed;
    m->acked[k][slot] = COOP_TASK_STATUS_SEQ(status);
    m->seen_us[k][slot] = 0;
    /* the agent may give the slot to the next spawned run once it reads this (block 0's word:
     * an agent-served slot is in one block at a time, and the agent knows which) */
    return ctrl_store(m, COOP_CTRL_SPAWN_ACK + slot, m->acked[k][slot]);
}

coop_status coop_spawns_follow(mega *m, double now_us)
{
    for (unsigned k = 0; k < m->kernels; k++)
        for (unsigned slot = m->spawn_slot; m->spawn_slot && slot < COOP_TASK_SLOTS; slot++) {
            coop_status failed = follow_slot(m, k, slot, now_us);
            if (failed != COOP_OK)
                return failed;
        }
    return COOP_OK;
}
