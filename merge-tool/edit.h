/* edit.h: edits on the files' text (merge.h's mt_edit), recorded by the rewrites and applied when
 * the program is emitted. */
#ifndef COOP_MERGE_EDIT_H
#define COOP_MERGE_EDIT_H

#include "merge.h"

void mt_edit_add(mt_file *file, unsigned begin, unsigned end, int rank, const char *text);
void mt_remove(mt_file *file, unsigned begin, unsigned end);
int mt_edits_apply(const mt_file *file, mt_buf *out, mt_spans *spans);
char *mt_render(const mt_file *file, unsigned begin, unsigned end);

#endif
