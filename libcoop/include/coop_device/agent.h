/* coop_device/agent.h: the agent group: copies the host's requests in and the reports out when
 * the control block is in device memory, and the spawn queue's entries out.
 * Invariants: docs/DESIGN.md section 11: A1 requests once each in order, A2 times before DONE,
 * A3 the agent never takes a member role; section 10.2's S1 and S4 for the spawn queue's copy,
 * S4, S5 and S7 (the record ring) where it serves the queue.
 * Part of the kernel header (coop_kernel.h includes these files in order); it uses only the
 * files before it. */
#ifndef COOP_DEVICE_AGENT_H
#define COOP_DEVICE_AGENT_H

#include "spawn.h"

/* The control-block slots the agent copies out to the host when they change: the scheduler's
 * state, the slots whose AGENT column in coop_layout.h's table says OUT(n), in the order of n,
 * then the report range (but the host's dump request); the status words (coop_agent_status) go
 * apart, last, each task slot's with its times. The table gives each OUT(n) slot the
 * name COOP_AGENT_SLOT_n: COOP_AGENT_ROW_ makes a row's OUT(n) into `COOP_AGENT_SLOT_n =
 * COOP_AGENT_NAME_(NAME)`, which gives `COOP_CTRL_NAME,`; NO gives nothing. A second OUT(n)
 * with the same n fails as a duplicate name, an n without a case below as a wrong count. */
#define COOP_AGENT_ROW_(name, word, words, agent, label, watch) COOP_AGENT_ROW_##agent(name)
#define COOP_AGENT_ROW_OUT(n) COOP_AGENT_SLOT_##n = COOP_AGENT_NAME_
#define COOP_AGENT_NAME_(name) COOP_CTRL_##name,
#define COOP_AGENT_ROW_NO(name)
enum coop_agent_slot_name { COOP_CTRL_SLOTS(COOP_AGENT_ROW_) };
#define COOP_AGENT_COUNT_(name, word, words, agent, label, watch) + COOP_AGENT_COUNT_##agent
#define COOP_AGENT_COUNT_OUT(n) 1u
#define COOP_AGENT_COUNT_NO 0u
#define COOP_AGENT_NAMED (0u COOP_CTRL_SLOTS(COOP_AGENT_COUNT_))
#define COOP_AGENT_MIRRORED (COOP_AGENT_NAMED + COOP_CTRL_REPORT_END - COOP_CTRL_REPORT - 1u)
#define COOP_AGENT_TIME_WORDS 6u  /* a slot's T_REQUEST, T_GATHERED, T_DONE, in a row */
#define COOP_AGENT_STATUSES (1u + COOP_TASK_SLOTS) /* TASK_STATUS and each slot's status */
COOP_LAYOUT_ASSERT(COOP_AGENT_NAMED == 6u, agent_one_case_per_named_slot);
/* the spawn queue's head is copied before STATE, which coop_agent copies with release */
COOP_LAYOUT_ASSERT(COOP_AGENT_SLOT_0 == COOP_CTRL_STATE, agent_state_first);
COOP_LAYOUT_ASSERT(COOP_SLOT_T_GATHERED == COOP_SLOT_T_REQUEST + 2 && COOP_SLOT_T_DONE == COOP_SLOT_T_REQUEST + 4,
                   agent_slot_times_in_a_row);
/* the agent keeps the values it copied and those it read, in the sweep's scratch (coop_agent) */
COOP_LAYOUT_ASSERT(2u * (COOP_AGENT_MIRRORED + COOP_AGENT_STATUSES) + COOP_TASK_SLOTS <= COOP_SWEEP_WIDTH,
                   agent_copies_fit_in_scratch);
inline uint coop_agent_slot(uint i)
{
    switch (i) {
    case 0: return COOP_AGENT_SLOT_0;
    case 1: return COOP_AGENT_SLOT_1;
    case 2: return COOP_AGENT_SLOT_2;
    case 3: return COOP_AGENT_SLOT_3;
    case 4: return COOP_AGENT_SLOT_4;
    case 5: return COOP_AGENT_SLOT_5;
    default: {
        uint slot = COOP_CTRL_REPORT + i - COOP_AGENT_NAMED;
        return slot >= COOP_CTRL_DUMP ? slot + 1u : slot;
    }
    }
}

