/* Helpers and types shared by headers.cl and tasks_headers.cl through #include: a struct type, a
 * macro, and helpers that ask for the work-group ids (coop-merge rewrites them as it rewrites the
 * files it is given). */
#ifndef MERGE_TEST_GRID_H
#define MERGE_TEST_GRID_H

#define GRID_STRIDE(groups) ((groups) * get_local_size(0))

typedef struct span {
    uint first, stride;
} span;

inline span my_span(void)
{
    span s = {get_group_id(0) * get_local_size(0) + get_local_id(0), GRID_STRIDE(get_num_groups(0))};
    return s;
}

inline uint mix(uint value, uint round)
{
    return value * 3u + round;
}

#endif
