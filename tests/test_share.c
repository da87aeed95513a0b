/* Several cooperative kernels in one megakernel (libcoop/src/share.c, coop_device/kernels.h;
 * docs/DESIGN.md section 17): tests/merge/rounds.cl (resizing barriers) and ws_rounds.cl (work
 * stealing with offers) merged with the task fill.cl (tests/merge/expected/two_kernels.cl, the
 * golden test_merge checks against coop-merge), run on PoCL against CPU references, with and
 * without chaos and a periodic task; each kernel block left at rest; the report's decisions; traced
 * runs, whose trace says which kernel each group served. */
#include "share.h"
#include "testutil.h"
#include "trace_check.h"

#include "coop/kernels/ws_layout.h"
#include "merge/expected/stall_beside.h"
#include "merge/expected/two_kernels.h"
#include "merge/expected/two_spawners.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { WORKERS = 4, LOCAL = 16, FILL_GROUPS = 6, N = 3000, WS_LIMIT = 600, WS_DEQUE = 8, SEEDS = 12 };

#define COMPILE_TIMEOUT_S 1200.0

typedef struct two {
    coop_context *ctx;
    coop_program *program;
    coop_kernel *kernel;
    cl_mem data, queue, seen, out;
    cl_uint rounds, ws_rounds, groups;
    size_t queue_words;
} two;

static void two_open_channel(two *t, cl_uint rounds, cl_uint ws_rounds, coop_channel_kind channel)
{
    size_t size = 0;
    char *source = tu_read_file("tests/merge/expected/two_kernels.cl", &size);
    ck_assert_ptr_nonnull(source);
    t->ctx = tu_context_channel(WORKERS, channel);
    t->kernel = tu_kernel(t->ctx, source, TU_CHECK_OPTIONS, ROUNDS_MEGA_NAME, &t->program);
    free(source);
    t->rounds = rounds;
    t->ws_rounds = ws_rounds;
    t->groups = coop_launch_groups(t->ctx, LOCAL);
    t->queue_words = WS_QUEUE_WORDS((size_t)t->groups, WS_DEQUE, WS_LIMIT);
    t->data = tu_buffer(t->ctx, N);
    t->queue = tu_buffer(t->ctx, t->queue_words);
    t->seen = tu_buffer(t->ctx, (size_t)ws_rounds * WS_LIMIT);
    t->out = tu_buffer(t->ctx, FILL_GROUPS * LOCAL);
    cl_uint n = N, limit = WS_LIMIT;
    coop_kernel *k = t->kernel;
    TU_ASSERT_OK(t->ctx, coop_kernel_set_buffer(k, ROUNDS_MEGA_ARG_rounds_data, t->data));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_arg(k, ROUNDS_MEGA_ARG_rounds_n, sizeof n, &n));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_arg(k, ROUNDS_MEGA_ARG_rounds_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_buffer(k, ROUNDS_MEGA_ARG_ws_rounds_queue_words, t->queue));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_arg(k, ROUNDS_MEGA_ARG_ws_rounds_queue_groups, sizeof t->groups, &t->groups));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_arg(k, ROUNDS_MEGA_ARG_ws_rounds_limit, sizeof limit, &limit));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_arg(k, ROUNDS_MEGA_ARG_ws_rounds_rounds, sizeof ws_rounds, &ws_rounds));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_buffer(k, ROUNDS_MEGA_ARG_ws_rounds_seen, t->seen));
    TU_ASSERT_OK(t->ctx, coop_kernel_set_buffer(k, ROUNDS_MEGA_ARG_fill_out, t->out));
}

static void two_open(two *t, cl_uint rounds, cl_uint ws_rounds)
{
    two_open_channel(t, rounds, ws_rounds, COOP_CHANNEL_AUTO);
}

static void two_close(two *t)
{
    cl_mem buffers[] = {t->data, t->queue, t->seen, t->out};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(t->kernel);
    coop_program_release(t->program);
    coop_context_release(t->ctx);
}

/* Fresh inputs for one run; the task's seed makes each run's fill output its own. */
static void two_prepare(two *t, cl_uint fill_seed)
{
    size_t words = t->queue_words > N ? t->queue_words : N;
    if (words < (size_t)t->ws_rounds * WS_LIMIT)
        words = (size_t)t->ws_rounds * WS_LIMIT;
    cl_uint *zero = calloc(words, sizeof *zero);
    ck_assert_ptr_nonnull(zero);
    tu_write(t->ctx, t->data, zero, N);
    tu_write(t->ctx, t->queue, zero, t->queue_words);
    tu_write(t->ctx, t->seen, zero, (size_t)t->ws_rounds * WS_LIMIT);
    tu_write(t->ctx, t->out, zero, FILL_GROUPS * LOCAL);
    free(zero);
    TU_ASSERT_OK(t->ctx, coop_kernel_set_arg(t->kernel, ROUNDS_MEGA_ARG_fill_seed, sizeof fill_seed, &fill_seed));
}

/* The CPU's results: rounds.cl adds 1 to every element each round; ws_rounds.cl runs every task
 * of its tree once a round; each fill workgroup g writes g * 7 + l + seed. */
static void two_check(two *t, const char *what, int task_ran, cl_uint fill_seed)
{
    cl_uint *values = malloc((N > WS_LIMIT * t->ws_rounds ? N : WS_LIMIT * t->ws_rounds) * sizeof *values);
    ck_assert_ptr_nonnull(values);
    tu_read(t->ctx, t->data, values, N);
    for (unsigned i = 0; i < N; i++)
        ck_assert_msg(values[i] == t->rounds, "%s: rounds data[%u] = %u, expected %u", what, i, values[i], t->rounds);
    tu_read(t->ctx, t->seen, values, (size_t)t->ws_rounds * WS_LIMIT);
    for (unsigned i = 0; i < t->ws_rounds * WS_LIMIT; i++)
        ck_assert_msg(values[i] == 1, "%s: ws_rounds seen[%u] (round %u, task %u) = %u, expected 1", what, i,
                      i / WS_LIMIT, i % WS_LIMIT, values[i]);
    if (task_ran) {
        tu_read(t->ctx, t->out, values, FILL_GROUPS * LOCAL);
        for (unsigned g = 0; g < FILL_GROUPS; g++)
            for (unsigned l = 0; l < LOCAL; l++)
                ck_assert_msg(values[g * LOCAL + l] == g * 7u + l + fill_seed, "%s: fill out[%u] = %u, expected %u",
                              what, g * LOCAL + l, values[g * LOCAL + l], g * 7u + l + fill_seed);
    }
    free(values);
}

/* Every kernel block at rest (testutil.h's tu_assert_mega_at_rest, per block; section 17's C4):
 * each kernel's members all finished, no fork slot, parked member, kill token, move or spawn left, the
 * check build's rules kept, every block's barrier counters back at rest, and the pool whole
 * across the blocks: the IDLE words sum to every group but the agent, and every group that moved
 * out of a block moved into another. */
