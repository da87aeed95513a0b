/* mega.h: the host scheduler's state for one coop_mega_run (scheduler.c), shared with the
 * spawn queue's host side (spawn.c). Internal; not installed. */
#ifndef COOP_MEGA_H
#define COOP_MEGA_H

#include "internal.h"
#include "trace.h"

/* How many of the control block's slots the watchdog watches (coop_layout.h's WATCH column). */
#define WATCHED_ROW(name, word, words, agent, label, watch) + ((watch) != 0)
#define WATCHED_SLOTS (0 COOP_CTRL_SLOTS(WATCHED_ROW))
enum { WATCH_KERNEL = 1, WATCH_TASK = 2 };

/* A run spawned on the device, taken from the queue, waiting to be sent (docs/DESIGN.md 10.2). */
typedef struct spawn_run {
    unsigned task, workgroups, depth;
    unsigned cap;               /* its spawner's groups, the most it takes (0: the kernel's) */
    uint32_t spawner;           /* the spawning run's number among the task runs; 0: the kernel */
    uint32_t args[COOP_TASK_ARGS];
    uint64_t spawn_tick;
    double seen_us;             /* when the host took it */
    double due_ms;              /* = seen, in ms since discovery: it is due at once */
    unsigned order;             /* its place among the spawns taken (ties of due order) */
    unsigned overtaken;         /* P1: runs sent ahead of it though due after it */
    size_t plan;                /* its chain's plan (plan_count: the cooperative kernel's) */
    unsigned kernel;            /* the kernel block whose queue it came from */
} spawn_run;

/* A due run as the policy weighs it (scheduler.c, send_next): a plan's next run or a spawned one. */
typedef struct due_run {
    double due_ms, deadline_ms;  /* since discovery; deadline INFINITY: none */
    unsigned priority;
    size_t key;                 /* the due order among equal times: plans by index, then spawned runs
                                   in the order the host took them */
    unsigned *overtaken;        /* P1: its count of runs sent ahead of it though due after it */
    unsigned spawn;             /* 0: plan `plan`'s run; else m->spawns[spawn - 1] */
    size_t plan;
} due_run;

/* A task request in flight, in its slot (docs/DESIGN.md section 10). */
typedef struct flight {
    int used;
    unsigned block;             /* the kernel block it was sent to (several cooperative kernels) */
    size_t plan;                /* a spawned run: its chain's plan, or plan_count for the kernel's */
    uint32_t seq;               /* its request's number in the mailbox */
    uint32_t number;            /* its number among the task runs sent (= seq with one kernel) */
    unsigned task, want, overtaken, in_flight;
    int spawned;                /* from the device's spawn queue (section 10.2) */
    unsigned spawned_by, depth;
    unsigned spawned_in;        /* a spawned run: the kernel block whose queue it came from */
    uint64_t spawn_tick;        /* the device's clock at the spawn (0: none) */
    double spawn_seen_us;       /* when the host took it from the queue */
    double due_ms;              /* when its plan wanted it */
    double deadline_ms;         /* due_ms + the plan's deadline; INFINITY: none */
    double request_us, running_us;
} flight;

typedef struct mega {
    coop_context *ctx;
    coop_running run;
    const coop_mega_params *params;
    const coop_task_plan *plans;
    size_t plan_count;
    int direct;                 /* the control block is in the channel: the host applies requests */
    unsigned limit;             /* most members: every group but the agent */
    uint32_t seq;               /* requests sent */
    uint32_t runs;              /* task runs sent */
    /* the tasks in flight: one per slot; the one gathering (-1: none, T6) */
    flight slots[COOP_TASK_SLOTS];
    unsigned in_flight, slot_limit;
    int gathering;
    coop_policy policy;
    unsigned overtake_limit;
    /* per plan: submissions made, how often its due run was overtaken (P1) */
    unsigned *sent;
    unsigned *overtaken;
    /* spawned runs taken from the device's queue, not yet sent (section 10.2) */
    spawn_run spawns[COOP_SPAWN_QUEUE];
    unsigned spawn_count;
    uint32_t spawn_tail[COOP_MAX_KERNELS]; /* per kernel block: the next ticket to take */
    unsigned spawn_order;       /* spawns taken so far: the due order among equal times */
    /* per request number (a mailbox sequence number): the plan its chain began from (plan_count:
     * the cooperative kernel), and its number among the task runs (what records call it) */
    struct chain_note {
        size_t plan;
        uint32_t number;
    } *chains;
    size_t chain_capacity;
    due_run *candidates;        /* plan_count + COOP_SPAWN_QUEUE: send_next's due runs */
    unsigned spawn_slot;        /* the agent serves the spawn queue from this task slot on (0: the
                                   host does) */
    /* the agent's record ring (section 10.2, S7): entries read; without a device clock, per
     * kernel block and task slot, the agent-served run the host last saw there and when it first
     * did (its record's request time) */
    uint32_t records_read;
    uint32_t seen_run[COOP_MAX_KERNELS][COOP_TASK_SLOTS];
    double seen_us[COOP_MAX_KERNELS][COOP_TASK_SLOTS];
    long task_count;            /* the megakernel's tasks as coop-merge wrote them (-1: unknown) */
    coop_task_record *records;
    coop_trace_task *tasks;     /* per record: its device times, and what a trace shows of it */
    size_t record_count, record_capacity;
    int device_clock;           /* the kernel writes its clock's time in the T_* slots */
    double us_per_tick;         /* that clock's rate (a trace's: known once the run ended) */
    int tracing;
    coop_trace timeline;
    /* mean members */
    double member_time_us, sample_us;
    unsigned members;
    double cooperative_done_us; /* when the host first saw every member finished */
    int trace;                  /* COOP_TRACE set */
    double traced_us;
    /* watchdog */
    uint32_t signature[WATCHED_SLOTS]; /* the watched slots' last values */
    double progress_us;
    uint32_t quiet_kills, quiet_forks, quiet_tasks; /* their counts when the last progress was seen */
    const char *ended;          /* a failed run: "watchdog" or "time limit" ended it (NULL: an error) */
    struct coop_share *share;   /* several cooperative kernels (share.c); NULL: one */
    unsigned kernels;           /* their kernel blocks (1: one kernel) */
} mega;

