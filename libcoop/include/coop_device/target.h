/* coop_device/target.h: the target the host chose and the build knobs that depend on it (which
 * code a target gets: parallel spinning, out-of-line slow paths, flat offers, private M, barrier
 * sites).
 * Invariants: docs/DESIGN.md section 3 (memory model per platform). Part of the kernel header
 * (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_TARGET_H
#define COOP_DEVICE_TARGET_H

#include "../coop_layout.h"

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

/* The scheduler's slow paths (COOP_COLD) stay out of line on NVIDIA: inlined into a
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
 * coop_shared_num_groups costs no workgroup barrier while M is known (H200: bfs 0.8-1.6% faster
 * at 132 groups, the apps' megakernels 0.3% faster on every group, the same registers). Its
 * workgroup barrier then sits in a conditional, which PoCL compiles by copying code (above:
 * colour's megakernel took 6 s to build instead of 3): not there by default. */
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
/* PoCL's global barriers store their site to keep its work-group compiler right (barrier.h,
 * COOP_BARRIER_POCL_SITE). */
#if defined(COOP_TARGET_POCL) && !COOP_SITES
#error "COOP_SITES=0: PoCL needs the barrier sites (coop_device/barrier.h, COOP_BARRIER_POCL_SITE)"
#endif

#endif
