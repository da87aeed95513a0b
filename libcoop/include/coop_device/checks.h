/* coop_device/checks.h: check builds (COOP_CHECKS): run-time checks of the protocol's
 * invariants, counted in the control block for the host.
 * Invariants: docs/DESIGN.md section 14 (which invariant each check covers). Part of the kernel
 * header (coop_kernel.h includes these files in order); it uses only the files before it. */
#ifndef COOP_DEVICE_CHECKS_H
#define COOP_DEVICE_CHECKS_H

#include "atomics.h"

/* Built with COOP_CHECKS=1 (the tests do), the scheduler and the barrier verify invariants that
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

#endif
