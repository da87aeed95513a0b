/* rewrite.h: the fourth pass (rewrite.c, rewrite_functions.c, rewrite_control.c,
 * rewrite_text.c). Records the rewrites as edits on source ranges of the files' own text:
 * rewrite_functions.c for calls, ids, locals and kernel headers, rewrite_control.c for the
 * cooperative kernel's kill, fork and resume control flow and its transmit variables,
 * rewrite_text.c for what both write. It runs only on input that validation accepted. */
#ifndef COOP_MERGE_REWRITE_H
#define COOP_MERGE_REWRITE_H

#include "analyse.h"

void mt_rewrite(mt_merge *merge);

/* Between the pass's files. */
void mt_rewrite_functions(mt_merge *merge);
void mt_rewrite_cooperative(mt_merge *merge);
char *mt_declarator(CXType type, const char *name);
char *mt_barrier_site(mt_merge *merge, const mt_file *file, unsigned offset, enum mt_primitive primitive);
char *mt_indent_at(const mt_file *file, unsigned offset);
char *mt_padded(const char *indent, unsigned levels);

/* coop_pocl_join() after a statement goes inside the wraps that close at its end (and its opening
 * brace, where it needs one, outside those that open there). */
#define MT_JOIN_RANK (2 * MT_RANK_CLOSE)

/* rewrite_joins.c */
int mt_is_loop(const mt_stmt *s);
/* Whether a statement is or holds a `break` or `continue` of the loop around it. */
int mt_holds_jump(const mt_stmt *s);
/* The joins statement `s` gets; none in front of it unless `in_front` (rewrite_block says where). */
void mt_join_statement(const mt_control *c, const mt_stmt *s, int in_front);

#endif
