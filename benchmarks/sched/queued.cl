/* sched-bench's ordinary kernels for the figures without cooperation, where the task waits on a
 * second command queue: units.cl's loop without the offers as one launch of a chain (the whole
 * chain on one launch is the persistent kernel without discovery), and task.cl's task stamped with
 * the device clock. Plain OpenCL C, built as it is: libcoop prepends its kernel header, whose
 * coop_fetch_add, coop_group_sync, coop_pocl_join and, where the device has one, coop_clock_ns
 * these use. */
#include "work.h"

/* A test's fault (tests/test_programs.c): the units of this launch of a chain do not count
 * themselves, as if lost, so that sched-bench's check must fail. */
#ifndef SCHED_TEST_LOSE_LAUNCH
#define SCHED_TEST_LOSE_LAUNCH 0xffffffffu
#endif

/* Units [first, end) from this launch's own counter counters[launch], which starts at 0: the
 * launch before leaves its counter past its end, as every group's last claim does. Each unit
 * counts itself in `done`, as in units.cl. */
kernel void sched_units_launch(global uint *counters, uint launch, uint first, uint end, uint iters,
                               global uint *sink, global uint *done)
{
    /* the claimed unit's hand-over, two slots in turn as in units.cl's claim_unit */
    local uint claimed[2];
    uint turn = 0;
    /* the joins where coop-merge puts them in units.cl's standalone form: PoCL's work-group
     * compiler mishandled a value shared through local memory in such a loop without them
     * (coop_device/generated.h); nothing on NVIDIA */
    coop_pocl_join();
    while (1) {
        coop_pocl_join();
        local uint *slot = &claimed[turn++ & 1u];
        if (get_local_id(0) == 0)
            *slot = first + coop_fetch_add(&counters[launch], 1u);
        coop_group_sync();
        uint unit = *slot;
        coop_pocl_join();
        if (unit >= end)
            break;
        sink[SINK_SLOT(unit)] = unit_work(unit, iters);
        if (get_local_id(0) == 0 && launch != SCHED_TEST_LOSE_LAUNCH)
            coop_fetch_add(&done[unit], 1u);
    }
}

/* The device clock now; 0 on a device without one (the host then has the events alone). */
inline ulong queued_clock(void)
{
#if COOP_HAS_CLOCK
    return coop_clock_ns();
#else
    return 0;
#endif
}

/* task.cl's task_short, with its group's start and end on the device clock in the two words of
 * `stamps` at 2 (slot x groups + g). */
kernel void sched_task_stamped(uint task_iters, global uint *task_sink, global ulong *stamps, uint slot)
{
    uint g = get_group_id(0);
    global ulong *stamp = &stamps[2 * ((ulong)slot * get_num_groups(0) + g)];
    if (get_local_id(0) == 0)
        stamp[0] = queued_clock();
    task_sink[SINK_SLOT(g)] = unit_work(g, task_iters);
    coop_group_sync();
    if (get_local_id(0) == 0)
        stamp[1] = queued_clock();
}