static void assert_blocks_at_rest(coop_context *ctx, unsigned kernels, const coop_mega_report *report,
                                  const char *what)
{
    uint32_t idle = 0, moved_in = 0, moved_out = 0;
    uint32_t *ctrl = malloc(COOP_CTRL_WORDS * sizeof *ctrl);
    ck_assert_ptr_nonnull(ctrl);
    for (unsigned k = 0; k < kernels; k++) {
        char block[128];
        snprintf(block, sizeof block, "%s, kernel block %u", what, k);
        if (ctx->channel.kind == COOP_CHANNEL_SVM) {
            for (unsigned i = 0; i < COOP_CTRL_WORDS; i++)
                ctrl[i] = __atomic_load_n(&ctx->channel.host[k * COOP_CHAN_WORDS + COOP_CHAN_CTRL + i], __ATOMIC_ACQUIRE);
        } else {
            /* with an agent, the control blocks are in the device area (its copies are partial) */
            cl_int err = clEnqueueReadBuffer(ctx->queue, ctx->dev_area, CL_TRUE,
                                             ((size_t)k * COOP_DEV_WORDS + COOP_DEV_CTRL) * sizeof(uint32_t),
                                             COOP_CTRL_WORDS * sizeof(uint32_t), ctrl, 0, NULL, NULL);
            ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %s", coop_cl_error_name(err));
        }
        tu_assert_checks_kept(ctrl, block);
        uint32_t state = ctrl[COOP_CTRL_STATE];
        TU_AT_REST(block, "F (finished members)", COOP_STATE_FINISHED(state), COOP_STATE_MEMBERS(state));
        TU_AT_REST(block, "FORK_LEFT", ctrl[COOP_CTRL_FORK_LEFT], 0u);
        TU_AT_REST(block, "FORK_SIZE", ctrl[COOP_CTRL_FORK_SIZE], 0u);
        TU_AT_REST(block, "PARKED_COUNT", ctrl[COOP_CTRL_PARKED_COUNT], 0u);
        TU_AT_REST(block, "KILLS", ctrl[COOP_CTRL_KILLS], 0u);
        TU_AT_REST(block, "KILLS_REQUEST", ctrl[COOP_CTRL_KILLS_REQUEST], 0u);
        TU_AT_REST(block, "MOVE", ctrl[COOP_CTRL_MOVE], 0u);
        /* S4 per block: every ticket its spawners reserved was taken */
        TU_AT_REST(block, "SPAWN_TAIL", ctrl[COOP_CTRL_SPAWN_TAIL], ctrl[COOP_CTRL_SPAWN_HEAD]);
        idle += ctrl[COOP_CTRL_IDLE];
        moved_in += ctrl[COOP_CTRL_MOVED_IN];
        moved_out += ctrl[COOP_CTRL_MOVED_OUT];
        uint32_t counters[COOP_BAR_STRIDE + 2];
        cl_int err = clEnqueueReadBuffer(ctx->queue, ctx->dev_area, CL_TRUE,
                                         ((size_t)k * COOP_DEV_WORDS + COOP_DEV_BAR_COUNT) * sizeof(uint32_t),
                                         sizeof counters, counters, 0, NULL, NULL);
        ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %s", coop_cl_error_name(err));
        for (unsigned b = 0; b < 4; b++) {
            char name[64];
            snprintf(name, sizeof name, "barrier counter %u (flags masked)", b);
            uint32_t counter = counters[(b % 2u) * COOP_BAR_STRIDE + (b % 4u) / 2u];
            TU_AT_REST(block, name, counter & ~(COOP_BAR_FLAG | COOP_BAR_VOTE), COOP_BAR_IDLE);
        }
    }
    free(ctrl);
    TU_AT_REST(what, "IDLE summed over the blocks", idle, report->groups - (report->agent ? 1u : 0u));
    TU_AT_REST(what, "MOVED_IN summed over the blocks", moved_in, moved_out);
}

static coop_mega_params two_params(unsigned chaos_seed)
{
    coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S},
                               .chaos_seed = chaos_seed, .watchdog_s = 60};
    return params;
}

/* One shared run of the two kernels (weights `shares`, NULL: 1:1; plan: a periodic fill task or
 * none), its results against the CPU and every block at rest; `what` names it in failures. */
static void run_two(two *t, const coop_mega_params *params, const coop_kernel_share *shares,
                    const coop_task_plan *plan, cl_uint fill_seed, const char *what, coop_mega_report *report,
                    coop_kernel_report *kernels)
{
    TU_ASSERT_OK(t->ctx, coop_mega_run_shared(t->kernel, params, shares, ROUNDS_MEGA_COOP_COUNT, plan, plan ? 1 : 0,
                                              report, kernels));
    two_check(t, what, plan != NULL, fill_seed);
    assert_blocks_at_rest(t->ctx, ROUNDS_MEGA_COOP_COUNT, report, what);
}

/* Two kernels of different shapes in one megakernel, equal weights, no task, no chaos: both
 * results are the CPU's, each kernel started on its half of the groups and finished, and every
 * block is at rest. */
START_TEST(two_kernels_match_the_cpu)
{
    two t;
    two_open(&t, 6, 3);
    two_prepare(&t, 0);
    coop_mega_params params = two_params(0);
    tu_pin_groups(&params.launch, t.ctx, WORKERS);
    coop_mega_report report;
    coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
    run_two(&t, &params, NULL, NULL, 0, "no chaos", &report, kernels);
    ck_assert_uint_eq(report.groups, WORKERS);
    for (unsigned k = 0; k < ROUNDS_MEGA_COOP_COUNT; k++) {
        ck_assert_msg(kernels[k].members_start == WORKERS / 2, "kernel %u started on %u members, expected %u", k,
                      kernels[k].members_start, WORKERS / 2);
        ck_assert_msg(kernels[k].finish_ms > 0 && kernels[k].group_ms > 0, "kernel %u: finish %.3f ms, %.3f group-ms",
                      k, kernels[k].finish_ms, kernels[k].group_ms);
    }
    ck_assert_msg(kernels[0].barriers >= t.rounds && kernels[1].barriers >= 2 * t.ws_rounds,
                  "barriers: rounds %u (expected at least %u), ws_rounds %u (expected at least %u)",
                  kernels[0].barriers, t.rounds, kernels[1].barriers, 2 * t.ws_rounds);
    coop_mega_report_free(&report);
    two_close(&t);
}
END_TEST

/* The same under chaos, with a periodic task, seed after seed: every result the CPU's, every
 * block at rest, and chaos killed and forked groups of each kernel (summed over the seeds). */
