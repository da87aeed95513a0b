/* coop_kernel.h: the kernel side of libcoop (OpenCL C).
 *
 * libcoop prepends this header (with coop_layout.h) to every program it builds, so kernels
 * need not include it. It hides the platform memory models behind a few primitives and
 * provides discovery and the global barrier for persistent kernels.
 *
 * The host defines exactly one target when it builds a program:
 *   COOP_TARGET_POCL    PoCL on a CPU: OpenCL C 2.0 atomics, built with -cl-std=CL3.0, device scope.
 *   COOP_TARGET_NVIDIA  NVIDIA's OpenCL: inline PTX acquire/release (-cl-std=CL2.0).
 *   COOP_TARGET_CL20    any other OpenCL C 2.0 device: standard 2.0 atomics.
 * COOP_PARALLEL_SPIN=1 says the work-items of a group run concurrently, so several of them may
 * spin at once (GPUs). Without it only local id 0 ever waits for another group (PoCL runs the
 * work-items of a group one after another, so a second spinner would wait forever).
 *
 * A persistent kernel looks like this:
 *
 *   kernel void sum(COOP_PARAMS, global int *data) {
 *       COOP_ENTER(ctx);                    // discovery: groups that are not co-resident leave
 *       uint g = coop_group_id(&ctx);       // 0 .. coop_num_groups(&ctx) - 1
 *       ...
 *       coop_global_barrier(&ctx);
 *   }
 *
 * and is run with coop_kernel_run() on the host.
 */
#ifndef COOP_KERNEL_H
#define COOP_KERNEL_H

#ifndef COOP_LAYOUT_H
#include "coop_layout.h"
#endif

#if !defined(COOP_TARGET_POCL) && !defined(COOP_TARGET_NVIDIA) && !defined(COOP_TARGET_CL20)
#if defined(__NV_CL_C_VERSION)
#define COOP_TARGET_NVIDIA 1
#else
#define COOP_TARGET_CL20 1
#endif
#endif

#ifndef COOP_PARALLEL_SPIN
#define COOP_PARALLEL_SPIN 0
#endif


/* ---- Memory primitives: 32-bit words in global memory, device scope ---------------------
 * load/store relaxed: coherent, no ordering (what litmus tests use for "no fence").
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
 * other groups' atomics need. A build may set its nanoseconds (H200 run 125: sched-bench's gather
 * medians the same at 20, 200 and 800). */
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

/* ---- Check builds ---------------------------------------------------------------------------
 * Built with COOP_CHECKS=1 (the tests do), the scheduler and the barrier verify invariants that
 * no test sees from outside (coop_layout.h, enum coop_check_rule) where they must hold, and count
 * each violation in the control block's COOP_CTRL_CHECKS words, which the tests read once the
 * kernel has ended (tests/testutil.h, tu_assert_mega_at_rest). Without it none of this is
 * compiled: COOP_CHECK does not evaluate its arguments. */
#ifndef COOP_CHECKS
#define COOP_CHECKS 0
#endif
#if COOP_CHECKS
/* Counts a violation of `rule`; the first one leaves its details (relaxed: the host reads them
 * after the kernel). */
inline void coop_check_fail(global uint *ctrl, uint rule, uint a, uint b, uint c)
{
    global uint *words = &ctrl[COOP_CTRL_CHECKS + 4u * rule];
    if (coop_fetch_add(&words[0], 1u) == 0u) {
        coop_store_relaxed(&words[1], a);
        coop_store_relaxed(&words[2], b);
        coop_store_relaxed(&words[3], c);
    }
}
#define COOP_CHECK(ctrl, holds, rule, a, b, c)                                                          \
    do {                                                                                                \
        if (!(holds))                                                                                   \
            coop_check_fail((ctrl), (rule), (a), (b), (c));                                             \
    } while (0)
#else
#define COOP_CHECK(ctrl, holds, rule, a, b, c) ((void)sizeof(holds)) /* its variables count as used */
#endif

/* ---- Trace mode ----------------------------------------------------------------------------
 * libcoop builds a megakernel a second time with COOP_TRACING=1 only for a traced run
 * (coop_mega_params.trace_file): every group's local id 0 then records its changes of role and
 * the barriers it passes, with the trace clock, into its buffer in the device area (coop_layout.h,
 * "Trace mode"). Without it none of this is compiled: the COOP_TRACE_* macros expand to nothing
 * and do not evaluate their arguments. */
#ifndef COOP_TRACING
#define COOP_TRACING 0
#endif
#if COOP_TRACING
#if defined(COOP_TARGET_NVIDIA)
/* %globaltimer: nanoseconds, one clock for the whole GPU */
inline ulong coop_trace_clock(void) { return coop_clock_ns(); }
#elif defined(COOP_TARGET_POCL)
/* The CPU's time-stamp counter (x86-64: rdtsc), the same on every core and the one the host
 * reads (libcoop refuses to trace where it is not: libcoop/src/trace.c) */
