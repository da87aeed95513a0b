/* compile.h: the check after emit that the merged program compiles (compile.c). */
#ifndef COOP_MERGE_COMPILE_H
#define COOP_MERGE_COMPILE_H

#include "merge.h"

int mt_compile_check(mt_merge *merge, const char *text);

#endif