START_TEST(two_kernels_under_chaos_with_a_task)
{
    two t;
    two_open(&t, 8, 3);
    unsigned kills[ROUNDS_MEGA_COOP_COUNT] = {0}, forks[ROUNDS_MEGA_COOP_COUNT] = {0};
    for (unsigned seed = 1; seed <= SEEDS; seed++) {
        cl_uint fill_seed = 100 + seed;
        two_prepare(&t, fill_seed);
        coop_mega_params params = two_params(seed);
        coop_task_plan plan = {.task = ROUNDS_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF,
                               .period_ms = 2};
        coop_mega_report report;
        coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
        char what[32];
        snprintf(what, sizeof what, "chaos seed %u", seed);
        run_two(&t, &params, NULL, &plan, fill_seed, what, &report, kernels);
        ck_assert_msg(report.record_count >= 1, "%s: no task ran", what);
        /* the report counts every kernel block's: tasks ran in whichever block held most groups */
        unsigned kills_all = 0, forks_all = 0;
        for (unsigned k = 0; k < ROUNDS_MEGA_COOP_COUNT; k++) {
            kills_all += kernels[k].kills;
            forks_all += kernels[k].forks;
        }
        ck_assert_msg(report.tasks == report.record_count && report.kills == kills_all && report.forks == forks_all,
                      "%s: the report counts %u tasks of %zu runs, %u kills of %u, %u forks of %u", what, report.tasks,
                      report.record_count, report.kills, kills_all, report.forks, forks_all);
        for (unsigned k = 0; k < ROUNDS_MEGA_COOP_COUNT; k++) {
            kills[k] += kernels[k].kills;
            forks[k] += kernels[k].forks;
        }
        coop_mega_report_free(&report);
    }
    for (unsigned k = 0; k < ROUNDS_MEGA_COOP_COUNT; k++)
        ck_assert_msg(kills[k] > 0 && forks[k] > 0, "kernel %u: chaos made %u kills and %u forks in %u seeds", k,
                      kills[k], forks[k], SEEDS);
    two_close(&t);
}
END_TEST

/* The queue channel's agent (section 11) serves every kernel block: requests (tasks, moves, share
 * tokens) through each block's mailbox, each block's words copied out. Under chaos with a
 * periodic task, every result the CPU's and every block at rest; and the scheduler's decisions,
 * from the report: no group moved that the host did not ask to move, every group one block moved
 * out arrived in the other's, and where rounds.cl (2 rounds) finished before ws_rounds.cl (200)
 * the host gave rounds's groups on (moves, or tasks into its block). Which kernel finishes first,
 * and so whether any group moves, is the machine's doing: the test asserts no count of moves. */
START_TEST(an_agent_serves_every_kernel_block)
{
    two t;
    two_open_channel(&t, 2, 200, COOP_CHANNEL_QUEUE);
    for (unsigned seed = 0; seed <= 3; seed++) {
        cl_uint fill_seed = 200 + seed;
        two_prepare(&t, fill_seed);
        coop_mega_params params = two_params(seed);
        coop_task_plan plan = {.task = ROUNDS_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_ONE,
                               .period_ms = 5};
        coop_mega_report report;
        coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
        char what[32];
        snprintf(what, sizeof what, "agent, chaos seed %u", seed);
        run_two(&t, &params, NULL, &plan, fill_seed, what, &report, kernels);
        ck_assert_msg(report.agent && report.record_count >= 1, "%s: agent %d, %zu task runs", what, report.agent,
                      report.record_count);
        ck_assert_msg(kernels[0].members_start >= 1 && kernels[1].members_start >= 1,
                      "%s: kernels started on %u and %u members", what, kernels[0].members_start,
                      kernels[1].members_start);
        const coop_kernel_report *rounds = &kernels[ROUNDS_MEGA_COOP_rounds];
        const coop_kernel_report *ws = &kernels[ROUNDS_MEGA_COOP_ws_rounds];
        ck_assert_msg(rounds->moved_out <= rounds->moves_asked && ws->moved_out <= ws->moves_asked,
                      "%s: groups moved unasked: rounds %u of %u asked, ws_rounds %u of %u", what, rounds->moved_out,
                      rounds->moves_asked, ws->moved_out, ws->moves_asked);
        ck_assert_msg(ws->moved_in == rounds->moved_out && rounds->moved_in == ws->moved_out,
                      "%s: rounds moved %u out and ws_rounds took %u in; ws_rounds moved %u out and rounds took %u in",
                      what, rounds->moved_out, ws->moved_in, ws->moved_out, rounds->moved_in);
        /* once rounds finished, its groups were given on: moved (the host asked its block), or
         * lent to a task run in its block that was still in flight then (a task's groups, and a
         * gathering task's block, are not moved; tasks go to the block holding the most groups) */
        unsigned lent_after = 0;
        for (size_t r = 0; r < report.record_count; r++)
            lent_after += report.records[r].kernel == ROUNDS_MEGA_COOP_rounds &&
                          report.records[r].request_ms + report.records[r].response_us / 1e3 >= rounds->finish_ms;
        if (rounds->finish_ms < ws->finish_ms)
            ck_assert_msg(rounds->moves_asked > 0 || lent_after > 0,
                          "%s: rounds finished at %.3f ms, ws_rounds at %.3f ms, and the host neither asked a move "
                          "of rounds's groups nor lent them to a task in flight after it finished", what,
                          rounds->finish_ms, ws->finish_ms);
        coop_mega_report_free(&report);
    }
    two_close(&t);
}
END_TEST

/* rounds.cl ends long before ws_rounds.cl: its groups move to ws_rounds's block, where its
 * offers fork them. The decisions, from the report: the host asked rounds's block to move
 * groups, they moved in, ws_rounds forked and ran on more members than it started with. */
START_TEST(a_finished_kernel_gives_its_groups_to_the_other)
{
    two t;
    two_open(&t, 1, 1000);
    two_prepare(&t, 0);
    coop_mega_params params = two_params(0);
    tu_pin_groups(&params.launch, t.ctx, WORKERS);
    coop_mega_report report;
    coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
    run_two(&t, &params, NULL, NULL, 0, "finish first", &report, kernels);
    const coop_kernel_report *rounds = &kernels[ROUNDS_MEGA_COOP_rounds], *ws = &kernels[ROUNDS_MEGA_COOP_ws_rounds];
    ck_assert_msg(rounds->finish_ms < ws->finish_ms, "rounds finished at %.3f ms, ws_rounds at %.3f", rounds->finish_ms,
                  ws->finish_ms);
    /* every group that was in rounds's block left it once rounds finished: the ones it started
     * on and any that the shares moved in while both ran (the host's correction may move groups
     * either way then); ws_rounds, the only other block, took each one in */
    ck_assert_msg(rounds->moved_out == rounds->members_start + rounds->moved_in &&
                      rounds->moves_asked >= rounds->moved_out && ws->moved_in == rounds->moved_out,
                  "rounds's %u groups (and %u moved in): %u moves asked, %u moved out, %u moved into ws_rounds",
                  rounds->members_start, rounds->moved_in, rounds->moves_asked, rounds->moved_out, ws->moved_in);
    /* what ws_rounds took in and kept, it forked, and it ran on every group */
    ck_assert_msg(ws->forks + ws->moved_out >= ws->moved_in && ws->members_max == WORKERS,
                  "ws_rounds forked %u groups, ran on %u members at most (started on %u of %u)", ws->forks,
                  ws->members_max, ws->members_start, WORKERS);
    /* the group-time while both ran: all of rounds's, and only part of ws_rounds's (it ran on
     * alone, on every group) */
    ck_assert_msg(rounds->group_all_ms == rounds->group_ms && ws->group_all_ms > 0 &&
                      ws->group_all_ms < ws->group_ms,
                  "group-ms while both ran: rounds %.4f of %.4f, ws_rounds %.4f of %.4f", rounds->group_all_ms,
                  rounds->group_ms, ws->group_all_ms, ws->group_ms);
    /* beside another kernel: the same time (two kernels), and the two dues split the two kernels'
     * group-time then by the weights (1:1) */
    double beside = rounds->group_beside_ms + ws->group_beside_ms;
    ck_assert_msg(rounds->group_beside_ms == rounds->group_all_ms && ws->group_beside_ms == ws->group_all_ms &&
                      fabs(rounds->group_due_ms - beside / 2) < 1e-9 * beside &&
                      fabs(ws->group_due_ms - beside / 2) < 1e-9 * beside,
                  "beside the other: rounds %.4f (due %.4f), ws_rounds %.4f (due %.4f)", rounds->group_beside_ms,
                  rounds->group_due_ms, ws->group_beside_ms, ws->group_due_ms);
    coop_mega_report_free(&report);
    two_close(&t);
}
END_TEST

