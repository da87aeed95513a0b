/* priority.h: the fixed node priorities of color.h (Jones-Plassmann) and mis.h (Luby): a hash of
 * the node's id, ties broken by the id, so that every sweep and every form agrees on them. */
#ifndef KERNELS_LIB_PRIORITY_H
#define KERNELS_LIB_PRIORITY_H

#include "hash.h"

/* Node v's priority: murmur3's 32-bit finaliser of its id. */
inline uint priority_of(uint v)
{
    return hash_fmix32(v);
}

/* 1 when node u, of priority pu, outranks node v, of priority pv. Without branches: NVIDIA's
 * compiler then predicates the loops that call it in the megakernels too (with && and ||,
 * color.h's branched there and not in the standalone kernel, which ran 5-9% faster on power-law
 * graphs: H200). */
inline uint priority_outranks(uint u, uint pu, uint v, uint pv)
{
    return (pu > pv) | ((pu == pv) & (u > v));
}

#endif
