/* rewrite.c: the rewrites every input function gets: kernels become functions taking the
 * context, helpers that need it take it too, work-group ids become the virtualized ones, and
 * `local` variables of kernels become pointers to the megakernel's. */
#include "merge.h"

#include "coop_layout.h"

#include <stdlib.h>
#include <string.h>

/* clang spells a private variable's type with its implicit address space ("__private int");
 * a declaration must not say it. Removes the word from a type spelling clang produced. */
static char *without_private(const char *spelling)
{
    static const char word[] = "__private";
    mt_buf buf = {0};
    const char *at = spelling;
    for (const char *hit; (hit = strstr(at, word));) {
        int starts = hit == spelling || hit[-1] == ' ' || hit[-1] == '*' || hit[-1] == '(';
        int ends = hit[sizeof word - 1] == '\0' || hit[sizeof word - 1] == ' ' || hit[sizeof word - 1] == ')';
        size_t skip = sizeof word - 1 + (hit[sizeof word - 1] == ' ');
        mt_buf_addn(&buf, at, (size_t)(hit - at));
        if (!(starts && ends))
            mt_buf_addn(&buf, hit, sizeof word - 1);
        at = hit + (starts && ends ? skip : sizeof word - 1);
    }
    mt_buf_add(&buf, at);
    size_t length = buf.length;
    while (length && buf.data[length - 1] == ' ')
        buf.data[--length] = '\0';
    return buf.data;
}

/* A declaration of `name` with the given type: arrays become declarator suffixes
 * ("__local float tile[16][17]"); the private address space is left implicit. */
char *mt_declarator(CXType type, const char *name)
{
    mt_buf suffix = {0};
    mt_buf_add(&suffix, "");
    while (type.kind == CXType_ConstantArray) {
        mt_buf_printf(&suffix, "[%lld]", clang_getArraySize(type));
        type = clang_getArrayElementType(type);
    }
    CXString spelling = clang_getTypeSpelling(type);
    char *base = without_private(clang_getCString(spelling));
    clang_disposeString(spelling);
    char *text = mt_printf("%s %s%s", base, name, suffix.data);
    free(base);
    mt_buf_free(&suffix);
    return text;
}

/* ---- Function headers -------------------------------------------------------------------- */

/* A kernel's header becomes an ordinary function's: `void NAME(coop_ctx *ctx, params, locals)`. */
static void rewrite_kernel_header(mt_merge *merge, mt_func *func)
{
    mt_file *file = func->file;
    CXCursor body;
    int found = mt_function_body(func->def, &body);
    unsigned begin, end, body_begin = 0, body_end = 0;
    mt_extent(file, func->def, &begin, &end);
    if (found)
        mt_extent(file, body, &body_begin, &body_end);
    size_t brace = mt_token_at(file, body_begin);
    if (!found || brace == 0 || brace >= file->token_count || file->tokens[brace].begin != body_begin) {
        mt_error_at(merge, file, func->def, "write the kernel's header and braces without macros",
                    "cannot find the body of kernel '%s'", func->name);
        return;
    }
    unsigned header_end = file->tokens[brace - 1].end;
    mt_buf header = {0};
    mt_buf_printf(&header, "void %s(coop_ctx *ctx", func->name);
    for (size_t i = 0; i < func->param_count; i++)
        mt_buf_printf(&header, ", %s", func->params[i].text);
    for (size_t i = 0; i < func->local_count; i++)
        mt_buf_printf(&header, ", %s", func->locals[i].param_decl);
    mt_buf_add(&header, ")");
    mt_edit_add(file, begin, header_end, 0, header.data);
    mt_buf_free(&header);
}

/* Adds the context parameter to a declaration or definition of a helper. */
static void add_ctx_parameter(mt_merge *merge, mt_file *file, CXCursor decl)
{
    int in_file = 0;
    unsigned name_at = mt_offset(file, clang_getCursorLocation(decl), &in_file);
    size_t token = mt_token_at(file, name_at);
    char *name = mt_spelling(decl);
    int plain = in_file && token + 1 < file->token_count && file->tokens[token].begin == name_at &&
                !strcmp(file->tokens[token].spelling, name) && mt_token_is(file, token + 1, "(");
    if (!plain) {
        mt_error_at(merge, file, decl, "write the function's name and parameter list without macros",
                    "cannot add the context parameter to '%s'", name);
        free(name);
        return;
    }
    free(name);
    const mt_token *open = &file->tokens[token + 1];
    if (mt_token_is(file, token + 2, ")"))
        mt_edit_add(file, open->end, open->end, 0, "coop_ctx *ctx");
    else if (mt_token_is(file, token + 2, "void") && mt_token_is(file, token + 3, ")"))
        mt_edit_add(file, file->tokens[token + 2].begin, file->tokens[token + 2].end, 0, "coop_ctx *ctx");
    else
        mt_edit_add(file, open->end, open->end, 0, "coop_ctx *ctx, ");
}