/* Weights 3:1 split four groups 3:1 at the start (the heavier kernel holds more groups from the
 * first barrier on), and rounds.cl's longer run is no reason to move any while both run. */
START_TEST(weights_split_the_groups)
{
    two t;
    two_open(&t, 4, 2);
    two_prepare(&t, 0);
    coop_mega_params params = two_params(0);
    tu_pin_groups(&params.launch, t.ctx, WORKERS);
    coop_kernel_share shares[ROUNDS_MEGA_COOP_COUNT] = {{.weight = 1}, {.weight = 3}};
    coop_mega_report report;
    coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
    run_two(&t, &params, shares, NULL, 0, "weights 1:3", &report, kernels);
    ck_assert_msg(kernels[0].members_start == 1 && kernels[1].members_start == 3,
                  "weights 1:3 started kernels on %u and %u members, expected 1 and 3", kernels[0].members_start,
                  kernels[1].members_start);
    /* what each was due while both ran: 1:3 of their group-time then (however the host's
     * samples fell), whatever each held */
    double beside = kernels[0].group_beside_ms + kernels[1].group_beside_ms;
    ck_assert_msg(beside > 0 && fabs(kernels[0].group_due_ms - beside / 4) < 1e-9 * beside &&
                      fabs(kernels[1].group_due_ms - 3 * beside / 4) < 1e-9 * beside,
                  "weights 1:3: due %.4f and %.4f of %.4f group-ms beside each other", kernels[0].group_due_ms,
                  kernels[1].group_due_ms, beside);
    coop_mega_report_free(&report);
    two_close(&t);
}
END_TEST

/* One member each at the start (params.members = 2): the other groups start idle in block 0,
 * where rounds.cl's offers may fork them, so rounds holds more than its share; the host gives
 * ws_rounds its half back, through rounds's kill tokens and moves, or by moving idle groups
 * before rounds forks them. Either way groups moved into ws_rounds's block. */
START_TEST(a_kernel_above_its_share_gives_groups_back)
{
    two t;
    two_open(&t, 3000, 600);
    two_prepare(&t, 0);
    coop_mega_params params = two_params(0);
    params.members = 2;
    tu_pin_groups(&params.launch, t.ctx, WORKERS);
    coop_mega_report report;
    coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
    run_two(&t, &params, NULL, NULL, 0, "members 2", &report, kernels);
    ck_assert_msg(kernels[0].members_start == 1 && kernels[1].members_start == 1,
                  "started on %u and %u members, expected 1 and 1", kernels[0].members_start, kernels[1].members_start);
    ck_assert_msg(kernels[1].moved_in >= 1 && kernels[1].forks >= 1,
                  "ws_rounds: %u groups moved in, %u forked (rounds: %u share kills, %u kills, %u forks)",
                  kernels[1].moved_in, kernels[1].forks, kernels[0].share_kills, kernels[0].kills, kernels[0].forks);
    coop_mega_report_free(&report);
    two_close(&t);
}
END_TEST

/* The host's shares (share.c, coop_share_targets), which its kills and moves steer toward. */
START_TEST(shares_follow_the_weights)
{
    static const struct {
        unsigned kernels, available, weights[4];
        int done[4];
        unsigned expected[4];
    } cases[] = {
        {2, 9, {2, 1}, {0, 0}, {6, 3}},           /* 2:1 */
        {2, 4, {1, 3}, {0, 0}, {1, 3}},           /* test_share's start, weights 1:3 */
        {2, 4, {1, 1}, {0, 0}, {2, 2}},
        {2, 5, {1, 1}, {0, 0}, {3, 2}},           /* a tie: the lower index */
        {2, 8, {1, 1000}, {0, 0}, {1, 7}},        /* at least one each */
        {3, 10, {1, 2, 2}, {0, 1, 0}, {3, 0, 7}}, /* a finished kernel holds none */
        {3, 2, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}},  /* fewer groups than kernels: one each */
        {4, 12, {3, 1, 1, 1}, {0, 0, 0, 0}, {6, 2, 2, 2}},
        {2, 7, {5, 5}, {1, 1}, {0, 0}},           /* all finished */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        unsigned target[4] = {0};
        coop_share_targets(cases[c].weights, cases[c].done, cases[c].kernels, cases[c].available, target);
        for (unsigned k = 0; k < cases[c].kernels; k++)
            ck_assert_msg(target[k] == cases[c].expected[k], "case %zu: kernel %u's share is %u, expected %u", c, k,
                          target[k], cases[c].expected[k]);
    }
}
END_TEST

/* The targets corrected by the group-time each kernel is owed: a kernel behind its weight gets
 * more, one ahead fewer, within half a target, at least one each, all groups given out. */
