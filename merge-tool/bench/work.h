/* work.h: the unit of work of benchmarks/sched/sched.cl, shared by the cooperative kernel and the
 * task that merge-bench merges. */
#ifndef MERGE_BENCH_WORK_H
#define MERGE_BENCH_WORK_H

#define SINK_SLOT(unit) (((unit) & 4095u) * get_local_size(0) + get_local_id(0))

/* A dependent chain of integer multiply-adds. */
inline uint unit_work(uint unit, uint iters)
{
    uint x = unit * 2654435761u + (uint)get_local_id(0);
    for (uint i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

#endif
