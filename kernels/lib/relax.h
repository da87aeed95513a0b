/* relax.h: the relaxation sssp.h and sssp_bf.h share: an arc offers its head the tail's distance
 * plus its weight, and the head's distance drops to that by atomic_min when it is less. Sums
 * saturate at RELAX_CAP (the host rejects graphs whose distances reach it); RELAX_UNREACHED is
 * a distance not reached yet. */
#ifndef KERNELS_LIB_RELAX_H
#define KERNELS_LIB_RELAX_H

#define RELAX_UNREACHED 0xffffffffu
#define RELAX_CAP 0xfffffffeu

/* du plus weight w, capped at RELAX_CAP. */
inline uint relax_through(uint du, uint w)
{
    uint through = du + w;
    return through < du || through > RELAX_CAP ? RELAX_CAP : through;
}

/* Head v, whose distance read `seen`, offered distance `through`: 1 when this call lowered it. */
inline uint relax_lower(uint v, uint through, uint seen, volatile global uint *dist)
{
    return through < seen && atomic_min(&dist[v], through) > through;
}

#endif
