/* Word layout of the two memory areas a persistent kernel shares with libcoop.
 *
 * This header is read both by the host library (C11) and by kernels (OpenCL C), so it holds
 * only enumerations. Every slot is a 32-bit unsigned word.
 *
 * - The channel is host-visible while the kernel runs (fine-grained SVM, an NVIDIA host
 *   buffer, or a device buffer read through a second queue). Only low-rate control traffic
 *   goes through it: it may live across PCIe.
 * - The device area is ordinary device memory: barrier flags and other hot words.
 */
#ifndef COOP_LAYOUT_H
#define COOP_LAYOUT_H

enum coop_chan_slot {
    COOP_CHAN_SEEN = 0,        /* groups registered so far, forwarded by the discovery leader */
    COOP_CHAN_CLOSE = 1,       /* host -> kernel: 1 closes the discovery poll */
    COOP_CHAN_GROUPS = 2,      /* kernel -> host: final number of co-resident groups (0 until known) */
    COOP_CHAN_BARRIERS = 3,    /* kernel -> host: global barriers completed (progress, for watchdogs) */
    COOP_CHAN_ECHO_IN = 4,     /* host -> kernel: round-trip probe value */
    COOP_CHAN_ECHO_OUT = 5,    /* kernel -> host: the probe value echoed back */
    COOP_CHAN_WORDS = 64       /* the channel is this many words, one cache-line group of slack */
};

/* Bit set in COOP_DEV_REG once the discovery poll is closed; the low bits count registrations. */
#define COOP_REG_CLOSED 0x80000000u
/* Group id of a workgroup that found the poll closed: it is not co-resident and leaves. */
#define COOP_NO_GROUP 0xffffffffu

enum coop_dev_slot {
    COOP_DEV_REG = 0,          /* registration ticket counter | COOP_REG_CLOSED */
    COOP_DEV_MAX_GROUPS = 1,   /* host -> kernel: register at most this many groups */
    COOP_DEV_GROUPS = 2,       /* current number of active groups */
    COOP_DEV_BAR_COUNT = 32,   /* counter barrier: arrivals in the current epoch (own 128-byte line) */
    COOP_DEV_BAR_RELEASE = 64, /* epoch of the last barrier released (own 128-byte line) */
    COOP_DEV_ARRIVE = 96,      /* flag barrier: one arrival word per group from here */
    COOP_DEV_FIXED_WORDS = 96  /* device area size is COOP_DEV_FIXED_WORDS + launched groups */
};

#endif