/* A word of kernel block `block`'s control block, through the channel (several cooperative
 * kernels: share.c). */
static inline coop_status block_load(mega *m, unsigned block, unsigned slot, uint32_t *value)
{
    return coop_channel_load(m->ctx, block * COOP_CHAN_WORDS + COOP_CHAN_CTRL + slot, value);
}

/* `count` words of block `block`'s control block from `slot` on, in one channel transfer. */
static inline coop_status block_read(mega *m, unsigned block, unsigned slot, unsigned count, uint32_t *values)
{
    return coop_channel_read(m->ctx, block * COOP_CHAN_WORDS + COOP_CHAN_CTRL + slot, count, values);
}

static inline coop_status block_store(mega *m, unsigned block, unsigned slot, uint32_t value)
{
    return coop_channel_store(m->ctx, block * COOP_CHAN_WORDS + COOP_CHAN_CTRL + slot, value);
}

/* A word of the first (with one cooperative kernel, the only) kernel block's control block. */
static inline coop_status ctrl_load(mega *m, unsigned slot, uint32_t *value)
{
    return block_load(m, 0, slot, value);
}

static inline coop_status ctrl_store(mega *m, unsigned slot, uint32_t value)
{
    return block_store(m, 0, slot, value);
}

/* watch.c: the watchdog (docs/DESIGN.md section 12). coop_watch fails with COOP_ERR_TIMEOUT and
 * an account of where the groups are once nothing progressed for watchdog_s; coop_diagnose gives
 * that account for `cause` ("watchdog", "time limit"); coop_trace_words prints the scheduler's
 * words (COOP_TRACE=1). */
coop_status coop_watch(mega *m, double now_us, double watchdog_s, int cooperative_done);
coop_status coop_diagnose(mega *m, const char *cause, const char *what);
void coop_trace_words(mega *m);

/* plans.c: the task count coop-merge wrote into a megakernel's program ("coop-tasks: N"), or -1
 * where it wrote none (a megakernel written by hand). */
long coop_program_tasks(const coop_kernel *kernel);
/* plans.c: COOP_ERR_INVALID_ARGUMENT naming the first plan field out of range; else COOP_OK. */
coop_status coop_check_plans(coop_context *ctx, const coop_kernel *kernel, const coop_task_plan *plans,
                             size_t count);

/* spawn.c: takes the complete entries of every kernel block's spawn queue, a ticket of each in
 * turn (at most as many as the host's list has room for), and frees them on the device. */
coop_status coop_spawns_take(mega *m, double now_us);
/* spawn.c: records the chain plan of request `seq`, task run `number` (for the runs it spawns). */
coop_status coop_spawns_note(mega *m, uint32_t seq, size_t plan, uint32_t number);
/* spawn.c: where the agent serves the queues, records each of its runs done, in whichever kernel
 * block the agent put it, from the record ring, and tells the agent so (SPAWN_READ). */
coop_status coop_spawns_follow(mega *m, double now_us);
/* spawn.c: whether every ticket reserved in every kernel block was taken (the host serves) or the
 * agent reports none waiting and every run of its recorded (SPAWN_BUSY 0); read after the STATE
 * and status words that showed the members finished and the tasks done (S4). */
coop_status coop_spawns_left(mega *m, int *left);
/* records.c: the run in flight in task slot `slot` is done: its record, and the slot is free. */
coop_status coop_mega_record(mega *m, unsigned slot, double done_us);
/* records.c: as coop_mega_record, for the run `f` whose device times (request, gathered, done;
 * used with a device clock) are `ticks`: an agent-served run read from the record ring. */
coop_status coop_mega_record_run(mega *m, flight *f, const uint64_t ticks[3], double done_us);

/* A record's plan while the chain of an agent-served run is not known yet (fill_report resolves
 * it from the spawner's record). */
#define COOP_PLAN_PENDING (COOP_PLAN_KERNEL - 1u)

#endif
