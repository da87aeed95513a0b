/* hash.h: murmur3's 32-bit finaliser, the kernels' hash of node ids (priority.h's priorities,
 * demo.cl's fingerprints); host/common/hash.h is the host's copy, for code that replays them. */
#ifndef KERNELS_LIB_HASH_H
#define KERNELS_LIB_HASH_H

/* A bijection of x: each output bit depends on every input bit. */
inline uint hash_fmix32(uint x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

#endif