/* The status words the agent reads first and copies out last: TASK_STATUS, then each slot's. */
inline uint coop_agent_status(uint i)
{
    return i == 0u ? COOP_CTRL_TASK_STATUS : COOP_CTRL_SLOT(i - 1u, COOP_SLOT_STATUS);
}

/* Copies a new request from the host into the control block: after the sequence number's
 * acquire, relaxed system-scope loads (a device-scope load of host memory may hit a stale L2
 * line), four in flight at a time rather than one after another across the bus. */
inline void coop_agent_copy_request(global uint *ctrl, global uint *host)
{
    for (uint first = COOP_CTRL_REQ_KIND; first < COOP_CTRL_REQ_END; first += 4u) {
        uint v[4];
        for (uint i = 0; i < 4u; i++)
            v[i] = first + i < COOP_CTRL_REQ_END ? coop_host_load_relaxed(&host[first + i]) : 0u;
        for (uint i = 0; i < 4u; i++)
            if (first + i < COOP_CTRL_REQ_END)
                coop_store_relaxed(&ctrl[first + i], v[i]);
    }
}

/* Copies the spawn queue's complete entries out to the host's copy of the queue, in ticket order
 * from `copied`, then its head (the tickets reserved so far), and brings the host's tail in once
 * it moved; returns the next ticket to copy. `*freed` is the last tail brought in. Called after
 * the pass's acquire loads of the status words and of STATE, so that the head it copies counts
 * every spawn made before the task ends and member finishes those show (the host's shutdown
 * waits for its tail to reach that head). A queue nobody spawned into costs one relaxed load. */
inline uint coop_agent_spawns(global uint *ctrl, global uint *host, uint copied, uint *freed)
{
    uint head = coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]);
    if (copied == head && copied == *freed)
        return copied;
    for (uint ticket = copied; ticket != head; ticket++) {
        global uint *entry = &ctrl[COOP_CTRL_SPAWN_ENTRY(ticket, 0u)];
        /* acquire: pairs with the spawner's release of READY, after the entry's words */
        if (coop_load_acquire(&entry[COOP_SPAWN_READY]) != ticket + 1u)
            break;
        for (uint w = 1; w < COOP_SPAWN_WORDS; w++)
            coop_host_store_relaxed(&host[COOP_CTRL_SPAWN_ENTRY(ticket, w)], coop_load_relaxed(&entry[w]));
        /* release: the copied words before READY; pairs with the host's acquire of READY. The
         * host's copy of this entry is free: the host took ticket - COOP_SPAWN_QUEUE before its
         * tail let a spawner reserve this ticket (S1) */
        coop_host_store(&host[COOP_CTRL_SPAWN_ENTRY(ticket, COOP_SPAWN_READY)], ticket + 1u);
        copied = ticket + 1u;
    }
    /* relaxed: the release of STATE's copy after it orders it (coop_agent) */
    coop_host_store_relaxed(&host[COOP_CTRL_SPAWN_HEAD], head);
    /* acquire, system scope: pairs with the host's release of its tail, after it read the
     * entries below it; release: pairs with the spawners' acquire of the tail (S1) */
    uint tail = coop_host_load(&host[COOP_CTRL_SPAWN_TAIL]);
    if (tail != *freed) {
        coop_store_release(&ctrl[COOP_CTRL_SPAWN_TAIL], tail);
        *freed = tail;
    }
    return copied;
}

/* 200 ns pauses the agent takes between passes (see coop_agent); a build may set them. They
 * bound how soon the host sees the members finished: on the H200 a run of bfs on a 2x2 grid took
 * 16-17 us cooperative with 8 or none, as standalone, and 26-27 us with 64. */
#ifndef COOP_AGENT_PAUSES
#define COOP_AGENT_PAUSES 8u
#endif

/* Whether a spawned run waits in the queue the agent serves (`first`: from which task slot, 0:
 * none) and could be applied now: a ticket past `taken` and no task gathering (T6). */
inline int coop_agent_spawn_waits(global uint *ctrl, uint first, uint taken)
{
    return first && taken != coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]) &&
           COOP_TASK_STATUS_OF(coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS])) != COOP_TASK_GATHERING;
}

/* The agent (local id 0 of the last group, where the channel is not device memory): moves host
 * requests into the control block and the scheduler's state out, until shutdown. The last
 * values it copied out live in its scratch (an agent never sweeps): in registers they would
 * count against every group of the megakernel. */
