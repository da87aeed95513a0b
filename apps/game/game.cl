/* game.cl: connect-four game-tree search by work stealing (kernels/lib/ws_deque.h): the
 * negamax value of a position searched to a fixed depth, a cooperative kernel in the paper's
 * language offering kill and fork at task boundaries. coop-merge makes its megakernel
 * (game_mega, with a high-priority task beside it) and its standalone form (game_standalone):
 * kernels/generated/merges.txt.
 *
 * Boards are bitboards: bit 7 * column + row (rows 0..5 from the bottom, row 6 a sentinel),
 * `mask` the stones on the board, `cur` those of the player to move. A task is the index of a
 * node (GAME_NODE_WORDS words). Expanding a node that is neither final nor at depth 0 writes one
 * child per playable column, sets the node's count of pending children and pushes them. A node
 * whose value is known (a final position, or depth 0: the evaluation below) completes: its
 * negated value goes into the parent's best with an atomic maximum, and the child that brings
 * the parent's pending count to zero completes the parent in turn, up to the root (node 0,
 * seeded by the host with parent GAME_NO_PARENT). game_ref.c holds the same rules for coop-ws's
 * CPU search. */
#include "ws_deque.h"

#define GAME_NODE_WORDS 8u
#define GAME_PARENT 0u
#define GAME_BEST 1u      /* the value so far, biased by GAME_BIAS so that unsigned order is signed order */
#define GAME_PENDING 2u
#define GAME_DEPTH 3u
#define GAME_MASK 4u      /* two words, low first */
#define GAME_CUR 6u
#define GAME_NO_PARENT 0xffffffffu
#define GAME_BIAS 0x80000000u
#define GAME_WIN 1000
#define GAME_STONES 42

inline ulong game_load(global const uint *n, uint at)
{
    return (ulong)n[at] | ((ulong)n[at + 1u] << 32);
}

inline void game_store(global uint *n, uint at, ulong bits)
{
    n[at] = (uint)bits;
    n[at + 1u] = (uint)(bits >> 32);
}

/* Four in a row among `stones`. */
inline int game_aligned(ulong stones)
{
    const uint shifts[4] = {1u, 6u, 7u, 8u};
    for (uint s = 0; s < 4u; s++) {
        ulong pairs = stones & (stones >> shifts[s]);
        if (pairs & (pairs >> (2u * shifts[s])))
            return 1;
    }
    return 0;
}

/* Centre columns count more: the evaluation, for the player to move, of a position at depth 0. */
inline int game_evaluate(ulong mask, ulong cur)
{
    const int weight[7] = {1, 2, 3, 4, 3, 2, 1};
    int score = 0;
    for (uint c = 0; c < 7u; c++) {
        ulong column = 0x3fUL << (7u * c);
        score += weight[c] * ((int)popcount(cur & column) - (int)popcount((cur ^ mask) & column));
    }
    return score;
}

/* Atomic maximum of a biased value. */
inline void game_max(global uint *word, uint value)
{
    uint seen = coop_load_relaxed(word);
    while (seen < value) {
        uint was = coop_cas(word, seen, value);
        if (was == seen)
            break;
        seen = was;
    }
}

/* Node `node` has value `value`: passes it up while it completes parents. */
inline void game_complete(global uint *nodes, uint node, int value)
{
    global uint *n = nodes + node * GAME_NODE_WORDS;
    coop_store_relaxed(&n[GAME_BEST], (uint)value + GAME_BIAS);
    for (uint parent = n[GAME_PARENT]; parent != GAME_NO_PARENT; parent = n[GAME_PARENT]) {
        n = nodes + parent * GAME_NODE_WORDS;
        game_max(&n[GAME_BEST], (uint)(-value) + GAME_BIAS);
        if (coop_fetch_add(&n[GAME_PENDING], 0u - 1u) != 1u)
            break;
        value = (int)(coop_load_acquire(&n[GAME_BEST]) - GAME_BIAS);
    }
}

/* Local id 0: expands or completes node `node`, then marks the task done. */
void game_process(ws_queue *q, uint id, uint node, global uint *nodes, global uint *node_count)
{
    global uint *n = nodes + node * GAME_NODE_WORDS;
    ulong mask = game_load(n, GAME_MASK), cur = game_load(n, GAME_CUR);
    uint depth = n[GAME_DEPTH];
    uint moves = 0;
    for (uint c = 0; c < 7u; c++)
        moves += !(mask & (1UL << (7u * c + 5u)));
    if (game_aligned(cur ^ mask)) {
        game_complete(nodes, node, -(GAME_WIN + (int)depth));
    } else if (popcount(mask) == GAME_STONES || !moves) {
        game_complete(nodes, node, 0);
    } else if (depth == 0) {
        game_complete(nodes, node, game_evaluate(mask, cur));
    } else {
        uint child = coop_fetch_add(node_count, moves);
        coop_store_relaxed(&n[GAME_BEST], 0u);
        coop_store_relaxed(&n[GAME_PENDING], moves);
        for (uint c = 0, k = 0; c < 7u; c++) {
            if (mask & (1UL << (7u * c + 5u)))
                continue;
            global uint *m = nodes + (child + k) * GAME_NODE_WORDS;
            m[GAME_PARENT] = node;
            m[GAME_BEST] = 0;
            m[GAME_PENDING] = 0;
            m[GAME_DEPTH] = depth - 1u;
            game_store(m, GAME_CUR, cur ^ mask);
            game_store(m, GAME_MASK, mask | (mask + (1UL << (7u * c))));
            k++;
        }
        for (uint k = 0; k < moves; k++)
            ws_push(q, id, child + k);
    }
    ws_task_done(q);
}

/* Groups take tasks until none is outstanding, and offer kill and fork between tasks. A forked
 * group starts with the queue of the group that forked it (ws_queue: where to steal next). */
kernel void game(global uint *nodes, global uint *node_count, global uint *queue_words, uint queue_groups,
                 uint queue_capacity, uint queue_shared)
{
    local uint slots[WS_SLOT_WORDS];
    transmit ws_queue q = ws_queue_make(queue_words, queue_groups, queue_capacity, queue_shared);
    transmit uint done = 0;
    while (!done) {
        uint task;
        uint got = ws_next_task(&q, slots, &task);
        done = got == WS_DONE;
        if (got == WS_GOT && get_local_id(0) == 0)
            game_process(&q, get_group_id(0), task, nodes, node_count);
        offer_kill();
        offer_fork();
    }
}
