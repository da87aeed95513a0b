/* The host's watchdog over a running megakernel (docs/DESIGN.md section 12): what counts as
 * progress, and the account of where the groups are when none comes. */
#include "mega.h"
#include "share.h"

#include <stdio.h>
#include <stdlib.h>

/* The control block's slots (coop_layout.h's table): the name the COOP_TRACE=1 line gives each
 * ("": not shown there), and whose progress a change of it is for the watchdog (WATCH_*). */
typedef struct ctrl_slot {
    unsigned slot;
    const char *label;
    int watch;
} ctrl_slot;

#define CTRL_SLOT_ROW(name, word, words, agent, label, watch) {COOP_CTRL_##name, label, watch},
static const ctrl_slot ctrl_slots[] = {COOP_CTRL_SLOTS(CTRL_SLOT_ROW)};
#undef CTRL_SLOT_ROW
#define CTRL_SLOT_ROWS (sizeof ctrl_slots / sizeof ctrl_slots[0])

/* Reads where every group is into where[0 .. groups) and the site of the barrier each waits at
 * into sites[0 .. groups); with an agent, it first asks the agent to copy them out. */
static void load_group_states(mega *m, uint32_t *where, uint32_t *sites)
{
    coop_channel_dump(m->ctx, 0);
    for (unsigned g = 0; g < m->run.groups; g++) {
        ctrl_load(m, COOP_CTRL_GROUP_STATE + g, &where[g]);
        if (sites)
            ctrl_load(m, COOP_CTRL_GROUP_SITE + g, &sites[g]);
    }
}

/* COOP_TRACE=1: the scheduler's words while a task waits (debugging aid). */
void coop_trace_words(mega *m)
{
    fprintf(stderr, "coop trace %.3f ms:", (coop_now_us() - m->run.discovered_us) / 1e3);
    for (size_t i = 0; i < CTRL_SLOT_ROWS; i++) {
        uint32_t value = 0;
        if (!ctrl_slots[i].label[0])
            continue;
        ctrl_load(m, ctrl_slots[i].slot, &value);
        fprintf(stderr, " %s=%#x", ctrl_slots[i].label, value);
    }
    uint32_t *where = calloc(m->run.groups ? m->run.groups : 1, sizeof *where);
    if (where)
        load_group_states(m, where, NULL);
    for (unsigned g = 0, shown = 0; where && g < m->run.groups && shown < 12; g++) {
        if (COOP_WHERE_OF(where[g]) != COOP_WHERE_RUNNING) {
            fprintf(stderr, " [%u: %s %#x]", g, coop_where_name(COOP_WHERE_OF(where[g])), COOP_WHERE_DETAIL(where[g]));
            shown++;
        }
    }
    free(where);
    fprintf(stderr, "\n");
}

/* Builds the account of where the groups are (the watchdog's and the time limit's), and of what
 * the tasks and chaos did since the last progress (they kill and fork groups of a kernel that
 * loops through its offers for ever), and fails with it: COOP_ERR_TIMEOUT, `cause` recorded for a
 * trace of the run. */
coop_status coop_diagnose(mega *m, const char *cause, const char *what)
{
    unsigned groups = m->run.groups;
    uint32_t *where = calloc(2 * (groups ? groups : 1), sizeof *where);
    if (!where)
        return coop_fail(m->ctx, COOP_ERR_NO_MEMORY, "out of memory in the watchdog");
    uint32_t *sites = where + (groups ? groups : 1);
    load_group_states(m, where, sites);
    char text[2048] = "";
    /* several cooperative kernels: each kernel's groups, its M and finished members (share.c) */
    if (m->share)
        coop_share_describe(m->share, m->run.kernel->program->source, text, sizeof text);
    else
        coop_describe_groups(where, sites, m->run.kernel->program->source, groups, 0, text, sizeof text);
    free(where);
    uint32_t state = 0, kills = 0, forks = 0, tasks = 0;
    ctrl_load(m, COOP_CTRL_STATE, &state);
    ctrl_load(m, COOP_CTRL_KILL_COUNT, &kills);
    ctrl_load(m, COOP_CTRL_FORK_COUNT, &forks);
    ctrl_load(m, COOP_CTRL_TASKS_DONE, &tasks);
    char meanwhile[160] = "";
    if (kills != m->quiet_kills || forks != m->quiet_forks || tasks != m->quiet_tasks)
        snprintf(meanwhile, sizeof meanwhile, "; meanwhile its offers killed %u and forked %u groups and %u tasks ran",
                 kills - m->quiet_kills, forks - m->quiet_forks, tasks - m->quiet_tasks);
    m->ended = cause;
    if (m->share)
        return coop_fail(m->ctx, COOP_ERR_TIMEOUT,
                         "megakernel '%s': %s: %s%s; the kernel still runs and the process must exit", m->run.name,
                         what, text, meanwhile);
    return coop_fail(m->ctx, COOP_ERR_TIMEOUT,
                     "megakernel '%s': %s: %s (M = %u, %u finished)%s; the kernel still runs and the process must exit",
                     m->run.name, what, text, COOP_STATE_MEMBERS(state), COOP_STATE_FINISHED(state), meanwhile);
}

/* Progress is a change of the words the table's WATCH column marks: the cooperative kernel's
 * own while it runs, a task's once every member has finished. Tasks and chaos move kills, forks
 * and M while a kernel loops through its offers without end, so none of those counts. */
coop_status coop_watch(mega *m, double now_us, double watchdog_s, int cooperative_done)
{
    int changed = 0;
    for (unsigned i = 0, watched = 0; i < CTRL_SLOT_ROWS; i++) {
        uint32_t value = 0;
        if (!ctrl_slots[i].watch)
            continue;
        coop_status status = ctrl_load(m, ctrl_slots[i].slot, &value);
        if (status != COOP_OK)
            return status;
        if (ctrl_slots[i].slot == COOP_CTRL_STATE)
            value = COOP_STATE_FINISHED(value);
        if (ctrl_slots[i].watch == WATCH_KERNEL || cooperative_done)
            changed |= value != m->signature[watched];
        m->signature[watched++] = value;
    }
    if (m->share)
        changed |= coop_share_progress(m->share);
    if (changed || m->progress_us == 0) {
        m->progress_us = now_us;
        ctrl_load(m, COOP_CTRL_KILL_COUNT, &m->quiet_kills);
        ctrl_load(m, COOP_CTRL_FORK_COUNT, &m->quiet_forks);
        ctrl_load(m, COOP_CTRL_TASKS_DONE, &m->quiet_tasks);
    } else if (now_us - m->progress_us > watchdog_s * 1e6) {
        char what[256];
        snprintf(what, sizeof what,
                 "no progress for %.1f s (no global barrier completed and no member finished; a kernel whose work "
                 "between global barriers takes longer needs a larger watchdog_s or COOP_WATCHDOG_S)",
                 (now_us - m->progress_us) / 1e6);
        return coop_diagnose(m, "watchdog", what);
    }
    return COOP_OK;
}

