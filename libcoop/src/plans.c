/* Checking a megakernel run's plans (coop_mega_run, scheduler.c): every field they read, named
 * in the message when it is out of range. */
#include "mega.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