inline ulong coop_trace_clock(void) { return __builtin_readcyclecounter(); }
#else
#error "trace mode needs a device clock: NVIDIA's %globaltimer or PoCL's time-stamp counter"
#endif

inline global uint *coop_trace_area(global uint *dev) { return dev + COOP_DEV_TRACE; }

inline ulong coop_trace_load64(global uint *word) { return COOP_JOIN_HALVES(word[0], word[1]); }

inline void coop_trace_store64(global uint *word, ulong value)
{
    word[0] = COOP_LOW_HALF(value);
    word[1] = COOP_HIGH_HALF(value);
}

/* Appends an event to group `physical`'s buffer (its local id 0 only, the buffer's one writer:
 * plain accesses; the host reads the buffers once the kernel has ended). A full buffer only
 * counts the event. */
inline void coop_trace_at(global uint *dev, uint physical, ulong time, uint kind, uint a, uint b)
{
    global uint *trace = coop_trace_area(dev);
    global uint *count = &trace[COOP_TRACE_COUNT + physical];
    uint n = *count;
    uint capacity = trace[COOP_TRACE_CAPACITY];
    if (n < capacity) {
        global uint *event = trace + COOP_TRACE_EVENTS + ((ulong)physical * capacity + n) * COOP_TRACE_EVENT_WORDS;
        coop_trace_store64(event, time);
        event[2] = COOP_EVENT_WORD(kind, a);
        event[3] = b;
    }
    *count = n + 1u;
}

/* The event's time is `time` / now; the barrier's arrival time, then its event after the wait. */
#define COOP_TRACE_EVENT(ctx, time, kind, a, b) coop_trace_at((ctx)->dev, (ctx)->physical, (time), (kind), (a), (b))
#define COOP_TRACE_NOW(ctx, kind, a, b) COOP_TRACE_EVENT(ctx, coop_trace_clock(), kind, a, b)
#define COOP_TRACE_ARRIVAL(name) ulong name = coop_trace_clock()
#define COOP_TRACE_BARRIER(ctx, arrived, number, resizing)                                               \
    COOP_TRACE_EVENT(ctx, arrived, COOP_EV_BARRIER, COOP_EVENT_BARRIER_A(number, resizing),                  \
                     (uint)min(coop_trace_clock() - (arrived), (ulong)0xffffffffu))
#else
#define COOP_TRACE_EVENT(ctx, time, kind, a, b) ((void)0)
#define COOP_TRACE_NOW(ctx, kind, a, b) ((void)0)
#define COOP_TRACE_ARRIVAL(name)
#define COOP_TRACE_BARRIER(ctx, arrived, number, resizing) ((void)0)
#endif

/* The scheduler's slow paths (coop_scheduler.h) stay out of line on NVIDIA: inlined into a
 * megakernel they raise the registers of its hot loop (H100, sched-bench's units megakernel: 56
 * registers inlined, 48 out of line; 4 or 5 groups of 256 per SM). COOP_NV_INLINE=1 inlines them. */
#if defined(COOP_TARGET_NVIDIA) && !defined(COOP_NV_INLINE)
#define COOP_COLD __attribute__((noinline))
#else
#define COOP_COLD inline
#endif

/* PoCL compiles a workgroup barrier inside a conditional by copying the code after the
 * conditional once for each way through it, so the copies double with every such conditional
 * on a path (an offer's slow path behind its fast path was one: seven offer_fork calls in a loop
 * took a minute to compile). With COOP_FLAT_OFFERS the offers' slow paths run in local id 0
 * alone and every workgroup barrier of an offer is unconditional. Elsewhere the slow paths use
 * the whole group (a kill sweep claims its candidates in parallel). */
#ifndef COOP_FLAT_OFFERS
#if defined(COOP_TARGET_POCL)
#define COOP_FLAT_OFFERS 1
#else
#define COOP_FLAT_OFFERS 0
#endif
#endif

/* With COOP_PRIVATE_M every work-item keeps M as its group last learnt it (ctx->known_groups,
 * taken from the group's scratch after each barrier that may change it), so that
 * coop_shared_num_groups costs no workgroup barrier while M is known (H200, runs 48 and 49: bfs
 * 0.8-1.6% faster at 132 groups, the apps' megakernels 0.3% faster on every group, the same
 * registers). Its workgroup barrier then sits in a conditional, which PoCL compiles by copying
 * code (above: colour's megakernel took 6 s to build instead of 3): not there by default. */
#ifndef COOP_PRIVATE_M
#if defined(COOP_TARGET_POCL)
#define COOP_PRIVATE_M 0
#else
#define COOP_PRIVATE_M 1
#endif
#endif

