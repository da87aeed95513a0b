/* Word layout of the memory areas a persistent kernel shares with libcoop.
 *
 * This header is read both by the host library (C11) and by kernels (OpenCL C), so it holds
 * only enumerations and constants. Every slot is a 32-bit unsigned word.
 *
 * - The channel is host-visible while the kernel runs (fine-grained SVM, an NVIDIA host
 *   buffer, or a device buffer read through a second queue). Only low-rate control traffic
 *   goes through it: it may live across PCIe.
 * - The device area is ordinary device memory: barrier counters and other hot words.
 * - The control block holds the scheduler's state. It lives in the channel when the channel is
 *   fine-grained SVM (the host then reads and writes it directly) and in the device area
 *   otherwise; then an agent group copies requests in and status out (coop_device/agent.h).
 */
#ifndef COOP_LAYOUT_H
#define COOP_LAYOUT_H

enum coop_chan_slot {
    COOP_CHAN_SEEN = 0,        /* groups registered so far, forwarded by the discovery leader */
    COOP_CHAN_CLOSE = 1,       /* host -> kernel: 1 closes the discovery poll */
    COOP_CHAN_GROUPS = 2,      /* kernel -> host: final number of co-resident groups (0 until known) */
    COOP_CHAN_ECHO_IN = 4,     /* host -> kernel: round-trip probe value */
    COOP_CHAN_ECHO_OUT = 5,    /* kernel -> host: the probe value echoed back */
    COOP_CHAN_CTRL = 64        /* the control block (or, with an agent, its copy): see below */
};

/* Bit set in COOP_DEV_REG once the discovery poll is closed; the low bits count registrations. */
#define COOP_REG_CLOSED 0x80000000u
/* Group id of a workgroup that found the poll closed: it is not co-resident and leaves. */
#define COOP_NO_GROUP 0xffffffffu

enum coop_dev_slot {
    COOP_DEV_REG = 0,          /* registration ticket counter | COOP_REG_CLOSED */
    COOP_DEV_MAX_GROUPS = 1,   /* host -> kernel: register at most this many groups */
    COOP_DEV_GROUPS = 2,       /* number of co-resident groups, once discovery closed */
    COOP_DEV_MEMBERS = 3,      /* host -> kernel: groups that start the cooperative kernel (0: all) */
    COOP_DEV_AGENT = 4,        /* host -> kernel: 1 if the last group is the scheduler's agent */
    COOP_DEV_CHAOS = 6,        /* host -> kernel: chaos seed, 0 for none */
    COOP_DEV_WEIGHT = 7,       /* host -> kernel, several cooperative kernels: this kernel block's
                                  weight (docs/DESIGN.md section 17; 0 is taken as 1) */
    COOP_DEV_SPAWN_SLOT = 8,   /* host -> kernel: with an agent, the first task slot the agent gives
                                  spawned runs itself (section 10.2); 0: the host serves the queue */
    COOP_DEV_BAR_COUNT = 32,   /* four barrier counters: two 64-bit words, 32 words (128 bytes) apart */
    COOP_DEV_CTRL = 128        /* the control block, unless the channel holds it (the build says
                                  which: COOP_CTRL_IN_CHAN, libcoop/src/program.c) */
};

#define COOP_BAR_STRIDE 32u
/* A barrier counter's value when no barrier is pending on it; arming subtracts one per member
 * and arrival adds one, so the barrier is complete when this bit is set again. */
#define COOP_BAR_IDLE 0x20000000u
/* Set in a barrier's counter when M may have changed before it or member 0 made a resize
 * decision at it (coop_device/barrier.h); member 0 clears it two barriers later. */
#define COOP_BAR_FLAG 0x80000000u
/* Set in a barrier's counter by a group that votes true at it (coop_global_barrier_any);
 * cleared with COOP_BAR_FLAG. */
#define COOP_BAR_VOTE 0x40000000u

/* Sizes the control block's areas are made for. */
#define COOP_TASK_ARGS 16u
#define COOP_TRANSMIT_WORDS 64u
#define COOP_MAX_GROUPS 4095u
#define COOP_RESIZE_SLOTS 3u    /* resize decisions in flight: barrier b uses slot b % 3 */
#define COOP_TASK_SLOTS 4u      /* task requests in flight at most (docs/DESIGN.md section 10) */
#define COOP_MAX_KERNELS 4u     /* cooperative kernels in one megakernel: its kernel blocks (docs/DESIGN.md
                                   section 17) */
#define COOP_SPAWN_QUEUE 16u    /* spawned runs waiting for the consumer at most (section 10.2) */
#define COOP_SPAWN_DEPTH_MAX 8u /* a spawned run's depth at most: a chain of spawns is that long */
#define COOP_SPAWN_RECORDS 64u  /* agent-served runs done and not yet read by the host at most: the
                                   record ring's entries (section 10.2, S7) */

/* What spawn_task() returns (coop_device/spawn.h; the language's SPAWN_* names). */
#define COOP_SPAWN_OK 0         /* queued: the run will be requested */
#define COOP_SPAWN_FULL 1       /* the queue holds COOP_SPAWN_QUEUE runs: nothing queued */
#define COOP_SPAWN_TOO_DEEP 2   /* the spawner's depth is COOP_SPAWN_DEPTH_MAX: nothing queued */
#define COOP_SPAWN_NO_WORK 3    /* 0 workgroups, or a task the megakernel lacks: nothing queued */
/* The groups a spawned run takes: its workgroups, at most its spawner's groups (`cap`; 0: the
 * cooperative kernel's, a quarter of the `members` a megakernel may have, at least 1), and at
 * most all members but one: the same rule for the host and an agent serving the queue. */
#define COOP_SPAWN_WANT_OF(range, cap, members)                                                     \
    ((range) < COOP_SPAWN_CAP_(cap, members) ? (range) : COOP_SPAWN_CAP_(cap, members))
#define COOP_SPAWN_MOST_(members) ((members) > 1u ? (members) - 1u : 1u)
#define COOP_SPAWN_WISH_(cap, members) ((cap) ? (cap) : (members) / 4u > 1u ? (members) / 4u : 1u)
#define COOP_SPAWN_CAP_(cap, members)                                                               \
    (COOP_SPAWN_WISH_(cap, members) < COOP_SPAWN_MOST_(members) ? COOP_SPAWN_WISH_(cap, members)    \
                                                                : COOP_SPAWN_MOST_(members))
