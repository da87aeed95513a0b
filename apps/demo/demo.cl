/* demo.cl: coop-demo's cooperative kernel: BFS (apps/bfs/bfs.h) from one source after another,
 * in the paper's language. coop-merge makes the demo's megakernel of it, beside the render task
 * and the stop task (demo_stop.cl), and its persistent baseline (--standalone)
 * (kernels/generated/merges.txt).
 *
 * Search s starts from sources[s] with the state bfs.h expects (level[] unreached but the
 * source, wl0 = {source}, counts = {1, 0, 0}). Each step between two global barriers is one of:
 *   a BFS round (bfs_round) while the worklist is not empty;
 *   the fingerprint: when the worklist is empty, every group folds its share of level[] into
 *     prints[2s], prints[2s + 1] and resets it to unreached, and group 0 records the rounds;
 *   the setup: group 0 sets up search s + 1, or leaves counts[0] at 0 when there is none (the
 *     stop flag is set or max_searches are done), which every group reads after the barrier.
 * The setup writes counts and level[] one barrier after everyone has read them, so no group can
 * see the next search's state while it still works on the previous one.
 * A step is one code path whose loops have zero trips when they are not its kind (bfs_round with
 * an empty worklist only clears a count, which the setup then rewrites): branching on the kind
 * right after the barrier makes PoCL 5 abort while forming parallel regions (an ordinary branch
 * after a barrier that reconverges before the next one, pocl/pocl pull request 2281). */
#include "bfs/bfs.h"
#include "demo.h"
#include "hash.h"

#define DEMO_ROUNDS 0u
#define DEMO_SETUP 1u

/* Where the searches are: the search, its round and the step to take next. */
typedef struct demo_state {
    uint search, round, phase;
} demo_state;

/* Fingerprint terms of node v at `level` (kernels/lib/hash.h's bijection, so each term changes
 * whenever a level does). */
inline uint demo_print_a(uint v, uint level)
{
    return hash_fmix32(hash_fmix32(v) ^ level);
}

inline uint demo_print_b(uint v, uint level)
{
    return hash_fmix32(hash_fmix32(v ^ 0x9e3779b9u) ^ level ^ 0x6a09e667u);
}

/* One step of the searches by group `group` of `groups`: a round, the fingerprint or the setup. */
inline void demo_step(uint group, uint groups, demo_state *t, global const uint *row, global const uint *col,
                      global uint *level, uint nodes, global uint *wl0, global uint *wl1, global uint *counts,
                      global const uint *sources, global uint *rounds, global uint *prints,
                      global uint *progress, uint max_searches, local uint *scratch, uint max_degree)
{
    uint lid = get_local_id(0), local_size = get_local_size(0);
    uint setup = t->phase == DEMO_SETUP;
    uint in_count = setup ? 0u : counts[t->round % 3u];
    uint finishing = (1u - setup) & (in_count == 0u);
    bfs_round(group, groups, t->round, in_count, row, col, level, wl0, wl1, counts, scratch, max_degree);
    uint a = 0, b = 0, end = finishing * nodes;
    for (uint v = group * local_size + lid; v < end; v += groups * local_size) {
        a += demo_print_a(v, level[v]);
        b += demo_print_b(v, level[v]);
        level[v] = BFS_UNREACHED;
    }
    if (finishing) {
        coop_fetch_add_relaxed(&prints[2u * t->search], a);
        coop_fetch_add_relaxed(&prints[2u * t->search + 1u], b);
    }
    if (group == 0 && lid == 0) {
        if (finishing)
            rounds[t->search] = t->round;
        if (setup) {
            uint next = t->search + 1u;
            uint more = next < max_searches && !coop_load_relaxed(&progress[DEMO_PROGRESS_STOP]);
            if (more) {
                level[sources[next]] = 0;
                wl0[0] = sources[next];
            }
            counts[0] = more;
            counts[1] = 0;
            counts[2] = 0;
            progress[DEMO_PROGRESS_SEARCHES] = next;
        }
    }
    t->search += setup;
    t->round = setup ? 0u : t->round + (in_count != 0u);
    t->phase = finishing ? DEMO_SETUP : DEMO_ROUNDS;
}

/* The steps, with a resizing barrier after each, where groups may be taken (for a frame) or given
 * back, until the setup starts no search. */
kernel void demo(global const uint *row, global const uint *col, global uint *level, uint nodes, global uint *wl0,
                 global uint *wl1, global uint *counts, global const uint *sources, global uint *rounds,
                 global uint *prints, global uint *progress, uint max_searches, uint max_degree)
{
    local uint scratch[EXPAND_WORDS];
    transmit demo_state t = {0, 0, DEMO_ROUNDS};
    while (t.phase != DEMO_ROUNDS || t.round != 0 || counts[0] != 0) {
        demo_step(get_group_id(0), shared_num_groups(), &t, row, col, level, nodes, wl0, wl1, counts, sources, rounds,
                  prints, progress, max_searches, scratch, max_degree);
        resizing_global_barrier();
    }
}
