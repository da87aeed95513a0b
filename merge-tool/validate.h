/* validate.h: the third pass (validate.c), which owns coop-merge's diagnostics: every rejection
 * of an input, and the warnings (-Werror makes them rejections too). */
#ifndef COOP_MERGE_VALIDATE_H
#define COOP_MERGE_VALIDATE_H

#include "analyse.h"

/* Rejects an input file with a NUL byte (after mt_read, before mt_parse). Returns 0 if it is
 * text. */
int mt_validate_text(mt_merge *merge, const mt_file *file);

/* Judges the analysis's facts. Returns 0 if the input can be merged; otherwise the errors have
 * been reported. */
int mt_validate(mt_merge *merge);

#endif
