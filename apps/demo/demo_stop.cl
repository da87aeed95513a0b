/* demo_stop.cl: coop-demo's stop task: no search of demo.cl starts after it. */
#include "demo.h"

kernel void demo_stop(global uint *progress)
{
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        coop_store_relaxed(&progress[DEMO_PROGRESS_STOP], 1u);   /* read by demo.cl's setup */
}
