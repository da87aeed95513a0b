/* rewrite_functions.c: the rewrites every input function gets (rewrite.h): kernels become
 * functions taking the context, helpers that need it take it too, work-group ids become the
 * virtualized ones, and `local` variables of kernels become pointers to the megakernel's. It
 * records edits on the sites the analysis found; validation has rejected every site it could not
 * rewrite. */
#include "rewrite.h"

#include "edit.h"
#include "coop_layout.h"

#include <stdlib.h>
#include <string.h>

/* ---- Function headers -------------------------------------------------------------------- */

/* A kernel's header becomes an ordinary function's: `void NAME(coop_ctx *ctx, params, locals)`. */
static void rewrite_kernel_header(mt_func *func)
{
    mt_file *file = func->file;
    unsigned begin, end;
    mt_extent(file, func->def, &begin, &end);
    mt_buf header = {0};
    mt_buf_printf(&header, "void %s(coop_ctx *ctx", func->name);
    for (size_t i = 0; i < func->param_count; i++)
        mt_buf_printf(&header, ", %s", func->params[i].text);
    for (size_t i = 0; i < func->local_count; i++)
        mt_buf_printf(&header, ", %s", func->locals[i].param_decl);
    mt_buf_add(&header, ")");
    mt_edit_add(file, begin, func->header_end, 0, header.data);
    mt_buf_free(&header);
}

/* Adds the context parameter to a declaration or definition of a helper. */
static void add_ctx_parameter(mt_file *file, CXCursor decl)
{
    size_t token;
    mt_ctx_parameter_token(file, decl, &token);
    const mt_token *open = &file->tokens[token + 1];
    if (mt_token_is(file, token + 2, ")"))
        mt_edit_add(file, open->end, open->end, 0, "coop_ctx *ctx");
    else if (mt_token_is(file, token + 2, "void") && mt_token_is(file, token + 3, ")"))
        mt_edit_add(file, file->tokens[token + 2].begin, file->tokens[token + 2].end, 0, "coop_ctx *ctx");
    else
        mt_edit_add(file, open->end, open->end, 0, "coop_ctx *ctx, ");
}

/* ---- Function bodies --------------------------------------------------------------------- */

/* spawn_task("NAME", workgroups, words...) becomes coop_spawn(ctx, INDEX, workgroups, words...,
 * 0u...): coop_device/spawn.h's call takes every one of the COOP_TASK_ARGS words. */
static void rewrite_spawn(const mt_merge *merge, mt_file *file, CXCursor call)
{
    unsigned begin, end, name_begin, name_end;
    mt_plain_call(file, call, &begin, &end);
    mt_extent(file, clang_Cursor_getArgument(call, 0), &name_begin, &name_end);
    char *name = NULL;
    char *text = mt_printf("coop_spawn(ctx, %ldu", mt_spawned_task(merge, call, &name));
    free(name);
    mt_edit_add(file, begin, name_end, MT_RANK_REPLACE, text);
    free(text);
    mt_buf zeros = {0};
    for (int words = clang_Cursor_getNumArguments(call) - 2; words < (int)COOP_TASK_ARGS; words++)
        mt_buf_add(&zeros, ", 0u");
    const mt_token *close = &file->tokens[mt_token_at(file, end) - 1];
    if (zeros.data)
        mt_edit_add(file, close->begin, close->begin, MT_RANK_CLOSE, zeros.data);
    mt_buf_free(&zeros);
}

static void rewrite_id_call(const mt_merge *merge, mt_file *file, CXCursor call, enum mt_id_call id)
{
    if (id == MT_ID_SPAWN_TASK) {
        rewrite_spawn(merge, file, call);
        return;
    }
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
    if (merge->options.standalone) {
        if (id == MT_ID_NUM_GROUPS || id == MT_ID_SHARED_NUM_GROUPS)
            target = "coop_fixed_num_groups";
        else if (id == MT_ID_GLOBAL_SIZE)
            target = "coop_fixed_global_size";
    }
    unsigned begin, end;
    mt_plain_call(file, call, &begin, &end);
    size_t open = mt_token_at(file, begin) + 1;
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
    long long dimension;
    mt_constant_argument(call, &dimension);
    if (dimension != 0)
        return; /* persistent groups are one-dimensional: 0 and 1 stay right */
    char *text = mt_printf("((size_t)%s(ctx))", target);
    mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
    free(text);
}

