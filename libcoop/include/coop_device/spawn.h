/* coop_device/spawn.h: the spawn queue: a work-item of the cooperative kernel or of a task asks
 * for a task run (the language's spawn_task, which coop-merge turns into coop_spawn); an agent
 * that serves the queue itself applies the runs (coop_spawn_apply).
 * Invariants: docs/DESIGN.md section 10.2: S1 an entry is rewritten only after its consumer took
 * it, S2 a spawn never waits (a full queue or a chain at COOP_SPAWN_DEPTH_MAX is a status), S3
 * a spawned run's depth is its spawner's + 1, S7 a record ring entry is rewritten only after the
 * host read it. Part of the kernel header (coop_kernel.h includes these files in order); it uses
 * only the files before it. Nothing here runs in a program without spawn_task: no offer, barrier
 * or scheduler step reads the queue's words. */
#ifndef COOP_DEVICE_SPAWN_H
#define COOP_DEVICE_SPAWN_H

#include "task.h"

/* Queues a run of task `task` over `workgroups` workgroups with the argument words a0 .. a15,
 * from the calling work-item alone (any work-item may call it; each call is one spawn). Returns
 * COOP_SPAWN_OK once the entry is complete, or, queueing nothing, COOP_SPAWN_FULL (the queue
 * holds COOP_SPAWN_QUEUE runs the consumer has not taken), COOP_SPAWN_TOO_DEEP (the caller is a
 * run of depth COOP_SPAWN_DEPTH_MAX) or COOP_SPAWN_NO_WORK (0 workgroups). It never waits for
 * another group or the host. */
inline int coop_spawn(coop_ctx *ctx, uint task, uint workgroups, uint a0, uint a1, uint a2, uint a3, uint a4,
                      uint a5, uint a6, uint a7, uint a8, uint a9, uint a10, uint a11, uint a12, uint a13,
                      uint a14, uint a15)
{
    global uint *ctrl = ctx->ctrl;
    if (!workgroups)
        return COOP_SPAWN_NO_WORK;
    uint depth = 1u, spawner = 0u, want = 0u;
    if (ctx->role == COOP_ROLE_TASK) {
        global uint *words = coop_task_slot(ctx);
        /* relaxed: the slot's words do not change while its run has a workgroup running (T7) */
        depth = coop_load_relaxed(&words[COOP_SLOT_DEPTH]) + 1u;
        spawner = COOP_TASK_STATUS_SEQ(coop_load_relaxed(&words[COOP_SLOT_STATUS]));
        want = coop_load_relaxed(&words[COOP_SLOT_WANT]);
    }
    if (depth > COOP_SPAWN_DEPTH_MAX)
        return COOP_SPAWN_TOO_DEEP;
    /* S1: reserve ticket `head` only while the queue has room. Acquire of the tail: pairs with the
     * consumer's release of it, made after it read the entry that `head` overwrites */
    uint head = coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]);
    for (;;) {
        uint tail = coop_load_acquire(&ctrl[COOP_CTRL_SPAWN_TAIL]);
        if (head - tail >= COOP_SPAWN_QUEUE)
            return COOP_SPAWN_FULL;
        uint seen = coop_cas(&ctrl[COOP_CTRL_SPAWN_HEAD], head, head + 1u);
        if (seen == head)
            break;
        head = seen;
    }
    global uint *entry = &ctrl[COOP_CTRL_SPAWN_ENTRY(head, 0u)];
    /* S1: the entry's last ticket was head - COOP_SPAWN_QUEUE, or it was never written */
    COOP_CHECK(ctrl,
               coop_load_relaxed(&entry[COOP_SPAWN_READY]) ==
                   (head >= COOP_SPAWN_QUEUE ? head - COOP_SPAWN_QUEUE + 1u : 0u),
               COOP_CHECK_SPAWN_ENTRY, head, coop_load_relaxed(&entry[COOP_SPAWN_READY]),
               coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_TAIL]));
    coop_store_relaxed(&entry[COOP_SPAWN_TASK], task);
    coop_store_relaxed(&entry[COOP_SPAWN_RANGE], workgroups);
    coop_store_relaxed(&entry[COOP_SPAWN_DEPTH], depth);
    coop_store_relaxed(&entry[COOP_SPAWN_SPAWNER], spawner);
    coop_store_relaxed(&entry[COOP_SPAWN_WANT], want);
    const uint args[COOP_TASK_ARGS] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15};
    for (uint i = 0; i < COOP_TASK_ARGS; i++)
        coop_store_relaxed(&entry[COOP_SPAWN_ARGS + i], args[i]);
    coop_device_time(&entry[COOP_SPAWN_T_SPAWN]);
    /* release: the entry's words before READY; pairs with the consumer's acquire of READY (the
     * host's on the channel, or the agent's, which copies the entry out) */
    coop_store_release(&entry[COOP_SPAWN_READY], head + 1u);
    return COOP_SPAWN_OK;
}

/* The record ring (docs/DESIGN.md section 10.2, S7): an agent that serves the queue itself writes
 * each of its runs, once done, into the host's ring in the channel and frees the run's slot at
 * once; the host records the entries later. `written` counts the entries the agent wrote, `read`
 * the host's count of those it read, as last loaded. Whether entries are unread: the host's count
 * is loaded again only while some look so. Acquire, system scope: pairs with the host's release
 * of its count, after it read the entries below it. */