COOP_COLD void coop_agent(coop_ctx *ctx)
{
    global uint *ctrl = ctx->ctrl;
    global uint *host = ctx->chan + COOP_CHAN_CTRL;
    local uint *shadow = ctx->scratch + COOP_SCRATCH_SWEEP;
    local uint *now = shadow + COOP_AGENT_MIRRORED;
    local uint *statuses = now + COOP_AGENT_MIRRORED;                 /* last copied */
    local uint *statuses_now = statuses + COOP_AGENT_STATUSES;
    local uint *recorded = statuses_now + COOP_AGENT_STATUSES;        /* coop_spawn_slot_free's */
    uint applied = 0, dumped = 0, spawns_copied = 0, spawns_freed = 0;
    /* serving the spawn queue itself (section 10.2): from which slot, the next ticket, the runs
     * applied, whether the host's request went last (the two alternate while both wait), the
     * busy word last copied out, and the record ring's entries written and read (S7) */
    uint spawn_first = coop_load_relaxed(&ctx->dev[COOP_DEV_SPAWN_SLOT]);
    uint spawns_taken = 0, spawned = 0, host_went_last = 0, busy_copied = 0xffffffffu;
    uint records_written = 0, records_read = 0;
    /* a spawned run waiting cuts a pass's copies out short, in every other pass at most: a
     * spawner often spawns as its last run starts, when the pass has the most to copy (the
     * statuses, their times, STATE: stores across the bus, some with a system-wide release);
     * what a cut pass left is copied in the next (H200, spawn-bench: spawn to start 10.4-10.9 us
     * median against 12.0-12.1, p99 12.3-12.7 against 16.2-16.6) */
    uint cut = 0;
    uint members = ctx->physical_groups - 1u;
    for (uint i = 0; i < COOP_AGENT_MIRRORED; i++)
        shadow[i] = 0xffffffffu;
    for (uint i = 0; i < COOP_AGENT_STATUSES; i++)
        statuses[i] = 0xffffffffu;
    for (uint s = 0; s < COOP_TASK_SLOTS; s++)
        recorded[s] = 0u;
    for (;;) {
        uint may_cut = !cut;
        cut = 0;
        /* both reads of host memory in flight at once (a dump needs no ordering) */
        uint dump = coop_host_load_relaxed(&host[COOP_CTRL_DUMP]);
        uint seq = coop_host_load(&host[COOP_CTRL_REQ_SEQ]);
        /* T6 with two sources of requests: apply one only while none gathers. Acquire: pairs
         * with the starter's release of RUNNING, after it cleared the kill tokens (K7) */
        int gathering = spawn_first && COOP_TASK_STATUS_OF(coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS])) ==
                                           COOP_TASK_GATHERING;
        if (spawn_first && !gathering && spawns_taken != coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]) &&
            (host_went_last || seq == applied) &&
            coop_spawn_apply(ctrl, host, spawn_first, spawns_taken, spawned, members, recorded, &records_written,
                             &records_read)) {
#if COOP_TRACING
            COOP_TRACE_EVENT(ctx, coop_load_relaxed64((global ulong *)&ctrl[COOP_CTRL_SLOT(
                                      COOP_TASK_STATUS_SLOT(coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS])),
                                      COOP_SLOT_T_REQUEST)]),
                             COOP_EV_REQUEST, COOP_SPAWN_SEQ_BIT | spawned,
                             coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_ENTRY(spawns_taken, COOP_SPAWN_TASK)]));