/* With COOP_SITES a group that waits long at a global barrier records which one (coop_at, the
 * watchdog's file:line). On NVIDIA the site's word in the context cost sssp 2.5% (H200, USA-road-FLA,
 * 132 groups, three alternations; bfs 0.2-0.8%), so there it is off unless asked for
 * (COOP_BUILD_OPTIONS=-DCOOP_SITES=1); the barrier is then named by its number only. */
#ifndef COOP_SITES
#if defined(COOP_TARGET_NVIDIA)
#define COOP_SITES 0
#else
#define COOP_SITES 1
#endif
#endif

/* ---- Persistent-kernel context ------------------------------------------------------------ */

/* Local scratch of a persistent group: [0, 8) discovery and broadcasts, [8, 16) local id 0's
 * hand-overs to the group, then COOP_TRANSMIT_WORDS words of transmit state (a forked group's,
 * or the forking group's on its way out), then COOP_SWEEP_WIDTH words for a kill sweep (or the
 * agent's copies: an agent never sweeps), then the cold fields. */
/* discovery's hand-over from local id 0 (coop_enter), read once by every work-item */
#define COOP_SCRATCH_TICKET 0         /* the group's ticket, or COOP_NO_GROUP */
#define COOP_SCRATCH_GROUPS 1         /* physical_groups (also read later: coop_member_limit) */
#define COOP_SCRATCH_MEMBERS 2        /* COOP_DEV_MEMBERS: the groups that start as members */
#define COOP_SCRATCH_AGENT 3          /* COOP_DEV_AGENT: 1 if the first group is the agent */
#define COOP_SCRATCH_CHAOS 4          /* COOP_DEV_CHAOS: chaos mode's seed */
#define COOP_SCRATCH_M 5              /* local id 0's copy of M, 0 when it must be read again
                                         (coop_shared_num_groups) */
#define COOP_SCRATCH_BROADCAST 6      /* two words, 6 and 7, alternating (coop_broadcast) */
/* [8, 16): words local id 0 hands to its group after a step only it takes. Each function that
 * uses one writes it just before a group barrier and every work-item reads it just after, so
 * the functions share them (one name per use): */
#define COOP_SCRATCH_ROLE 8           /* coop_schedule: the group's next role */
#define COOP_SCRATCH_OUTCOME 8        /* coop_resizing_barrier_vote_unless: COOP_OUTCOME(killed there,
                                         the vote, groups member 0 forked), one word, so that the
                                         group's hand-over is one store and one load */
#define COOP_SCRATCH_ID 9             /* coop_schedule: the group's id in that role */
#define COOP_SCRATCH_FORK_BASE 10     /* coop_resizing_barrier_vote_unless: the first one's id
                                         (written only when member 0 forked) */
#define COOP_SCRATCH_EPOCH 11         /* coop_schedule: barriers the group has passed */
#define COOP_SCRATCH_RESIZE_REQUEST 12 /* not a hand-over: member 0's local id 0 keeps here, from
                                          coop_resize_decision to coop_resize_commit, the request
                                          its kill tokens came from */
#define COOP_SCRATCH_RNG 14           /* coop_schedule: chaos mode's random state */
#define COOP_SCRATCH_SWEEP_GAP 15     /* coop_sweep: the first candidate not claimed (atomic_min
                                         by the claiming work-items; COOP_SWEEP_NO_GAP: none) */
#define COOP_SWEEP_NO_GAP 0xffffffffu
#define COOP_OUTCOME_KILLED 1u
#define COOP_OUTCOME_VOTED 2u
#define COOP_OUTCOME(killed, voted, forked) \
    (((killed) ? COOP_OUTCOME_KILLED : 0u) | ((voted) ? COOP_OUTCOME_VOTED : 0u) | ((forked) << 2))
#define COOP_OUTCOME_FORKS(outcome) ((outcome) >> 2)
#define COOP_SCRATCH_TRANSMIT 16
#define COOP_SCRATCH_SWEEP (COOP_SCRATCH_TRANSMIT + COOP_TRANSMIT_WORDS)
/* the context's fields that change only when the group changes role, kept here rather than in
 * registers across the cooperative kernel's loops (see COOP_COLD_CTX) */
