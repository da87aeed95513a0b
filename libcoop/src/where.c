/* Where the groups of a stuck kernel are, in words: for coop_kernel_run's time limit (launch.c)
 * and the megakernel watchdog (scheduler.c). The words are the per-group states the kernel
 * header keeps (COOP_CTRL_GROUP_STATE, COOP_WHERE_* in coop_layout.h): a group that has spun at
 * a global barrier for a while records the barrier and its id there. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static const char *where_name(uint32_t where)
{
    switch (where) {
    case COOP_WHERE_IDLE: return "idle";
    case COOP_WHERE_RUNNING: return "running";
    case COOP_WHERE_TASK: return "running a task";
    case COOP_WHERE_AGENT: return "serving as agent";
    case COOP_WHERE_MOVED: return "moved to another kernel's block";
    case COOP_WHERE_EXITED: return "exited";
    default: return "not started";
    }
}

const char *coop_where_name(uint32_t where)
{
    return where_name(where);
}

/* In a plain persistent kernel a group that never waited long at a barrier has written nothing
 * (0): it is running, with the id coop_enter gives it. */
static uint32_t group_state(const uint32_t *where, unsigned groups, unsigned physical, int plain)
{
    uint32_t word = where[physical];
    if (plain && COOP_WHERE_OF(word) == 0)
        return COOP_WHERE_WORD(COOP_WHERE_RUNNING, COOP_ID_OF_TICKET(physical, groups, 0u));
    return word;
}

/* Site `site`'s line in a program coop-merge made (" * coop-site 3: k.cl:7:5: global_barrier()"):
 * its text after the number into `text` ("k.cl:7:5: global_barrier()"), or 0 if there is none. */
static int site_text(const char *source, uint32_t site, char *text, size_t size)
{
    char key[32];
    snprintf(key, sizeof key, "coop-site %u: ", (unsigned)site);
    const char *at = site && source ? strstr(source, key) : NULL;
    if (!at || !size)
        return 0;
    at += strlen(key);
    size_t length = strcspn(at, "\n");
    if (length >= size)
        length = size - 1;
    memcpy(text, at, length);
    text[length] = '\0';
    return 1;
}

size_t coop_describe_groups(const uint32_t *where, const uint32_t *sites, const char *source, unsigned groups,
                            int plain, char *text, size_t size)
{
    size_t used = 0;
#define APPEND(...)                                                                                   \
    do {                                                                                              \
        if (used < size) {                                                                            \
            int written_ = snprintf(text + used, size - used, __VA_ARGS__);                           \
            used += written_ > 0 ? (size_t)written_ : 0;                                              \
        }                                                                                             \
    } while (0)
    if (size)
        text[0] = '\0';
    /* The barrier most waiters are at, and the members that did not reach it. */
    unsigned best_barrier = 0, best_count = 0;
    for (unsigned g = 0; g < groups; g++) {
        uint32_t word = group_state(where, groups, g, plain);
        if (COOP_WHERE_OF(word) != COOP_WHERE_BARRIER)
            continue;
        unsigned barrier = COOP_WHERE_BARRIER_NUMBER(word), count = 0;
        for (unsigned h = 0; h < groups; h++) {
            uint32_t other = group_state(where, groups, h, plain);
            count += COOP_WHERE_OF(other) == COOP_WHERE_BARRIER && COOP_WHERE_BARRIER_NUMBER(other) == barrier;
        }
        if (count > best_count) {
            best_count = count;
            best_barrier = barrier;
        }
    }
    if (best_count) {
        APPEND("%u group%s waiting at global barrier #%u", best_count, best_count == 1 ? "" : "s", best_barrier);
        for (unsigned g = 0; g < groups && sites; g++) {
            uint32_t word = group_state(where, groups, g, plain);
            char site[256];
            if (COOP_WHERE_OF(word) == COOP_WHERE_BARRIER && COOP_WHERE_BARRIER_NUMBER(word) == best_barrier &&
                site_text(source, sites[g], site, sizeof site)) {
                APPEND(" (%s)", site);
                break;
            }
        }
        unsigned missing = 0;
        for (unsigned g = 0; g < groups && used + 64 < size; g++) {
            uint32_t word = group_state(where, groups, g, plain);
            uint32_t kind = COOP_WHERE_OF(word);
            if (kind != COOP_WHERE_RUNNING &&
                !(kind == COOP_WHERE_BARRIER && COOP_WHERE_BARRIER_NUMBER(word) != best_barrier))
                continue;
            unsigned id = kind == COOP_WHERE_RUNNING ? COOP_WHERE_DETAIL(word) : COOP_WHERE_BARRIER_ID(word);
            APPEND("%s%u", missing++ ? ", " : ", group ", id);
        }
        if (missing)
            APPEND(" never arrived");
    } else {
        /* how many are in each state; for members and task groups, which (ids, workgroups) */
        unsigned counts[8] = {0};
        for (unsigned g = 0; g < groups; g++)
            counts[COOP_WHERE_OF(group_state(where, groups, g, plain)) % 8u]++;
        for (uint32_t kind = 0; kind < 8 && used + 64 < size; kind++) {
            if (!counts[kind])
                continue;
            APPEND("%s%u %s", used ? ", " : "", counts[kind], where_name(kind));
            if (kind != COOP_WHERE_RUNNING && kind != COOP_WHERE_TASK)
                continue;
            unsigned listed = 0;
            for (unsigned g = 0; g < groups && used + 64 < size; g++) {
                uint32_t word = group_state(where, groups, g, plain);
                if (COOP_WHERE_OF(word) != kind ||
                    (kind == COOP_WHERE_TASK && COOP_WHERE_DETAIL(word) == COOP_WHERE_TASK_WAITING))
                    continue;
                APPEND("%s%u", listed++ ? ", " : kind == COOP_WHERE_RUNNING ? " (ids " : " (workgroups ",
                       COOP_WHERE_DETAIL(word));
            }
            if (listed)
                APPEND(")");
        }
    }
#undef APPEND
    return used < size ? used : size ? size - 1 : 0;
}
