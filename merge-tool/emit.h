/* emit.h: the last pass (emit.c). Applies each file's edits and assembles the merged program
 * (the rewritten files, headers pasted at their first #include, and the megakernel entry) and
 * the host header. */
#ifndef COOP_MERGE_EMIT_H
#define COOP_MERGE_EMIT_H

#include "merge.h"

int mt_emit(mt_merge *merge, mt_buf *program, mt_buf *header);

#endif