/* The request numbers of the spawned runs an agent applies itself: this bit above the agent's
 * count (the host's own numbers stay below it; a status word keeps 28 bits). */
#define COOP_SPAWN_SEQ_BIT 0x08000000u

/* Rules a check build (kernels built with COOP_CHECKS=1: the tests) verifies where they must hold
 * (coop_device/checks.h; docs/DESIGN.md section 14). Rule r's words in COOP_CTRL_CHECKS
 * are r * 4: its violations, then the first one's three details. */
enum coop_check_rule {
    COOP_CHECK_RESIZE_SLOT = 0,    /* R1, R4: member 0 rewrote barrier b's resize slot before b + 3
                                      (or its commit twice): b, the slot's barrier, the commit word */
    COOP_CHECK_RESIZE_READ = 1,    /* R4: a member read barrier b's slot after it was rewritten for
                                      a later barrier: b, the slot's barrier, the member's id */
    COOP_CHECK_TOKENS = 2,         /* K3: a kill-token count above COOP_MAX_GROUPS (below zero):
                                      the count, its request, where (0 take, 1 give-back, 2 offer) */
    COOP_CHECK_PARK_WORD = 3,      /* K4: a sweep released a claim it no longer held: the member's
                                      id, its park word, the sweeper's id */
    COOP_CHECK_FORK_RECORD = 4,    /* F1: a new group claimed a slot of a record not published for
                                      it: FORK_SIZE, the slots left before the claim, FORK_READ */
    COOP_CHECK_BARRIER_HALVES = 5, /* B4: an arrival found a counter of its 64-bit pair out of its
                                      range (a carry or borrow across halves): barrier, this
                                      barrier's count, barrier + 2's count (flags masked) */
    COOP_CHECK_REQUEST_TOKENS = 6, /* K7: the agent applied a task request while kill tokens were
                                      left: the request, the tokens, their request */
    COOP_CHECK_ONE_GATHER = 7,     /* T6: the agent applied a task request while another gathered:
                                      the request, TASK_STATUS, 0 */
    COOP_CHECK_SLOT_REUSE = 8,     /* T7: the agent applied a task request to a slot whose task was
                                      not done: the request, the slot, the slot's status */
    COOP_CHECK_JOINED_SLOT = 9,    /* T8: a joined group found its slot holding another status once
                                      the task started: the status it joined, the slot's, 0 */
    COOP_CHECK_MOVE = 10,          /* C3 (several cooperative kernels): a group moved to its own
                                      block or to one beyond the kernels: the target, its block, MOVE
                                      as it took its place */
    COOP_CHECK_BLOCK_ID = 11,      /* C1: a member started in a block beyond the kernels, or with an
                                      id at or above its kernel's M: the block, the id, M */
    COOP_CHECK_SPAWN_ENTRY = 12,   /* S1: a spawn found the queue entry it reserved not yet consumed
                                      (or a consumer found a ticket out of order): the ticket, the
                                      entry's READY word, the queue's tail */
    COOP_CHECK_SPAWN_RECORD = 13,  /* S7: the agent found the host's count of record ring entries
                                      read gone back or past the entries written: the entries
                                      written, the host's count, its count before */
    COOP_CHECK_RULES = 14
};
#define COOP_CHECK_WORDS (4u * COOP_CHECK_RULES)

/* Control block (offsets from its start). Words a host request fills come first, so that an
 * agent can copy them as one range; words the kernel reports follow.
 *
 * One row per slot, X(NAME, WORD, WORDS, AGENT, LABEL, WATCH), generates everything named after
 * it, so that a slot and its names cannot drift apart:
 *   COOP_CTRL_NAME = WORD   enum coop_ctrl_slot below; WORDS: how many words the slot has (0: a
 *                           mark between areas). Rows run in the order of WORD, and each ends
 *                           before the next begins (checked by host and device compilers below);
 *   AGENT                   OUT(n): the agent copies it out to the host as its n-th named slot
 *                           (coop_device/agent.h, coop_agent_slot); NO: not by name (it copies the
 *                           request words in and the report words out as ranges);
 *   LABEL                   the host's name for it in its COOP_TRACE=1 line ("": not shown);
 *   WATCH                   what the host's watchdog counts a change of as progress
 *                           (libcoop/src/scheduler.c): 1, the cooperative kernel's own (a
 *                           barrier, a resize, a member finished: of STATE only F counts); 2, a
 *                           task's, which counts only once every member has finished; 0, none
 *                           (kills, forks and idle groups move with every task and chaos offer,
 *                           also while the kernel loops without end). */
