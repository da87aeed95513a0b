/* ws_matmult.cl: coop-ws's light task in the hand-written megakernels of octree.cl and game.cl
 * (their task 0), built after matmult.h: the product of order coop_task_arg(ctx, 0). */
void task_matmult(coop_ctx *ctx, global const uint *a, global const uint *b, global uint *c)
{
    matmult_rows(coop_group_id(ctx), coop_num_groups(ctx), a, b, c, coop_task_arg(ctx, 0));
}