#define COOP_SCRATCH_COLD (COOP_SCRATCH_SWEEP + COOP_SWEEP_WIDTH)
#define COOP_COLD_RESUME (COOP_SCRATCH_COLD + 0)
#define COOP_COLD_TASK (COOP_SCRATCH_COLD + 1)
#define COOP_COLD_TASK_GROUPS (COOP_SCRATCH_COLD + 2)
#define COOP_COLD_STARTED (COOP_SCRATCH_COLD + 3)
#define COOP_COLD_CHAN (COOP_SCRATCH_COLD + 4)
/* the group's vote at a coop_global_barrier_any (any work-item's flag), and the outcome */
#define COOP_SCRATCH_VOTE (COOP_SCRATCH_COLD + 6)
#define COOP_SCRATCH_VOTED (COOP_SCRATCH_COLD + 7)
#define COOP_SCRATCH_WORDS (COOP_SCRATCH_COLD + 8)
COOP_LAYOUT_ASSERT(COOP_SCRATCH_BROADCAST + 1 < COOP_SCRATCH_ROLE && COOP_SCRATCH_SWEEP_GAP < COOP_SCRATCH_TRANSMIT,
                   scratch_hand_overs_below_transmit);


typedef struct coop_ctx {
    global uint *chan;     /* host-visible channel (coop_layout.h, enum coop_chan_slot) */
    global uint *dev;      /* device area (enum coop_dev_slot) */
    global uint *ctrl;     /* control block (enum coop_ctrl_slot), in the channel or the device area */
    local uint *scratch;   /* COOP_SCRATCH_WORDS words for broadcasts inside the group */
    uint physical;         /* this group's discovery ticket, 0 .. physical_groups - 1 */
    uint physical_groups;  /* co-resident groups */
    uint epoch;            /* global barriers this group has passed */
    uint role;             /* COOP_ROLE_* */
    uint id;               /* cooperative role: virtual group id; task role: task workgroup */
    uint resume;           /* cooperative role: where a forked group resumes (0: at the start) */
    uint task;             /* task role: task index */
    uint task_groups;      /* task role: workgroups of the task */
    uint rng;              /* chaos mode's random state (0: chaos off) */
    uint toggle;           /* alternates the broadcast slot */
    uint started;          /* the scheduler has handed this group its first role */
    uint fixed_groups;     /* a standalone form's M, read once at its start (coop_fix_num_groups) */
    uint known_groups;     /* COOP_PRIVATE_M: M as the group last learnt it (coop_shared_num_groups),
                              0 when it must be read again; the same in every work-item */
#if COOP_SITES
    uint site;             /* the barrier about to be reached, as coop-merge numbered it in the
                              program's coop-site lines (coop_at); 0: not known */
#endif
} coop_ctx;

/* The two parameters libcoop passes first to every persistent kernel. */
#define COOP_PARAMS global uint *coop_chan_, global uint *coop_dev_

/* Declares `coop_ctx NAME`, runs discovery, and returns from the kernel in groups that are not
 * co-resident. Must be the first statement of a persistent kernel, reached by all work-items. */