#define COOP_CTRL_SLOTS(X)                                                                               \
    /* requests (host -> kernel) */                                                                      \
    X(REQ_SEQ, 0, 1, NO, "", 0)            /* incremented by the host for each request */                \
    X(REQ_KIND, 1, 1, NO, "", 0)           /* COOP_REQ_TASK or COOP_REQ_SHUTDOWN */                      \
    X(REQ_SLOT, 2, 1, NO, "", 0)           /* the task slot the request runs from */                     \
    X(REQ_TASK, 3, 1, NO, "", 0)           /* task index in the megakernel */                            \
    X(REQ_WANT, 4, 1, NO, "", 0)           /* groups to take for it */                                   \
    X(REQ_RANGE, 5, 1, NO, "", 0)          /* its number of workgroups */                                \
    X(REQ_DEPTH, 6, 1, NO, "", 0)          /* its spawn depth: 0 for a planned run (section 10.2) */     \
    X(REQ_ARGS, 8, COOP_TASK_ARGS, NO, "", 0) /* the task's argument words */                            \
    X(REQ_END, 24, 0, NO, "", 0)                                                                         \
    X(SPAWN_READ, 24, 1, NO, "", 0)        /* host -> agent: record ring entries the host has read and  \
                                              recorded (section 10.2, S7) */                             \
    X(SPAWN_WRITTEN, 25, 1, NO, "", 0)     /* agent -> host: record ring entries the agent has written  \
                                              (release) */                                               \
    X(SPAWN_BUSY, 28, 1, NO, "", 0)        /* agent -> host: 1 while a spawn waits or an agent-served    \
                                              run is not done and recorded (section 10.2) */             \
    /* scheduler state (kernel) */                                                                       \
    X(STATE, 32, 1, OUT(0), "state", 1)    /* members M and finished F: COOP_STATE_* */                  \
    X(KILLS, 34, 1, OUT(1), "kills", 0)    /* kill tokens: kills the scheduler still wants (the low half \
                                              of a 64-bit word: COOP_KILLS_WORD) */                      \
    X(KILLS_REQUEST, 35, 1, NO, "", 0)     /* the request whose task the tokens are for (0: none) */     \
    X(IDLE, 64, 1, OUT(2), "idle", 0)      /* idle groups not reserved by a fork (own line) */           \
    X(FORK_LEFT, 96, 1, OUT(3), "fork_left", 0) /* fork slots not yet claimed (own line) */              \
    X(FORK_BASE, 97, 1, NO, "", 0)         /* virtual id of the fork's first new group */                \
    X(FORK_RESUME, 98, 1, NO, "", 0)       /* where new groups resume */                                 \
    X(FORK_EPOCH, 99, 1, NO, "", 0)        /* barriers the forking group had passed */                   \
    X(FORK_READ, 100, 1, OUT(5), "fork_read", 0) /* new groups done reading the transmit words */        \
    X(FORK_SIZE, 101, 1, OUT(4), "fork_size", 0) /* groups in the current fork; the fork lock too        \
                                              (COOP_FORK_LOCKED) */                                      \
    X(TRANSMIT, 104, COOP_TRANSMIT_WORDS, NO, "", 0) /* the forking work-item 0's transmit */            \
    X(TASK_STATUS, 168, 1, NO, "task", 2)  /* the gathering request's COOP_TASK_STATUS_WORD(seq, slot,   \
                                              COOP_TASK_*) (own line) */                                 \
    X(EXIT, 172, 1, NO, "", 0)             /* 1: every idle group leaves the megakernel */               \
    X(RESIZE, 176, 2 * COOP_RESIZE_SLOTS, NO, "", 0) /* 64-bit: COOP_RESIZE_WORD(barrier, decision) */   \
    X(COMMIT, 184, COOP_RESIZE_SLOTS, NO, "", 0) /* COOP_COMMIT_WORD(barrier, new M) */                  \
    /* reports (kernel -> host); the agent copies this range out */                                      \
    X(REPORT, 192, 0, NO, "", 0)                                                                         \
    X(REPORT_SEQ, 192, 1, NO, "", 2)       /* last request the kernel has applied */                     \
    X(KILL_COUNT, 196, 1, NO, "killed", 0)                                                               \
    X(FORK_COUNT, 197, 1, NO, "forked", 0) /* groups forked */                                           \
    X(RESIZE_COUNT, 198, 1, NO, "", 1)                                                                   \
    X(TASKS_DONE, 199, 1, NO, "", 2)                                                                     \
    X(BARRIERS, 200, 1, NO, "", 1)         /* barriers member 0 arrived at (all completed but the one    \
                                              it may wait at) */                                         \
    X(WANT_SEEN, 201, 1, NO, "want", 0)    /* the request's group count as the kernel sees it */         \
    X(DUMP, 202, 1, NO, "", 0)             /* host -> agent: copy the group states out when this         \
                                              changes (the one report word not copied out) */            \
    X(DUMPED, 203, 1, NO, "", 0)           /* agent -> host: the last dump request served */             \
    X(REPORT_END, 204, 0, NO, "", 0)                                                                     \
    /* several cooperative kernels (docs/DESIGN.md section 17): moves of idle groups between the     \
       kernel blocks */                                                                              \
    X(MOVE, 208, 1, NO, "", 0)             /* host -> kernel: idle groups to move out of this block */   \
    X(MOVE_TO, 209, 1, NO, "", 0)          /* host -> kernel: the kernel block they move to */           \
    X(MOVED_IN, 210, 1, NO, "", 0)         /* groups that moved into this block */                       \
    X(MOVED_OUT, 211, 1, NO, "", 0)        /* groups that moved out of it */                             \
    X(MEMBERS_START, 212, 1, NO, "", 0)    /* its kernel's members at the start (the weighted split) */  \
    X(PARKED_COUNT, 224, 1, NO, "", 0)     /* members parked at an offer (a hint for the largest one) */ \
    X(GROUP_STATE, 256, COOP_MAX_GROUPS + 1u, NO, "", 0) /* one word per group: where it is              \
                                              (COOP_WHERE_WORD), for the watchdog */                     \
    X(PARKED, 256 + 4096, COOP_MAX_GROUPS + 1u, NO, "", 0) /* one word per virtual id: COOP_PARK_* */    \
    X(GROUP_SITE, 256 + 2 * 4096, COOP_MAX_GROUPS + 1u, NO, "", 0) /* one word per group: the site     \
                                              (coop_at) of the barrier it waits at, for the watchdog */  \
    X(TASKS, 256 + 3 * 4096, COOP_TASK_SLOTS * COOP_SLOT_WORDS, NO, "", 0) /* the task slots:            \
                                              COOP_CTRL_SLOT(slot, COOP_SLOT_*) */                       \
    X(CHECKS, 256 + 3 * 4096 + 256, COOP_CHECK_WORDS, NO, "", 0) /* a check build's violations (enum     \
                                              coop_check_rule) */                                        \
    /* the spawn queue (docs/DESIGN.md section 10.2): device -> whoever applies requests */          \
    X(SPAWN_HEAD, 256 + 3 * 4096 + 256 + 64, 1, NO, "", 0) /* tickets reserved by spawns (own line) */   \
    X(SPAWN_TAIL, 256 + 3 * 4096 + 256 + 96, 1, NO, "", 0) /* tickets the consumer took (own line) */    \
    X(SPAWN_RING, 256 + 3 * 4096 + 256 + 128, COOP_SPAWN_QUEUE * COOP_SPAWN_WORDS, NO, "", 0) /* the       \
                                              entries: COOP_CTRL_SPAWN_ENTRY(ticket, COOP_SPAWN_*) */    \
    /* the record ring (section 10.2): agent -> host, in the channel only */                         \
    X(SPAWN_RECORD_RING, 256 + 3 * 4096 + 256 + 128 + COOP_SPAWN_QUEUE * COOP_SPAWN_WORDS,               \
      COOP_SPAWN_RECORDS * COOP_RECORD_WORDS, NO, "", 0) /* the agent-served runs done, for the host to  \
                                              record: COOP_CTRL_SPAWN_RECORD(n, COOP_RECORD_*) */        \
    X(WORDS, 256 + 3 * 4096 + 256 + 128 + COOP_SPAWN_QUEUE * COOP_SPAWN_WORDS +                          \
                 COOP_SPAWN_RECORDS * COOP_RECORD_WORDS, 0, NO, "", 0)

