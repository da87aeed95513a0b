/* Host side of several cooperative kernels in one megakernel (docs/DESIGN.md section 17): the
 * kernels' blocks, their weighted shares of the groups, the moves and kill tokens that keep them,
 * and each kernel's report. scheduler.c calls it once per pass of its loop. */
#ifndef COOP_SHARE_H
#define COOP_SHARE_H

#include "internal.h"

typedef struct coop_share coop_share;

/* scheduler.c's request `kind` (COOP_REQ_*) to kernel block `block`, with REQ_SLOT, REQ_TASK and
 * REQ_WANT: applied at once with channel 'svm', else written to the block's mailbox for the agent
 * once the last request there was applied. */
typedef coop_status (*coop_share_send)(void *run, unsigned block, uint32_t kind, uint32_t slot, uint32_t task,
                                       uint32_t want);

/* Checks kernel_count and the weights against the megakernel (its coop-kernels line) and makes the
 * run's state (*out NULL for a megakernel of one cooperative kernel). */
coop_status coop_share_open(coop_context *ctx, const coop_kernel *kernel, const coop_kernel_share *kernels,
                            size_t kernel_count, coop_share **out);
void coop_share_free(coop_share *share);

/* Several kernels with an agent: whether block `block`'s mailbox is free, the agent's copy of its
 * REPORT_SEQ showing the last request sent there applied (A1 per block); waits up to 5 s
 * (COOP_ERR_TIMEOUT). COOP_OK at once with SVM (the host applies its own) and for one kernel
 * (share NULL: T6 keeps the one mailbox free). coop_share_sent records each request sent. */
coop_status coop_share_mailbox_free(coop_share *share, unsigned block);
void coop_share_sent(coop_share *share, unsigned block, uint32_t seq);

/* The run's way to send requests (before coop_share_start). */
void coop_share_attach(coop_share *share, coop_share_send send, void *run);

/* The kernel blocks the run needs and their weights (coop_start.kernels, .weights). */
unsigned coop_share_kernels(const coop_share *share);
const unsigned *coop_share_weights(const coop_share *share);

/* The groups each of `kernels` kernels should hold of `available`: a finished one (done[k])
 * none; the running ones their weight's share, at least one each while there are enough, the
 * rest by largest remainder (ties to the lower index), all of `available` given out. */
void coop_share_targets(const unsigned *weights, const int *done, unsigned kernels, unsigned available,
                        unsigned *target);

/* Corrects `target` (coop_share_targets's, of `available`) by what each running kernel has had
 * so far: owed[k] is its due group-time less what it had while two or more ran (us; they sum to
 * about 0), span_us how long that was. A kernel owed time gets owed[k] / max(span_us / 4, 1 ms)
 * groups more, one ahead fewer, at most half its target either way and at least one each: the
 * targets alone are met only at the kernels' offers, and whatever lags (a group idle until its
 * kernel's next fork, groups a task took) would otherwise be lost for good. Scaled by the span,
 * a share 1% behind gets about 4% of the groups more. */
void coop_share_correct(const double *owed, double span_us, const int *done, unsigned kernels, unsigned available,
                        unsigned *target);

/* After discovery: each kernel's starting members. A kernel that got none (fewer groups than
 * kernels came) counts as finished, so that the others run to their end and the megakernel ends;
 * coop_share_started then fails. */
coop_status coop_share_start(coop_share *share, unsigned groups, double discovered_us);

/* Once the megakernel ended: COOP_ERR_DEVICE_UNSUPPORTED, naming the kernel, if one got no group
 * to start on; else COOP_OK (also for share NULL). */
coop_status coop_share_started(coop_share *share);

/* One pass: samples every block, records finishes, and moves groups and sets kill tokens toward
 * the weighted shares; a task gathers in block `gathering_block` needing `need` more groups (-1:
 * none gathers). Returns 1 once every kernel has finished. */
int coop_share_step(coop_share *share, double now_us, int gathering_block, unsigned need);

/* The watchdog's progress: whether any kernel's barriers, resizes, finished members or tasks
 * changed since the last call. */
int coop_share_progress(coop_share *share);

/* The block the next task request goes to (the one holding the most groups), and its groups. */
unsigned coop_share_task_block(const coop_share *share, unsigned *groups);

/* Before a task request to `block`: its share kill tokens and moves out are cancelled (K7: the
 * request finds the tokens' word 0). */
void coop_share_before_task(coop_share *share, unsigned block);

/* Before the shutdown request: every move and share token cancelled, EXIT in blocks 1 ..
 * kernels-1 (block 0's is the request's). */
void coop_share_shutdown(coop_share *share);

/* Kernel k's name, from the program's comment ("#k" where it has none). */
const char *coop_share_name(const coop_share *share, unsigned k);

/* Each kernel's report. */
void coop_share_report(const coop_share *share, coop_kernel_report *reports);

/* Appends to `out` what each kernel waits for, from its block's group states. */
void coop_share_describe(const coop_share *share, const char *source, char *out, size_t size);

#endif