#endif
            spawns_taken++;
            spawned++;
            host_went_last = 0;
            gathering = 1;
        }
        if (seq != applied && !gathering) {
            coop_agent_copy_request(ctrl, host);
#if COOP_TRACING
            ulong requested = coop_apply_request(ctrl, seq);
            if (requested)
                COOP_TRACE_EVENT(ctx, requested, COOP_EV_REQUEST, seq, coop_load_relaxed(&ctrl[COOP_CTRL_REQ_TASK]));
#else
            coop_apply_request(ctrl, seq);
#endif
            applied = seq;
            host_went_last = 1;
        }
        /* The status words are read first and copied out last, with release: the host, seeing
         * a slot's task done, then finds the times the kernel wrote before it (T_GATHERED,
         * T_DONE) copied too (A2); the other copies need no ordering, so no system-wide fence
         * each. The mirrored words are read with plain volatile loads into local memory first,
         * so that they are all in flight at once (one atomic-style load after another costs the
         * agent a round trip each, and requests wait for the agent's next pass). */
        for (uint i = 0; i < COOP_AGENT_STATUSES; i++)
            statuses_now[i] = coop_load_acquire(&ctrl[coop_agent_status(i)]);
        for (uint i = 0; i < COOP_AGENT_MIRRORED; i++)
            now[i] = ((volatile global uint *)ctrl)[coop_agent_slot(i)];
        /* STATE (slot 0) with acquire: pairs with the members' finishing increments, after their
         * spawns; the spawn queue's head is read after it (and after the statuses) and what the
         * host needs of it copied before STATE's copy (release below) */
        now[0] = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
        if (may_cut && coop_agent_spawn_waits(ctrl, spawn_first, spawns_taken)) {
            cut = 1;
            continue;
        }
        if (!spawn_first) {
            spawns_copied = coop_agent_spawns(ctrl, host, spawns_copied, &spawns_freed);
        } else {
            /* each run done is written into the record ring here, its slot then free (S7) */
            uint busy = spawns_taken != coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]);
            for (uint s = spawn_first; s < COOP_TASK_SLOTS; s++)
                busy |= !coop_spawn_slot_free(ctrl, host, 0u, s, statuses_now[1u + s], recorded, &records_written,
                                              &records_read);
            /* the host's count, a read across the bus, only where nothing else keeps it busy */
            if (!busy)
                busy = coop_spawn_records_unread(ctrl, host, records_written, &records_read);
            if (busy != busy_copied) {
                coop_host_store_relaxed(&host[COOP_CTRL_SPAWN_BUSY], busy);
                busy_copied = busy;
            }
        }
        if (may_cut && coop_agent_spawn_waits(ctrl, spawn_first, spawns_taken)) {
            cut = 1;
            continue;
        }
        for (uint i = 0; i < COOP_AGENT_MIRRORED; i++) {
            if (now[i] != shadow[i]) {
                if (i == 0)
                    coop_host_store(&host[coop_agent_slot(i)], now[i]);
                else
                    coop_host_store_relaxed(&host[coop_agent_slot(i)], now[i]);
                shadow[i] = now[i];
            }
        }
        for (uint i = 0; i < COOP_AGENT_STATUSES && !cut; i++) {
            if (statuses_now[i] != statuses[i]) {
                if (may_cut && coop_agent_spawn_waits(ctrl, spawn_first, spawns_taken)) {
                    cut = 1;
                    break;
                }
                /* a slot's times change only before its status does (request, start, done); an
                 * agent-served run's slot only its want: the host records the run from the record
                 * ring, and reads no more of its slot */
                uint first = spawn_first && i > spawn_first ? COOP_SLOT_WANT : COOP_SLOT_T_REQUEST;
                uint count = first == COOP_SLOT_WANT ? 1u : COOP_AGENT_TIME_WORDS;
                for (uint k = 0; i && k < count; k++) {
                    uint word = COOP_CTRL_SLOT(i - 1u, first + k);
                    coop_host_store_relaxed(&host[word], coop_load_relaxed(&ctrl[word]));
                }
                coop_host_store(&host[coop_agent_status(i)], statuses_now[i]);
                statuses[i] = statuses_now[i];
            }
        }
        if (cut)
            continue;
        coop_store_relaxed(&ctrl[COOP_CTRL_WANT_SEEN], coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]));
        if (dump != dumped) {
            for (uint g = 0; g < ctx->physical_groups; g++) {
                coop_host_store_relaxed(&host[COOP_CTRL_GROUP_STATE + g],
                                        coop_load_relaxed(&ctrl[COOP_CTRL_GROUP_STATE + g]));
                coop_host_store_relaxed(&host[COOP_CTRL_GROUP_SITE + g],
                                        coop_load_relaxed(&ctrl[COOP_CTRL_GROUP_SITE + g]));
            }
            coop_host_store(&host[COOP_CTRL_DUMPED], dump);
            dumped = dump;
        }
        if (coop_load_relaxed(&ctrl[COOP_CTRL_EXIT]))
            return;
        /* a short rest between passes: the pass reads the scheduler's hot words that every
         * member's offers read too (H100, sched-bench: gather median 20.7 us without it, 19.1
         * with 8 pauses, whose cost to the host's view of a task is within noise). A spawned run
         * ends it: the queue's head is one word the spawners write (H200, spawn-bench: spawn to
         * request 9.3 us median instead of 10.3-10.7) */
        for (uint k = 0; k < COOP_AGENT_PAUSES; k++) {
            if (spawn_first && spawns_taken != coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]))
                break;
            coop_pause();
        }
    }
}