/* A task slot's words (docs/DESIGN.md section 10), from COOP_CTRL_TASKS + slot * COOP_SLOT_WORDS:
 * the gather's and the run's counters on one cache line, then what the request copied in and the
 * device's times (64-bit, device clock, ns: request applied, groups gathered, task done), which
 * the agent copies out with the status. */
enum coop_slot_word {
    COOP_SLOT_STATUS = 0,      /* COOP_TASK_STATUS_WORD of the slot's last request (0: never used) */
    COOP_SLOT_JOINED = 1,      /* groups joined */
    COOP_SLOT_NEXT = 2,        /* next task workgroup to run */
    COOP_SLOT_FINISHED = 3,    /* joined groups that have left the task */
    COOP_SLOT_TASK = 32,       /* task index in the megakernel */
    COOP_SLOT_WANT = 33,       /* groups to take */
    COOP_SLOT_RANGE = 34,      /* workgroups */
    COOP_SLOT_DEPTH = 35,      /* spawn depth of the run (0: planned by the host) */
    COOP_SLOT_T_REQUEST = 36,
    COOP_SLOT_T_GATHERED = 38,
    COOP_SLOT_T_DONE = 40,
    COOP_SLOT_T_SPAWN = 42,    /* an agent-served spawned run's spawn (64-bit, device clock) */
    COOP_SLOT_SPAWNER = 44,    /* ... and its spawner's request number (0: the cooperative kernel) */
    COOP_SLOT_SPAWN_KERNEL = 45, /* ... and, several kernels, the kernel block it was spawned in */
    COOP_SLOT_ARGS = 48,       /* COOP_TASK_ARGS argument words */
    COOP_SLOT_WORDS = 64
};
#define COOP_CTRL_SLOT(slot, word) (COOP_CTRL_TASKS + (slot) * COOP_SLOT_WORDS + (word))

/* A spawn queue entry's words (docs/DESIGN.md section 10.2), from COOP_CTRL_SPAWN_RING + (ticket %
 * COOP_SPAWN_QUEUE) * COOP_SPAWN_WORDS: written by the spawning work-item, READY last (release). */
enum coop_spawn_word {
    COOP_SPAWN_READY = 0,      /* ticket + 1 once the entry is complete (0: never written) */
    COOP_SPAWN_TASK = 1,       /* task index in the megakernel */
    COOP_SPAWN_RANGE = 2,      /* workgroups */
    COOP_SPAWN_DEPTH = 3,      /* the spawned run's depth: the spawner's + 1 */
    COOP_SPAWN_SPAWNER = 4,    /* the spawning run's request number (its low 28 bits); 0: the
                                  cooperative kernel */
    COOP_SPAWN_WANT = 5,       /* the spawner's groups, the most the run takes (0: the kernel's) */
    COOP_SPAWN_T_SPAWN = 6,    /* 64-bit: the device's clock at the spawn (0: none) */
    COOP_SPAWN_ARGS = 16,      /* COOP_TASK_ARGS argument words */
    COOP_SPAWN_WORDS = 32
};
#define COOP_CTRL_SPAWN_ENTRY(ticket, word) \
    (COOP_CTRL_SPAWN_RING + ((ticket) % COOP_SPAWN_QUEUE) * COOP_SPAWN_WORDS + (word))

/* A record ring entry's words (docs/DESIGN.md section 10.2), from COOP_CTRL_SPAWN_RECORD_RING + (n %
 * COOP_SPAWN_RECORDS) * COOP_RECORD_WORDS, in the channel: an agent-served spawned run once done,
 * written by the agent before SPAWN_WRITTEN passes n (release). */
enum coop_record_word {
    COOP_RECORD_STATUS = 0,    /* its slot's status word: COOP_TASK_STATUS_WORD(request, slot, DONE) */
    COOP_RECORD_BLOCK = 1,     /* the kernel block it ran in (several kernels; else 0) */
    COOP_RECORD_SLOT = 2,      /* its slot's words COOP_SLOT_TASK .. COOP_SLOT_SPAWN_KERNEL, in order */
    COOP_RECORD_WORDS = 16
};
#define COOP_RECORD_SLOT_WORDS (COOP_SLOT_SPAWN_KERNEL - COOP_SLOT_TASK + 1)
#define COOP_CTRL_SPAWN_RECORD(n, word) \
    (COOP_CTRL_SPAWN_RECORD_RING + ((n) % COOP_SPAWN_RECORDS) * COOP_RECORD_WORDS + (word))

/* FORK_SIZE doubles as the lock of the fork record (the FORK_* words but FORK_LEFT, and
 * TRANSMIT): 0 when the record is free. A member that would fork (coop_try_fork at an offer,
 * member 0's coop_resize_commit) takes the lock with a compare-and-swap of 0 to COOP_FORK_LOCKED
 * before it reserves idle groups; reserving none, it stores 0 again (coop_fork_unlock). Else it
 * writes the record, then FORK_SIZE = the fork's group count (still not 0: still locked), then
 * FORK_LEFT = that count with release. The new groups claim FORK_LEFT's slots and read the record;
 * the one whose FORK_READ increment reaches FORK_SIZE stores 0 with release (coop_fork_unlock).
 * So the next locker's compare-and-swap, which reads that 0, comes after every read of the
 * record it will overwrite. */
#define COOP_FORK_LOCKED 0xffffffffu

