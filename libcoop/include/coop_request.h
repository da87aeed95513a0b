/* coop_request.h: what applying a host request does to the control block, written once for the
 * two sides that apply requests (docs/DESIGN.md sections 10 and 11): the agent group, which
 * copies each request into the control block in device memory (coop_device/agent.h, coop_agent),
 * and the host itself when the control block is in the channel (libcoop/src/scheduler.c).
 *
 * It is compiled as OpenCL C (coop_device/common.h includes it; the kernel header embeds it there)
 * and as C11. Each side first gives it, on a control-block word, the accesses it names:
 * coop_load_relaxed, coop_store_relaxed, coop_store_release, and on a 64-bit pair of words
 * coop_exchange64 (acquire-release), with the orders coop_device/atomics.h's primitives have, and
 * coop_device_time(slot), which writes the device's clock into a 64-bit slot and returns it (the
 * host has no device clock: it writes nothing and returns 0; a traced run's host stamps
 * T_REQUEST itself). Like coop_layout.h, it tells the two languages apart by
 * __OPENCL_C_VERSION__ / __OPENCL_VERSION__. */
#ifndef COOP_REQUEST_H
#define COOP_REQUEST_H

/* A function both sides compile, and a control-block word and 64-bit pair of words as each side
 * addresses them. */
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define COOP_SHARED_FN inline
#define COOP_CTRL_WORD global uint
#define COOP_CTRL_PAIR global ulong
#else
#define COOP_SHARED_FN static inline
#define COOP_CTRL_WORD volatile uint32_t
#define COOP_CTRL_PAIR volatile uint64_t
#endif

/* A check build's checks (coop_device/checks.h, COOP_CHECK); the host defines its own, which
 * count in every run (libcoop/src/scheduler.c). */
#ifndef COOP_CHECK
#define COOP_CHECK(ctrl, holds, rule, a, b, c) ((void)sizeof(holds))
#endif

/* The kill tokens and the request they are for, one 64-bit word (COOP_KILLS_WORD). */
COOP_SHARED_FN COOP_CTRL_PAIR *coop_kill_tokens(COOP_CTRL_WORD *ctrl)
{
    return (COOP_CTRL_PAIR *)&ctrl[COOP_CTRL_KILLS];
}

#if !(defined(COOP_KERNELS) && COOP_KERNELS == 1)
/* Several cooperative kernels (docs/DESIGN.md section 17, steps 3 and 4): a move, or share kill
 * tokens set or cancelled, in the block whose control block this is. Compiled for the host and
 * for an agent of several blocks, not for one kernel's. */
COOP_SHARED_FN void coop_apply_share_request(COOP_CTRL_WORD *ctrl, COOP_U32 kind)
{
    if (kind == COOP_REQ_MOVE) {
        /* MOVE_TO first; MOVE's release pairs with the movers' acquire (coop_move_if_asked) */
        coop_store_relaxed(&ctrl[COOP_CTRL_MOVE_TO], coop_load_relaxed(&ctrl[COOP_CTRL_REQ_SLOT]));
        coop_store_release(&ctrl[COOP_CTRL_MOVE], coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]));
    } else if (kind == COOP_REQ_SHARE) {
        /* one compare-and-swap of the tokens' word, so that a task's tokens are never touched
         * and a give-back of the last share tokens fails once the word changed (K7, C5) */
        COOP_U32 want = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]);
        COOP_U64 word = coop_load_relaxed64(coop_kill_tokens(ctrl));
        int shares = (COOP_KILLS_REQUEST(word) & COOP_SHARE_REQUEST) != 0u;
        if (want ? !COOP_KILLS_TOKENS(word) && (!word || shares) : shares)
            coop_cas64(coop_kill_tokens(ctrl), word,
                       want ? COOP_KILLS_WORD(coop_load_relaxed(&ctrl[COOP_CTRL_REQ_TASK]), want) : 0u);
    }
}
#endif

/* Applies task request `seq` into task slot `slot`: its task, groups, workgroups, spawn depth and
 * the COOP_TASK_ARGS words at `args`; the slot then gathers (docs/DESIGN.md section 10). Returns
 * its time (the slot's T_REQUEST; 0 without a clock). */