typedef struct decl_walk {
    mt_merge *merge;
    mt_file *file;
} decl_walk;

static enum CXChildVisitResult rewrite_declarations(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    decl_walk *walk = data;
    if (clang_getCursorKind(cursor) != CXCursor_FunctionDecl)
        return CXChildVisit_Continue;
    int in_file = 0;
    mt_offset(walk->file, clang_getCursorLocation(cursor), &in_file);
    if (!in_file)
        return CXChildVisit_Continue;
    CXString usr = clang_getCursorUSR(cursor);
    const char *text = clang_getCString(usr);
    for (size_t i = 0; text && i < walk->merge->func_count; i++) {
        const mt_func *func = &walk->merge->funcs[i];
        if (!func->is_kernel && func->needs_ctx && !strcmp(func->usr, text)) {
            add_ctx_parameter(walk->merge, walk->file, cursor);
            break;
        }
    }
    clang_disposeString(usr);
    return CXChildVisit_Continue;
}

/* ---- Function bodies --------------------------------------------------------------------- */

typedef struct body_walk {
    mt_merge *merge;
    mt_func *func;
} body_walk;

static void rewrite_id_call(body_walk *walk, CXCursor call, enum mt_id_call id)
{
    static const char *const names[] = {
        [MT_ID_GROUP_ID] = "coop_group_id",
        [MT_ID_NUM_GROUPS] = "coop_num_groups",
        [MT_ID_GLOBAL_ID] = "coop_global_id",
        [MT_ID_GLOBAL_SIZE] = "coop_global_size",
        [MT_ID_TASK_ARG] = "coop_task_arg",
        [MT_ID_SHARED_NUM_GROUPS] = "coop_shared_num_groups",
    };
    /* The standalone form never resizes: M is the group's copy from its start. */
    const char *target = names[id];
    if (walk->merge->options.standalone) {
        if (id == MT_ID_NUM_GROUPS || id == MT_ID_SHARED_NUM_GROUPS)
            target = "coop_fixed_num_groups";
        else if (id == MT_ID_GLOBAL_SIZE)
            target = "coop_fixed_global_size";
    }
    mt_file *file = walk->func->file;
    unsigned begin, end;
    char *name = mt_spelling(call);
    if (!mt_plain_range(file, call, &begin, &end) || !mt_token_is(file, mt_token_at(file, begin) + 1, "(")) {
        mt_error_at(walk->merge, file, call, "call it directly in the kernel's text",
                    "%s() inside a macro: coop-merge rewrites calls only where they are written", name);
        free(name);
        return;
    }
    free(name);
    size_t open = mt_token_at(file, begin) + 1;
    if (id == MT_ID_TASK_ARG) {
        CXEvalResult value = clang_Cursor_Evaluate(clang_Cursor_getArgument(call, 0));
        if (value && clang_EvalResult_getKind(value) == CXEval_Int &&
            (clang_EvalResult_getAsLongLong(value) < 0 || clang_EvalResult_getAsLongLong(value) >= COOP_TASK_ARGS))
            mt_error_at(walk->merge, file, call, "coop_task_plan.args has COOP_TASK_ARGS words: use 0 .. 15",
                        "get_task_arg(%lld): no such task argument", clang_EvalResult_getAsLongLong(value));
        if (value)
            clang_EvalResult_dispose(value);
    }
    if (id == MT_ID_SHARED_NUM_GROUPS) {
        mt_edit_add(file, begin, file->tokens[open - 1].end, MT_RANK_REPLACE, target);
        mt_edit_add(file, file->tokens[open].end, file->tokens[open].end, 0, "ctx");
        return;
    }
    if (id == MT_ID_GLOBAL_ID || id == MT_ID_GLOBAL_SIZE || id == MT_ID_TASK_ARG) {
        mt_edit_add(file, begin, file->tokens[open - 1].end, MT_RANK_REPLACE, target);
        mt_edit_add(file, file->tokens[open].end, file->tokens[open].end, 0, "ctx, ");
        return;
    }
    CXCursor arg = clang_Cursor_getArgument(call, 0);
    CXEvalResult value = clang_Cursor_Evaluate(arg);
    int constant = value && clang_EvalResult_getKind(value) == CXEval_Int;
    long long dimension = constant ? clang_EvalResult_getAsLongLong(value) : -1;
    if (value)
        clang_EvalResult_dispose(value);
    if (!constant) {
        mt_error_at(walk->merge, file, call, "use a constant dimension (0 in a persistent kernel)",
                    "%s() with a dimension that is not a constant", id == MT_ID_GROUP_ID ? "get_group_id"
                                                                                        : "get_num_groups");
        return;
    }
    if (dimension != 0)
        return; /* persistent groups are one-dimensional: 0 and 1 stay right */
    char *text = mt_printf("((size_t)%s(ctx))", target);
    mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
    free(text);
}