#define COOP_CTRL_ENUM_(name, word, words, agent, label, watch) COOP_CTRL_##name = word,
enum coop_ctrl_slot { COOP_CTRL_SLOTS(COOP_CTRL_ENUM_) };
#undef COOP_CTRL_ENUM_

/* Compile-time checks of the layout, made by the host's compiler (_Static_assert) and by the
 * device's (OpenCL C 1.2 has no _Static_assert: an array of negative size fails instead). An
 * OpenCL C compiler defines __OPENCL_C_VERSION__ (clang without a runtime: not
 * __OPENCL_VERSION__). */
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define COOP_LAYOUT_ASSERT(holds, name) typedef char coop_layout_check_##name[(holds) ? 1 : -1]
#else
#define COOP_LAYOUT_ASSERT(holds, name) _Static_assert(holds, "coop_layout.h: " #name)
#endif

/* No two areas of the control block overlap and each fits: every row of the table begins at or
 * after the end of the row before it (the transmit words, say, end exactly where TASK_STATUS
 * begins), and COOP_CTRL_WORDS after the last. COOP_CTRL_FREE_NAME is the first word after the
 * row before NAME's: an enumerator without a value is the one before it plus 1. */
#define COOP_CTRL_CHAIN_(name, word, words, agent, label, watch) \
    COOP_CTRL_FREE_##name, COOP_CTRL_LAST_##name = (word) + (words) - 1,