#if COOP_KERNELS > 1
/* Several cooperative kernels (docs/DESIGN.md section 17): the words of a kernel block the host
 * reads beyond coop_agent_slot's, for its shares (share.c). */
#define COOP_AGENT_SHARE_WORDS 5u
#define COOP_AGENT_KERNEL_MIRRORED (COOP_AGENT_MIRRORED + COOP_AGENT_SHARE_WORDS)
COOP_LAYOUT_ASSERT((COOP_KERNELS + 1u) * (COOP_AGENT_KERNEL_MIRRORED + COOP_AGENT_STATUSES) + COOP_TASK_SLOTS <=
                       COOP_SWEEP_WIDTH,
                   agent_kernel_copies_fit_in_scratch);

inline uint coop_agent_kernel_slot(uint i)
{
    switch (i - COOP_AGENT_MIRRORED) {
    case 0: return COOP_CTRL_KILLS_REQUEST;
    case 1: return COOP_CTRL_MOVE;
    case 2: return COOP_CTRL_MOVED_IN;
    case 3: return COOP_CTRL_MOVED_OUT;
    case 4: return COOP_CTRL_MEMBERS_START;
    default: return coop_agent_slot(i);
    }
}

/* Several kernel blocks, an agent serving their spawn queues (docs/DESIGN.md sections 10.2 and
 * 17). The block a spawned run takes its groups from: the one holding the most groups no task
 * holds (M - F + IDLE; ties: the lowest index), as the host chooses for its own requests
 * (share.c, coop_share_task_block); COOP_KERNELS where every group is in a task. *groups: how
 * many it holds. Relaxed: a choice, which the gather's own protocol then makes right. */
inline uint coop_agent_lending_block(global uint *dev0, uint *groups)
{
    uint best = COOP_KERNELS, most = 0;
    for (uint k = 0; k < COOP_KERNELS; k++) {
        global uint *ctrl = dev0 + k * COOP_DEV_WORDS + COOP_DEV_CTRL;
        uint state = coop_load_relaxed(&ctrl[COOP_CTRL_STATE]);
        uint holds = COOP_STATE_MEMBERS(state) - COOP_STATE_FINISHED(state) + coop_load_relaxed(&ctrl[COOP_CTRL_IDLE]);
        if (holds > most) {
            most = holds;
            best = k;
        }
    }
    *groups = most;
    return best;
}

/* Whether the agent's task slot `slot` is free: its last run, in block `block`, is done and
 * written into the record ring (block 0's channel; coop_spawn_slot_free writes it there where
 * the ring has room; S5, S7), or it never ran. Acquire: pairs with the last leaver's release of
 * DONE (T3, T7). */
inline int coop_agent_slot_free(global uint *dev0, global uint *host0, uint block, uint slot, local uint *recorded,
                                uint *written, uint *read)
{
    global uint *ctrl = dev0 + block * COOP_DEV_WORDS + COOP_DEV_CTRL;
    uint status = coop_load_acquire(&ctrl[COOP_CTRL_SLOT(slot, COOP_SLOT_STATUS)]);
    return coop_spawn_slot_free(ctrl, host0, block, slot, status, recorded, written, read);
}

/* Applies ticket `ticket` of block `from`'s spawn queue as request COOP_SPAWN_SEQ_BIT | `number`
 * into a free task slot of the agent's (from `first`), in the block the groups are lent from,
 * taking at most the groups that block holds. The caller has seen no block's task gathering (T6
 * across the blocks, as the host keeps it for its own). Returns 1 once applied (the ticket is
 * then taken), 0 when the entry is not complete, no slot is free or no group is. */