static void rewrite_site(mt_merge *merge, mt_func *func, const mt_site *site)
{
    mt_file *file = func->file;
    unsigned begin, end;
    switch (site->kind) {
    case MT_SITE_ID:
        rewrite_id_call(merge, file, site->cursor, site->id);
        break;
    case MT_SITE_VOTE: {
        mt_plain_call(file, site->cursor, &begin, &end);
        size_t name = mt_token_at(file, begin);
        char *at = mt_barrier_site(merge, file, begin, MT_PRIM_VOTE);
        char *text = mt_printf("(%scoop_global_barrier_any", at);
        mt_edit_add(file, begin, file->tokens[name].end, MT_RANK_REPLACE, text);
        mt_edit_add(file, file->tokens[name + 1].end, file->tokens[name + 1].end, 0, "ctx, ");
        mt_edit_add(file, end, end, MT_RANK_CLOSE, ")");
        free(text);
        free(at);
        break;
    }
    case MT_SITE_BARRIER: {
        mt_plain_range(file, site->cursor, &begin, &end);
        char *at = mt_barrier_site(merge, file, begin, MT_PRIM_BARRIER);
        char *text = mt_printf("%scoop_global_barrier(ctx)", at);
        mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
        free(text);
        free(at);
        break;
    }
    case MT_SITE_HELPER_CALL: {
        mt_plain_call(file, site->cursor, &begin, &end);
        const mt_token *open = &file->tokens[mt_token_at(file, begin) + 1];
        const char *text = clang_Cursor_getNumArguments(site->cursor) > 0 ? "ctx, " : "ctx";
        mt_edit_add(file, open->end, open->end, 0, text);
        break;
    }
    case MT_SITE_LOCAL_USE: {
        mt_plain_range(file, site->cursor, &begin, &end);
        char *text = mt_printf("(*%s)", func->locals[site->index].name);
        mt_edit_add(file, begin, end, MT_RANK_REPLACE, text);
        free(text);
        break;
    }
    }
}

/* A kernel's `local` variables: their names and declarations in the entry, and their pointer
 * parameters of the kernel. */
static void name_locals(mt_func *func)
{
    for (size_t i = 0; i < func->local_count; i++) {
        mt_local *local = &func->locals[i];
        local->entry_name = mt_printf("coop_local_%s_%s", func->name, local->name);
        CXType type = clang_getCursorType(local->decl);
        local->entry_decl = mt_declarator(type, local->entry_name);
        char *pointer = mt_printf("(*%s)", local->name);
        local->param_decl = mt_declarator(type, pointer);
        free(pointer);
    }
}

void mt_rewrite_functions(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++)
        name_locals(&merge->funcs[i]);
    for (size_t f = 0; f < merge->file_count; f++)
        for (size_t d = 0; d < merge->files[f].ctx_decl_count; d++)
            add_ctx_parameter(&merge->files[f], merge->files[f].ctx_decls[d]);
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        if (!func->in_user_file)
            continue;
        if (func->is_kernel)
            rewrite_kernel_header(func);
        for (size_t s = 0; s < func->site_count; s++)
            rewrite_site(merge, func, &func->sites[s]);
        /* `local` declarations move to the megakernel: their statements go. */
        for (size_t l = 0; l < func->local_count; l++) {
            unsigned begin, end;
            mt_extent(func->file, func->locals[l].stmt, &begin, &end);
            mt_remove(func->file, begin, end);
        }
    }
}
