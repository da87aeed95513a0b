/* matmult.cl: coop-bench's matmult task, a task kernel for coop-merge (--task): c = a x b
 * (matmult.h) for get_task_arg(0) x get_task_arg(0) matrices; task workgroup g of W computes
 * rows g, g + W, ... */
#include "matmult.h"

kernel void matmult(global const uint *a, global const uint *b, global uint *c)
{
    matmult_rows(get_group_id(0), get_num_groups(0), a, b, c, get_task_arg(0));
}
