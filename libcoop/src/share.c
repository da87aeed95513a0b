/* Host side of several cooperative kernels in one megakernel (docs/DESIGN.md section 17): each
 * kernel's block of scheduler words, their weighted shares of the groups, and the moves and kill
 * tokens the host asks for to keep them. Block k's control block, or with an agent its copy, is
 * at channel word k * COOP_CHAN_WORDS + COOP_CHAN_CTRL; the host changes it only by requests
 * (COOP_REQ_MOVE, COOP_REQ_SHARE, COOP_REQ_SHUTDOWN), which scheduler.c sends or applies. */
#include "share.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct block {
    char name[64];              /* the kernel's name, from the program's comment */
    unsigned weight;
    unsigned members_start, members_max;
    unsigned members, finished, idle; /* as last sampled */
    int done;
    double group_us, finish_us;
    double group_all_us;        /* group_us while no kernel had finished */
    double group_beside_us;     /* group_us while another kernel ran too */
    double group_due_us;        /* its weight's part of every running kernel's group_us then */
    unsigned moves_asked, share_kills;
    unsigned tokens_members;    /* M when its last share tokens were set (0: none since) */
    unsigned move_to;           /* where the last move asked of it goes */
    uint32_t signature[4];      /* BARRIERS, RESIZE_COUNT, F, TASKS_DONE */
} block;

struct coop_share {
    coop_context *ctx;
    unsigned kernels;
    unsigned weights[COOP_MAX_KERNELS];
    block blocks[COOP_MAX_KERNELS];
    unsigned groups;
    double discovered_us, sample_us;
    double beside_us;           /* how long two or more kernels ran */
    uint32_t share_seq;
    coop_share_send send;       /* scheduler.c's request to one block */
    void *run;
    const char *name;           /* the megakernel's, in messages */
    uint32_t sent[COOP_MAX_KERNELS]; /* the last request sent to each block */
    unsigned unstarted;         /* 1 + the first kernel that got no group to start on (0: none) */
};

/* Word `slot` of block k's control block as the host sees it (acquire: coop_channel_load). */
static uint32_t word(const coop_share *s, unsigned k, unsigned slot)
{
    uint32_t value = 0;
    coop_channel_load(s->ctx, k * COOP_CHAN_WORDS + COOP_CHAN_CTRL + slot, &value);
    return value;
}

/* The kernels' names, in order, from coop-merge's "cooperative kernel 'NAME' from" lines. */
static void read_names(coop_share *s, const char *source)
{
    const char *at = source;
    for (unsigned k = 0; k < s->kernels; k++) {
        at = at ? strstr(at, "cooperative kernel '") : NULL;
        if (!at) {
            snprintf(s->blocks[k].name, sizeof s->blocks[k].name, "#%u", k);
            continue;
        }
        at += strlen("cooperative kernel '");
        size_t length = strcspn(at, "'\n");
        if (length >= sizeof s->blocks[k].name)
            length = sizeof s->blocks[k].name - 1;
        memcpy(s->blocks[k].name, at, length);
        s->blocks[k].name[length] = '\0';
    }
}

coop_status coop_share_open(coop_context *ctx, const coop_kernel *kernel, const coop_kernel_share *kernels,
                            size_t kernel_count, coop_share **out)
{
    unsigned have = coop_source_kernels(kernel->program->source);
    *out = NULL;
    if (kernel_count && kernel_count != have)
        return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                         "coop_mega_run_shared: kernel_count = %zu, but megakernel '%s' holds %u cooperative "
                         "kernel%s", kernel_count, kernel->name, have, have == 1 ? "" : "s");
    for (size_t k = 0; kernels && k < kernel_count; k++)
        if (kernels[k].weight > COOP_WEIGHT_MAX)
            return coop_fail(ctx, COOP_ERR_INVALID_ARGUMENT,
                             "coop_mega_run_shared: kernels[%zu].weight = %u: a weight is from 1 to %u (0: 1)", k,
                             kernels[k].weight, COOP_WEIGHT_MAX);
    if (have == 1)
        return COOP_OK;
    coop_share *s = calloc(1, sizeof *s);
    if (!s)
        return coop_fail(ctx, COOP_ERR_NO_MEMORY, "out of memory");
    s->ctx = ctx;
    s->kernels = have;
    s->name = kernel->name;
    for (unsigned k = 0; k < have; k++) {
        block *b = &s->blocks[k];
        s->weights[k] = kernels && kernels[k].weight ? kernels[k].weight : 1u;
        b->weight = s->weights[k];
    }
    read_names(s, kernel->program->source);
    *out = s;
    return COOP_OK;
}