enum coop_ctrl_chain { COOP_CTRL_CHAIN_START_ = -1, COOP_CTRL_SLOTS(COOP_CTRL_CHAIN_) };
#undef COOP_CTRL_CHAIN_
#define COOP_CTRL_CHECK_(name, word, words, agent, label, watch) \
    COOP_LAYOUT_ASSERT((int)COOP_CTRL_##name >= (int)COOP_CTRL_FREE_##name, ctrl_##name##_after_the_slot_before);
COOP_CTRL_SLOTS(COOP_CTRL_CHECK_)
#undef COOP_CTRL_CHECK_
/* the host writes a request's task, group count and range as three words in a row */
COOP_LAYOUT_ASSERT(COOP_CTRL_REQ_WANT == COOP_CTRL_REQ_TASK + 1 && COOP_CTRL_REQ_RANGE == COOP_CTRL_REQ_TASK + 2,
                   ctrl_request_fields_in_a_row);
/* the kill tokens and their request are one 64-bit word, tokens in the low half */
COOP_LAYOUT_ASSERT(COOP_CTRL_KILLS % 2 == 0 && COOP_CTRL_KILLS_REQUEST == COOP_CTRL_KILLS + 1, ctrl_kills_64_bit);
/* the slots' 64-bit times are aligned, and their words fit */
COOP_LAYOUT_ASSERT(COOP_CTRL_TASKS % 2 == 0 && COOP_SLOT_T_REQUEST % 2 == 0 && COOP_SLOT_T_GATHERED % 2 == 0 &&
                       COOP_SLOT_T_DONE % 2 == 0 && COOP_SLOT_ARGS + COOP_TASK_ARGS <= COOP_SLOT_WORDS,
                   ctrl_task_slot_words);
/* the agent copies the report range out but one word, the host's dump request */
COOP_LAYOUT_ASSERT(COOP_CTRL_REPORT < COOP_CTRL_DUMP && COOP_CTRL_DUMP < COOP_CTRL_REPORT_END, ctrl_dump_in_report);
/* the spawn entries' times are aligned, and their words fit */
COOP_LAYOUT_ASSERT(COOP_CTRL_SPAWN_RING % 2 == 0 && COOP_SPAWN_T_SPAWN % 2 == 0 &&
                       COOP_SPAWN_ARGS + COOP_TASK_ARGS <= COOP_SPAWN_WORDS && COOP_CHECK_WORDS <= 64,
                   ctrl_spawn_entry_words);

/* a record entry holds its slot's words with their 64-bit times aligned, and the ring's count
 * wraps at a multiple of its entries */
COOP_LAYOUT_ASSERT(COOP_CTRL_SPAWN_RECORD_RING % 2 == 0 && (COOP_RECORD_SLOT - COOP_SLOT_TASK) % 2 == 0 &&
                       COOP_RECORD_SLOT + COOP_RECORD_SLOT_WORDS <= COOP_RECORD_WORDS &&
                       (COOP_SPAWN_RECORDS & (COOP_SPAWN_RECORDS - 1u)) == 0,
                   ctrl_spawn_record_words);

/* A member among the top ones a kill request wants, offering kill while not yet the largest,
 * parks: it waits at its offer until the members above it are gone; the member that then kills
 * itself claims the parked ones below it and removes them from M in one step. */
#define COOP_PARK_NONE 0u
#define COOP_PARK_WAITING 1u
#define COOP_PARK_CLAIMING 2u   /* a killer is taking it; wait */
#define COOP_PARK_CLAIMED 3u    /* killed */
#define COOP_PARK_TURN 4u       /* the members above are gone: this one is the largest, its turn */
#define COOP_SWEEP_WIDTH 256u   /* parked members one sweep can take */

#define COOP_CHAN_WORDS (COOP_CHAN_CTRL + COOP_CTRL_WORDS)
#define COOP_DEV_WORDS (COOP_DEV_CTRL + COOP_CTRL_WORDS)

/* The channel's and the device area's words come before the control block; the barrier
 * counters' two 64-bit words lie in the device area, as do the resize decisions, 64-bit aligned
 * wherever the control block is. */
COOP_LAYOUT_ASSERT(COOP_CHAN_ECHO_OUT < COOP_CHAN_CTRL, chan_words_before_ctrl);
COOP_LAYOUT_ASSERT(COOP_DEV_CHAOS < COOP_DEV_BAR_COUNT, dev_words_before_barriers);
COOP_LAYOUT_ASSERT(COOP_DEV_BAR_COUNT % 2 == 0 && COOP_BAR_STRIDE % 2u == 0 &&
                   COOP_DEV_BAR_COUNT + COOP_BAR_STRIDE + 2 <= COOP_DEV_CTRL, dev_barrier_counters_fit);
COOP_LAYOUT_ASSERT(COOP_CHAN_CTRL % 2 == 0 && COOP_DEV_CTRL % 2 == 0 && COOP_CTRL_RESIZE % 2 == 0,
                   ctrl_resize_64_bit_aligned);
/* a barrier's count stays below its flags (COOP_BAR_IDLE - COOP_MAX_GROUPS .. COOP_BAR_IDLE) */
COOP_LAYOUT_ASSERT(COOP_BAR_IDLE > COOP_MAX_GROUPS && COOP_BAR_IDLE < COOP_BAR_VOTE && COOP_BAR_VOTE < COOP_BAR_FLAG,
                   barrier_count_below_flags);

/* What a group is doing in a megakernel (coop_device/schedule.h; a trace's COOP_EV_START names it); a
 * plain persistent kernel's groups are all COOP_ROLE_COOP. */
#define COOP_ROLE_COOP 1u
#define COOP_ROLE_TASK 2u
#define COOP_ROLE_IDLE 3u
#define COOP_ROLE_AGENT 4u
#define COOP_ROLE_KILLED 5u   /* killed at an offer, not yet out of the barriers (coop_device/task.h) */
/* Killed and out of the barriers already: at a resizing barrier (which takes a killed group out
 * of them at once), or at an offer once coop_leave_if_killed has run. It has COOP_ROLE_IDLE's
 * value, which a group that has started (ctx->started) never holds otherwise: coop_next_role
 * tells the two apart by ctx->started, and takes this one, like COOP_ROLE_KILLED, as killed. */
#define COOP_ROLE_KILLED_OUT COOP_ROLE_IDLE

/* ---- Trace mode (kernels built with COOP_TRACING=1: coop_mega_params.trace_file) -----------
 * The device area then goes on past COOP_DEV_WORDS with the trace area below, sized by the host
 * for the run. Times are the trace clock's ticks (coop_device/trace.h, coop_trace_clock: nanoseconds
 * on NVIDIA, the time-stamp counter on PoCL). Each group's local id 0 appends its own events to
 * its own buffer, so no event needs an atomic; a full buffer counts the events it drops. */
enum coop_trace_slot {
    COOP_TRACE_T0 = 0,          /* 64-bit: when discovery closed (the leader's clock) */
    COOP_TRACE_MEMBERS = 2,     /* 64-bit: COOP_TRACE_MEMBERS_WORD(ticks since T0, running members) */
    COOP_TRACE_CAPACITY = 4,    /* host -> kernel: events each group's buffer holds */
    COOP_TRACE_RESIZE_TIME = 8, /* three 64-bit times: when a resize's kills took effect, per slot */
    COOP_TRACE_KILL_TIME = 16,  /* 64-bit per virtual id: when a sweep killed that parked member */
    COOP_TRACE_COUNT = 16 + 2 * 4096, /* one word per group: events it recorded, kept or not */
    COOP_TRACE_EVENTS = 16 + 3 * 4096 /* the buffers: group g's at COOP_TRACE_EVENTS + g * capacity
                                         * * COOP_TRACE_EVENT_WORDS */
};
/* Several cooperative kernels (docs/DESIGN.md sections 13 and 17): each kernel block keeps its own
 * MEMBERS, RESIZE_TIME and KILL_TIME (they follow that kernel's members, epochs and ids). Blocks
 * 1 .. K-1 have COOP_TRACE_KERNEL_WORDS words each after the blocks' device areas, at those
 * offsets; the area above (T0, CAPACITY, COUNT, EVENTS and block 0's own words) follows them. */
#define COOP_TRACE_KERNEL_WORDS COOP_TRACE_COUNT
/* where the trace area starts in the device area of a megakernel of `kernels` kernels */
#define COOP_DEV_TRACE_AT(kernels) ((kernels) * COOP_DEV_WORDS + ((kernels) - 1) * COOP_TRACE_KERNEL_WORDS)
/* block k's own trace words (k >= 1) */
#define COOP_DEV_TRACE_KERNEL(kernels, k) ((kernels) * COOP_DEV_WORDS + ((k) - 1) * COOP_TRACE_KERNEL_WORDS)
#define COOP_DEV_TRACE COOP_DEV_TRACE_AT(1)
COOP_LAYOUT_ASSERT(COOP_TRACE_CAPACITY < COOP_TRACE_RESIZE_TIME &&
                   COOP_TRACE_RESIZE_TIME + 2 * COOP_RESIZE_SLOTS <= COOP_TRACE_KILL_TIME &&
                   COOP_TRACE_KILL_TIME + 2 * (COOP_MAX_GROUPS + 1) <= COOP_TRACE_COUNT &&
                   COOP_TRACE_COUNT + COOP_MAX_GROUPS + 1 <= COOP_TRACE_EVENTS, trace_areas_fit);
/* An event: time (64 bits, low word first), COOP_EVENT_WORD(kind, a, block), b. */
#define COOP_TRACE_EVENT_WORDS 4u

/* Event kinds, with their a and b. A group's buffer holds its events in the order they
 * happened; the role events (START, PARK ... EXIT) tell what it did from then on. */
#define COOP_EV_START 1u        /* discovery closed (time T0): a = role (COOP_ROLE_*), b = id */
#define COOP_EV_INIT 2u         /* the discovery leader, time T0: a = members, b = groups */
#define COOP_EV_PARK 3u         /* a member waits at its offer_kill: b = id */
#define COOP_EV_UNPARK 4u       /* ... and goes on as a member: b = id */
#define COOP_EV_KILLED 5u       /* a = how (COOP_KILLED_*), b = id */
#define COOP_EV_FINISHED 6u     /* a member returned from the cooperative kernel: b = id */
#define COOP_EV_FORKED 7u       /* an idle group became member b, resuming at point a */
#define COOP_EV_IDLE 8u         /* in the pool of idle groups */
#define COOP_EV_JOIN 9u         /* joined the task gathering: a = request number, b = 1 if just killed */
#define COOP_EV_TASK 10u        /* runs a workgroup: a = task, b = its workgroup */
#define COOP_EV_LEAVE 11u       /* left the task: no workgroup of it was left */
#define COOP_EV_EXIT 12u        /* left the megakernel */
#define COOP_EV_BARRIER 13u     /* arrived at global barrier a (COOP_EVENT_BARRIER_A: its number,
                                   and whether a resizing one), then waited b ns for it (saturating) */