COOP_SHARED_FN COOP_U64 coop_apply_task(COOP_CTRL_WORD *ctrl, COOP_U32 seq, COOP_U32 slot, COOP_U32 task,
                                        COOP_U32 want, COOP_U32 range, COOP_U32 depth, COOP_CTRL_WORD *args)
{
    COOP_CTRL_WORD *words = &ctrl[COOP_CTRL_SLOT(slot, 0)];
    COOP_U32 status = COOP_TASK_STATUS_WORD(COOP_TASK_SEQ_KEPT(seq), slot, COOP_TASK_GATHERING);
    /* T6: the last request has started; T7: the slot's last task is done, so no group reads
     * the words rewritten below */
    COOP_CHECK(ctrl, COOP_TASK_STATUS_OF(coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS])) != COOP_TASK_GATHERING,
               COOP_CHECK_ONE_GATHER, seq, coop_load_relaxed(&ctrl[COOP_CTRL_TASK_STATUS]), 0u);
    COOP_CHECK(ctrl, coop_load_relaxed(&words[COOP_SLOT_STATUS]) == 0u ||
                         COOP_TASK_STATUS_OF(coop_load_relaxed(&words[COOP_SLOT_STATUS])) == COOP_TASK_DONE,
               COOP_CHECK_SLOT_REUSE, seq, slot, coop_load_relaxed(&words[COOP_SLOT_STATUS]));
    coop_store_relaxed(&words[COOP_SLOT_TASK], task);
    coop_store_relaxed(&words[COOP_SLOT_WANT], want);
    coop_store_relaxed(&words[COOP_SLOT_RANGE], range);
    coop_store_relaxed(&words[COOP_SLOT_DEPTH], depth);
    for (COOP_U32 i = 0; i < COOP_TASK_ARGS; i++)
        coop_store_relaxed(&words[COOP_SLOT_ARGS + i], coop_load_relaxed(&args[i]));
    coop_store_relaxed(&words[COOP_SLOT_JOINED], 0u);
    coop_store_relaxed(&words[COOP_SLOT_NEXT], 0u);
    coop_store_relaxed(&words[COOP_SLOT_FINISHED], 0u);
    COOP_U64 requested = coop_device_time(&words[COOP_SLOT_T_REQUEST]);
    coop_store_relaxed(&words[COOP_SLOT_STATUS], status);
    /* release: the slot's words and the reset counts before GATHERING; pairs with the idle
     * groups' acquire of the status (coop_join_task, coop_task_need) */
    coop_store_release(&ctrl[COOP_CTRL_TASK_STATUS], status);
    /* the task's kill tokens, for this request; the word held none (K7: the last task's start
     * cancelled its tokens, and none came back after). Acquire-release: the takers'
     * compare-and-swap (coop_take_tokens) that reads it synchronises with it */
    COOP_U64 left = coop_exchange64(coop_kill_tokens(ctrl), COOP_KILLS_WORD(seq, want));
    COOP_CHECK(ctrl, left == 0u, COOP_CHECK_REQUEST_TOKENS, seq, COOP_KILLS_TOKENS(left), COOP_KILLS_REQUEST(left));
    return requested;
}

/* Applies request `seq`, whose words (REQ_KIND, and for a task REQ_SLOT, REQ_TASK, REQ_WANT,
 * REQ_RANGE, REQ_DEPTH, REQ_ARGS) are in the control block already: a task request is copied into
 * its slot (coop_apply_task). Returns a task request's time (its slot's T_REQUEST; 0 for other
 * requests or without a clock). */
COOP_SHARED_FN COOP_U64 coop_apply_request(COOP_CTRL_WORD *ctrl, COOP_U32 seq)
{
    COOP_U32 kind = coop_load_relaxed(&ctrl[COOP_CTRL_REQ_KIND]);
    COOP_U64 requested = 0;
    if (kind == COOP_REQ_TASK)
        requested = coop_apply_task(ctrl, seq, coop_load_relaxed(&ctrl[COOP_CTRL_REQ_SLOT]),
                                    coop_load_relaxed(&ctrl[COOP_CTRL_REQ_TASK]),
                                    coop_load_relaxed(&ctrl[COOP_CTRL_REQ_WANT]),
                                    coop_load_relaxed(&ctrl[COOP_CTRL_REQ_RANGE]),
                                    coop_load_relaxed(&ctrl[COOP_CTRL_REQ_DEPTH]), &ctrl[COOP_CTRL_REQ_ARGS]);
    else if (kind == COOP_REQ_SHUTDOWN)
        coop_store_release(&ctrl[COOP_CTRL_EXIT], 1u);
#if !(defined(COOP_KERNELS) && COOP_KERNELS == 1)
    else
        coop_apply_share_request(ctrl, kind);
#endif
    coop_store_relaxed(&ctrl[COOP_CTRL_REPORT_SEQ], seq);
    return requested;
}

#endif