const char *coop_share_name(const coop_share *share, unsigned k)
{
    return share->blocks[k].name;
}

void coop_share_attach(coop_share *share, coop_share_send send, void *run)
{
    share->send = send;
    share->run = run;
}

coop_status coop_share_mailbox_free(coop_share *s, unsigned block)
{
    double asked_us = coop_now_us();
    if (!s || s->ctx->channel.kind == COOP_CHANNEL_SVM)
        return COOP_OK;
    while (word(s, block, COOP_CTRL_REPORT_SEQ) != s->sent[block]) {
        if (coop_now_us() - asked_us > 5e6)
            return coop_fail(s->ctx, COOP_ERR_TIMEOUT, "megakernel '%s': the agent did not apply request %u of "
                             "kernel block %u within 5 s", s->name, s->sent[block], block);
        coop_poll_pause(s->ctx, 0, 20);
    }
    return COOP_OK;
}

void coop_share_sent(coop_share *s, unsigned block, uint32_t seq)
{
    if (s)
        s->sent[block] = seq;
}

void coop_share_free(coop_share *share)
{
    free(share);
}

unsigned coop_share_kernels(const coop_share *share)
{
    return share ? share->kernels : 1u;
}

const unsigned *coop_share_weights(const coop_share *share)
{
    return share ? share->weights : NULL;
}

coop_status coop_share_start(coop_share *s, unsigned groups, double discovered_us)
{
    s->groups = groups;
    s->discovered_us = s->sample_us = discovered_us;
    for (unsigned k = 0; k < s->kernels; k++) {
        block *b = &s->blocks[k];
        uint32_t state = word(s, k, COOP_CTRL_STATE);
        b->members = COOP_STATE_MEMBERS(state);
        /* with an agent, the block's copy appears once the agent has served it */
        double asked_us = coop_now_us();
        while (!(b->members_start = word(s, k, COOP_CTRL_MEMBERS_START)) && coop_now_us() - asked_us < 5e6)
            coop_poll_pause(s->ctx, 10, 100);
        b->members_max = b->members_start;
        /* a kernel with no group never starts: the others run to their end, so that the megakernel
         * ends, and the run fails then (coop_share_started, naming the first such kernel); each
         * such kernel counts as finished, or the groups the others leave would wait for it */
        if (!b->members_start) {
            if (!s->unstarted)
                s->unstarted = k + 1;
            b->done = 1;
            b->finish_us = discovered_us;
        }
    }
    return COOP_OK;
}

coop_status coop_share_started(coop_share *s)
{
    if (!s || !s->unstarted)
        return COOP_OK;
    unsigned k = s->unstarted - 1;
    return coop_fail(s->ctx, COOP_ERR_DEVICE_UNSUPPORTED,
                     "megakernel of %u cooperative kernels: only %u groups are co-resident, and kernel %u ('%s') got "
                     "none to start on (each needs one)", s->kernels, s->groups, k, s->blocks[k].name);
}

void coop_share_targets(const unsigned *weights, const int *done, unsigned kernels, unsigned available,
                        unsigned *target)
{
    unsigned total = 0, running = 0, given = 0;
    for (unsigned k = 0; k < kernels; k++)
        if (!done[k]) {
            total += weights[k];
            running++;
        }
    for (unsigned k = 0; k < kernels; k++) {
        target[k] = 0;
        if (done[k] || !total)
            continue;
        target[k] = available >= running ? 1u + (unsigned)((unsigned long)(available - running) * weights[k] / total)
                                         : 1u;
        given += target[k];
    }
    /* the rest one at a time, each to the kernel with the most weight per group it would have
     * (ties: the lowest index), as coop_kernels_open splits the start */
    while (running && given < available) {
        unsigned best = kernels;
        for (unsigned k = 0; k < kernels; k++)
            if (!done[k] && (best == kernels || (unsigned long)weights[k] * (target[best] + 1u) >
                                                     (unsigned long)weights[best] * (target[k] + 1u)))
                best = k;
        target[best]++;
        given++;
    }
}

