/* parse.h: the first pass (parse.c). Reads the input files, parses each with libclang as its own
 * translation unit with a small prelude (the language's primitives and annotations), tokenizes
 * them and the headers they include, and answers the later passes' questions about locations,
 * tokens and cursors. Nothing works on the kernel text except through these. */
#ifndef COOP_MERGE_PARSE_H
#define COOP_MERGE_PARSE_H

#include "merge.h"

/* libcoop's kernel header, as the compile check puts it in front of the merged program. */
#define MT_KERNEL_HEADER_PATH "/coop-merge/coop_kernel.h"

/* Reading and parsing, one input file after the other (main judges each file's text with
 * validation's mt_validate_text between reading and parsing it), then the headers. */
void mt_open(mt_merge *merge);
int mt_read(mt_merge *merge, size_t input);
void mt_parse(mt_merge *merge, size_t input);
int mt_parse_headers(mt_merge *merge);
void mt_unload(mt_merge *merge);
const char **mt_clang_arguments(const mt_merge *merge, const char *const *target, const char *prelude_path,
                                int *count);

/* Locations and tokens. */
unsigned mt_offset(const mt_file *file, CXSourceLocation location, int *in_file);
void mt_line_column(const mt_file *file, unsigned offset, unsigned *line, unsigned *column);
int mt_plain_range(const mt_file *file, CXCursor cursor, unsigned *begin, unsigned *end);
void mt_extent(const mt_file *file, CXCursor cursor, unsigned *begin, unsigned *end);
size_t mt_token_at(const mt_file *file, unsigned offset);
int mt_token_is(const mt_file *file, size_t token, const char *spelling);
unsigned mt_statement_end(const mt_file *file, CXCursor statement);
void mt_expression_range(const mt_file *file, CXCursor expression, unsigned *begin, unsigned *end);
mt_file *mt_file_of(mt_merge *merge, const mt_file *unit, CXCursor cursor);

/* Cursors. */
char *mt_spelling(CXCursor cursor);
int mt_same(CXCursor a, CXCursor b);
int mt_function_body(CXCursor function, CXCursor *body);
int mt_in_prelude(CXCursor declaration);
int mt_is_builtin(CXCursor declaration);

#endif