inline int coop_agent_spawn_apply(coop_ctx *ctx, uint from, uint ticket, uint number, uint first, uint *slot_block,
                                  local uint *recorded, uint *written, uint *read)
{
    global uint *queue = ctx->dev0 + from * COOP_DEV_WORDS + COOP_DEV_CTRL;
    global uint *host0 = ctx->chan0 + COOP_CHAN_CTRL;
    global uint *entry = &queue[COOP_CTRL_SPAWN_ENTRY(ticket, 0u)];
    /* acquire: pairs with the spawner's release of READY, after the entry's words */
    if (coop_load_acquire(&entry[COOP_SPAWN_READY]) != ticket + 1u)
        return 0;
    uint groups = 0, to = coop_agent_lending_block(ctx->dev0, &groups), slot = first;
    while (slot < COOP_TASK_SLOTS &&
           !coop_agent_slot_free(ctx->dev0, host0, slot_block[slot], slot, recorded, written, read))
        slot++;
    if (to == COOP_KERNELS || slot == COOP_TASK_SLOTS)
        return 0;
    global uint *ctrl = ctx->dev0 + to * COOP_DEV_WORDS + COOP_DEV_CTRL;
    /* room for a task in that block, as the host makes before its own requests
     * (coop_share_before_task): its share kill tokens cancelled by compare-and-swap (C5; a
     * give-back of them then fails, K7), and no idle group asked to move away */
    ulong tokens = coop_load_relaxed64(coop_kill_tokens(ctrl));
    while (COOP_KILLS_REQUEST(tokens) & COOP_SHARE_REQUEST) {
        ulong seen = coop_cas64(coop_kill_tokens(ctrl), tokens, 0ul);
        if (seen == tokens)
            break;
        tokens = seen;
    }
    coop_store_release(&ctrl[COOP_CTRL_MOVE], 0u);
    global uint *words = &ctrl[COOP_CTRL_SLOT(slot, 0u)];
    uint range = coop_load_relaxed(&entry[COOP_SPAWN_RANGE]), cap = coop_load_relaxed(&entry[COOP_SPAWN_WANT]);
    uint want = COOP_SPAWN_WANT_OF(range, cap, ctx->physical_groups - 1u);
    coop_store_relaxed(&words[COOP_SLOT_SPAWNER], coop_load_relaxed(&entry[COOP_SPAWN_SPAWNER]));
    coop_store_relaxed(&words[COOP_SLOT_SPAWN_KERNEL], from);
    coop_store_relaxed(&words[COOP_SLOT_T_SPAWN], coop_load_relaxed(&entry[COOP_SPAWN_T_SPAWN]));
    coop_store_relaxed(&words[COOP_SLOT_T_SPAWN + 1u], coop_load_relaxed(&entry[COOP_SPAWN_T_SPAWN + 1u]));
    coop_apply_task(ctrl, COOP_SPAWN_SEQ_BIT | (number & (COOP_SPAWN_SEQ_BIT - 1u)), slot,
                    coop_load_relaxed(&entry[COOP_SPAWN_TASK]), want < groups ? want : groups, range,
                    coop_load_relaxed(&entry[COOP_SPAWN_DEPTH]), &entry[COOP_SPAWN_ARGS]);
    slot_block[slot] = to;
    /* release: the entry read before its spawners may write it again (S1); pairs with their
     * acquire of the tail */
    coop_store_release(&queue[COOP_CTRL_SPAWN_TAIL], ticket + 1u);
    return 1;
}

/* SPAWN_BUSY for an agent serving the queues of several blocks: 1 while a block's ticket is
 * reserved but not applied, or one of the agent's runs is not done and recorded by the host (in
 * its slot, or in the record ring unread). The slots' statuses first (acquire,
 * coop_agent_slot_free, which writes the runs done into the ring), the heads after them. */
inline uint coop_agent_spawns_busy(global uint *dev0, global uint *host0, uint first, const uint *taken,
                                   const uint *slot_block, local uint *recorded, uint *written, uint *read)
{
    uint busy = 0;
    for (uint slot = first; slot < COOP_TASK_SLOTS; slot++)
        busy |= !coop_agent_slot_free(dev0, host0, slot_block[slot], slot, recorded, written, read);
    for (uint k = 0; k < COOP_KERNELS; k++)
        busy |= taken[k] != coop_load_relaxed(&dev0[k * COOP_DEV_WORDS + COOP_DEV_CTRL + COOP_CTRL_SPAWN_HEAD]);
    /* the host's count, a read across the bus, only where nothing else keeps the word 1 */
    return busy || coop_spawn_records_unread(dev0 + COOP_DEV_CTRL, host0, *written, read);
}

/* The agent of several kernel blocks: coop_agent's steps for each block in turn, each with its
 * own mailbox, copies and dump, until block 0's EXIT (the host sets the other blocks' first).
 * The spawn queues (section 10.2): where the host serves them, each block's copied out as
 * coop_agent copies one; where the agent does, it applies one run a pass, a ticket of each block
 * in turn, into the block the groups are lent from, while no block's task gathers (a host task
 * request and a spawned run alternate while both wait), and SPAWN_BUSY (block 0's) covers every
 * block. */
