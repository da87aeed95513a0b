/* work.h: sched-bench's unit of work, shared by its cooperative kernels (units.cl, rounds.cl)
 * and its task (task.cl). A unit is a dependent chain of `iters` multiply-adds per work-item (on
 * an H100 at 6 groups per SM, 2000 take about 8.5 us). Results go to a small wrapped sink: they
 * only keep the work alive. */
#define SINK_SLOT(unit) (((unit) & 4095u) * get_local_size(0) + get_local_id(0))

inline uint unit_work(uint unit, uint iters)
{
    uint x = unit * 2654435761u + (uint)get_local_id(0);
    for (uint i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}