#define COOP_EV_MEMBERS 14u     /* the count of running members changed to a (b: by how many, signed) */
#define COOP_EV_FORK 15u        /* this member forked: a = new groups, b = the first one's id */
#define COOP_EV_RESIZE 16u      /* member 0 resized at a barrier: a = new M, b = COOP_EVENT_RESIZE_B */
#define COOP_EV_REQUEST 17u     /* the agent applied task request a (task b); time = T_REQUEST */
#define COOP_EV_GATHERED 18u    /* the last group joined request a's task; time = T_GATHERED */
#define COOP_EV_DONE 19u        /* the last group left request a's task; time = T_DONE */
#define COOP_EV_MOVED 20u       /* several kernels: an idle group moved from block a into the
                                   event's block (docs/DESIGN.md section 17, step 3) */

#define COOP_KILLED_CHAOS 1u    /* at an offer, by chaos mode */
#define COOP_KILLED_SWEEP 2u    /* at an offer, the largest member, killing itself (and parked ones) */
#define COOP_KILLED_SWEPT 3u    /* parked at an offer, killed by the largest member's sweep */
#define COOP_KILLED_RESIZE 4u   /* at a resizing barrier, by member 0's decision */
#define COOP_TRACE_RESIZING 0x800000u /* COOP_EV_BARRIER's a: the barrier was a resizing one */

#define COOP_REQ_TASK 1u
#define COOP_REQ_SHUTDOWN 2u
/* several cooperative kernels (docs/DESIGN.md section 17), applied to one kernel block: */
#define COOP_REQ_MOVE 3u        /* MOVE_TO = REQ_SLOT, then MOVE = REQ_WANT (0: no more moves) */
#define COOP_REQ_SHARE 4u       /* kill tokens for the block's share: REQ_WANT tokens for request
                                   REQ_TASK (with COOP_SHARE_REQUEST) where none are left and the
                                   last were a share's or none; REQ_WANT 0 cancels a share's */
#define COOP_SHARE_REQUEST 0x80000000u /* in a share's token request number; no task's has it */
#define COOP_TASK_GATHERING 1u
#define COOP_TASK_RUNNING 2u
#define COOP_TASK_DONE 3u

/* Group states for the watchdog (COOP_CTRL_GROUP_STATE): COOP_WHERE_WORD(where, detail). */
#define COOP_WHERE_IDLE 1u
#define COOP_WHERE_RUNNING 2u      /* detail: virtual id */
#define COOP_WHERE_BARRIER 3u      /* detail: COOP_WHERE_BARRIER_DETAIL(virtual id, barrier number) */
#define COOP_WHERE_TASK 4u         /* detail: task workgroup, or COOP_WHERE_TASK_WAITING */
#define COOP_WHERE_TASK_WAITING 0xfffffffu /* joined, waiting for the task to start */
#define COOP_WHERE_AGENT 5u
#define COOP_WHERE_MOVED 6u        /* several cooperative kernels: the group left this kernel block;
                                      detail: the block it moved to */
#define COOP_WHERE_EXITED 7u

/* ---- Packed words ----------------------------------------------------------------------------
 * Every word that holds more than one field is packed and unpacked with these, by the host and
 * the device alike. COOP_U32 / COOP_U64: the unsigned 32- and 64-bit types in either language. */
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define COOP_U32 uint
#define COOP_U64 ulong
#else
#include <stdint.h>
#define COOP_U32 uint32_t
#define COOP_U64 uint64_t
#endif

/* A 64-bit value as two words, low word first (the time slots, the trace's 64-bit words) */
#define COOP_LOW_HALF(v) ((COOP_U32)(v))
#define COOP_HIGH_HALF(v) ((COOP_U32)((v) >> 32))
#define COOP_JOIN_HALVES(low, high) ((COOP_U64)(low) | (COOP_U64)(high) << 32)

/* Discovery's virtual ids (coop_scheduler_enter says why this order; where.c names a plain
 * kernel's groups by it): of the `groups` groups, ticket 0 is the agent when `agent` is 1 (it
 * keeps id groups - 1, unused); of the others, in ticket order, the first COOP_NEAR_IDS take ids
 * 0, 1, ... and the rest ids against ticket order. A build may set COOP_NEAR_IDS (0: against
 * ticket order all through); the host then still names a plain kernel's running groups by 8. */
#ifndef COOP_NEAR_IDS
#define COOP_NEAR_IDS 8u
#endif
#define COOP_NEAR_OF(groups, agent) ((groups) - (agent) < COOP_NEAR_IDS ? (groups) - (agent) : COOP_NEAR_IDS)
#define COOP_ID_OF_TICKET(ticket, groups, agent)                                                    \
    ((agent) && (ticket) == 0u                         ? (groups) - 1u                               \
     : (ticket) - (agent) < COOP_NEAR_OF(groups, agent) ? (ticket) - (agent)                         \
                                                        : (groups) - (agent) - 1u -                  \
                                                              ((ticket) - (agent) - COOP_NEAR_OF(groups, agent)))

/* COOP_CTRL_STATE: members M in the low 12 bits, finished members F above (F > 0: no more forks). */
#define COOP_STATE_MEMBERS(s) ((s) & 0xfffu)
#define COOP_STATE_FINISHED(s) (((s) >> 12) & 0xfffu)
#define COOP_STATE_ONE_FINISHED (1u << 12)      /* added by a member that finished */

/* COOP_CTRL_TASK_STATUS and a slot's COOP_SLOT_STATUS: the request number above its task slot (2
 * bits) above a COOP_TASK_* status (2 bits). */
#define COOP_TASK_STATUS_WORD(seq, slot, status) ((seq) << 4 | (slot) << 2 | (status))
#define COOP_TASK_STATUS_SEQ(word) ((word) >> 4)
#define COOP_TASK_STATUS_SLOT(word) (((word) >> 2) & 3u)
#define COOP_TASK_STATUS_OF(word) ((word) & 3u)
#define COOP_TASK_STATUS_SET(word, status) (((word) & ~3u) | (status))
#define COOP_TASK_SEQ_KEPT(seq) ((seq) & 0x0fffffffu)  /* the part of a request number the word keeps */
COOP_LAYOUT_ASSERT(COOP_TASK_SLOTS <= 4u, task_slot_fits_2_bits);

