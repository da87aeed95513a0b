/* coop_kernel.h: the kernel side of libcoop (OpenCL C): what a kernel calls.
 *
 * libcoop prepends this header, with the files it includes, to every program it builds, so
 * kernels need not include it. It hides the platform memory models behind a few primitives and
 * gives persistent kernels discovery and the global barrier, and cooperative kernels the
 * primitives of Sorensen, Evrard and Donaldson, "Cooperative Kernels" (FSE 2017), with
 * high-priority tasks run on the groups they give up. Kernels in the paper's language
 * (merge-tool/README.md) call offer_kill(), offer_fork(), global_barrier() and
 * resizing_global_barrier(); coop-merge turns them into the calls below.
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
 *
 * A megakernel is a persistent kernel whose groups loop over coop_schedule():
 *
 *   kernel void mega(COOP_PARAMS, global int *data, global float *out) {
 *       COOP_ENTER(ctx);
 *       for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
 *           if (role == COOP_ROLE_COOP)
 *               my_cooperative_kernel(&ctx, data);     // returns when finished or killed
 *           COOP_GROUP_SYNC();
 *           if (role == COOP_ROLE_TASK && ctx.task == 0)
 *               my_task(&ctx, out);                    // one task workgroup: coop_group_id(&ctx)
 *           COOP_GROUP_SYNC();
 *       }
 *   }
 *
 * PoCL's compiler rejects some control flow around workgroup barriers, so (as coop-merge
 * generates it) every role branch is followed by COOP_GROUP_SYNC(), and a cooperative kernel
 * leaves its loops through their conditions (a `killed` flag), not by `return` from inside a
 * loop that contains a barrier.
 *
 * Inside the cooperative kernel (every call reached by all work-items of the group):
 *   killed = coop_offer_kill(&ctx);                      the largest id may be killed here
 *   coop_offer_fork(&ctx, POINT, &t, sizeof t);          new groups resume at POINT with t
 *   coop_global_barrier(&ctx);
 *   killed = coop_resizing_barrier(&ctx, POINT, &t, sizeof t);
 * and, in a forked group, coop_resume_point(&ctx) names POINT and coop_transmit_restore(&ctx,
 * &t, sizeof t) fills t with the forking group's work-item 0's copy.
 *
 * Memory: members M and finished members F share one word (COOP_CTRL_STATE), changed only by
 * compare-and-swap or add, so kills, forks and completion are linearisable. Kill requests are
 * tokens (COOP_CTRL_KILLS): a kill takes one. Idle groups pull work: fork slots first (the fork
 * reserved them out of COOP_CTRL_IDLE, so they are always claimed), then task slots.
 *
 * The implementation is one file per protocol in coop_device/, each opening with its invariants
 * from docs/DESIGN.md, included here in order; each uses only the files before it. */
#ifndef COOP_KERNEL_H
#define COOP_KERNEL_H

#include "coop_layout.h"
#include "coop_device/target.h"
#include "coop_device/atomics.h"
#include "coop_device/checks.h"
#include "coop_device/trace.h"
#include "coop_device/context.h"
#include "coop_device/watchdog.h"
#include "coop_device/barrier.h"
#include "coop_device/kernels.h"
#include "coop_device/start.h"
#include "coop_device/discovery.h"
#include "coop_device/ids.h"
#include "coop_device/common.h"
#include "coop_device/kill.h"
#include "coop_device/fork.h"
#include "coop_device/resize.h"
#include "coop_device/generated.h"
#include "coop_device/task.h"
#include "coop_device/spawn.h"
#include "coop_device/agent.h"
#include "coop_device/schedule.h"

/* The paper's spellings, for code that names its context `ctx` (plus the transmit argument a
 * fork needs in C; coop-merge supplies it from `transmit` declarations). */
#define global_barrier() coop_global_barrier(&ctx)
#define offer_kill() coop_offer_kill(&ctx)

/* What the language's spawn_task() returns (coop-merge turns the call into coop_spawn). */
#define SPAWN_OK COOP_SPAWN_OK
#define SPAWN_FULL COOP_SPAWN_FULL
#define SPAWN_TOO_DEEP COOP_SPAWN_TOO_DEEP
#define SPAWN_NO_WORK COOP_SPAWN_NO_WORK

#endif
