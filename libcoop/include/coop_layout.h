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
 *   otherwise; then an agent group copies requests in and status out (coop_scheduler.h).
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
    COOP_DEV_BAR_COUNT = 32,   /* four barrier counters: two 64-bit words, 32 words (128 bytes) apart */
    COOP_DEV_CTRL = 128        /* the control block, unless the channel holds it (the build says
                                  which: COOP_CTRL_IN_CHAN, libcoop/src/program.c) */
};

#define COOP_BAR_STRIDE 32u
/* A barrier counter's value when no barrier is pending on it; arming subtracts one per member
 * and arrival adds one, so the barrier is complete when this bit is set again. */
#define COOP_BAR_IDLE 0x20000000u
/* Set in a barrier's counter when M may have changed before it or member 0 made a resize
 * decision at it (coop_kernel.h's global barrier); member 0 clears it two barriers later. */
#define COOP_BAR_FLAG 0x80000000u
/* Set in a barrier's counter by a group that votes true at it (coop_global_barrier_any);
 * cleared with COOP_BAR_FLAG. */
#define COOP_BAR_VOTE 0x40000000u

/* Control block (offsets from its start). Words a host request fills come first, so that an
 * agent can copy them as one range; words the kernel reports follow. */
enum coop_ctrl_slot {
    /* requests (host -> kernel) */
    COOP_CTRL_REQ_SEQ = 0,      /* incremented by the host for each request */
    COOP_CTRL_REQ_KIND = 1,     /* COOP_REQ_TASK or COOP_REQ_SHUTDOWN */
    COOP_CTRL_REQ_TASK = 2,     /* task index in the megakernel */
    COOP_CTRL_REQ_WANT = 3,     /* groups to take for it */
    COOP_CTRL_REQ_RANGE = 4,    /* its number of workgroups */
    COOP_CTRL_REQ_ARGS = 8,     /* COOP_TASK_ARGS words for the task */
    COOP_CTRL_REQ_END = 24,
    /* scheduler state (kernel) */
    COOP_CTRL_STATE = 32,       /* members M (low 12 bits) | finished F << 12 (F > 0: no more forks) */
    COOP_CTRL_KILLS = 33,       /* kill tokens: kills the scheduler still wants */
    COOP_CTRL_IDLE = 64,        /* idle groups not reserved by a fork (own line) */
    COOP_CTRL_FORK_LEFT = 96,   /* fork slots not yet claimed (own line) */
    COOP_CTRL_FORK_BASE = 97,   /* virtual id of the fork's first new group */
    COOP_CTRL_FORK_RESUME = 98, /* where new groups resume */
    COOP_CTRL_FORK_EPOCH = 99,  /* barriers the forking group had passed */
    COOP_CTRL_FORK_READ = 100,  /* new groups done reading the transmit words */
    COOP_CTRL_FORK_SIZE = 101,  /* groups in the current fork */
    COOP_CTRL_TRANSMIT = 104,   /* COOP_TRANSMIT_WORDS words: the forking work-item 0's transmit */
    COOP_CTRL_TASK_STATUS = 168, /* seq << 2 | COOP_TASK_{GATHERING,RUNNING,DONE} (own line) */
    COOP_CTRL_TASK_JOINED = 169,
    COOP_CTRL_TASK_NEXT = 170,  /* next task workgroup to run */
    COOP_CTRL_TASK_FINISHED = 171, /* joined groups that have left the task */
    COOP_CTRL_EXIT = 172,       /* 1: every idle group leaves the megakernel */
    COOP_CTRL_RESIZE = 176,     /* three 64-bit resize decisions: barrier number << 32 | decision */
    COOP_CTRL_COMMIT = 184,     /* three resize commits: barrier << 12 | new M */
    /* reports (kernel -> host); the agent copies this range out */
    COOP_CTRL_REPORT = 192,
    COOP_CTRL_REPORT_SEQ = 192,   /* last request the kernel has applied */
    COOP_CTRL_KILL_COUNT = 196,
    COOP_CTRL_FORK_COUNT = 197,   /* groups forked */
    COOP_CTRL_RESIZE_COUNT = 198,
    COOP_CTRL_TASKS_DONE = 199,
    COOP_CTRL_BARRIERS = 200,     /* barriers member 0 arrived at (all completed but the one it may wait at) */
    COOP_CTRL_WANT_SEEN = 201,    /* the request's group count as the kernel sees it (tracing) */
    COOP_CTRL_T_REQUEST = 202,    /* device clock, ns, 64-bit: request applied */
    COOP_CTRL_T_GATHERED = 204,   /* groups gathered */
    COOP_CTRL_T_DONE = 206,       /* task done */
    COOP_CTRL_DUMP = 208,         /* host -> agent: copy the group states out when this changes */
    COOP_CTRL_DUMPED = 209,       /* agent -> host: the last dump request served */
    COOP_CTRL_REPORT_END = 210,
    COOP_CTRL_PARKED_COUNT = 224, /* members parked at an offer (a hint for the largest one) */
    COOP_CTRL_GROUP_STATE = 256,  /* one word per group: where it is (COOP_WHERE_*), for the watchdog */
    COOP_CTRL_PARKED = 256 + 4096, /* one word per virtual id: COOP_PARK_* */
    COOP_CTRL_WORDS = 256 + 2 * 4096
};

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

#define COOP_REQ_TASK 1u
#define COOP_REQ_SHUTDOWN 2u
#define COOP_TASK_GATHERING 1u
#define COOP_TASK_RUNNING 2u
#define COOP_TASK_DONE 3u
#define COOP_TASK_ARGS 16u
#define COOP_TRANSMIT_WORDS 64u
#define COOP_STATE_MEMBERS(s) ((s) & 0xfffu)
#define COOP_STATE_FINISHED(s) (((s) >> 12) & 0xfffu)
#define COOP_MAX_GROUPS 4095u

/* Group states for the watchdog (COOP_DEV_GROUP_STATE): role << 28 | detail. */
#define COOP_WHERE_IDLE 1u
#define COOP_WHERE_RUNNING 2u      /* detail: virtual id */
#define COOP_WHERE_BARRIER 3u      /* detail: virtual id << 16 | barrier number (low 16 bits) */
#define COOP_WHERE_TASK 4u         /* detail: task workgroup, or COOP_WHERE_TASK_WAITING */
#define COOP_WHERE_TASK_WAITING 0xfffffffu /* joined, waiting for the task to start */
#define COOP_WHERE_AGENT 5u
#define COOP_WHERE_EXITED 7u

#endif
