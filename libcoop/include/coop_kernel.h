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
 * load_acquire / store_release / fetch_add / fetch_or / cas: acquire-release at device scope.
 * fetch_add_release: release only (an arrival that needs no acquire).
 * fence: an acquire-release fence at device scope; fence_sc: a sequentially consistent one (what
 * store-buffering needs: acquire/release alone allows both loads to miss both stores).
 * host_load / host_store: acquire / release, visible to the host while the kernel runs. */

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
/* The GPU's own clock in nanoseconds. */
inline ulong coop_clock_ns(void)
{
    ulong t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#define COOP_HAS_CLOCK 1

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
inline uint coop_fetch_or(global uint *p, uint v) { return COOP_RMW(fetch_or, p, v); }
inline uint coop_cas(global uint *p, uint expected, uint desired)
{
    atomic_compare_exchange_strong_explicit(COOP_ATOMIC(p), &expected, desired, memory_order_acq_rel,
                                            memory_order_acquire, memory_scope_device);
    return expected;
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
#define COOP_HAS_CLOCK 0
#endif

/* ---- Persistent-kernel context ------------------------------------------------------------ */

#define COOP_SCRATCH_WORDS 4

typedef struct coop_ctx {
    global uint *chan;     /* host-visible channel (coop_layout.h, enum coop_chan_slot) */
    global uint *dev;      /* device area (enum coop_dev_slot) */
    local uint *scratch;   /* COOP_SCRATCH_WORDS words for broadcasts inside the group */
    uint group;            /* this group's id among the co-resident ones */
    uint groups;           /* number of co-resident groups */
    uint epoch;            /* global barriers this group has passed */
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

inline uint coop_local_linear_id(void)
{
    return (uint)(get_local_id(0) +
                  get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

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

/* Registers the calling group in the discovery poll (Sorensen et al., OOPSLA 2016). Each group
 * takes a ticket with one atomic increment (no retry loop: ~1000 groups register in
 * microseconds). Ticket 0 leads: it forwards the count to the host and closes the poll when the
 * host says so, by setting COOP_REG_CLOSED; the count at that moment (capped by the limit) is the
 * number of groups. Every registered group waits for the close, so at that moment all of them
 * were running together: the count never over-estimates co-residency. A group whose ticket came
 * after the close or beyond the limit was not needed and leaves. Returns 1 if the group stays. */
inline int coop_enter(coop_ctx *ctx, global uint *chan, global uint *dev, local uint *scratch)
{
    ctx->chan = chan;
    ctx->dev = dev;
    ctx->scratch = scratch;
    ctx->epoch = 0;
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
            coop_store_release(&dev[COOP_DEV_GROUPS], groups);
            coop_host_store(&chan[COOP_CHAN_GROUPS], groups);
        } else {
            while (!(groups = coop_load_acquire(&dev[COOP_DEV_GROUPS])))
                ;
            if (ticket >= groups)
                ticket = COOP_NO_GROUP;
        }
        scratch[0] = ticket;
        scratch[1] = groups;
    }
    COOP_GROUP_SYNC();
    ctx->group = scratch[0];
    ctx->groups = scratch[1];
    COOP_GROUP_SYNC();
    return ctx->group != COOP_NO_GROUP;
}

inline uint coop_group_id(const coop_ctx *ctx) { return ctx->group; }
inline uint coop_num_groups(const coop_ctx *ctx) { return ctx->groups; }
inline size_t coop_global_id(const coop_ctx *ctx, uint dim)
{
    return ctx->group * get_local_size(dim) + get_local_id(dim);
}
inline size_t coop_global_size(const coop_ctx *ctx, uint dim)
{
    return ctx->groups * get_local_size(dim);
}

/* ---- Global barrier -----------------------------------------------------------------------
 * Default: a counter whose top bit flips once per barrier. Group 0's leader adds
 * 0x80000000 - (M - 1), every other leader adds 1, so after all M arrivals the low bits are back
 * where they were and the top bit has flipped; each leader spins until it sees the flip. One
 * atomic per group and no separate release word: the last arrival is itself the release, which
 * saves a round trip to memory (the scheme of CUDA's grid.sync). Works for any M, so groups may
 * differ from one barrier to the next. Measured on the H100 and not kept: spinning with acquire
 * loads, a nanosleep backoff, and a two-level arrival tree (an extra hop costs more than the
 * contention it saves up to 528 groups); see benchmarks/results/h100/barrier.md.
 * COOP_BARRIER_FLAGS picks the alternative: each group publishes its epoch in its own word,
 * group 0 waits for them all (with all its work-items where they may spin in parallel) and
 * releases everyone with one store. No read-modify-write, but two hops.
 * In both, a workgroup barrier orders the group's writes before its leader's release, the
 * leader spins with relaxed loads and then acquires, and a workgroup barrier orders the leader's
 * acquire before the rest of the group reads. */

inline void coop_wait_epoch(global uint *word, uint epoch)
{
    while ((int)(coop_load_relaxed(word) - epoch) < 0)
        ;
    coop_load_acquire(word);
}

inline void coop_global_barrier(coop_ctx *ctx)
{
    uint lid = coop_local_linear_id();
    uint epoch = ++ctx->epoch;
    COOP_GROUP_SYNC();
#if defined(COOP_BARRIER_FLAGS)
    global uint *release = &ctx->dev[COOP_DEV_BAR_RELEASE];
    global uint *arrive = &ctx->dev[COOP_DEV_ARRIVE];
    if (ctx->group == 0) {
#if COOP_PARALLEL_SPIN
        uint lsize = coop_local_linear_size();
        for (uint g = 1 + lid; g < ctx->groups; g += lsize)
            coop_wait_epoch(&arrive[g], epoch);
        COOP_GROUP_SYNC();
        if (lid == 0)
            coop_store_release(release, epoch);
#else
        if (lid == 0) {
            for (uint g = 1; g < ctx->groups; g++)
                coop_wait_epoch(&arrive[g], epoch);
            coop_store_release(release, epoch);
        }
#endif
    } else if (lid == 0) {
        coop_store_release(&arrive[ctx->group], epoch);
        coop_wait_epoch(release, epoch);
    }
#else
    if (lid == 0) {
        global uint *counter = &ctx->dev[COOP_DEV_BAR_COUNT];
        uint add = ctx->group == 0 ? 0x80000000u - (ctx->groups - 1) : 1u;
        uint before = coop_fetch_add_release(counter, add);
        while (((before ^ coop_load_relaxed(counter)) & 0x80000000u) == 0)
            ;
        /* Reads the flip or a later add: every add is a release, and they form one release
         * sequence, so this synchronises with all groups' arrivals without a full fence. */
        coop_load_acquire(counter);
    }
#endif
    COOP_GROUP_SYNC();
}

/* The paper's spelling, for code that names its context `ctx`. */
#define global_barrier() coop_global_barrier(&ctx)

#endif