COOP_COLD void coop_agent_kernels(coop_ctx *ctx)
{
    local uint *now = ctx->scratch + COOP_SCRATCH_SWEEP;
    local uint *statuses_now = now + COOP_AGENT_KERNEL_MIRRORED;
    local uint *kept = statuses_now + COOP_AGENT_STATUSES; /* each block's last copies */
    /* per agent slot: the run last written from it into the record ring (coop_spawn_slot_free) */
    local uint *recorded = kept + COOP_KERNELS * (COOP_AGENT_KERNEL_MIRRORED + COOP_AGENT_STATUSES);
    global uint *host0 = ctx->chan0 + COOP_CHAN_CTRL;
    uint applied[COOP_KERNELS], dumped[COOP_KERNELS];
    /* per block: the next ticket to copy out or to apply, and the host's tail last brought in;
     * per agent slot: the block its last run was in; the record ring's entries written and read */
    uint taken[COOP_KERNELS], freed[COOP_KERNELS], slot_block[COOP_TASK_SLOTS];
    uint spawn_first = coop_load_relaxed(&ctx->dev0[COOP_DEV_SPAWN_SLOT]);
    uint spawned = 0, host_went_last = 0, turn = 0, busy_copied = 0xffffffffu;
    uint records_written = 0, records_read = 0;
    for (uint k = 0; k < COOP_KERNELS; k++) {
        applied[k] = dumped[k] = taken[k] = freed[k] = 0;
        for (uint i = 0; i < COOP_AGENT_KERNEL_MIRRORED + COOP_AGENT_STATUSES; i++)
            kept[k * (COOP_AGENT_KERNEL_MIRRORED + COOP_AGENT_STATUSES) + i] = 0xffffffffu;
    }
    for (uint slot = 0; slot < COOP_TASK_SLOTS; slot++)
        slot_block[slot] = recorded[slot] = 0;
    for (;;) {
        /* T6 with two sources of requests, across the blocks: a host task request, or a spawned
         * run, is applied only while no block's task gathers. Acquire: pairs with the starter's
         * release of RUNNING, after it cleared the kill tokens (K7) */
        uint gathering = 0, spawn_waiting = 0, host_waiting = 0;
        for (uint k = 0; spawn_first && k < COOP_KERNELS; k++) {
            global uint *ctrl = ctx->dev0 + k * COOP_DEV_WORDS + COOP_DEV_CTRL;
            gathering |= COOP_TASK_STATUS_OF(coop_load_acquire(&ctrl[COOP_CTRL_TASK_STATUS])) == COOP_TASK_GATHERING;
            spawn_waiting |= taken[k] != coop_load_relaxed(&ctrl[COOP_CTRL_SPAWN_HEAD]);
        }
        for (uint k = 0; k < COOP_KERNELS; k++) {
            global uint *ctrl = ctx->dev0 + k * COOP_DEV_WORDS + COOP_DEV_CTRL;
            global uint *host = ctx->chan0 + k * COOP_CHAN_WORDS + COOP_CHAN_CTRL;
            local uint *shadow = kept + k * (COOP_AGENT_KERNEL_MIRRORED + COOP_AGENT_STATUSES);
            local uint *statuses = shadow + COOP_AGENT_KERNEL_MIRRORED;
            uint dump = coop_host_load_relaxed(&host[COOP_CTRL_DUMP]);
            /* acquire: pairs with the host's release of REQ_SEQ after the request's words (A1) */
            uint seq = coop_host_load(&host[COOP_CTRL_REQ_SEQ]);
            if (seq != applied[k]) {
                /* a task request waits while a task gathers, and lets a waiting spawned run go
                 * first when it went last itself; moves, share tokens and the shutdown never wait */
                uint task = coop_host_load_relaxed(&host[COOP_CTRL_REQ_KIND]) == COOP_REQ_TASK;
                if (spawn_first && task && (gathering || (host_went_last && spawn_waiting))) {
                    host_waiting = 1;
                } else {
                    coop_agent_copy_request(ctrl, host);
                    coop_apply_request(ctrl, seq);
                    applied[k] = seq;
                    host_went_last |= task;
                    gathering |= task;
                }
            }
            /* as coop_agent: status words acquired first and copied out last with release (A2) */
            for (uint i = 0; i < COOP_AGENT_STATUSES; i++)
                statuses_now[i] = coop_load_acquire(&ctrl[coop_agent_status(i)]);
            for (uint i = 0; i < COOP_AGENT_KERNEL_MIRRORED; i++)
                now[i] = ((volatile global uint *)ctrl)[coop_agent_kernel_slot(i)];
            /* STATE (slot 0) with acquire: pairs with the members' finishing increments, after
             * their spawns; the queues' heads are read after it (and after the statuses), and
             * what the host needs of them copied before STATE's copy (release below), as
             * coop_agent does */
            now[0] = coop_load_acquire(&ctrl[COOP_CTRL_STATE]);
            if (!spawn_first) {
                taken[k] = coop_agent_spawns(ctrl, host, taken[k], &freed[k]);
            } else {
                uint busy = coop_agent_spawns_busy(ctx->dev0, host0, spawn_first, taken, slot_block, recorded,
                                                   &records_written, &records_read);
                if (busy != busy_copied) {
                    coop_host_store_relaxed(&host0[COOP_CTRL_SPAWN_BUSY], busy);
                    busy_copied = busy;
                }
            }
            for (uint i = 0; i < COOP_AGENT_KERNEL_MIRRORED; i++) {
                if (now[i] != shadow[i]) {
                    if (i == 0)
                        coop_host_store(&host[coop_agent_kernel_slot(i)], now[i]);
                    else
                        coop_host_store_relaxed(&host[coop_agent_kernel_slot(i)], now[i]);
                    shadow[i] = now[i];
                }
            }
            for (uint i = 0; i < COOP_AGENT_STATUSES; i++) {
                if (statuses_now[i] != statuses[i]) {
                    /* an agent-served run's slot only its want, the host's need where it
                     * gathers (share_step); the record ring holds what the host records of it */
                    int spawned_run = spawn_first && i > spawn_first;
                    uint first = spawned_run ? COOP_SLOT_WANT : COOP_SLOT_T_REQUEST;
                    uint count = spawned_run ? 1u : COOP_AGENT_TIME_WORDS;
                    for (uint t = 0; i && t < count; t++) {
                        uint word = COOP_CTRL_SLOT(i - 1u, first + t);
                        coop_host_store_relaxed(&host[word], coop_load_relaxed(&ctrl[word]));
                    }
                    coop_host_store(&host[coop_agent_status(i)], statuses_now[i]);
                    statuses[i] = statuses_now[i];
                }
            }
            coop_store_relaxed(&ctrl[COOP_CTRL_WANT_SEEN], coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]));
            if (dump != dumped[k]) {
                for (uint g = 0; g < ctx->physical_groups; g++) {
                    coop_host_store_relaxed(&host[COOP_CTRL_GROUP_STATE + g],
                                            coop_load_relaxed(&ctrl[COOP_CTRL_GROUP_STATE + g]));
                    coop_host_store_relaxed(&host[COOP_CTRL_GROUP_SITE + g],
                                            coop_load_relaxed(&ctrl[COOP_CTRL_GROUP_SITE + g]));
                }
                coop_host_store(&host[COOP_CTRL_DUMPED], dump);
                dumped[k] = dump;
            }
        }
        /* one spawned run a pass, a ticket of each block in turn */
        for (uint i = 0; spawn_first && !gathering && (host_went_last || !host_waiting) && i < COOP_KERNELS; i++) {
            uint k = (turn + i) % COOP_KERNELS;
            if (coop_agent_spawn_apply(ctx, k, taken[k], spawned, spawn_first, slot_block, recorded,
                                       &records_written, &records_read)) {
                taken[k]++;
                spawned++;
                host_went_last = 0;
                turn = k + 1u;
                break;
            }
        }
        if (coop_load_relaxed(&ctx->dev0[COOP_DEV_CTRL + COOP_CTRL_EXIT]))
            return;
        /* the rest between passes, ended by a spawned run in any block's queue (as coop_agent) */
        for (uint p = 0; p < COOP_AGENT_PAUSES; p++) {
            uint waiting = 0;
            for (uint k = 0; spawn_first && k < COOP_KERNELS; k++)
                waiting |= taken[k] != coop_load_relaxed(&ctx->dev0[k * COOP_DEV_WORDS + COOP_DEV_CTRL +
                                                                    COOP_CTRL_SPAWN_HEAD]);
            if (waiting)
                break;
            coop_pause();
        }
    }
}
#endif

#endif
