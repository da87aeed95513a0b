/* scheduler_checks.h: the result words through which the test megakernels of scheduler.cl
 * report what they checked (read by tests/test_scheduler.c; valid C and OpenCL C). Each CHK_BAD_*
 * word counts violations of one rule, and the first violation of rule k leaves three words of
 * detail at CHK_DETAIL + 4 k. */
#ifndef SCHEDULER_CHECKS_H
#define SCHEDULER_CHECKS_H

enum scheduler_check {
    CHK_BAD_ID = 0,          /* a member saw coop_group_id >= coop_num_groups: id, M, where */
    CHK_BAD_KILL = 1,        /* offer_kill killed a group other than M-1: id, M before, 0 */
    CHK_BAD_TRANSMIT = 2,    /* a forked group's transmit was not work-item 0's: first field, id, local id */
    CHK_BAD_FORK = 3,        /* a fork broke k <= N - M, or M > N: M before, k, M after */
    CHK_BAD_M = 4,           /* members of one round saw different M: round, M seen first, M */
    CHK_BAD_TASK = 5,        /* a task workgroup id out of range: id, workgroups, task */
    CHK_BAD_STAGED = 6,      /* a transmit state staged and restored in one group changed: byte, got, expected */
    CHK_RULES = 7,
    CHK_KILLS = 8,           /* groups that saw themselves killed */
    CHK_FORKED = 9,          /* groups that started as forked groups (resume point 1) */
    CHK_FORK_SUM = 10,       /* sum of coop_offer_fork's k */
    CHK_MAX_M = 11,          /* largest M any member saw */
    CHK_FIRST_FORK_M = 12,   /* M just before the first fork with k > 0 */
    CHK_FIRST_FORK_K = 13,   /* that fork's k */
    CHK_DETAIL = 16,
    CHK_WORDS = 16 + 4 * CHK_RULES
};

/* The order in which choreography_mega's members offer kill (tests/kernels/scheduler.cl). */
enum scheduler_choreography {
    CHOREO_GIVE_BACK = 0,        /* member 2 first, member 1 once member 2 is gone */
    CHOREO_SWEEP_HOLD = 1,       /* member 1 once kill tokens are out, member 2 once member 1 is parked */
    CHOREO_RESIZE_GIVE_BACK = 2 /* member 0 decides a resize, member 2 offers, the commit gives back */
};

/* Where a CHK_BAD_ID was seen (third detail word). */
enum scheduler_check_point {
    AT_ROUND_START = 1,
    AT_AFTER_BARRIER = 2,
    AT_CHUNK = 3,
    AT_AFTER_FORK = 4,
    AT_AFTER_KILL_OFFER = 5
};

#endif