static void rewrite_helper_call(body_walk *walk, CXCursor call, const mt_func *callee)
{
    mt_file *file = walk->func->file;
    unsigned begin, end;
    int plain = mt_plain_range(file, call, &begin, &end);
    size_t name = mt_token_at(file, begin);
    if (!plain || !mt_token_is(file, name + 1, "(")) {
        mt_error_at(walk->merge, file, call, "call it directly in the kernel's text",
                    "call to '%s' inside a macro: coop-merge must add the context argument where the call is "
                    "written", callee->name);
        return;
    }
    const mt_token *open = &file->tokens[name + 1];
    const char *text = clang_Cursor_getNumArguments(call) > 0 ? "ctx, " : "ctx";
    mt_edit_add(file, open->end, open->end, 0, text);
}

static void rewrite_local_use(body_walk *walk, CXCursor ref, const mt_local *local)
{
    mt_file *file = walk->func->file;
    unsigned begin, end;
    if (!mt_plain_range(file, ref, &begin, &end)) {
        mt_error_at(walk->merge, file, ref, "use the variable directly in the kernel's text",
                    "local variable '%s' used inside a macro: coop-merge moves it to the megakernel and must "
                    "rewrite every use", local->name);
        return;
    }
    char *text = mt_printf("(*%s)", local->name);
    mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
    free(text);
}

/* By the declarator's location alone: libclang gives the second and later declarators of one
 * declaration (`local uint a[4], b[4];`) another extent when they are reached from a use. */
static const mt_local *local_of(const mt_func *func, CXCursor var)
{
    for (size_t i = 0; i < func->local_count; i++)
        if (clang_getCursorKind(var) == CXCursor_VarDecl &&
            clang_equalLocations(clang_getCursorLocation(func->locals[i].decl), clang_getCursorLocation(var)))
            return &func->locals[i];
    return NULL;
}

static enum CXChildVisitResult walk_body(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    body_walk *walk = data;
    mt_func *func = walk->func;
    mt_file *file = func->file;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_CallExpr) {
        enum mt_id_call id = mt_id_call_of(cursor);
        if (id) {
            rewrite_id_call(walk, cursor, id);
            return id == MT_ID_GROUP_ID || id == MT_ID_NUM_GROUPS || id == MT_ID_SHARED_NUM_GROUPS
                       ? CXChildVisit_Continue
                       : CXChildVisit_Recurse;
        }
        if (mt_primitive_of(cursor) == MT_PRIM_VOTE && !func->is_coop) {
            unsigned begin, end;
            size_t name = 0;
            if (mt_plain_range(file, cursor, &begin, &end) && mt_token_is(file, (name = mt_token_at(file, begin)) + 1, "(")) {
                mt_edit_add(file, begin, file->tokens[name].end, MT_RANK_REPLACE, "coop_global_barrier_any");
                mt_edit_add(file, file->tokens[name + 1].end, file->tokens[name + 1].end, 0, "ctx, ");
            } else {
                mt_error_at(walk->merge, file, cursor, "call it directly in the function's text",
                            "global_barrier_any() inside a macro");
            }
            return CXChildVisit_Recurse;
        }
        if (mt_primitive_of(cursor) == MT_PRIM_BARRIER && !func->is_coop) {
            unsigned begin, end;
            if (mt_plain_range(file, cursor, &begin, &end))
                mt_edit_add(file, begin, end, MT_RANK_REPLACE, "coop_global_barrier(ctx)");
            else
                mt_error_at(walk->merge, file, cursor, "call it directly in the function's text",
                            "global_barrier() inside a macro");
            return CXChildVisit_Continue;
        }
        const mt_func *callee = mt_callee(walk->merge, file, cursor);
        if (callee && callee->needs_ctx && !callee->is_kernel)
            rewrite_helper_call(walk, cursor, callee);
    } else if (kind == CXCursor_DeclRefExpr && func->local_count) {
        const mt_local *local = local_of(func, clang_getCursorReferenced(cursor));
        if (local)
            rewrite_local_use(walk, cursor, local);
    }
    return CXChildVisit_Recurse;
}

static void rewrite_bodies(mt_merge *merge, mt_func *func)
{
    CXCursor body;
    if (!mt_function_body(func->def, &body))
        return;
    body_walk walk = {.merge = merge, .func = func};
    clang_visitChildren(body, walk_body, &walk);
    /* `local` declarations move to the megakernel: their statements go. */
    for (size_t i = 0; i < func->local_count; i++) {
        unsigned begin, end;
        mt_extent(func->file, func->locals[i].stmt, &begin, &end);
        mt_remove(func->file, begin, end);
    }
}

void mt_rewrite(mt_merge *merge)
{
    for (size_t f = 0; f < merge->file_count; f++) {
        decl_walk walk = {.merge = merge, .file = &merge->files[f]};
        clang_visitChildren(clang_getTranslationUnitCursor(merge->files[f].tu), rewrite_declarations, &walk);
    }
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (!func->in_user_file)
            continue;
        if (func->is_kernel)
            rewrite_kernel_header(merge, func);
        rewrite_bodies(merge, func);
    }
}
