/* The library's version (coop.h's COOP_VERSION_*, which the Makefile also reads for the
 * soname and coop.pc). */
#include "internal.h"

const char *coop_version(void)
{
    return COOP_VERSION_STRING;
}
