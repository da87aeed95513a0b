/* A megakernel's task plans: the groups a plan's run takes, and every field the run reads,
 * checked before a run (coop_mega_run, scheduler.c), named in the message when it is out of
 * range. */
#include "mega.h"
#include "strict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int coop_take_parse(const char *text, coop_take *take, unsigned *count)
{
    static const char *const names[] = {"one", "quarter", "half", "all-but-one"};
    static const coop_take takes[] = {COOP_TAKE_ONE, COOP_TAKE_QUARTER, COOP_TAKE_HALF, COOP_TAKE_ALL_BUT_ONE};
    size_t index = 0;
    uint64_t value = 0;
    if (!text || !take || !count)
        return -1;
    if (coop_parse_choice(NULL, text, names, 4, &index, NULL, 0) == 0) {
        *take = takes[index];
        *count = 0;
        return 0;
    }
    if (coop_parse_unsigned(NULL, text, 1, COOP_MAX_GROUPS, &value, NULL, 0) != 0)
        return -1;
    *take = COOP_TAKE_COUNT;
    *count = (unsigned)value;
    return 0;
}

unsigned coop_groups_to_take(const coop_task_plan *plan, unsigned limit)
{
    unsigned most = limit > 1 ? limit - 1 : 1;
    unsigned want;
    switch (plan->take) {
    case COOP_TAKE_ONE: want = 1; break;
    case COOP_TAKE_QUARTER: want = limit / 4; break;
    case COOP_TAKE_HALF: want = limit / 2; break;
    case COOP_TAKE_ALL_BUT_ONE: want = most; break;
    default: want = plan->take_count; break;
    }
    if (want < 1)
        want = 1;
    return want < most ? want : most;
}

/* The task count coop-merge wrote into a megakernel's program ("coop-tasks: N"), or -1 where it
 * wrote none (a megakernel written by hand). */
long coop_program_tasks(const coop_kernel *kernel)
{
    const char *source = kernel->program->source, *at = source ? strstr(source, "coop-tasks: ") : NULL;
    return at ? strtol(at + strlen("coop-tasks: "), NULL, 10) : -1;
}

/* Every field of the plans that the run reads, named in the message when it is out of range. */
coop_status coop_check_plans(coop_context *ctx, const coop_kernel *kernel, const coop_task_plan *plans,
                             size_t count)
{
    long tasks = coop_program_tasks(kernel);
    for (size_t p = 0; p < count; p++) {
        const coop_task_plan *plan = &plans[p];
        char field[64];
        if (tasks >= 0 && plan->task >= (unsigned long)tasks) {
            char range[48] = "";
            if (tasks == 1)
                snprintf(range, sizeof range, " (task 0 only)");
            else if (tasks > 1)
                snprintf(range, sizeof range, " (0 to %ld)", tasks - 1);
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].task = %u: megakernel '%s' has %ld task%s%s", p, plan->task,
                             kernel->name, tasks, tasks == 1 ? "" : "s", range);
        }
        if (plan->workgroups == 0)
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].workgroups = 0: a task runs at least one workgroup", p);
        static const char *const take_names[] = {"COOP_TAKE_COUNT", "COOP_TAKE_ONE", "COOP_TAKE_QUARTER",
                                                 "COOP_TAKE_HALF", "COOP_TAKE_ALL_BUT_ONE"};
        if ((unsigned)plan->take > COOP_TAKE_ALL_BUT_ONE)
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].take = %d is not a coop_take (COOP_TAKE_COUNT, "
                             "COOP_TAKE_ONE, COOP_TAKE_QUARTER, COOP_TAKE_HALF or COOP_TAKE_ALL_BUT_ONE)",
                             p, (int)plan->take);
        /* a count beside another take is a plan that says two things: which one was meant? */
        if (plan->take != COOP_TAKE_COUNT && plan->take_count)
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].take_count = %u: only COOP_TAKE_COUNT reads it (take is %s)",
                             p, plan->take_count, take_names[plan->take]);
        if (plan->take == COOP_TAKE_COUNT && (plan->take_count == 0 || plan->take_count > COOP_MAX_GROUPS))
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].take_count = %u: COOP_TAKE_COUNT takes from 1 to %u groups",
                             p, plan->take_count, COOP_MAX_GROUPS);
        coop_status status;
        snprintf(field, sizeof field, "coop_mega_run: plans[%zu].start_ms", p);
        if ((status = coop_check_time(ctx, field, plan->start_ms)) != COOP_OK)
            return status;
        snprintf(field, sizeof field, "coop_mega_run: plans[%zu].period_ms", p);
        if ((status = coop_check_time(ctx, field, plan->period_ms)) != COOP_OK)
            return status;
        if (plan->period_ms == 0 && plan->repeats > 1)
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].repeats = %u: a one-off task (period_ms = 0) runs once", p,
                             plan->repeats);
        if (plan->priority > COOP_PRIORITY_MAX)
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run: plans[%zu].priority = %u: a priority is from 0 to %u", p, plan->priority,
                             COOP_PRIORITY_MAX);
        snprintf(field, sizeof field, "coop_mega_run: plans[%zu].deadline_ms", p);
        if ((status = coop_check_time(ctx, field, plan->deadline_ms)) != COOP_OK)
            return status;
    }
    return COOP_OK;
}
