/* ws_deque.h: work-stealing deques and a task queue for cooperative kernels written in the
 * paper's language (#include it; coop-merge pastes it into the merged program, and threads the
 * context through the functions that read ids). apps/octree/octree.cl and apps/game/game.cl use
 * it.
 *
 * A task is one 32-bit word that the application gives its meaning (octree.cl and game.cl: the
 * index of a node in their own node array). Every group g (get_group_id(0)) owns deque g: it
 * pushes and pops at the bottom, thieves take from the top (the split of Cederman and Tsigas);
 * one more deque, WS_SHARED(q), is shared by all: the host seeds it with the first tasks, and a
 * push that finds its deque full spills there. Each deque is a ring under a spin lock
 * (coop_cas): correctness first; the lock is held for a few words only and never while waiting
 * for anything else.
 *
 * Groups come and go (offer_kill, offer_fork), so a thief looks in every deque there can be, not
 * only in those of the groups there are now: a group killed with tasks in its deque leaves them
 * there, and they are stolen (or popped by the group forked later with its id). A killed group
 * holds no task and no lock when it leaves at an offer between tasks.
 *
 * Termination: a count of outstanding tasks. ws_push counts a task before it is visible;
 * ws_task_done uncounts it once the task, and every push it made, is complete. The count
 * reaches zero only when no task is queued or running, and then never rises again.
 *
 * Rules: every ws_* function is called by local id 0 only (PoCL runs the work-items of a group
 * one after another, so only one work-item may wait for another group); ws_next_task is the
 * exception, called by every work-item, and hands the task to the whole group. Writes the group
 * made for a task (its children's data) must be ordered before the push that publishes them:
 * coop_group_sync() before local id 0 pushes does that (the push releases, the taker acquires).
 *
 * Memory: one buffer of WS_QUEUE_WORDS(groups, capacity, shared_capacity) words, zero-filled by
 * the host, then seeded with n tasks in the shared deque: ws_layout.h (which a host includes too,
 * as <coop/kernels/ws_layout.h>) has the words and the formulas. `groups` is the most groups the
 * kernel can have (coop_launch_groups on the host); `capacity` the slots of a group's deque (a
 * push beyond it spills to the shared deque: any capacity is correct, a small one spills more);
 * `shared_capacity` the slots of the shared deque, which must hold every task that can be
 * outstanding at once (beyond that a push sets words[WS_OVERFLOWED] and drops the task,
 * uncounted, so that the run ends and the host can say so).
 *
 * A cooperative work-stealing kernel looks like this (its standalone form, coop-merge
 * --standalone, is the same loop without the offers):
 *
 *   kernel void steal(global uint *queue_words, uint groups, uint capacity, uint shared_capacity)
 *   {
 *       local uint slots[WS_SLOT_WORDS];              // ws_next_task's hand-over
 *       transmit ws_queue q = ws_queue_make(queue_words, groups, capacity, shared_capacity);
 *       transmit uint done = 0;
 *       while (!done) {
 *           uint task;
 *           uint got = ws_next_task(&q, slots, &task); // all work-items; WS_GOT / WS_EMPTY / WS_DONE
 *           done = got == WS_DONE;
 *           if (got == WS_GOT && get_local_id(0) == 0) {
 *               ... ws_push(&q, get_group_id(0), child) for each child ...
 *               ws_task_done(&q);
 *           }
 *           offer_kill();                             // a task boundary: the group holds no task
 *           offer_fork();                             // new groups start with their own deques
 *       }
 *   }
 */
#include "ws_layout.h"

/* ws_next_task's answers. */
#define WS_GOT 1u
#define WS_EMPTY 2u   /* nothing found this time, but tasks are outstanding: try again */
#define WS_DONE 3u    /* no task is outstanding: the work is finished */

/* Local words a group gives ws_next_task to hand the task over (two turns of two words). */
#define WS_SLOT_WORDS 4u

typedef struct ws_queue {
    global uint *words;
    uint groups;      /* deques 0 .. groups - 1 belong to the groups, deque `groups` is shared */
    uint capacity;    /* slots of a group's deque */
    uint shared_capacity; /* slots of the shared deque */
    uint victim;      /* where this group's next steal attempt starts */
    uint turn;        /* which half of the slots ws_next_task hands over through next */
} ws_queue;

/* Where deque `deque` starts (deque `groups` is the shared one). */
inline uint ws_deque_base(uint groups, uint capacity, uint deque)
{
    return WS_DEQUE_BASE(capacity, min(deque, groups));
}

#define WS_SHARED(q) ((q)->groups)

inline ws_queue ws_queue_make(global uint *words, uint groups, uint capacity, uint shared_capacity)
{
    ws_queue q = {words, groups, capacity, shared_capacity, 0u, 0u};
    return q;
}

inline uint ws_capacity(const ws_queue *q, uint deque)
{
    return deque == WS_SHARED(q) ? q->shared_capacity : q->capacity;
}

inline global uint *ws_deque(const ws_queue *q, uint deque)
{
    return q->words + ws_deque_base(q->groups, q->capacity, deque);
}