START_TEST(shares_make_up_what_was_owed)
{
    static const struct {
        unsigned kernels, available, target[3];
        int done[3];
        double owed[3], span_us;
        unsigned expected[3];
    } cases[] = {
        {2, 9, {6, 3}, {0, 0}, {0, 0}, 8000, {6, 3}},              /* owed nothing */
        {2, 9, {6, 3}, {0, 0}, {400, -400}, 8000, {6, 3}},         /* a fifth of a group */
        {2, 9, {6, 3}, {0, 0}, {4000, -4000}, 8000, {7, 2}},       /* +2, -1 at the limit: +1 */
        {2, 9, {6, 3}, {0, 0}, {-8000, 8000}, 8000, {5, 4}},       /* -3, +1 at the limits: 1 */
        {2, 9, {6, 3}, {0, 0}, {1000, -1000}, 100, {7, 2}},        /* a short span: 1 ms */
        {3, 10, {3, 0, 7}, {0, 1, 0}, {2000, 0, -2000}, 4000, {4, 0, 6}}, /* a finished kernel */
        {2, 9, {9, 0}, {0, 1}, {5000, -5000}, 100, {9, 0}},        /* one running: no change */
        {2, 2, {1, 1}, {0, 0}, {9000, -9000}, 1000, {1, 1}},       /* at least one each */
        {3, 12, {4, 4, 4}, {0, 0, 0}, {3000, 0, -3000}, 4000, {6, 4, 2}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        unsigned target[3];
        memcpy(target, cases[c].target, sizeof target);
        coop_share_correct(cases[c].owed, cases[c].span_us, cases[c].done, cases[c].kernels, cases[c].available,
                           target);
        for (unsigned k = 0; k < cases[c].kernels; k++)
            ck_assert_msg(target[k] == cases[c].expected[k], "case %zu: kernel %u's target is %u, expected %u", c,
                          k, target[k], cases[c].expected[k]);
    }
}
END_TEST

/* What coop_mega_run_shared refuses, each with its field named. */
START_TEST(shared_runs_refuse_what_they_cannot_run)
{
    two t;
    two_open(&t, 1, 1);
    coop_mega_params params = two_params(0);
    coop_mega_report report;
    TU_ASSERT_STATUS(t.ctx, coop_mega_run_shared(t.kernel, &params, NULL, 3, NULL, 0, &report, NULL),
                     COOP_ERR_INVALID_ARGUMENT,
                     "coop_mega_run_shared: kernel_count = 3, but megakernel 'rounds_mega' holds 2 cooperative kernels");
    TU_ASSERT_STATUS(t.ctx, coop_mega_run_shared(t.kernel, &params, NULL, 0, NULL, 0, &report, NULL),
                     COOP_ERR_INVALID_ARGUMENT, "coop_mega_run_shared: kernel_count is 0");
    coop_kernel_share heavy[ROUNDS_MEGA_COOP_COUNT] = {{.weight = 1}, {.weight = COOP_WEIGHT_MAX + 1}};
    TU_ASSERT_STATUS(t.ctx, coop_mega_run_shared(t.kernel, &params, heavy, 2, NULL, 0, &report, NULL),
                     COOP_ERR_INVALID_ARGUMENT, "coop_mega_run_shared: kernels[1].weight = 1001: a weight is from 1 to 1000");
    two_close(&t);
}
END_TEST

/* Traced runs of the two kernels (docs/DESIGN.md sections 13 and 17): the trace passes every
 * check of a one-kernel trace per kernel (its member spans against its own M counter, ids 0 ..
 * M-1, R1 at its member 0) and holds what each kernel's report counts: its starting members,
 * kills, forks, resizes, barriers and the groups that moved out of and into its block. rounds.cl
 * runs one round, so its groups move to ws_rounds.cl (moves in the trace); then under chaos with
 * a periodic task (kills and forks in both kernels, tasks on the groups of either). */
START_TEST(a_traced_run_says_which_kernel_each_group_served)
{
    two t;
    two_open(&t, 1, 60);
    char dir[] = "/tmp/test_share.XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/trace.json", dir);
    unsigned moved = 0, kills[ROUNDS_MEGA_COOP_COUNT] = {0};
    for (unsigned seed = 0; seed <= 4; seed++) {
        cl_uint fill_seed = 300 + seed;
        two_prepare(&t, fill_seed);
        coop_mega_params params = two_params(seed);
        params.trace_file = path;
        params.trace_events = 1u << 15;
        tu_pin_groups(&params.launch, t.ctx, WORKERS);
        coop_task_plan plan = {.task = ROUNDS_MEGA_TASK_fill, .workgroups = FILL_GROUPS, .take = COOP_TAKE_HALF,
                               .period_ms = 2};
        coop_mega_report report;
        coop_kernel_report kernels[ROUNDS_MEGA_COOP_COUNT];
        char what[48];
        snprintf(what, sizeof what, "traced, chaos seed %u", seed);
        run_two(&t, &params, NULL, seed ? &plan : NULL, fill_seed, what, &report, kernels);
        tc_check_complete(path, &report, what);
        tc_trace trace = tc_load(path);
        tc_check_kernels(&trace, kernels, ROUNDS_MEGA_COOP_COUNT, what);
        tc_free(&trace);
        moved += kernels[ROUNDS_MEGA_COOP_ws_rounds].moved_in;
        for (unsigned k = 0; k < ROUNDS_MEGA_COOP_COUNT; k++)
            kills[k] += kernels[k].kills;
        coop_mega_report_free(&report);
        unlink(path);
    }
    rmdir(dir);
    ck_assert_msg(moved > 0 && kills[0] > 0 && kills[1] > 0,
                  "5 traced runs: %u groups moved to ws_rounds, %u and %u kills: nothing to check the trace with",
                  moved, kills[0], kills[1]);
    two_close(&t);
}
END_TEST

/* One group for two kernels: rounds.cl gets it and ws_rounds.cl none, which it needs to start. The
 * run fails, naming ws_rounds, once rounds.cl ran to its end and the megakernel ended: its data
 * is the CPU's and every block is at rest when the call returns. */
START_TEST(too_few_groups_fail_once_the_run_ended)
{
    two t;
    two_open(&t, 300, 1);
    two_prepare(&t, 0);
    coop_mega_params params = two_params(0);
    tu_pin_groups(&params.launch, t.ctx, 1);
    coop_mega_report report;
    TU_ASSERT_STATUS(t.ctx, coop_mega_run_shared(t.kernel, &params, NULL, ROUNDS_MEGA_COOP_COUNT, NULL, 0, &report,
                                                 NULL),
                     COOP_ERR_DEVICE_UNSUPPORTED,
                     "megakernel of 2 cooperative kernels: only 1 groups are co-resident, and kernel 1 ('ws_rounds') "
                     "got none to start on (each needs one)");
    cl_uint *values = malloc(N * sizeof *values);
    ck_assert_ptr_nonnull(values);
    tu_read(t.ctx, t.data, values, N);
    for (unsigned i = 0; i < N; i++)
        ck_assert_msg(values[i] == t.rounds, "rounds data[%u] = %u, expected %u: the call returned before rounds.cl "
                      "ended", i, values[i], t.rounds);
    free(values);
    coop_mega_report groups = {.groups = 1};
    assert_blocks_at_rest(t.ctx, ROUNDS_MEGA_COOP_COUNT, &groups, "one group");
    two_close(&t);
}
END_TEST

/* rounds.cl beside stall.cl, whose group 1 never reaches its second barrier: once rounds has
 * finished (its groups then wait idle in stall's block: stall has no offers) nothing progresses, and the watchdog's account names each kernel and what it waits
 * for: stall's groups at its barrier (by its line) with group 1 missing, rounds finished. */
