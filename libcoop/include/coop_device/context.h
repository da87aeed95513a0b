/* coop_device/context.h: a persistent group's context (coop_ctx), its local scratch, COOP_PARAMS
 * and COOP_ENTER, the local id and the workgroup barrier.
 * Invariants: docs/DESIGN.md sections 2 (memory areas) and 4 (a group's roles). Part of the
 * kernel header (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_CONTEXT_H
#define COOP_DEVICE_CONTEXT_H

#include "trace.h"

/* Local scratch of a persistent group: [0, 8) discovery and broadcasts, [8, 16) local id 0's
 * hand-overs to the group, then COOP_TRANSMIT_WORDS words of transmit state (a forked group's,
 * or the forking group's on its way out), then COOP_SWEEP_WIDTH words for a kill sweep (or the
 * agent's copies: an agent never sweeps), then the cold fields. */
/* discovery's hand-over from local id 0 (coop_enter), read once by every work-item */
#define COOP_SCRATCH_TICKET 0         /* the group's ticket, or COOP_NO_GROUP */
#define COOP_SCRATCH_GROUPS 1         /* physical_groups (also read later: coop_member_limit) */
#define COOP_SCRATCH_MEMBERS 2        /* COOP_DEV_MEMBERS: the groups that start as members */
#define COOP_SCRATCH_AGENT 3          /* COOP_DEV_AGENT: 1 if the first group is the agent */
#define COOP_SCRATCH_CHAOS 4          /* COOP_DEV_CHAOS: chaos mode's seed */
#define COOP_SCRATCH_M 5              /* local id 0's copy of M, 0 when it must be read again
                                         (coop_shared_num_groups) */
#define COOP_SCRATCH_BROADCAST 6      /* two words, 6 and 7, alternating (coop_broadcast) */
/* [8, 16): words local id 0 hands to its group after a step only it takes. Each function that
 * uses one writes it just before a group barrier and every work-item reads it just after, so
 * the functions share them (one name per use): */
#define COOP_SCRATCH_ROLE 8           /* coop_schedule: the group's next role */
#define COOP_SCRATCH_OUTCOME 8        /* coop_resizing_barrier_vote_unless: COOP_OUTCOME(killed there,
                                         the vote, groups member 0 forked), one word, so that the
                                         group's hand-over is one store and one load */
#define COOP_SCRATCH_ID 9             /* coop_schedule: the group's id in that role */
#define COOP_SCRATCH_FORK_BASE 10     /* coop_resizing_barrier_vote_unless: the first one's id
                                         (written only when member 0 forked) */
#define COOP_SCRATCH_EPOCH 11         /* coop_schedule: barriers the group has passed */
#define COOP_SCRATCH_RESIZE_REQUEST 12 /* not a hand-over: member 0's local id 0 keeps here, from
                                          coop_resize_decision to coop_resize_commit, the request
                                          its kill tokens came from */
#define COOP_SCRATCH_TASK_SLOT 13     /* not a hand-over: the task slot of the request the group
                                         joined (docs/DESIGN.md section 10), kept from its join
                                         (local id 0, before coop_schedule's group barrier) to its
                                         last workgroup of the task; coop_task_arg reads it */
#define COOP_SCRATCH_RNG 14           /* coop_schedule: chaos mode's random state */
#define COOP_SCRATCH_SWEEP_GAP 15     /* coop_sweep: the first candidate not claimed (atomic_min
                                         by the claiming work-items; COOP_SWEEP_NO_GAP: none) */
#define COOP_SWEEP_NO_GAP 0xffffffffu
#define COOP_OUTCOME_KILLED 1u
#define COOP_OUTCOME_VOTED 2u
#define COOP_OUTCOME(killed, voted, forked) \
    (((killed) ? COOP_OUTCOME_KILLED : 0u) | ((voted) ? COOP_OUTCOME_VOTED : 0u) | ((forked) << 2))
#define COOP_OUTCOME_FORKS(outcome) ((outcome) >> 2)
#define COOP_SCRATCH_TRANSMIT 16
#define COOP_SCRATCH_SWEEP (COOP_SCRATCH_TRANSMIT + COOP_TRANSMIT_WORDS)
/* the context's fields that change only when the group changes role, kept here rather than in
 * registers across the cooperative kernel's loops (see COOP_COLD_CTX) */
#define COOP_SCRATCH_COLD (COOP_SCRATCH_SWEEP + COOP_SWEEP_WIDTH)
#define COOP_COLD_RESUME (COOP_SCRATCH_COLD + 0)
#define COOP_COLD_TASK (COOP_SCRATCH_COLD + 1)
#define COOP_COLD_TASK_GROUPS (COOP_SCRATCH_COLD + 2)
#define COOP_COLD_STARTED (COOP_SCRATCH_COLD + 3)
#define COOP_COLD_CHAN (COOP_SCRATCH_COLD + 4)
/* the group's vote at a coop_global_barrier_any (any work-item's flag), and the outcome */
#define COOP_SCRATCH_VOTE (COOP_SCRATCH_COLD + 6)
#define COOP_SCRATCH_VOTED (COOP_SCRATCH_COLD + 7)
#if defined(COOP_KERNELS) && COOP_KERNELS > 1
/* several cooperative kernels (coop_device/kernels.h): the group's kernel block, and (at the
 * start) the first place in the virtual order of its kernel's members */