void coop_share_correct(const double *owed, double span_us, const int *done, unsigned kernels, unsigned available,
                        unsigned *target)
{
    unsigned running = 0, given = 0;
    double horizon_us = span_us / 4 > 1e3 ? span_us / 4 : 1e3;
    for (unsigned k = 0; k < kernels; k++)
        running += !done[k];
    if (running < 2 || available < running)
        return;
    for (unsigned k = 0; k < kernels; k++) {
        if (done[k])
            continue;
        double limit = target[k] / 2 > 1u ? target[k] / 2 : 1.0;
        double change = owed[k] / horizon_us;
        change = change > limit ? limit : change < -limit ? -limit : change;
        long corrected = (long)target[k] + lround(change);
        target[k] = corrected < 1 ? 1u : (unsigned)corrected;
        given += target[k];
    }
    /* all of `available` given out again: where a limit or the rounding left a few over, they
     * come from the kernel owed the most, where short, they go to the one owed the least (the
     * correction undone where it went furthest, so that no limit is passed) */
    while (given != available) {
        unsigned pick = kernels;
        for (unsigned k = 0; k < kernels; k++) {
            if (done[k] || (given > available && target[k] <= 1u))
                continue;
            if (pick == kernels || (given > available ? owed[k] > owed[pick] : owed[k] < owed[pick]))
                pick = k;
        }
        if (pick == kernels)
            break;
        if (given > available) {
            target[pick]--;
            given--;
        } else {
            target[pick]++;
            given++;
        }
    }
}

static void targets(const coop_share *s, unsigned available, unsigned *target)
{
    int done[COOP_MAX_KERNELS] = {0};
    double owed[COOP_MAX_KERNELS] = {0};
    for (unsigned k = 0; k < s->kernels; k++) {
        done[k] = s->blocks[k].done;
        owed[k] = s->blocks[k].group_due_us - s->blocks[k].group_beside_us;
    }
    coop_share_targets(s->weights, done, s->kernels, available, target);
    coop_share_correct(owed, s->beside_us, done, s->kernels, available, target);
}

/* Asks block `from` to move `count` idle groups to block `to` (COOP_REQ_MOVE; MOVE was 0). */
static void ask_move(coop_share *s, unsigned from, unsigned to, unsigned count)
{
    if (s->send(s->run, from, COOP_REQ_MOVE, to, 0, count) == COOP_OK) {
        s->blocks[from].moves_asked += count;
        s->blocks[from].move_to = to;
    }
}

/* Cancels block k's share kill tokens, if it holds any (COOP_REQ_SHARE of none: a
 * compare-and-swap that expects share tokens, so that a task's are never touched; a taker's
 * give-back then fails, its tokens dropped, section 7's K7). */
static void cancel_tokens(coop_share *s, unsigned k)
{
    if (word(s, k, COOP_CTRL_KILLS_REQUEST) & COOP_SHARE_REQUEST)
        s->send(s->run, k, COOP_REQ_SHARE, 0, 0, 0);
    s->blocks[k].tokens_members = 0;
}

/* Moves and tokens toward the targets. A task gathering in block g counts its need as that
 * block's first claim; no group moves out of g, and g gets no share tokens (its tokens are the
 * task's); nor out of a block where a spawned run the agent applied gathers. */
