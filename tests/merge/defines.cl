/* -I and -D reach the parser; -D also goes into the merged program. */
#include "params.h"

#ifdef FAST
#define SCALE 2
#else
#define SCALE 1
#endif

kernel void defines(global uint *data)
{
    data[get_global_id(0)] = WIDTH * SCALE + HEADER_VALUE;
}