#define COOP_COLD_KERNEL (COOP_SCRATCH_COLD + 8)
#define COOP_COLD_KERNEL_BASE (COOP_SCRATCH_COLD + 9)
#define COOP_SCRATCH_WORDS (COOP_SCRATCH_COLD + 10)
#else
#define COOP_SCRATCH_WORDS (COOP_SCRATCH_COLD + 8)
#endif
COOP_LAYOUT_ASSERT(COOP_SCRATCH_BROADCAST + 1 < COOP_SCRATCH_ROLE && COOP_SCRATCH_SWEEP_GAP < COOP_SCRATCH_TRANSMIT,
                   scratch_hand_overs_below_transmit);


typedef struct coop_ctx {
    global uint *chan;     /* host-visible channel (coop_layout.h, enum coop_chan_slot) */
    global uint *dev;      /* device area (enum coop_dev_slot) */
    global uint *ctrl;     /* control block (enum coop_ctrl_slot), in the channel or the device area */
    local uint *scratch;   /* COOP_SCRATCH_WORDS words for broadcasts inside the group */
    uint physical;         /* this group's discovery ticket, 0 .. physical_groups - 1 */
    uint physical_groups;  /* co-resident groups */
    uint epoch;            /* global barriers this group has passed */
    uint role;             /* COOP_ROLE_* */
    uint id;               /* cooperative role: virtual group id; task role: task workgroup */
    uint resume;           /* cooperative role: where a forked group resumes (0: at the start) */
    uint task;             /* task role: task index */
    uint task_groups;      /* task role: workgroups of the task */
    uint rng;              /* chaos mode's random state (0: chaos off) */
    uint toggle;           /* alternates the broadcast slot */
    uint started;          /* the scheduler has handed this group its first role */
    uint fixed_groups;     /* a standalone form's M, read once at its start (coop_fix_num_groups) */
    uint known_groups;     /* COOP_PRIVATE_M: M as the group last learnt it (coop_shared_num_groups),
                              0 when it must be read again; the same in every work-item */
#if COOP_SITES
    uint site;             /* the barrier about to be reached, as coop-merge numbered it in the
                              program's coop-site lines (coop_at); 0: not known */
#endif
#if defined(COOP_KERNELS) && COOP_KERNELS > 1
    global uint *chan0;    /* several cooperative kernels: kernel block 0's channel and device */
    global uint *dev0;     /* area (discovery's words); chan, dev, ctrl are the group's block's */
    uint block;           /* the group's kernel block (coop_kernel_switch) */
#endif
} coop_ctx;

/* The two parameters libcoop passes first to every persistent kernel. */
#define COOP_PARAMS global uint *coop_chan_, global uint *coop_dev_

/* Declares `coop_ctx NAME`, runs discovery, and returns from the kernel in groups that are not
 * co-resident. Must be the first statement of a persistent kernel, reached by all work-items.
 * Because of that return, PoCL 3.1's work-group compiler can make a loop of branches after the
 * kernel's last barrier spin for ever unless a workgroup barrier ends the kernel: coop-merge's
 * forms end with one (docs/TUTORIAL.md says so for kernels written by hand). */
#define COOP_ENTER(NAME)                                                   \
    local uint NAME##_scratch_[COOP_SCRATCH_WORDS];                        \
    coop_ctx NAME;                                                         \
    if (!coop_enter(&NAME, coop_chan_, coop_dev_, NAME##_scratch_))        \
        return

/* The work-item's index in its group. On NVIDIA it is computed in inline PTX, out of the
 * compiler's reach: where `coop_local_linear_id() == 0` was its only use, the compiler rewrote
 * x + nx * (y + ny * z) == 0 as nx * (y + ny * z) == -x, which ptxas no longer takes for a test
 * that one lane passes, and it then warp-aggregated every atomic that work-item 0 makes (VOTEU,
 * FLO, POPC and shuffles around each: H200). */
#if defined(COOP_TARGET_NVIDIA)
inline uint coop_local_linear_id(void)
{
    uint lid;
    asm("{\n\t.reg .u32 lz, lny, ly, lnx, lx, lt;\n\tmov.u32 lz, %%tid.z;\n\tmov.u32 lny, %%ntid.y;\n\t"
        "mov.u32 ly, %%tid.y;\n\tmov.u32 lnx, %%ntid.x;\n\tmov.u32 lx, %%tid.x;\n\t"
        "mad.lo.u32 lt, lz, lny, ly;\n\tmad.lo.u32 %0, lt, lnx, lx;\n\t}"
        : "=r"(lid));
    return lid;
}
#else
inline uint coop_local_linear_id(void)
{
    return (uint)(get_local_id(0) +
                  get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}
#endif

inline uint coop_local_linear_size(void)
{
    return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* A workgroup barrier that orders the group's global-memory accesses. On NVIDIA, bar.sync
 * itself orders all memory accesses of the participating threads, and the leader's device-scope
 * release/acquire is cumulative; asking for CLK_GLOBAL_MEM_FENCE there would add a GPU-scope
 * fence in every work-item. */
#if defined(COOP_TARGET_NVIDIA)
#define COOP_GROUP_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#else
#define COOP_GROUP_SYNC() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif

/* COOP_GROUP_SYNC() as a function, for kernels in the cooperative language (coop-merge knows it
 * as a workgroup barrier): orders what the group wrote before it, in global and local memory,
 * before what any of its work-items does after it. */
inline void coop_group_sync(void)
{
    COOP_GROUP_SYNC();
}

#endif
