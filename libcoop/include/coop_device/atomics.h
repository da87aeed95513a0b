/* coop_device/atomics.h: the memory primitives: 32-bit and 64-bit words in global memory at
 * device scope, host-visible words, fences and pauses, per target.
 * Invariants: docs/DESIGN.md section 3: every acquire pairs with a release named where it is
 * used; PoCL gets OpenCL C 2.0 atomics, NVIDIA inline PTX. Part of the kernel header
 * (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_ATOMICS_H
#define COOP_DEVICE_ATOMICS_H

#include "target.h"

/* load/store relaxed: coherent, no ordering (what litmus tests use for "no fence").
 * load_acquire / store_release / fetch_add / fetch_or / cas: acquire-release at device scope
 * (cas64, exchange64: the same on a 64-bit word).
 * fetch_add_release: release only (an arrival that needs no acquire); fetch_add_relaxed,
 * fetch_or_relaxed, fetch_and_relaxed: updates whose result is not needed (on NVIDIA
 * fire-and-forget reductions).
 * fence: an acquire-release fence at device scope; fence_sc: a sequentially consistent one (what
 * store-buffering needs: acquire/release alone allows both loads to miss both stores).
 * host_load / host_store: acquire / release, visible to the host while the kernel runs;
 * host_load_relaxed / host_store_relaxed: the same without ordering. */

#if defined(COOP_TARGET_NVIDIA) && !defined(COOP_NV_USE_CL20)
/* NVIDIA: OpenCL 1.2 fences were measured too weak for inter-group visibility on the H100,
 * and its OpenCL 2.0 atomics report relaxed-only capabilities, so the orderings are written
 * in PTX (sm_70+ memory model). */
