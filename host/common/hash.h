/* hash.h: murmur3's 32-bit finaliser, the hash the kernels give node ids (kernels/lib/hash.h),
 * for host code that replays what they compute. */
#ifndef HOST_COMMON_HASH_H
#define HOST_COMMON_HASH_H

#include <stdint.h>

static inline uint32_t hash_fmix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

#endif
