/* sched-bench's unit loop, work-stealing style: groups take units from a shared counter until
 * there are none, and offer kill and fork after every unit. Its standalone form (coop-merge
 * --standalone: the same loop without the offers) is the plain baseline. Each unit counts itself
 * in `done`, which the host checks is 1 for every unit: a unit lost to a kill, or run twice,
 * shows. */
#include "work.h"

/* The next unit for the whole group: local id 0 takes it and hands it over through `slot`. */
uint claim_unit(global uint *next, local uint *slot)
{
    if (get_local_id(0) == 0)
        *slot = coop_fetch_add(next, 1u);
    coop_group_sync();
    return *slot;
}

kernel void sched_units(global uint *next, uint units, uint iters, global uint *sink, global uint *done)
{
    /* claim_unit's hand-over, the two in turn: one is read while the next is written */
    local uint claimed[2];
    transmit uint turn = 0;
    while (1) {
        uint unit = claim_unit(next, &claimed[turn++ & 1u]);
        if (unit >= units)
            break;
        sink[SINK_SLOT(unit)] = unit_work(unit, iters);
        if (get_local_id(0) == 0)
            coop_fetch_add(&done[unit], 1u);
        offer_kill();
        offer_fork();
    }
}