START_TEST(watchdog_names_what_each_kernel_waits_for)
{
    coop_context *ctx = tu_context(WORKERS);
    size_t size = 0;
    char *source = tu_read_file("tests/merge/expected/stall_beside.cl", &size);
    ck_assert_ptr_nonnull(source);
    coop_program *program = NULL;
    coop_kernel *kernel = tu_kernel(ctx, source, NULL, STALL_BESIDE_NAME, &program);
    free(source);
    cl_mem data = tu_buffer(ctx, N), flag = tu_buffer(ctx, 1);
    cl_uint zero[1] = {0}, n = N, rounds = 3;
    tu_write(ctx, flag, zero, 1);
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, STALL_BESIDE_ARG_rounds_data, data));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, STALL_BESIDE_ARG_rounds_n, sizeof n, &n));
    TU_ASSERT_OK(ctx, coop_kernel_set_arg(kernel, STALL_BESIDE_ARG_rounds_rounds, sizeof rounds, &rounds));
    TU_ASSERT_OK(ctx, coop_kernel_set_buffer(kernel, STALL_BESIDE_ARG_stall_flag, flag));
    coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S}, .watchdog_s = 1};
    tu_pin_groups(&params.launch, ctx, WORKERS);
    coop_mega_report report;
    TU_ASSERT_STATUS(ctx, coop_mega_run(kernel, &params, NULL, 0, &report), COOP_ERR_TIMEOUT,
                     "kernel 1 ('stall', M = 2, 0 finished): 1 group waiting at global barrier #2 "
                     "(tests/merge/stall.cl:9:5: global_barrier()), group 1 never arrived");
    ck_assert_msg(strstr(coop_context_message(ctx), "COOP_WATCHDOG_S): kernel 0 ('rounds', M = 2, 2 finished): "
                                                    "no groups; kernel 1"), "%s", coop_context_message(ctx));
    /* the kernel still runs: the test leaves with _exit(), as test_merge's stall tests do */
    _exit(0);
}
END_TEST

/* ---- Two kernels that spawn tasks (docs/DESIGN.md sections 10.2 and 17) ------------------- */

enum { SPAWN_ITEMS = 600, SPAWN_PIECE = 64, SPAWN_CHAINS = 3, LINK_STRIDE = 16, SPAWN_ROUNDS = 40,
       SPAWN_STATUSES = SPAWN_ITEMS / SPAWN_PIECE + 1 + 4, FLOOD_MOST = 2000, FLOOD_CHAINS = 4 };

/* tests/merge/expected/two_spawners.cl: hand_out.cl (learns how many multiples of 3 its input
 * holds and spawns `square` runs over them; with a flood, keeps its block's queue full until the
 * other kernel's chains have ended) beside chains.cl (spawns chains of `link` runs, each link
 * the next), merged with share_tasks.cl. */
typedef struct spawners {
    coop_context *ctx;
    coop_program *program;
    coop_kernel *kernel;
    cl_mem in, found, list, squares, statuses, starts, links, link_statuses, bumped;
} spawners;

/* The queue channel's agent needs a group of its own: two more workers, so that each kernel
 * still starts on two members for chaos to kill and fork. */
static void spawners_open(spawners *s, coop_channel_kind channel)
{
    size_t size = 0;
    char *source = tu_read_file("tests/merge/expected/two_spawners.cl", &size);
    ck_assert_ptr_nonnull(source);
    s->ctx = tu_context_channel(WORKERS + (channel == COOP_CHANNEL_QUEUE ? 2u : 0u), channel);
    s->kernel = tu_kernel(s->ctx, source, TU_CHECK_OPTIONS, HAND_OUT_MEGA_NAME, &s->program);
    free(source);
    s->in = tu_buffer(s->ctx, SPAWN_ITEMS);
    s->found = tu_buffer(s->ctx, 1);
    s->list = tu_buffer(s->ctx, SPAWN_ITEMS);
    s->squares = tu_buffer(s->ctx, SPAWN_ITEMS);
    s->statuses = tu_buffer(s->ctx, SPAWN_STATUSES);
    s->starts = tu_buffer(s->ctx, FLOOD_CHAINS);
    s->links = tu_buffer(s->ctx, FLOOD_CHAINS * LINK_STRIDE);
    s->link_statuses = tu_buffer(s->ctx, FLOOD_CHAINS * LINK_STRIDE);
    s->bumped = tu_buffer(s->ctx, 1);
    coop_kernel *k = s->kernel;
    const struct {
        unsigned arg;
        cl_mem buffer;
    } buffers[] = {{HAND_OUT_MEGA_ARG_hand_out_in, s->in},
                   {HAND_OUT_MEGA_ARG_hand_out_found, s->found},
                   {HAND_OUT_MEGA_ARG_hand_out_list, s->list},
                   {HAND_OUT_MEGA_ARG_hand_out_statuses, s->statuses},
                   {HAND_OUT_MEGA_ARG_hand_out_link_statuses, s->link_statuses},
                   {HAND_OUT_MEGA_ARG_chains_starts, s->starts},
                   {HAND_OUT_MEGA_ARG_square_list, s->list},
                   {HAND_OUT_MEGA_ARG_square_squares, s->squares},
                   {HAND_OUT_MEGA_ARG_chain_link_links, s->links},
                   {HAND_OUT_MEGA_ARG_chain_link_link_statuses, s->link_statuses},
                   {HAND_OUT_MEGA_ARG_bump_bumped, s->bumped}};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        TU_ASSERT_OK(s->ctx, coop_kernel_set_buffer(k, buffers[i].arg, buffers[i].buffer));
}

static void spawners_close(spawners *s)
{
    cl_mem buffers[] = {s->in, s->found, s->list, s->squares, s->statuses, s->starts, s->links, s->link_statuses,
                        s->bumped};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; i++)
        clReleaseMemObject(buffers[i]);
    coop_kernel_release(s->kernel);
    coop_program_release(s->program);
    coop_context_release(s->ctx);
}

/* What one run of the two spawning kernels did, as checked against the CPU. */
typedef struct spawned {
    unsigned pieces, fulls, bumps, chains_seen; /* hand_out's member 0: its flood, and the chains it
                                                   saw begin meanwhile */
    unsigned squares_spawned[COOP_MAX_KERNELS], links_spawned[COOP_MAX_KERNELS]; /* records, by spawn_kernel */
    unsigned lent_by_other;                     /* runs that took another kernel's groups than their spawner's */
    unsigned kills, forks;                      /* chaos's, every kernel's */
} spawned;

static void set_uint(spawners *s, unsigned arg, cl_uint value)
{
    TU_ASSERT_OK(s->ctx, coop_kernel_set_arg(s->kernel, arg, sizeof value, &value));
}

/* One run: seed `seed` for the input and chaos, `chains` chains of `length` links (at most the
 * depth limit's), hand_out flooding with `flood` runs at most (0: none); `members` start the
 * kernels (0: all groups). Checks every result against the CPU, every block at rest, and each
 * record's kernels: squares spawned in hand_out's block, first links in chains's, a later link
 * in the block its spawner ran in. */