inline int coop_spawn_records_unread(global uint *ctrl, global uint *host, uint written, uint *read)
{
    if (written == *read)
        return 0;
    uint now = coop_host_load(&host[COOP_CTRL_SPAWN_READ]);
    /* S7: the host reads only entries written, and its count never goes back */
    COOP_CHECK(ctrl, now - *read <= written - *read, COOP_CHECK_SPAWN_RECORD, written, now, *read);
    *read = now;
    return written != now;
}

/* Whether the agent's task slot `slot` of block `block` (`ctrl` its control block; `status` its
 * status word, read with acquire: pairs with the last leaver's release of DONE, T3, T7) is free
 * for the agent's next spawned run: never used, or its run done and written into the record
 * ring (recorded[slot], the run last written from the slot). A done run not written yet is
 * written now where the ring has room: the entry's last run was read by the host (S7), else the
 * slot stays taken and nothing is lost. `host0` is block 0's channel copy, which holds the ring. */
inline int coop_spawn_slot_free(global uint *ctrl, global uint *host0, uint block, uint slot, uint status,
                                local uint *recorded, uint *written, uint *read)
{
    if (!status)
        return 1;
    if (COOP_TASK_STATUS_OF(status) != COOP_TASK_DONE)
        return 0;
    if (recorded[slot] == COOP_TASK_STATUS_SEQ(status))
        return 1;
    if (*written - *read >= COOP_SPAWN_RECORDS) {
        coop_spawn_records_unread(ctrl, host0, *written, read);
        if (*written - *read >= COOP_SPAWN_RECORDS)
            return 0;
    }
    global uint *entry = &host0[COOP_CTRL_SPAWN_RECORD(*written, 0u)];
    coop_host_store_relaxed(&entry[COOP_RECORD_STATUS], status);
    coop_host_store_relaxed(&entry[COOP_RECORD_BLOCK], block);
    for (uint w = 0; w < COOP_RECORD_SLOT_WORDS; w++)
        coop_host_store_relaxed(&entry[COOP_RECORD_SLOT + w],
                                coop_load_relaxed(&ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_TASK + w)]));
    *written += 1u;
    /* release, system scope: the entry's words before the count; pairs with the host's acquire
     * of SPAWN_WRITTEN */
    coop_host_store(&host0[COOP_CTRL_SPAWN_WRITTEN], *written);
    recorded[slot] = COOP_TASK_STATUS_SEQ(status);
    return 1;
}

/* An agent that serves the queue itself (COOP_DEV_SPAWN_SLOT = `first`, docs/DESIGN.md section
 * 10.2) applies queue ticket `ticket` as request COOP_SPAWN_SEQ_BIT | `number`, into the first task
 * slot from `first` on that is free (coop_spawn_slot_free: never used, or done and its run
 * written into the record ring). The caller has seen no request gathering (T6). Returns 1 once
 * applied (the ticket is then taken), 0 when the entry is not complete or no slot is free. */
inline int coop_spawn_apply(global uint *ctrl, global uint *host, uint first, uint ticket, uint number,
                            uint members, local uint *recorded, uint *written, uint *read)
{
    global uint *entry = &ctrl[COOP_CTRL_SPAWN_ENTRY(ticket, 0u)];
    /* acquire: pairs with the spawner's release of READY, after the entry's words */
    if (coop_load_acquire(&entry[COOP_SPAWN_READY]) != ticket + 1u)
        return 0;
    uint slot = first;
    /* acquire of each status: pairs with the last leaver's release of DONE (T3, T7) */
    while (slot < COOP_TASK_SLOTS &&
           !coop_spawn_slot_free(ctrl, host, 0u, slot, coop_load_acquire(&ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS)]),
                                 recorded, written, read))
        slot++;
    if (slot == COOP_TASK_SLOTS)
        return 0;
    global uint *words = &ctrl[COOP_CTRL_SLOT(slot, 0u)];
    uint range = coop_load_relaxed(&entry[COOP_SPAWN_RANGE]), cap = coop_load_relaxed(&entry[COOP_SPAWN_WANT]);
    coop_store_relaxed(&words[COOP_SLOT_SPAWNER], coop_load_relaxed(&entry[COOP_SPAWN_SPAWNER]));
    coop_store_relaxed(&words[COOP_SLOT_T_SPAWN], coop_load_relaxed(&entry[COOP_SPAWN_T_SPAWN]));
    coop_store_relaxed(&words[COOP_SLOT_T_SPAWN + 1u], coop_load_relaxed(&entry[COOP_SPAWN_T_SPAWN + 1u]));
    coop_apply_task(ctrl, COOP_SPAWN_SEQ_BIT | (number & (COOP_SPAWN_SEQ_BIT - 1u)), slot,
                    coop_load_relaxed(&entry[COOP_SPAWN_TASK]),
                    COOP_SPAWN_WANT_OF(range, cap, members), range,
                    coop_load_relaxed(&entry[COOP_SPAWN_DEPTH]), &entry[COOP_SPAWN_ARGS]);
    /* release: the entry read before the spawners may write it again (S1); pairs with their
     * acquire of the tail */
    coop_store_release(&ctrl[COOP_CTRL_SPAWN_TAIL], ticket + 1u);
    return 1;
}

#endif