inline void ws_lock(global uint *d)
{
    while (coop_cas(&d[WS_LOCK], 0u, 1u) != 0u)
        ;
}

inline void ws_unlock(global uint *d)
{
    coop_store_release(&d[WS_LOCK], 0u);
}

/* Appends `task` at the bottom of deque `deque`; 0 if it is full. The caller counted the task. */
inline int ws_insert(const ws_queue *q, uint deque, uint task)
{
    global uint *d = ws_deque(q, deque);
    ws_lock(d);
    uint head = coop_load_relaxed(&d[WS_HEAD]), tail = coop_load_relaxed(&d[WS_TAIL]);
    uint capacity = ws_capacity(q, deque);
    int room = tail - head < capacity;
    if (room) {
        coop_store_relaxed(&d[WS_SLOTS + tail % capacity], task);
        coop_store_relaxed(&d[WS_TAIL], tail + 1u);
    }
    ws_unlock(d);
    return room;
}

/* Counts a new task and pushes it at the bottom of the group's deque `id` (spilling to the
 * shared deque when full). */
inline void ws_push(const ws_queue *q, uint id, uint task)
{
    coop_fetch_add(&q->words[WS_OUTSTANDING], 1u);
    if (ws_insert(q, id, task))
        return;
    coop_fetch_add_relaxed(&q->words[WS_SPILLS], 1u);
    if (ws_insert(q, WS_SHARED(q), task))
        return;
    coop_store_relaxed(&q->words[WS_OVERFLOWED], 1u);
    coop_fetch_add(&q->words[WS_OUTSTANDING], 0u - 1u);
}

/* Takes the newest task of deque `deque` (its owner's end); 0 if it is empty. */
inline int ws_pop(const ws_queue *q, uint deque, uint *task)
{
    global uint *d = ws_deque(q, deque);
    if (coop_load_relaxed(&d[WS_TAIL]) == coop_load_relaxed(&d[WS_HEAD]))
        return 0;
    ws_lock(d);
    uint head = coop_load_relaxed(&d[WS_HEAD]), tail = coop_load_relaxed(&d[WS_TAIL]);
    int got = tail != head;
    if (got) {
        tail--;
        *task = coop_load_relaxed(&d[WS_SLOTS + tail % ws_capacity(q, deque)]);
        coop_store_relaxed(&d[WS_TAIL], tail);
    }
    ws_unlock(d);
    return got;
}

/* Takes the oldest task of deque `deque` (the thieves' end); 0 if it is empty. */
inline int ws_steal(const ws_queue *q, uint deque, uint *task)
{
    global uint *d = ws_deque(q, deque);
    if (coop_load_relaxed(&d[WS_TAIL]) == coop_load_relaxed(&d[WS_HEAD]))
        return 0;
    ws_lock(d);
    uint head = coop_load_relaxed(&d[WS_HEAD]), tail = coop_load_relaxed(&d[WS_TAIL]);
    int got = tail != head;
    if (got) {
        *task = coop_load_relaxed(&d[WS_SLOTS + head % ws_capacity(q, deque)]);
        coop_store_relaxed(&d[WS_HEAD], head + 1u);
    }
    ws_unlock(d);
    return got;
}

/* Group `id` looks for a task: its own deque, then the shared one, then one pass over every
 * other group's deque from a rotating victim (also those of groups killed since: see above). */
inline uint ws_acquire(ws_queue *q, uint id, uint *task)
{
    if (ws_pop(q, id, task) || ws_steal(q, WS_SHARED(q), task))
        return WS_GOT;
    for (uint i = 0; i < q->groups; i++) {
        uint victim = (q->victim + i) % q->groups;
        if (victim != id && ws_steal(q, victim, task)) {
            q->victim = victim;
            coop_fetch_add_relaxed(&q->words[WS_STEALS], 1u);
            return WS_GOT;
        }
    }
    q->victim++;
    return coop_load_acquire(&q->words[WS_OUTSTANDING]) ? WS_EMPTY : WS_DONE;
}

/* The current task (and every push it made) is complete. */
inline void ws_task_done(const ws_queue *q)
{
    coop_fetch_add(&q->words[WS_OUTSTANDING], 0u - 1u);
}

/* Every work-item: the group's next task. Local id 0 looks (ws_acquire) and hands the answer and
 * the task to every work-item through `slots` (WS_SLOT_WORDS local words, used by nothing else),
 * which takes one workgroup barrier (coop_group_sync: it orders global memory too, so that every
 * work-item sees the task's data that local id 0 acquired with it): the halves alternate, so
 * that local id 0 never overwrites a half that another work-item may still read. Returns WS_GOT,
 * WS_EMPTY or WS_DONE. */
inline uint ws_next_task(ws_queue *q, local uint *slots, uint *task)
{
    local uint *slot = slots + 2u * q->turn;
    q->turn ^= 1u;
    if (get_local_id(0) == 0) {
        uint found = 0;
        slot[0] = ws_acquire(q, get_group_id(0), &found);
        slot[1] = found;
    }
    coop_group_sync();
    *task = slot[1];
    return slot[0];
}