static void balance(coop_share *s, int gathering, unsigned need)
{
    unsigned available = 0, target[COOP_MAX_KERNELS], pending[COOP_MAX_KERNELS] = {0};
    long deficit[COOP_MAX_KERNELS];
    for (unsigned k = 0; k < s->kernels; k++) {
        const block *b = &s->blocks[k];
        available += b->members - b->finished + b->idle;
        uint32_t move = word(s, k, COOP_CTRL_MOVE);
        if (move)
            pending[b->move_to % s->kernels] += move;
    }
    targets(s, available, target);
    for (unsigned k = 0; k < s->kernels; k++) {
        const block *b = &s->blocks[k];
        deficit[k] = b->done ? 0 : (long)target[k] - (long)(b->members - b->finished + b->idle + pending[k]);
        if ((int)k == gathering)
            deficit[k] = (long)need - (long)(b->idle + pending[k]);
    }
    for (unsigned k = 0; k < s->kernels; k++) {
        block *b = &s->blocks[k];
        unsigned running = b->members - b->finished;
        unsigned spare = b->done ? b->idle : running + b->idle > target[k] ? running + b->idle - target[k] : 0;
        if (spare > b->idle)
            spare = b->idle;
        unsigned to = s->kernels;
        for (unsigned j = 0; j < s->kernels; j++)
            if (j != k && deficit[j] > 0 && (to == s->kernels || deficit[j] > deficit[to] || (int)j == gathering))
                to = j;
        if ((int)k == gathering)
            continue;
        /* nor out of a block where the agent's spawned run gathers (section 10.2): it counted
         * on the groups the block held */
        if (spare && to < s->kernels && !word(s, k, COOP_CTRL_MOVE) &&
            COOP_TASK_STATUS_OF(word(s, k, COOP_CTRL_TASK_STATUS)) != COOP_TASK_GATHERING) {
            unsigned count = spare < deficit[to] ? spare : (unsigned)deficit[to];
            ask_move(s, k, to, count);
            deficit[to] -= count;
        }
        /* a running kernel above its share gives back through its own offers; the groups it
         * loses go idle in its block, which moves them on */
        uint32_t tokens = word(s, k, COOP_CTRL_KILLS), request = word(s, k, COOP_CTRL_KILLS_REQUEST);
        unsigned excess = !b->done && running > target[k] ? running - target[k] : 0;
        if (excess > running - 1)
            excess = running - 1;
        if (!excess) {
            cancel_tokens(s, k);
        } else if (!tokens && (!request || (request & COOP_SHARE_REQUEST)) && to < s->kernels &&
                   b->members != b->tokens_members &&
                   COOP_TASK_STATUS_OF(word(s, k, COOP_CTRL_TASK_STATUS)) != COOP_TASK_GATHERING) {
            /* none left of the last share tokens (or none ever), and M has changed since they were
             * set (a sweep that has taken them but not yet committed its kills would otherwise
             * look like a kernel still above its share): new ones, under a new number, so that a
             * late give-back of the last ones fails (K7's compare-and-swap; the request sets them
             * only where the word still holds none, coop_apply_share_request) */
            s->share_seq = (s->share_seq + 1u) & ~COOP_SHARE_REQUEST;
            if (s->send(s->run, k, COOP_REQ_SHARE, 0, COOP_SHARE_REQUEST | s->share_seq, excess) == COOP_OK) {
                b->share_kills += excess;
                b->tokens_members = b->members;
            }
        }
    }
}

int coop_share_step(coop_share *s, double now_us, int gathering_block, unsigned need)
{
    int all_done = 1, all_running = 1;
    for (unsigned k = 0; k < s->kernels; k++)
        all_running &= !s->blocks[k].done;
    /* the kernels running since the last sample, their weights and group-time: each one's due is
     * its weight's part of that group-time while two or more ran */
    unsigned running = 0, weights = 0;
    double running_us = 0;
    for (unsigned k = 0; k < s->kernels; k++)
        if (!s->blocks[k].done) {
            running++;
            weights += s->blocks[k].weight;
            running_us += (double)(s->blocks[k].members - s->blocks[k].finished) * (now_us - s->sample_us);
        }
    if (running > 1)
        s->beside_us += now_us - s->sample_us;
    for (unsigned k = 0; k < s->kernels; k++) {
        block *b = &s->blocks[k];
        double group_us = (double)(b->members - b->finished) * (now_us - s->sample_us);
        b->group_us += group_us;
        if (all_running)
            b->group_all_us += group_us;
        if (running > 1 && !b->done && weights) {
            b->group_beside_us += group_us;
            b->group_due_us += running_us * b->weight / weights;
        }
        uint32_t state = word(s, k, COOP_CTRL_STATE);
        b->members = COOP_STATE_MEMBERS(state);
        b->finished = COOP_STATE_FINISHED(state);
        b->idle = word(s, k, COOP_CTRL_IDLE);
        if (b->members - b->finished > b->members_max && !b->finished)
            b->members_max = b->members - b->finished;
        if (!b->done && b->members && b->finished == b->members) {
            b->done = 1;
            b->finish_us = now_us;
        }
        all_done &= b->done;
    }
    s->sample_us = now_us;
    balance(s, gathering_block, need);
    return all_done;
}

int coop_share_progress(coop_share *s)
{
    static const unsigned words[4] = {COOP_CTRL_BARRIERS, COOP_CTRL_RESIZE_COUNT, COOP_CTRL_STATE,
                                      COOP_CTRL_TASKS_DONE};
    int changed = 0;
    for (unsigned k = 0; k < s->kernels; k++)
        for (unsigned i = 0; i < 4; i++) {
            uint32_t value = word(s, k, words[i]);
            if (words[i] == COOP_CTRL_STATE)
                value = COOP_STATE_FINISHED(value);
            changed |= value != s->blocks[k].signature[i];
            s->blocks[k].signature[i] = value;
        }
    return changed;
}

