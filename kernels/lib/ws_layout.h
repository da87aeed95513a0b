/* ws_layout.h: the words of ws_deque.h's queue buffer, for the kernel (OpenCL C; ws_deque.h
 * includes it) and the host (C) alike, so that a host sizes and seeds the buffer with the
 * kernel's own formulas: only constants and macros. A host seeds n tasks (n <= shared_capacity)
 * into a zero-filled buffer of WS_QUEUE_WORDS(groups, capacity, shared_capacity) words so:
 *
 *   words[WS_OUTSTANDING] = n;
 *   words[WS_DEQUE_BASE(capacity, groups) + WS_SLOTS + i] = task i;   (i from 0 to n - 1)
 *   words[WS_DEQUE_BASE(capacity, groups) + WS_TAIL] = n;
 *
 * `groups` is the most groups the kernel can have (coop_launch_groups on the host). The macros
 * compute in their arguments' type, at least unsigned int: pass a size_t on the host for a
 * size_t result. The installed copy is <coop/kernels/ws_layout.h>. */
#ifndef KERNELS_LIB_WS_LAYOUT_H
#define KERNELS_LIB_WS_LAYOUT_H

/* Header words. */
#define WS_OUTSTANDING 0u   /* tasks pushed (or seeded) and not yet done */
#define WS_OVERFLOWED 1u    /* non-zero: a push found its deque and the shared one full */
#define WS_STEALS 2u        /* tasks taken from another group's deque (statistics) */
#define WS_SPILLS 3u        /* pushes that found their deque full and went to the shared one (statistics) */
#define WS_HEADER_WORDS 8u

/* A deque's words: lock, head (next to steal), tail (next free slot at the bottom), then slots.
 * head and tail count up without wrapping back; tail - head tasks are queued. */
#define WS_LOCK 0u
#define WS_HEAD 1u
#define WS_TAIL 2u
#define WS_SLOTS 4u

/* Where deque `deque` starts: deques 0 .. groups - 1 belong to the groups, `capacity` slots each;
 * deque `groups` is the shared one, and comes last. */
#define WS_DEQUE_BASE(capacity, deque) (WS_HEADER_WORDS + (deque) * (WS_SLOTS + (capacity)))

/* Words in a queue buffer: the header, a deque per group, the shared deque of `shared_capacity`
 * slots. The kernel uses every one of them, and no word beyond. */
#define WS_QUEUE_WORDS(groups, capacity, shared_capacity) \
    (WS_DEQUE_BASE(capacity, groups) + WS_SLOTS + (shared_capacity))

#endif
