/* Host side of the spawn queue (docs/DESIGN.md section 10.2): takes the runs the device spawned
 * (coop_device/spawn.h) into the host's list, where scheduler.c's send_next weighs them with the
 * plans' due runs. The entries are read from the channel: the control block's queue itself when
 * it is in the channel (SVM), or the agent's copy of it (coop_device/agent.h, coop_agent_spawns);
 * with several cooperative kernels, every kernel block's queue (docs/DESIGN.md section 17). Where
 * the agent serves the queue, records its runs from the record ring it writes (section 10.2, S7). */
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

/* Notes when the host first saw the agent-served run now in task slot `slot` of block k: its
 * record's request time (its ring entry may come much later). */
static coop_status note_slot(mega *m, unsigned k, unsigned slot, double now_us)
{
    uint32_t status = 0;
    coop_status failed = block_load(m, k, COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS), &status);
    if (failed == COOP_OK && status && COOP_TASK_STATUS_SEQ(status) != m->seen_run[k][slot]) {
        m->seen_run[k][slot] = COOP_TASK_STATUS_SEQ(status);
        m->seen_us[k][slot] = now_us;
    }
    return failed;
}

/* Records record ring entry `n` (its words in `entry`): an agent-served run done. */
static coop_status record_entry(mega *m, uint32_t n, const uint32_t *entry, double now_us)
{
    uint32_t status = entry[COOP_RECORD_STATUS];
    unsigned k = entry[COOP_RECORD_BLOCK], slot = COOP_TASK_STATUS_SLOT(status);
    if (k >= m->kernels || slot < m->spawn_slot || COOP_TASK_STATUS_OF(status) != COOP_TASK_DONE ||
        !(COOP_TASK_STATUS_SEQ(status) & COOP_SPAWN_SEQ_BIT))
        return coop_fail(m->ctx, COOP_ERR_OPENCL,
                         "megakernel '%s': record ring entry %u holds status %#x of kernel block %u, no agent-served "
                         "run done (docs/DESIGN.md section 10.2, S7)", m->run.name, n, status, k);
#define SLOT_WORD(name) entry[COOP_RECORD_SLOT + COOP_SLOT_##name - COOP_SLOT_TASK]
#define SLOT_TIME(name) COOP_JOIN_HALVES(SLOT_WORD(name), entry[COOP_RECORD_SLOT + COOP_SLOT_##name + 1 - COOP_SLOT_TASK])
    size_t plan = m->plan_count;
    uint32_t seq = COOP_TASK_STATUS_SEQ(status), spawner = spawner_of(m, SLOT_WORD(SPAWNER), &plan);
    double seen_us = m->seen_run[k][slot] == seq ? m->seen_us[k][slot] : now_us;
    /* its record, as for a run the host sent (coop_mega_record_run), timed by the host from when
     * it first saw the run in its slot where the device has no clock */
    flight run = {.used = 1, .block = k, .plan = plan, .seq = seq, .number = seq, .task = SLOT_WORD(TASK),
                  .want = SLOT_WORD(WANT), .in_flight = m->in_flight + 1, .spawned = 1, .spawned_by = spawner,
                  .depth = SLOT_WORD(DEPTH), .spawned_in = m->kernels > 1 ? SLOT_WORD(SPAWN_KERNEL) : 0,
                  .spawn_tick = SLOT_TIME(T_SPAWN), .spawn_seen_us = seen_us,
                  .due_ms = (seen_us - m->run.discovered_us) / 1e3, .deadline_ms = INFINITY, .request_us = seen_us};
    const uint64_t ticks[3] = {SLOT_TIME(T_REQUEST), SLOT_TIME(T_GATHERED), SLOT_TIME(T_DONE)};
#undef SLOT_TIME
#undef SLOT_WORD
    m->in_flight++;
    return coop_mega_record_run(m, &run, ticks, now_us);
}

coop_status coop_spawns_follow(mega *m, double now_us)
{
    coop_status failed = COOP_OK;
    for (unsigned k = 0; k < m->kernels && failed == COOP_OK; k++)
        for (unsigned slot = m->spawn_slot; slot < COOP_TASK_SLOTS && failed == COOP_OK; slot++)
            failed = note_slot(m, k, slot, now_us);
    uint32_t written = 0;
    /* acquire: pairs with the agent's release of its count, after the entries' words */
    if (failed != COOP_OK || (failed = ctrl_load(m, COOP_CTRL_SPAWN_WRITTEN, &written)) != COOP_OK ||
        written == m->records_read)
        return failed;
    while (m->records_read != written) {
        uint32_t entry[COOP_RECORD_WORDS];
        uint32_t n = m->records_read;
        if ((failed = block_read(m, 0, COOP_CTRL_SPAWN_RECORD(n, 0u), COOP_RECORD_WORDS, entry)) != COOP_OK ||
            (failed = record_entry(m, n, entry, now_us)) != COOP_OK)
            return failed;
        m->records_read = n + 1u;
    }
    /* release: the entries read before the agent may write them again (S7); pairs with its acquire
     * of SPAWN_READ */
    return ctrl_store(m, COOP_CTRL_SPAWN_READ, m->records_read);
}