#define COOP_ENTER(NAME)                                                   \
    local uint NAME##_scratch_[COOP_SCRATCH_WORDS];                        \
    coop_ctx NAME;                                                         \
    if (!coop_enter(&NAME, coop_chan_, coop_dev_, NAME##_scratch_))        \
        return

/* The work-item's index in its group. On NVIDIA it is computed in inline PTX, out of the
 * compiler's reach: where `coop_local_linear_id() == 0` was its only use, the compiler rewrote
 * x + nx * (y + ny * z) == 0 as nx * (y + ny * z) == -x, which ptxas no longer takes for a test
 * that one lane passes, and it then warp-aggregated every atomic that work-item 0 makes (VOTEU,
 * FLO, POPC and shuffles around each: H200, runs 141-144). */
#if defined(COOP_TARGET_NVIDIA)
inline uint coop_local_linear_id(void)
{
    uint lid;
    asm("{\n\t.reg .u32 lz, lny, ly, lnx, lx, lt;\n\tmov.u32 lz, %%tid.z;\n\tmov.u32 lny, %%ntid.y;\n\t"
        "mov.u32 ly, %%tid.y;\n\tmov.u32 lnx, %%ntid.x;\n\tmov.u32 lx, %%tid.x;\n\t"
        "mad.lo.u32 lt, lz, lny, ly;\n\tmad.lo.u32 %0, lt, lnx, lx;\n\t}"
        : "=r"(lid));
    return lid;
}
#else
inline uint coop_local_linear_id(void)
{
    return (uint)(get_local_id(0) +
                  get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}
#endif

inline uint coop_local_linear_size(void)
{
    return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* A workgroup barrier that orders the group's global-memory accesses. On NVIDIA, bar.sync
 * itself orders all memory accesses of the participating threads, and the leader's device-scope
 * release/acquire is cumulative; asking for CLK_GLOBAL_MEM_FENCE there would add a GPU-scope
 * fence in every work-item. */
#if defined(COOP_TARGET_NVIDIA)
#define COOP_GROUP_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#else
#define COOP_GROUP_SYNC() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif

/* COOP_GROUP_SYNC() as a function, for kernels in the cooperative language (coop-merge knows it
 * as a workgroup barrier): orders what the group wrote before it, in global and local memory,
 * before what any of its work-items does after it. */
inline void coop_group_sync(void)
{
    COOP_GROUP_SYNC();
}

/* ---- Watchdog words -----------------------------------------------------------------------
 * Each group's word in COOP_CTRL_GROUP_STATE says where it is, COOP_WHERE_WORD(where, detail), for
 * the host's watchdog and time limit (libcoop/src/where.c). Relaxed stores: the host reads the
 * words only to describe a kernel that seems stuck, so no access pairs with them. */
inline global uint *coop_where_word(const coop_ctx *ctx)
{
    return &ctx->ctrl[COOP_CTRL_GROUP_STATE + ctx->physical];
}

inline void coop_where_store(global uint *word, uint where, uint detail)
{
    coop_store_relaxed(word, COOP_WHERE_WORD(where, detail));
}

inline void coop_set_where(const coop_ctx *ctx, uint where, uint detail)
{
    coop_where_store(coop_where_word(ctx), where, detail);
}

/* Generated code names the barrier it is about to reach, as a constant, so that a group that waits
 * there long can say where it waits (COOP_CTRL_GROUP_SITE): the site's file:line is in the
 * program's coop-site lines, which the host reads when it describes a stuck kernel. */
#if COOP_SITES
#define coop_at(ctx, site_) ((ctx)->site = (site_))
#else
#define coop_at(ctx, site_) ((void)0)
#endif

/* ---- Global barrier -----------------------------------------------------------------------
 * Barrier number b (1, 2, ...) uses counter b % 4. A counter rests at COOP_BAR_IDLE; every member
 * of barrier b "arms" it (subtracts one) before anyone can arrive, and arriving adds one with
 * release semantics, so the last arrival's add carries back into the COOP_BAR_IDLE bit: the last
 * arrival is itself the release, no separate release word (the scheme of CUDA's grid.sync).
 * Leaders spin with relaxed loads, then one acquire load synchronises with every arrival (the
 * adds form one release sequence) without a full fence.
 * Counters b and b + 2 are the two halves of one 64-bit word, so that one 64-bit add both arrives
 * at barrier b and arms barrier b + 2: one atomic per group and barrier, as in grid.sync. Arming
 * b + 2 then is early enough (b + 2 cannot complete before this group's arrival at b + 1) and
 * safe (counter (b + 2) % 4 was last used by barrier b - 2, which everyone has left).
 * So membership may change between barriers: a killed group arrives once more for the barrier
 * it will miss and disarms the one after (coop_barrier_leave); a fork arms both for the new
 * groups before the forking group arrives (coop_barrier_join). No barrier needs to know M.
 * Bit 31 of a counter (COOP_BAR_FLAG) tells the groups leaving the barrier that M may have
 * changed before it or member 0 made a resize decision: a leaving or forking group sets it on
 * the barrier it arrives at next, member 0 on the barrier it decided at, each before its
 * arrival (whose release then covers it); member 0 clears it two barriers later, when every
 * group has read the completed counter. Only these or / and touch bit 31: the counts stay
 * below it. So a group that finds no flag knows M is what it was, without reading it.
 * Bit 30 (COOP_BAR_VOTE) is a vote the same way: a group whose work-items passed a true flag to
 * coop_global_barrier_any sets it before its arrival, every group finds it in the completed
 * counter, and member 0 clears it with the flag. */

/* The 32-bit counter of barrier `number` in a device area. */
inline global uint *coop_barrier_word(global uint *dev, uint number)
{
    return &dev[COOP_BAR_WORD(number)];
}

inline global uint *coop_barrier_counter(const coop_ctx *ctx, uint number)
{
    return coop_barrier_word(ctx->dev, number);
}

/* The first `members` arm barriers 1 and 2 (before any group can arrive: the discovery leader,
 * before it publishes the group count that every group's acquire waits for). */
inline void coop_barrier_arm_first(global uint *dev, uint members)
{
    for (uint b = 1; b <= 2; b++)
        coop_fetch_add(coop_barrier_word(dev, b), 0u - members);
}

/* `groups` more members for the next two barriers (called before any of them can arrive). */
inline void coop_barrier_join(const coop_ctx *ctx, uint groups)
{
    coop_fetch_add(coop_barrier_counter(ctx, ctx->epoch + 1), 0u - groups);
    coop_fetch_add(coop_barrier_counter(ctx, ctx->epoch + 2), 0u - groups);
    coop_fetch_or_relaxed(coop_barrier_counter(ctx, ctx->epoch + 1), COOP_BAR_FLAG);
}

/* This group leaves between barriers epoch and epoch + 1: it arrives for epoch + 1 (a release,
 * publishing its writes) and gives back its arming of epoch + 2 (relaxed, not waited for: a
 * read-modify-write continues the release sequences of the counter, and barrier epoch + 2 cannot
 * complete before epoch + 1 has). */
inline void coop_barrier_leave(const coop_ctx *ctx)
{
    coop_fetch_or_relaxed(coop_barrier_counter(ctx, ctx->epoch + 1), COOP_BAR_FLAG);
    coop_fetch_add_release(coop_barrier_counter(ctx, ctx->epoch + 1), 1u);
    coop_fetch_add_relaxed(coop_barrier_counter(ctx, ctx->epoch + 2), 1u);
}

/* Spins after which a waiting group records where it is, for the watchdog; a barrier that
 * completes sooner writes nothing but its arrival. */
#define COOP_BARRIER_QUIET_SPINS 4096u

/* The barrier's arrival (which also arms barrier number + 2) and wait, by local id 0 only.
 * Returns the completed counter; `flag` (COOP_BAR_FLAG or 0) flags the barrier first. */
inline uint coop_barrier_arrive_wait(coop_ctx *ctx, uint number, uint flag)
{
    global uint *counter = coop_barrier_counter(ctx, number);
    global uint *where = coop_where_word(ctx);
    if (flag)
        coop_fetch_or_relaxed(counter, flag);
    /* +1 on this barrier's half, -1 on barrier number + 2's (the halves never carry or borrow
     * across: both stay between COOP_BAR_IDLE - COOP_MAX_GROUPS and COOP_BAR_IDLE, flags apart). */
    uint high = COOP_BAR_HIGH(number);
    global ulong *pair = (global ulong *)&ctx->dev[COOP_BAR_PAIR(number)];
    ulong add = high ? COOP_BAR_ARRIVE_HIGH : COOP_BAR_ARRIVE_LOW;
    ulong pair_before = coop_fetch_add64_release(pair, add);
#if COOP_CHECKS
    /* B4: this barrier's count was armed and lacked this arrival; barrier number + 2's (the other
     * half) was left complete and only armed since, by arrivals at this barrier */
    uint count = COOP_BAR_UNFLAGGED(high ? COOP_HIGH_HALF(pair_before) : COOP_LOW_HALF(pair_before));
    uint next = COOP_BAR_UNFLAGGED(high ? COOP_LOW_HALF(pair_before) : COOP_HIGH_HALF(pair_before));
    COOP_CHECK(ctx->ctrl, count < COOP_BAR_IDLE && count >= COOP_BAR_IDLE - COOP_MAX_GROUPS &&
                              next <= COOP_BAR_IDLE && next >= COOP_BAR_IDLE - COOP_MAX_GROUPS,
               COOP_CHECK_BARRIER_HALVES, number, count, next);
#endif
    /* Member 0 (never killed) counts the barriers, for the watchdog and the statistics, and
     * clears the flag of barrier number - 2 (whose counter number + 2 reuses): after its
     * arrival, so that neither is a write its release must wait for, and before its next one,
     * which comes before anyone can flag number + 2. */
    if (ctx->id == 0) {
        coop_fetch_add_relaxed(&ctx->ctrl[COOP_CTRL_BARRIERS], 1u);
        coop_fetch_and_relaxed(coop_barrier_counter(ctx, number + 2u), ~COOP_BAR_FLAGS);
    }
    uint value = (high ? COOP_HIGH_HALF(pair_before) : COOP_LOW_HALF(pair_before)) + 1u;
    if (COOP_BAR_UNFLAGGED(value) != COOP_BAR_IDLE) {
        uint spins = 0;
        while (!((value = coop_load_relaxed(counter)) & COOP_BAR_IDLE)) {
            if (++spins == COOP_BARRIER_QUIET_SPINS) {
#if COOP_SITES
                coop_store_relaxed(&ctx->ctrl[COOP_CTRL_GROUP_SITE + ctx->physical], ctx->site);
#endif
                coop_where_store(where, COOP_WHERE_BARRIER, COOP_WHERE_BARRIER_DETAIL(ctx->id, number));
            }
        }
        if (spins >= COOP_BARRIER_QUIET_SPINS)
            coop_where_store(where, COOP_WHERE_RUNNING, ctx->id);
    }
    /* The value that showed the barrier complete is later in the counter's modification order
     * than every arrival and so than every flag set before one. The acquire load synchronises
     * with the arrivals (they form one release sequence) whatever it reads; its result is not
     * used, and ptxas reduces it to an L1 invalidation: no second read of the hot counter. */
    coop_load_acquire(counter);
    return value;
}

/* Waits until every member group has reached the barrier; memory written before it by any of
 * them is visible after it to all. Reached by every work-item of every member group. */
/* The global barrier with a vote: returns 1 in every work-item of every member if any work-item
 * of any member passed a true flag, 0 otherwise (`skip`: a group that walks past it, see
 * coop_scheduler.h; it neither arrives nor votes). A voting group costs one atomic more than the
 * plain barrier, the others none. The group's own vote is collected in local memory: local id
 * 0 clears it once read, before the barrier's last workgroup barrier, after which the next
 * vote's writes come. */
inline int coop_global_barrier_any_unless(coop_ctx *ctx, uint skip, int flag)
{
    uint number = ctx->epoch + (skip ? 0u : 1u);
    volatile local uint *vote = ctx->scratch + COOP_SCRATCH_VOTE;
    if (flag && !skip)
        *vote = 1u;
    COOP_GROUP_SYNC();
    if (coop_local_linear_id() == 0) {
        uint any = 0;
        if (!skip) {
            uint mine = *vote;
            *vote = 0u;
            COOP_TRACE_ARRIVAL(arrived);
            uint value = coop_barrier_arrive_wait(ctx, number, mine ? COOP_BAR_VOTE : 0u);
            COOP_TRACE_BARRIER(ctx, arrived, number, 0u);
            if (value & COOP_BAR_FLAG)
                ctx->scratch[COOP_SCRATCH_M] = 0;
            any = (value & COOP_BAR_VOTE) != 0;
        }
        ctx->scratch[COOP_SCRATCH_VOTED] = any;
    }
    ctx->epoch = number;
    COOP_GROUP_SYNC();
    ctx->known_groups = ctx->scratch[COOP_SCRATCH_M];
    return (int)ctx->scratch[COOP_SCRATCH_VOTED];
}

inline int coop_global_barrier_any(coop_ctx *ctx, int flag)
{
    return coop_global_barrier_any_unless(ctx, 0u, flag);
}

inline void coop_global_barrier_unless(coop_ctx *ctx, uint skip)
{
    uint number = ctx->epoch + (skip ? 0u : 1u);
    COOP_GROUP_SYNC();
    if (coop_local_linear_id() == 0 && !skip) {
        COOP_TRACE_ARRIVAL(arrived);
        uint value = coop_barrier_arrive_wait(ctx, number, 0u);
        COOP_TRACE_BARRIER(ctx, arrived, number, 0u);
        if (value & COOP_BAR_FLAG)
            ctx->scratch[COOP_SCRATCH_M] = 0;
    }
    ctx->epoch = number;
    COOP_GROUP_SYNC();
    ctx->known_groups = ctx->scratch[COOP_SCRATCH_M];
}

inline void coop_global_barrier(coop_ctx *ctx)
{
    coop_global_barrier_unless(ctx, 0u);
}

/* ---- Discovery ---------------------------------------------------------------------------- */

/* Registers the calling group in the discovery poll (Sorensen et al., OOPSLA 2016). Each group
 * takes a ticket with one atomic increment (no retry loop: ~1000 groups register in
 * microseconds). Ticket 0 leads: it forwards the count to the host and closes the poll when the
 * host says so, by setting COOP_REG_CLOSED; the count at that moment (capped by the limit) is the
 * number of groups. Every registered group waits for the close, so at that moment all of them
 * were running together: the count never over-estimates co-residency. A group whose ticket came
 * after the close or beyond the limit was not needed and leaves. Returns 1 if the group stays.
 * The scheduler's part of the start (coop_scheduler.h, "Start") is called where the protocol
 * needs it: the leader sets up the scheduler's starting state before it publishes the count,
 * which every group reads once it sees the count. */
inline void coop_scheduler_reset(coop_ctx *ctx);
inline void coop_scheduler_open(coop_ctx *ctx, uint groups);
inline void coop_scheduler_hand_over(coop_ctx *ctx);
inline void coop_scheduler_enter(coop_ctx *ctx);

inline int coop_enter(coop_ctx *ctx, global uint *chan, global uint *dev, local uint *scratch)
{
    ctx->chan = chan;
    ctx->dev = dev;
    /* fixed at build time, so that the compiler can recompute the address from the kernel's
     * arguments rather than keep it in two registers across every loop */
#if COOP_CTRL_IN_CHAN
    ctx->ctrl = chan + COOP_CHAN_CTRL;
#else
    ctx->ctrl = dev + COOP_DEV_CTRL;
#endif
    ctx->scratch = scratch;
    ctx->epoch = 0;
#if COOP_SITES
    ctx->site = 0;
#endif
    coop_scheduler_reset(ctx);
    if (coop_local_linear_id() == 0) {
        uint limit = coop_load_relaxed(&dev[COOP_DEV_MAX_GROUPS]);
        uint ticket = coop_fetch_add(&dev[COOP_DEV_REG], 1);
        uint groups = 0;
        if ((ticket & COOP_REG_CLOSED) || ticket >= limit) {
            ticket = COOP_NO_GROUP;
        } else if (ticket == 0) {
            uint forwarded = 0;
            for (;;) {
                uint count = min(coop_load_relaxed(&dev[COOP_DEV_REG]), limit);
                if (count != forwarded) {
                    coop_host_store(&chan[COOP_CHAN_SEEN], count);
                    forwarded = count;
                }
                if (coop_host_load(&chan[COOP_CHAN_CLOSE]))
                    break;
            }
            groups = min(coop_fetch_or(&dev[COOP_DEV_REG], COOP_REG_CLOSED), limit);
            coop_scheduler_open(ctx, groups);
            /* release: publishes the count and the scheduler's starting state; pairs with the
             * other groups' acquire below (and the host's read of COOP_CHAN_GROUPS) */
            coop_store_release(&dev[COOP_DEV_GROUPS], groups);
            coop_host_store(&chan[COOP_CHAN_GROUPS], groups);
        } else {
            /* acquire: pairs with the leader's release of the count */
            while (!(groups = coop_load_acquire(&dev[COOP_DEV_GROUPS])))
                ;
            if (ticket >= groups)
                ticket = COOP_NO_GROUP;
        }
        scratch[COOP_SCRATCH_TICKET] = ticket;
        scratch[COOP_SCRATCH_GROUPS] = groups;
        coop_scheduler_hand_over(ctx);
    }
    COOP_GROUP_SYNC();
    uint ticket = scratch[COOP_SCRATCH_TICKET];
    ctx->physical = ticket;
    ctx->physical_groups = scratch[COOP_SCRATCH_GROUPS];
    coop_scheduler_enter(ctx);
    /* Chaos mode's random state, the scheduler's too, but set here: moved into
     * coop_scheduler_enter, it compiles differently (clang orders one comparison otherwise).
     * xorshift32 needs a non-zero state; the seed and the group make each stream distinct. */
    ctx->rng = scratch[COOP_SCRATCH_CHAOS] ? (scratch[COOP_SCRATCH_CHAOS] * 2654435761u) ^ (ticket * 40503u + 1u)
                                           : 0u;
    if (ctx->rng == 0 && scratch[COOP_SCRATCH_CHAOS])
        ctx->rng = 1;
    COOP_GROUP_SYNC();
    return ticket != COOP_NO_GROUP;
}

/* ---- Virtualised ids ---------------------------------------------------------------------- */

/* The group's id in its role: a cooperative member's virtual id 0 .. M-1, a task workgroup's
 * index in the task's NDRange. */
inline uint coop_group_id(const coop_ctx *ctx) { return ctx->id; }

/* Cooperative role: the current number of members M (changes at kills and forks). Task role:
 * the task's workgroups. */
inline uint coop_num_groups(const coop_ctx *ctx)
{
    if (ctx->role == COOP_ROLE_TASK)
        return ctx->scratch[COOP_COLD_TASK_GROUPS];
    return COOP_STATE_MEMBERS(coop_load_relaxed(&ctx->ctrl[COOP_CTRL_STATE]));
}

/* Dimension 0 is virtualised; groups are one-dimensional in a persistent kernel. */
inline size_t coop_global_id(const coop_ctx *ctx, uint dim)
{
    return dim == 0 ? (size_t)ctx->id * get_local_size(0) + get_local_id(0) : get_local_id(dim);
}

inline size_t coop_global_size(const coop_ctx *ctx, uint dim)
{
    return dim == 0 ? (size_t)coop_num_groups(ctx) * get_local_size(0) : get_local_size(dim);
}

/* A persistent kernel without kill and fork (coop-merge's --standalone form) reads M once per
 * work-item at its start (coop_fix_num_groups, after COOP_ENTER) and keeps it in a register: no
 * global barrier of such a kernel changes it. Reading the scheduler's hot word in every work-item
 * after every barrier cost sssp on USA-road-NY 8.36 ms against 7.45 (H200); keeping M in the
 * group's local memory and reading it there after every barrier still cost sssp-bf on
 * USA-road-FLA 31.1 ms against 28.3 (H200, benchmarks/results/h200/REPORT.md, runs 20-22). */
inline void coop_fix_num_groups(coop_ctx *ctx) { ctx->fixed_groups = coop_num_groups(ctx); }

inline uint coop_fixed_num_groups(const coop_ctx *ctx) { return ctx->fixed_groups; }

inline size_t coop_fixed_global_size(const coop_ctx *ctx, uint dim)
{
    return dim == 0 ? (size_t)coop_fixed_num_groups(ctx) * get_local_size(0) : get_local_size(dim);
}

/* The paper's spelling, for code that names its context `ctx`. */
#define global_barrier() coop_global_barrier(&ctx)

#endif