static void spawners_run(spawners *s, unsigned seed, unsigned chains, unsigned length, unsigned flood,
                         unsigned members, const char *what, spawned *out)
{
    coop_context *ctx = s->ctx;
    static cl_uint in[SPAWN_ITEMS], list[SPAWN_ITEMS], squares[SPAWN_ITEMS];
    cl_uint statuses[SPAWN_STATUSES], zero[FLOOD_CHAINS * LINK_STRIDE] = {0};
    cl_uint links[FLOOD_CHAINS * LINK_STRIDE], link_statuses[FLOOD_CHAINS * LINK_STRIDE], starts[FLOOD_CHAINS];
    unsigned expected_found = 0;
    for (unsigned i = 0; i < SPAWN_ITEMS; i++) {
        in[i] = (i * 7919u + seed * 104729u) % 100003u;
        expected_found += in[i] % 3u == 0;
    }
    tu_write(ctx, s->in, in, SPAWN_ITEMS);
    tu_write(ctx, s->found, zero, 1);
    memset(squares, 0, sizeof squares);
    tu_write(ctx, s->squares, squares, SPAWN_ITEMS);
    tu_write(ctx, s->statuses, zero, SPAWN_STATUSES);
    tu_write(ctx, s->starts, zero, FLOOD_CHAINS);
    tu_write(ctx, s->links, zero, FLOOD_CHAINS * LINK_STRIDE);
    tu_write(ctx, s->link_statuses, zero, FLOOD_CHAINS * LINK_STRIDE);
    tu_write(ctx, s->bumped, zero, 1);
    set_uint(s, HAND_OUT_MEGA_ARG_hand_out_n, SPAWN_ITEMS);
    set_uint(s, HAND_OUT_MEGA_ARG_hand_out_piece, SPAWN_PIECE);
    set_uint(s, HAND_OUT_MEGA_ARG_hand_out_flood, flood);
    set_uint(s, HAND_OUT_MEGA_ARG_hand_out_chains, chains);
    set_uint(s, HAND_OUT_MEGA_ARG_hand_out_rounds, flood ? 0 : SPAWN_ROUNDS);
    set_uint(s, HAND_OUT_MEGA_ARG_chains_chains, chains);
    set_uint(s, HAND_OUT_MEGA_ARG_chains_length, length);
    set_uint(s, HAND_OUT_MEGA_ARG_chains_rounds, flood ? 0 : SPAWN_ROUNDS);
    coop_mega_params params = {.launch = {.local_size = LOCAL, .timeout_s = COMPILE_TIMEOUT_S}, .chaos_seed = seed,
                               .watchdog_s = 60, .tasks_in_flight = 2, .members = members};
    tu_pin_groups(&params.launch, ctx, coop_context_device(ctx)->compute_units);
    coop_mega_report report;
    coop_kernel_report kernels[HAND_OUT_MEGA_COOP_COUNT];
    TU_ASSERT_OK(ctx, coop_mega_run_shared(s->kernel, &params, NULL, HAND_OUT_MEGA_COOP_COUNT, NULL, 0, &report,
                                           kernels));
    assert_blocks_at_rest(ctx, HAND_OUT_MEGA_COOP_COUNT, &report, what);

    /* hand_out: the list and every square of it, each piece spawned once */
    cl_uint found = 0;
    tu_read(ctx, s->found, &found, 1);
    ck_assert_msg(found == expected_found, "%s: found %u multiples of 3, the CPU %u", what, found, expected_found);
    tu_read(ctx, s->list, list, SPAWN_ITEMS);
    tu_read(ctx, s->squares, squares, SPAWN_ITEMS);
    for (unsigned i = 0; i < found; i++)
        ck_assert_msg(list[i] % 3u == 0 && squares[i] == list[i] * list[i],
                      "%s: list[%u] = %u, its square %u (no spawned run wrote it)", what, i, list[i], squares[i]);
    memset(out, 0, sizeof *out);
    out->pieces = (found + SPAWN_PIECE - 1) / SPAWN_PIECE;
    tu_read(ctx, s->statuses, statuses, SPAWN_STATUSES);
    for (unsigned p = 0; p < out->pieces; p++)
        ck_assert_msg(statuses[p] == COOP_SPAWN_OK, "%s: square spawn %u returned %u", what, p, statuses[p]);
    ck_assert_msg(statuses[out->pieces] == 0xffffffffu, "%s: hand_out's spawner did not end", what);
    out->fulls = statuses[out->pieces + 1];
    out->bumps = statuses[out->pieces + 2];
    out->chains_seen = statuses[out->pieces + 3];
    cl_uint bumped = 0;
    tu_read(ctx, s->bumped, &bumped, 1);
    ck_assert_msg(bumped == out->bumps, "%s: %u bump runs went in, %u ran", what, out->bumps, bumped);

    /* chains: each started once, ran once at every depth up to its length (at most the depth
     * limit), each link's spawn OK but the last's: SPAWN_NO_WORK at its length, SPAWN_TOO_DEEP at
     * the limit (per queue: the chain's links run in either kernel's block) */
    tu_read(ctx, s->starts, starts, FLOOD_CHAINS);
    tu_read(ctx, s->links, links, FLOOD_CHAINS * LINK_STRIDE);
    tu_read(ctx, s->link_statuses, link_statuses, FLOOD_CHAINS * LINK_STRIDE);
    unsigned deepest = length < COOP_SPAWN_DEPTH_MAX ? length : COOP_SPAWN_DEPTH_MAX, link_runs = 0;
    for (unsigned c = 0; c < chains; c++) {
        ck_assert_msg(starts[c] == 1 + COOP_SPAWN_OK, "%s: chain %u's start returned %u", what, c, starts[c] - 1);
        for (unsigned d = 0; d < LINK_STRIDE; d++) {
            unsigned runs = d >= 1 && d <= deepest, at = c * LINK_STRIDE + d;
            ck_assert_msg(links[at] == runs, "%s: chain %u ran %u times at depth %u, expected %u", what, c, links[at],
                          d, runs);
            unsigned status = !runs ? 0
                              : d < deepest ? 1 + COOP_SPAWN_OK
                              : d == length ? 1 + COOP_SPAWN_NO_WORK
                                            : 1 + COOP_SPAWN_TOO_DEEP;
            ck_assert_msg(link_statuses[at] == status, "%s: chain %u at depth %u: spawn status %d, expected %d", what,
                          c, d, (int)link_statuses[at] - 1, (int)status - 1);
            link_runs += runs;
        }
    }

    /* the records: one per run that went in, each saying which kernel's queue it came from */
    unsigned squares_recorded = 0, links_recorded = 0, bumps_recorded = 0;
    for (size_t r = 0; r < report.record_count; r++) {
        const coop_task_record *rec = &report.records[r];
        ck_assert_msg(rec->spawned && rec->kernel < HAND_OUT_MEGA_COOP_COUNT &&
                          rec->spawn_kernel < HAND_OUT_MEGA_COOP_COUNT && rec->depth >= 1 &&
                          rec->depth <= COOP_SPAWN_DEPTH_MAX,
                      "%s: record %zu: spawned %d, kernel %u, spawn_kernel %u, depth %u", what, r, rec->spawned,
                      rec->kernel, rec->spawn_kernel, rec->depth);
        out->lent_by_other += rec->kernel != rec->spawn_kernel;
        if (rec->task == HAND_OUT_MEGA_TASK_square || rec->task == HAND_OUT_MEGA_TASK_bump) {
            ck_assert_msg(rec->spawn_kernel == HAND_OUT_MEGA_COOP_hand_out && !rec->spawned_by && rec->depth == 1,
                          "%s: record %zu (task %u): spawned in kernel %u by request %u at depth %u, expected "
                          "hand_out's kernel at depth 1", what, r, rec->task, rec->spawn_kernel, rec->spawned_by,
                          rec->depth);
            squares_recorded += rec->task == HAND_OUT_MEGA_TASK_square;
            bumps_recorded += rec->task == HAND_OUT_MEGA_TASK_bump;
            out->squares_spawned[rec->spawn_kernel]++;
            continue;
        }
        ck_assert_uint_eq(rec->task, HAND_OUT_MEGA_TASK_chain_link);
        links_recorded++;
        out->links_spawned[rec->spawn_kernel]++;
        if (!rec->spawned_by) {
            ck_assert_msg(rec->spawn_kernel == HAND_OUT_MEGA_COOP_chains && rec->depth == 1,
                          "%s: record %zu: a first link spawned in kernel %u at depth %u", what, r, rec->spawn_kernel,
                          rec->depth);
            continue;
        }
        /* a later link: spawned by a link, in the queue of the block that link ran in */
        const coop_task_record *by = NULL;
        for (size_t j = 0; j < report.record_count && !by; j++)
            if (report.records[j].request == rec->spawned_by)
                by = &report.records[j];
        ck_assert_msg(by && by->task == HAND_OUT_MEGA_TASK_chain_link && by->kernel == rec->spawn_kernel &&
                          rec->depth == by->depth + 1,
                      "%s: record %zu: link at depth %u spawned in kernel %u by request %u (%s, in kernel %u, depth "
                      "%u)", what, r, rec->depth, rec->spawn_kernel, rec->spawned_by, by ? "recorded" : "no record",
                      by ? by->kernel : 0, by ? by->depth : 0);
    }
    ck_assert_msg(squares_recorded == out->pieces && links_recorded == link_runs && bumps_recorded == out->bumps &&
                      report.record_count == out->pieces + link_runs + out->bumps,
                  "%s: %zu records: %u squares of %u pieces, %u links of %u runs, %u bumps of %u", what,
                  report.record_count, squares_recorded, out->pieces, links_recorded, link_runs, bumps_recorded,
                  out->bumps);
    out->kills = report.kills;
    out->forks = report.forks;
    coop_mega_report_free(&report);
}