/* COOP_CTRL_KILLS and COOP_CTRL_KILLS_REQUEST as one 64-bit word: the number of the task request
 * that the tokens are for above the tokens. A request sets it (coop_apply_request), takers
 * subtract from the tokens, the task's start clears it, and a give-back adds only while the
 * request is still the one the tokens were taken for (coop_device/kill.h). The
 * offers' fast paths read the low half alone. */
#define COOP_KILLS_WORD(request, tokens) ((COOP_U64)(request) << 32 | (tokens))
#define COOP_KILLS_REQUEST(word) COOP_HIGH_HALF(word)
#define COOP_KILLS_TOKENS(word) COOP_LOW_HALF(word)

/* COOP_CTRL_RESIZE, one 64-bit slot per barrier number % COOP_RESIZE_SLOTS: the barrier's number
 * above member 0's decision there, which is kill tokens taken (bits 1..) | COOP_RESIZE_FORK. */
#define COOP_RESIZE_WORD(barrier, decision) ((COOP_U64)(barrier) << 32 | (decision))
#define COOP_RESIZE_BARRIER(word) COOP_HIGH_HALF(word)
#define COOP_RESIZE_DECISION(word) COOP_LOW_HALF(word)
#define COOP_RESIZE_FORK 1u                      /* try to fork */
#define COOP_RESIZE_KILL(kills) ((kills) << 1)
#define COOP_RESIZE_KILLS(decision) ((decision) >> 1)

/* COOP_CTRL_COMMIT, one word per resize slot: the barrier's number (low 20 bits) above the new M. */
#define COOP_COMMIT_TAG(barrier) (((barrier) & 0xfffffu) << 12)
#define COOP_COMMIT_WORD(barrier, members) (COOP_COMMIT_TAG(barrier) | (members))
#define COOP_COMMIT_TAG_OF(word) ((word) & 0xfffff000u)
#define COOP_COMMIT_MEMBERS(word) ((word) & 0xfffu)

/* The barrier counters (coop_device/barrier.h): barrier b's counter is one half of the
 * 64-bit word COOP_BAR_PAIR(b), the high one if COOP_BAR_HIGH(b); b + 2's is the other half. One
 * 64-bit add arrives at b (+1 on its half) and arms b + 2 (-1 on the other): for a low half +1,
 * and 0xffffffff (-1) on the high half, whose carry out of the word is lost; for a high half
 * 0xffffffff on the low half, -1 there with a carry of +1 into the high half (a count is never 0). */
#define COOP_BAR_PAIR(number) (COOP_DEV_BAR_COUNT + ((number) % 2u) * COOP_BAR_STRIDE)
#define COOP_BAR_HIGH(number) (((number) % 4u) / 2u)
#define COOP_BAR_WORD(number) (COOP_BAR_PAIR(number) + COOP_BAR_HIGH(number))
#define COOP_BAR_ARRIVE_LOW 0xffffffff00000001UL
#define COOP_BAR_ARRIVE_HIGH 0x00000000ffffffffUL
#define COOP_BAR_FLAGS (COOP_BAR_FLAG | COOP_BAR_VOTE)
#define COOP_BAR_UNFLAGGED(value) ((value) & ~COOP_BAR_FLAGS)

/* COOP_CTRL_GROUP_STATE: a COOP_WHERE_* above its detail (28 bits). */
#define COOP_WHERE_WORD(where, detail) ((where) << 28 | (detail))
#define COOP_WHERE_OF(word) ((word) >> 28)
#define COOP_WHERE_DETAIL(word) ((word) & 0xfffffffu)
#define COOP_WHERE_BARRIER_DETAIL(id, number) (((id) & 0xfffu) << 16 | ((number) & 0xffffu))
#define COOP_WHERE_BARRIER_ID(word) (((word) >> 16) & 0xfffu)
#define COOP_WHERE_BARRIER_NUMBER(word) ((word) & 0xffffu)

/* Trace events (COOP_TRACE_EVENT_WORDS words): in the third word the kernel block the group was
 * in (2 bits), the kind (6 bits) and a (24 bits). */
#define COOP_EVENT_WORD(kind, a, block) ((block) << 30 | (kind) << 24 | ((a) & 0xffffffu))
#define COOP_EVENT_KIND(word) (((word) >> 24) & 0x3fu)
#define COOP_EVENT_BLOCK(word) ((word) >> 30)
#define COOP_EVENT_A(word) ((word) & 0xffffffu)
/* COOP_EV_BARRIER's a: the barrier's number (23 bits) | COOP_TRACE_RESIZING */
#define COOP_EVENT_BARRIER_A(number, resizing) (((number) & 0x7fffffu) | ((resizing) ? COOP_TRACE_RESIZING : 0u))
#define COOP_EVENT_BARRIER_NUMBER(a) ((a) & ~COOP_TRACE_RESIZING)
/* COOP_EV_RESIZE's b: the kills, and the groups forked above them */
#define COOP_EVENT_RESIZE_B(kills, forked) ((kills) | (forked) << 12)
#define COOP_EVENT_RESIZE_KILLS(b) ((b) & 0xfffu)
#define COOP_EVENT_RESIZE_FORKED(b) ((b) >> 12)
/* COOP_TRACE_MEMBERS (64-bit): the time of the last change, in ticks since T0, above the count */
#define COOP_TRACE_MEMBERS_WORD(time, count) ((time) << 12 | ((count) & 0xfffu))
#define COOP_TRACE_MEMBERS_TIME(word) ((word) >> 12)
#define COOP_TRACE_MEMBERS_COUNT(word) ((word) & 0xfffu)

COOP_LAYOUT_ASSERT(COOP_MAX_KERNELS <= 4 && COOP_EV_MOVED < 64, events_hold_kind_and_block);

/* every 12-bit field above holds any number of groups */
COOP_LAYOUT_ASSERT(COOP_MAX_GROUPS <= 0xfffu, groups_fit_12_bits);

#endif