inline uint coop_load_relaxed(global uint *p)
{
    uint v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
inline uint coop_load_acquire(global uint *p)
{
    uint v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
inline void coop_store_relaxed(global uint *p, uint v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline void coop_store_release(global uint *p, uint v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline uint coop_fetch_add(global uint *p, uint v)
{
    uint old;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
inline uint coop_fetch_add_release(global uint *p, uint v)
{
    uint old;
    asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
inline void coop_fetch_add_relaxed(global uint *p, uint v)
{
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline void coop_fetch_or_relaxed(global uint *p, uint v)
{
    asm volatile("red.relaxed.gpu.global.or.b32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline void coop_fetch_and_relaxed(global uint *p, uint v)
{
    asm volatile("red.relaxed.gpu.global.and.b32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline ulong coop_fetch_add64_release(global ulong *p, ulong v)
{
    ulong old;
    asm volatile("atom.release.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}
inline ulong coop_load_relaxed64(global ulong *p)
{
    ulong v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
inline void coop_store_relaxed64(global ulong *p, ulong v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}
inline uint coop_fetch_or(global uint *p, uint v)
{
    uint old;
    asm volatile("atom.acq_rel.gpu.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
inline uint coop_cas(global uint *p, uint expected, uint desired)
{
    uint old;
    asm volatile("atom.acq_rel.gpu.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
    return old;
}
inline ulong coop_cas64(global ulong *p, ulong expected, ulong desired)
{
    ulong old;
    asm volatile("atom.acq_rel.gpu.global.cas.b64 %0, [%1], %2, %3;"
                 : "=l"(old) : "l"(p), "l"(expected), "l"(desired) : "memory");
    return old;
}
inline ulong coop_exchange64(global ulong *p, ulong v)
{
    ulong old;
    asm volatile("atom.acq_rel.gpu.global.exch.b64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}
inline void coop_fence(void)
{
    asm volatile("fence.acq_rel.gpu;" : : : "memory");
}
inline void coop_fence_sc(void)
{
    asm volatile("fence.sc.gpu;" : : : "memory");
}
inline uint coop_host_load(global uint *p)
{
    uint v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
inline void coop_host_store(global uint *p, uint v)
{
    asm volatile("st.release.sys.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline void coop_host_store_relaxed(global uint *p, uint v)
{
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
inline uint coop_host_load_relaxed(global uint *p)
{
    uint v;
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
/* The GPU's own clock in nanoseconds. */
inline ulong coop_clock_ns(void)
{
    ulong t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#define COOP_HAS_CLOCK 1
/* A short pause in a polling loop that is not latency-critical (parked members, groups waiting
 * for a task or for work), to keep hundreds of polling warps from flooding the cache lines that
 * other groups' atomics need. A build may set its nanoseconds (H200: sched-bench's gather medians
 * the same at 20, 200 and 800). */
#ifndef COOP_PAUSE_NS
#define COOP_PAUSE_NS 200
#endif
#define COOP_PAUSE_ASM_(ns) "nanosleep.u32 " #ns ";"
#define COOP_PAUSE_ASM(ns) COOP_PAUSE_ASM_(ns)
inline void coop_pause(void)
{
    asm volatile(COOP_PAUSE_ASM(COOP_PAUSE_NS));
}

#else
/* OpenCL C 2.0 atomics. PoCL accepts them only under -cl-std=CL3.0 and only up to device scope;
 * on a CPU, device scope is also what the host sees. */
#define COOP_ATOMIC(p) ((volatile global atomic_uint *)(p))
#define COOP_RMW(op, p, v) atomic_##op##_explicit(COOP_ATOMIC(p), (v), memory_order_acq_rel, memory_scope_device)
inline uint coop_load_relaxed(global uint *p)
{
    return atomic_load_explicit(COOP_ATOMIC(p), memory_order_relaxed, memory_scope_device);
}
inline uint coop_load_acquire(global uint *p)
{
    return atomic_load_explicit(COOP_ATOMIC(p), memory_order_acquire, memory_scope_device);
}
inline void coop_store_relaxed(global uint *p, uint v)
{
    atomic_store_explicit(COOP_ATOMIC(p), v, memory_order_relaxed, memory_scope_device);
}
inline void coop_store_release(global uint *p, uint v)
{
    atomic_store_explicit(COOP_ATOMIC(p), v, memory_order_release, memory_scope_device);
}
inline uint coop_fetch_add(global uint *p, uint v) { return COOP_RMW(fetch_add, p, v); }
inline uint coop_fetch_add_release(global uint *p, uint v)
{
    return atomic_fetch_add_explicit(COOP_ATOMIC(p), v, memory_order_release, memory_scope_device);
}
inline void coop_fetch_add_relaxed(global uint *p, uint v)
{
    atomic_fetch_add_explicit(COOP_ATOMIC(p), v, memory_order_relaxed, memory_scope_device);
}
inline void coop_fetch_or_relaxed(global uint *p, uint v)
{
    atomic_fetch_or_explicit(COOP_ATOMIC(p), v, memory_order_relaxed, memory_scope_device);
}
inline void coop_fetch_and_relaxed(global uint *p, uint v)
{
    atomic_fetch_and_explicit(COOP_ATOMIC(p), v, memory_order_relaxed, memory_scope_device);
}
inline ulong coop_fetch_add64_release(global ulong *p, ulong v)
{
    return atomic_fetch_add_explicit((volatile global atomic_ulong *)p, v, memory_order_release,
                                     memory_scope_device);
}
inline ulong coop_load_relaxed64(global ulong *p)
{
    return atomic_load_explicit((volatile global atomic_ulong *)p, memory_order_relaxed, memory_scope_device);
}
inline void coop_store_relaxed64(global ulong *p, ulong v)
{
    atomic_store_explicit((volatile global atomic_ulong *)p, v, memory_order_relaxed, memory_scope_device);
}
inline uint coop_fetch_or(global uint *p, uint v) { return COOP_RMW(fetch_or, p, v); }
inline uint coop_cas(global uint *p, uint expected, uint desired)
{
    atomic_compare_exchange_strong_explicit(COOP_ATOMIC(p), &expected, desired, memory_order_acq_rel,
                                            memory_order_acquire, memory_scope_device);
    return expected;
}
inline ulong coop_cas64(global ulong *p, ulong expected, ulong desired)
{
    atomic_compare_exchange_strong_explicit((volatile global atomic_ulong *)p, &expected, desired,
                                            memory_order_acq_rel, memory_order_acquire, memory_scope_device);
    return expected;
}
inline ulong coop_exchange64(global ulong *p, ulong v)
{
    return atomic_exchange_explicit((volatile global atomic_ulong *)p, v, memory_order_acq_rel, memory_scope_device);
}
inline void coop_fence(void)
{
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
}
inline void coop_fence_sc(void)
{
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
}
inline uint coop_host_load(global uint *p) { return coop_load_acquire(p); }
inline void coop_host_store(global uint *p, uint v) { coop_store_release(p, v); }
inline void coop_host_store_relaxed(global uint *p, uint v) { coop_store_relaxed(p, v); }
inline uint coop_host_load_relaxed(global uint *p) { return coop_load_relaxed(p); }
#define COOP_HAS_CLOCK 0
inline void coop_pause(void) {}
#endif

#if defined(COOP_TARGET_NVIDIA)
/* The lowest of a warp's `active` lanes adds `total` (unless 0) to the counter, and every one of
 * them gets the counter's value before the add; `below` is the caller's %lanemask_lt. */
inline uint coop_warp_fetch_add(volatile global uint *counter, uint total, uint active, uint below)
{
    uint leader = 31u - clz(active & (0u - active)), base = 0;
    if ((active & below) == 0u && total)
        base = atomic_add(counter, total);
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, %3;" : "=r"(base) : "r"(base), "r"(leader), "r"(active));
    return base;
}
#endif

/* Relaxed atomic increment of a shared counter that returns a distinct previous value to every
 * caller, like atomic_inc (a worklist's push index, a count of events). On NVIDIA the threads of
 * a warp that call it together share one atomic: the lowest adds their number and hands out
 * consecutive values. NVIDIA's compiler does that by itself in small kernels but not always in
 * a megakernel, where a per-thread atomic on one word halved SSSP's speed on the H100. */
inline uint coop_atomic_inc(volatile global uint *counter)
{
#if defined(COOP_TARGET_NVIDIA)
    uint active, below;
    asm volatile("activemask.b32 %0;" : "=r"(active));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
    return coop_warp_fetch_add(counter, popcount(active), active, below) + popcount(active & below);
#else
    return atomic_inc(counter);
#endif
}

/* Relaxed atomic add of `count` to a shared counter that returns, to every caller, the first of
 * `count` values no other caller gets (the first of a worklist's `count` push slots; 0 items may
 * be asked for, and the result is then meaningless). It lets a work-item that claimed several
 * items push them with one atomic after claiming them all, instead of one increment after each
 * claim: on NVIDIA the threads of a warp that call it together share one atomic, each bit of the
 * counts one ballot. */
inline uint coop_atomic_add_index(volatile global uint *counter, uint count)
{
#if defined(COOP_TARGET_NVIDIA)
    uint active, below, bits = count;
    asm volatile("activemask.b32 %0;" : "=r"(active));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
#if COOP_NV_SM >= 80
    asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(bits) : "r"(count), "r"(active));
#else
    for (uint left = active; left; left &= left - 1u) {
        uint from = 31u - clz(left & (0u - left)), got;
        asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, %3;" : "=r"(got) : "r"(count), "r"(from), "r"(active));
        bits |= got;
    }
#endif
    uint before = 0, total = 0;
    for (uint bit = 0; bit < 32u && bits >> bit; bit++) {
        uint set;
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
                     : "=r"(set)
                     : "r"((count >> bit) & 1u), "r"(active));
        before += popcount(set & below) << bit;
        total += popcount(set) << bit;
    }
    return coop_warp_fetch_add(counter, total, active, below) + before;
#else
    return count ? atomic_add(counter, count) : 0u;
#endif
}

/* Adds every caller's `value` to a shared counter (no result: a count, not an index). On NVIDIA
 * the threads of a warp that call it together add their sum with one atomic, as coop_atomic_inc. */
inline void coop_atomic_add_sum(volatile global uint *counter, uint value)
{
#if defined(COOP_TARGET_NVIDIA)
    uint active, lane;
    asm volatile("activemask.b32 %0;" : "=r"(active));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    uint sum = 0;
#if COOP_NV_SM >= 80
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(sum) : "r"(value), "r"(active));
#else
    if (active == 0xffffffffu) {
        /* a full warp: a butterfly, five exchanges */
        sum = value;
        for (uint step = 16; step; step >>= 1) {
            uint got;
            asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 31, -1;" : "=r"(got) : "r"(sum), "r"(step));
            sum += got;
        }
    } else {
        for (uint left = active; left; left &= left - 1u) {
            uint from = 31u - clz(left & (0u - left)), got;
            asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, %3;" : "=r"(got) : "r"(value), "r"(from), "r"(active));
            sum += got;
        }
    }
#endif
    if (lane == 31u - clz(active & (0u - active)) && sum)
        atomic_add(counter, sum);
#else
    if (value)
        atomic_add(counter, value);
#endif
}

#endif