static const coop_channel_kind spawn_channels[] = {COOP_CHANNEL_SVM, COOP_CHANNEL_QUEUE};

/* Two cooperative kernels that both spawn: hand_out hands out the work it learned, chains.cl's
 * chains spawn link after link down to the depth limit, without chaos and under chaos seed after
 * seed; with the host serving both blocks' queues (SVM) and with the queue channel's agent
 * applying their runs itself. Every result the CPU's, every block at rest (its queue taken to its
 * head), every run recorded once with the kernel it was spawned in, and both kernels' spawns
 * served. */
START_TEST(both_kernels_spawn_tasks)
{
    spawners s;
    spawners_open(&s, spawn_channels[_i]);
    unsigned served[COOP_MAX_KERNELS] = {0}, kills = 0, forks = 0;
    for (unsigned seed = 0; seed <= SEEDS / 2; seed++) {
        char what[48];
        snprintf(what, sizeof what, "%s, chaos seed %u", _i ? "agent" : "host", seed);
        spawned result;
        spawners_run(&s, seed, SPAWN_CHAINS, LINK_STRIDE, 0, 0, what, &result);
        ck_assert_msg(result.fulls == 0 && result.bumps == 0, "%s: %u fulls, %u bumps without a flood", what,
                      result.fulls, result.bumps);
        for (unsigned k = 0; k < HAND_OUT_MEGA_COOP_COUNT; k++)
            served[k] += result.squares_spawned[k] + result.links_spawned[k];
        kills += result.kills;
        forks += result.forks;
    }
    ck_assert_msg(kills > 0 && forks > 0, "chaos made %u kills and %u forks in seeds 0 .. %u", kills, forks, SEEDS / 2);
    ck_assert_msg(served[HAND_OUT_MEGA_COOP_hand_out] > 0 && served[HAND_OUT_MEGA_COOP_chains] > 0,
                  "runs spawned in hand_out's block: %u, in chains's: %u", served[HAND_OUT_MEGA_COOP_hand_out],
                  served[HAND_OUT_MEGA_COOP_chains]);
    spawners_close(&s);
}
END_TEST

/* hand_out keeps its block's queue full (SPAWN_FULL, a status there: it tries again) until
 * chains.cl's chains have begun, which needs chains's block's queue served meanwhile: the full
 * queue stalls neither the other kernel nor its runs. One member each: the other groups are
 * idle, for the spawned runs. Both consumers. */
START_TEST(a_full_queue_stalls_no_other_kernel)
{
    spawners s;
    spawners_open(&s, spawn_channels[_i]);
    char what[48];
    snprintf(what, sizeof what, "%s, flood", _i ? "agent" : "host");
    spawned result;
    spawners_run(&s, 0, FLOOD_CHAINS, 1, FLOOD_MOST, HAND_OUT_MEGA_COOP_COUNT, what, &result);
    ck_assert_msg(result.fulls > 0, "%s: hand_out's queue was never full (%u bumps went in)", what, result.bumps);
    ck_assert_msg(result.chains_seen == FLOOD_CHAINS && result.bumps < FLOOD_MOST,
                  "%s: hand_out flooded %u runs (at most %u) and saw %u of %u chains begin meanwhile", what,
                  result.bumps, FLOOD_MOST, result.chains_seen, FLOOD_CHAINS);
    spawners_close(&s);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("share");
    TCase *runs = tu_tcase("runs", 1800);
    tcase_add_test(runs, two_kernels_match_the_cpu);
    tcase_add_test(runs, weights_split_the_groups);
    tcase_add_test(runs, a_finished_kernel_gives_its_groups_to_the_other);
    tcase_add_test(runs, a_kernel_above_its_share_gives_groups_back);
    tcase_add_test(runs, too_few_groups_fail_once_the_run_ended);
    suite_add_tcase(suite, runs);
    TCase *chaos = tu_tcase("chaos", 1800);
    tcase_add_test(chaos, two_kernels_under_chaos_with_a_task);
    tcase_add_test(chaos, an_agent_serves_every_kernel_block);
    suite_add_tcase(suite, chaos);
    TCase *traced = tu_tcase("traced", 1800);
    tcase_add_test(traced, a_traced_run_says_which_kernel_each_group_served);
    suite_add_tcase(suite, traced);
    TCase *watchdog = tu_tcase("watchdog", 300);
    tcase_add_test(watchdog, watchdog_names_what_each_kernel_waits_for);
    suite_add_tcase(suite, watchdog);
    TCase *refusals = tu_tcase("refusals", 300);
    tcase_add_test(refusals, shared_runs_refuse_what_they_cannot_run);
    tcase_add_test(refusals, shares_follow_the_weights);
    tcase_add_test(refusals, shares_make_up_what_was_owed);
    suite_add_tcase(suite, refusals);
    TCase *spawn = tu_tcase("spawn", 1800);
    tcase_add_loop_test(spawn, both_kernels_spawn_tasks, 0, 2);
    tcase_add_loop_test(spawn, a_full_queue_stalls_no_other_kernel, 0, 2);
    suite_add_tcase(suite, spawn);
    return tu_run(suite);
}