unsigned coop_share_task_block(const coop_share *s, unsigned *groups)
{
    unsigned best = 0, most = 0;
    for (unsigned k = 0; k < s->kernels; k++) {
        const block *b = &s->blocks[k];
        unsigned holds = b->members - b->finished + b->idle;
        if (holds > most) {
            most = holds;
            best = k;
        }
    }
    *groups = most;
    return best;
}

void coop_share_before_task(coop_share *s, unsigned k)
{
    cancel_tokens(s, k);
    if (word(s, k, COOP_CTRL_MOVE))
        s->send(s->run, k, COOP_REQ_MOVE, s->blocks[k].move_to, 0, 0);
}

void coop_share_shutdown(coop_share *s)
{
    /* no move or share token outlives the run (C4 at rest); then the idle groups of blocks 1 ..
     * K-1 leave as block 0's do */
    for (unsigned k = 0; k < s->kernels; k++) {
        s->send(s->run, k, COOP_REQ_MOVE, s->blocks[k].move_to, 0, 0);
        cancel_tokens(s, k);
    }
    for (unsigned k = 1; k < s->kernels; k++)
        s->send(s->run, k, COOP_REQ_SHUTDOWN, 0, 0, 0);
}

void coop_share_report(const coop_share *s, coop_kernel_report *reports)
{
    for (unsigned k = 0; k < s->kernels; k++) {
        const block *b = &s->blocks[k];
        coop_kernel_report *r = &reports[k];
        memset(r, 0, sizeof *r);
        r->members_start = b->members_start;
        r->members_max = b->members_max;
        r->group_ms = b->group_us / 1e3;
        r->group_all_ms = b->group_all_us / 1e3;
        r->group_beside_ms = b->group_beside_us / 1e3;
        r->group_due_ms = b->group_due_us / 1e3;
        r->finish_ms = ((b->done ? b->finish_us : s->sample_us) - s->discovered_us) / 1e3;
        r->mean_members = r->finish_ms > 0 ? r->group_ms / r->finish_ms : b->members_start;
        r->kills = word(s, k, COOP_CTRL_KILL_COUNT);
        r->forks = word(s, k, COOP_CTRL_FORK_COUNT);
        r->resizes = word(s, k, COOP_CTRL_RESIZE_COUNT);
        r->barriers = word(s, k, COOP_CTRL_BARRIERS);
        r->moved_in = word(s, k, COOP_CTRL_MOVED_IN);
        r->moved_out = word(s, k, COOP_CTRL_MOVED_OUT);
        r->moves_asked = b->moves_asked;
        r->share_kills = b->share_kills;
    }
}


void coop_share_describe(const coop_share *s, const char *source, char *out, size_t size)
{
    unsigned groups = s->groups;
    uint32_t *where = calloc(2 * (size_t)(groups ? groups : 1), sizeof *where);
    if (!where || !size)
        goto done;
    uint32_t *sites = where + (groups ? groups : 1);
    size_t used = strlen(out);
    for (unsigned k = 0; k < s->kernels && used + 1 < size; k++) {
        const block *b = &s->blocks[k];
        /* the groups whose latest state is in this block: not 0 (never here) nor moved away */
        unsigned count = 0;
        coop_channel_dump(s->ctx, k);
        for (unsigned g = 0; g < groups; g++) {
            uint32_t state = word(s, k, COOP_CTRL_GROUP_STATE + g);
            if (COOP_WHERE_OF(state) == 0 || COOP_WHERE_OF(state) == COOP_WHERE_MOVED)
                continue;
            where[count] = state;
            sites[count++] = word(s, k, COOP_CTRL_GROUP_SITE + g);
        }
        char text[512];
        coop_describe_groups(where, sites, source, count, 0, text, sizeof text);
        uint32_t state = word(s, k, COOP_CTRL_STATE);
        int written = snprintf(out + used, size - used, "%skernel %u ('%s', M = %u, %u finished): %s",
                               used ? "; " : "", k, b->name,
                               COOP_STATE_MEMBERS(state), COOP_STATE_FINISHED(state), count ? text : "no groups");
        used += written > 0 ? (size_t)written : 0;
    }
done:
    free(where);
}
