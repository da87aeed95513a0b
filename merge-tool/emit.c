/* emit.c: the merged program (the rewritten files and the megakernel entry) and the host header
 * (emit.h). */
#include "emit.h"

#include "edit.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct names {
    const char **items;
    size_t count, capacity;
} names;

static int taken(const names *used, const char *name)
{
    for (size_t i = 0; i < used->count; i++)
        if (!strcmp(used->items[i], name))
            return 1;
    return 0;
}

/* `base`, or base_2, base_3, ... whichever is free first; the result is malloc'ed. */
static char *unique(names *used, const char *base)
{
    char *name = mt_strdup(base);
    for (unsigned n = 2; taken(used, name); n++) {
        free(name);
        name = mt_printf("%s_%u", base, n);
    }
    return name;
}

/* The entry's kernels: the cooperative ones, then the tasks (the standalone form: the one
 * cooperative kernel). */
static size_t entry_kernels(const mt_merge *merge)
{
    return merge->options.standalone ? 1 : merge->coop_count + merge->task_count;
}

static mt_func *entry_kernel(const mt_merge *merge, size_t k)
{
    return &merge->funcs[k < merge->coop_count ? merge->coops[k] : merge->tasks[k - merge->coop_count]];
}

/* Names the entry and its parameters: a parameter keeps its name unless another kernel's
 * parameter, a function or the entry's own variables already use it; then it is
 * <kernel>_<name>. */
static void name_entry(mt_merge *merge, names *used)
{
    static const char *const reserved[] = {"ctx", "ctx_scratch_", "role", "coop_chan_", "coop_dev_"};
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        MT_PUSH(used->items, used->count, used->capacity, reserved[i]);
    for (size_t i = 0; i < merge->func_count; i++)
        MT_PUSH(used->items, used->count, used->capacity, merge->funcs[i].name);
    const mt_func *coop = &merge->funcs[merge->coops[0]];
    char *base = mt_printf("%s_%s", coop->name, merge->options.standalone ? "standalone" : "mega");
    merge->entry_name = unique(used, base);
    free(base);
    MT_PUSH(used->items, used->count, used->capacity, merge->entry_name);
    size_t kernels = merge->coop_count + merge->task_count;
    for (size_t k = 0; k < kernels; k++) {
        mt_func *func = entry_kernel(merge, k);
        for (size_t i = 0; i < func->local_count; i++)
            MT_PUSH(used->items, used->count, used->capacity, func->locals[i].entry_name);
    }
    for (size_t k = 0; k < kernels; k++) {
        mt_func *func = entry_kernel(merge, k);
        for (size_t i = 0; i < func->param_count; i++) {
            mt_param *param = &func->params[i];
            if (!taken(used, param->name)) {
                param->entry_name = mt_strdup(param->name);
            } else {
                char *renamed = mt_printf("%s_%s", func->name, param->name);
                param->entry_name = unique(used, renamed);
                free(renamed);
            }
            MT_PUSH(used->items, used->count, used->capacity, param->entry_name);
        }
    }
}

static void add_entry_parameter(mt_buf *out, const mt_param *param)
{
    size_t length = strlen(param->text);
    size_t at = param->name_offset <= length ? param->name_offset : length;
    size_t name_length = strlen(param->name);
    mt_buf_add(out, ", ");
    mt_buf_addn(out, param->text, at);
    mt_buf_add(out, param->entry_name);
    if (at + name_length <= length && !strncmp(param->text + at, param->name, name_length))
        mt_buf_add(out, param->text + at + name_length);
    else
        mt_buf_add(out, param->text + at);
}

/* `name(&ctx, args..., &locals...)` */
static void add_call(mt_buf *out, const mt_func *func)
{
    mt_buf_printf(out, "%s(&ctx", func->name);
    for (size_t i = 0; i < func->param_count; i++)
        mt_buf_printf(out, ", %s", func->params[i].entry_name);
    for (size_t i = 0; i < func->local_count; i++)
        mt_buf_printf(out, ", &%s", func->locals[i].entry_name);
    mt_buf_add(out, ");\n");
}

static void emit_entry(mt_merge *merge, mt_buf *out)
{
    size_t kernels = entry_kernels(merge);
    mt_buf_printf(out, "kernel void %s(COOP_PARAMS", merge->entry_name);
    for (size_t k = 0; k < kernels; k++) {
        const mt_func *func = entry_kernel(merge, k);
        for (size_t i = 0; i < func->param_count; i++)
            add_entry_parameter(out, &func->params[i]);
    }
    mt_buf_add(out, ")\n{\n    COOP_ENTER(ctx);\n");
    for (size_t k = 0; k < kernels; k++) {
        const mt_func *func = entry_kernel(merge, k);
        for (size_t i = 0; i < func->local_count; i++)
            mt_buf_printf(out, "    %s;\n", func->locals[i].entry_decl);
    }
    const mt_func *coop = &merge->funcs[merge->coops[0]];
    /* The standalone form ends with a join: with COOP_ENTER's early return for the groups that
     * are not co-resident, PoCL's work-group compiler made a loop of `if`s after the kernel's
     * last barrier spin for ever when no workgroup barrier followed it before the kernel's end
     * (smith seed 40168; a plain OpenCL kernel with a `return` before a barrier hangs the same
     * way). The megakernel has one after each role's call. */
    if (merge->options.standalone) {
        mt_buf_add(out, "    coop_fix_num_groups(&ctx);\n    ");
        add_call(out, coop);
        mt_buf_add(out, "    coop_pocl_join();\n}\n");
        return;
    }
    /* One chain of role branches, so that the code after any branch is the loop's end: PoCL
     * copies the code after a conditional that holds a workgroup barrier once for each way
     * through it. Its compiler fails ("Incoming edges to non-entry block!") when no workgroup
     * barrier follows the branches, and when a branch holds nothing but the call of a kernel
     * whose loops hold barriers (the FSE'17 artifact's Lonestar BFS): each branch starts with
     * one. */
    mt_buf_add(out, "    for (;;) {\n        uint role = coop_schedule(&ctx);\n        if (!role)\n            break;\n");
    mt_buf_add(out, "        if (role == COOP_ROLE_COOP) {\n            COOP_GROUP_SYNC();\n            ");
    if (merge->coop_count == 1) {
        add_call(out, coop);
    } else {
        /* several cooperative kernels: the group's kernel block says which it is a member of
         * (docs/DESIGN.md section 17); every work-item reads the same index */
        for (size_t k = 0; k < merge->coop_count; k++) {
            if (k + 1 < merge->coop_count)
                mt_buf_printf(out, "%sif (coop_kernel_index(&ctx) == %zu)\n                ", k ? "else " : "", k);
            else
                mt_buf_add(out, "else\n                ");
            add_call(out, &merge->funcs[merge->coops[k]]);
            if (k + 1 < merge->coop_count)
                mt_buf_add(out, "            ");
        }
    }
    mt_buf_add(out, "        }");
    for (size_t t = 0; t < merge->task_count; t++) {
        const mt_func *task = &merge->funcs[merge->tasks[t]];
        mt_buf_printf(out, " else if (ctx.task == %zu) {\n            COOP_GROUP_SYNC();\n            ", t);
        add_call(out, task);
        mt_buf_add(out, "        }");
    }
    mt_buf_add(out, "\n        COOP_GROUP_SYNC();\n    }\n}\n");
}

/* The host header's names start with the entry's name in capitals (RELAX_MEGA_..., or
 * RELAX_STANDALONE_... for --standalone) or with --prefix, so that the headers of several
 * programs can be included in one file. */
static void emit_header(mt_merge *merge, mt_buf *out)
{
    const mt_options *o = &merge->options;
    mt_buf prefix = {0};
    const char *base = o->prefix ? o->prefix : merge->entry_name;
    for (const char *p = base; *p; p++)
        mt_buf_printf(&prefix, "%c", o->prefix ? *p : toupper((unsigned char)*p));
    const char *P = prefix.data;
    mt_buf_printf(out, "/* Generated by coop-merge from %s", o->coop_path);
    for (size_t i = 1; i < merge->input_count; i++)
        mt_buf_printf(out, ", %s", merge->files[i].path);
    mt_buf_printf(out, ". Do not edit.\n"
                       " * %s_NAME: the kernel to create (coop_kernel_create());\n"
                       " * %s_ARG_<kernel>_<parameter>: argument indices for coop_kernel_set_arg() (counted\n"
                       " * after COOP_PARAMS)",
                  P, P);
    if (!o->standalone)
        mt_buf_printf(out, ";\n * %s_TASK_<kernel>: task indices for coop_task_plan.task", P);
    if (merge->coop_count > 1)
        mt_buf_printf(out, ";\n * %s_COOP_<kernel>: cooperative kernel indices for coop_mega_run_shared()", P);
    mt_buf_add(out, ". */\n");
    mt_buf_printf(out, "#ifndef COOP_MERGE_%s_H\n#define COOP_MERGE_%s_H\n\n", P, P);
    mt_buf_printf(out, "#define %s_NAME \"%s\"\n\n", P, merge->entry_name);
    size_t kernels = entry_kernels(merge);
    unsigned index = 0;
    for (size_t k = 0; k < kernels; k++) {
        const mt_func *func = entry_kernel(merge, k);
        for (size_t i = 0; i < func->param_count; i++)
            mt_buf_printf(out, "#define %s_ARG_%s_%s %u\n", P, func->name, func->params[i].name, index++);
    }
    mt_buf_printf(out, "#define %s_ARG_COUNT %u\n\n", P, index);
    if (!o->standalone) {
        for (size_t t = 0; t < merge->task_count; t++)
            mt_buf_printf(out, "#define %s_TASK_%s %zu\n", P, merge->funcs[merge->tasks[t]].name, t);
        mt_buf_printf(out, "#define %s_TASK_COUNT %zu\n\n", P, merge->task_count);
    }
    if (merge->coop_count > 1) {
        for (size_t k = 0; k < merge->coop_count; k++)
            mt_buf_printf(out, "#define %s_COOP_%s %zu\n", P, merge->funcs[merge->coops[k]].name, k);
        mt_buf_printf(out, "#define %s_COOP_COUNT %zu\n\n", P, merge->coop_count);
    }
    mt_buf_printf(out, "#endif\n");
    mt_buf_free(&prefix);
}

static void emit_defines(const mt_options *o, mt_buf *out)
{
    for (size_t i = 0; i < o->define_count; i++) {
        const char *equals = strchr(o->defines[i], '=');
        if (equals)
            mt_buf_printf(out, "#define %.*s %s\n", (int)(equals - o->defines[i]), o->defines[i], equals + 1);
        else
            mt_buf_printf(out, "#define %s 1\n", o->defines[i]);
    }
}

/* A file's rewritten text, with each header it includes in place of the header's first #include
 * in the program (a later one only names it), as if every header had an include guard. */
static int emit_file(mt_merge *merge, size_t index, unsigned char *emitted, mt_buf *out, mt_spans *spans)
{
    mt_file *file = &merge->files[index];
    for (size_t i = 0; i < file->include_count; i++) {
        const mt_include *line = &file->includes[i];
        const char *path = merge->files[line->header].path;
        mt_buf text = {0};
        if (emitted[line->header]) {
            mt_buf_printf(&text, "/* %s: included above */", path);
        } else {
            emitted[line->header] = 1;
            mt_buf_printf(&text, "/* ---- %s ---- */\n", path);
            if (emit_file(merge, line->header, emitted, &text, NULL) != 0) {
                mt_buf_free(&text);
                return -1;
            }
            mt_buf_printf(&text, "/* ---- end of %s ---- */", path);
        }
        mt_edit_add(file, line->begin, line->end, MT_RANK_REPLACE, text.data);
        mt_buf_free(&text);
    }
    if (!mt_edits_apply(file, out, spans))
        return -1;
    if (out->length && out->data[out->length - 1] != '\n')
        mt_buf_add(out, "\n");
    return 0;
}

/* Whether a function of the program calls spawn_task() (libcoop then has the agent serve the
 * spawn queue where there is one: docs/DESIGN.md section 10.2). */
static int spawns(const mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++)
        for (size_t s = 0; s < merge->funcs[i].site_count; s++)
            if (merge->funcs[i].sites[s].kind == MT_SITE_ID && merge->funcs[i].sites[s].id == MT_ID_SPAWN_TASK)
                return 1;
    return 0;
}

/* Builds the merged program and the host header. Returns 0 on success. */
int mt_emit(mt_merge *merge, mt_buf *program, mt_buf *header)
{
    names used = {0};
    name_entry(merge, &used);
    free(used.items);
    const mt_options *o = &merge->options;
    const mt_func *coop = &merge->funcs[merge->coops[0]];
    mt_buf_printf(program, "/* Generated by coop-merge. Do not edit.\n *   cooperative kernel '%s' from %s\n",
                  coop->name, o->coop_path);
    for (size_t k = 1; k < merge->coop_count; k++)
        mt_buf_printf(program, " *   cooperative kernel '%s' from %s\n", merge->funcs[merge->coops[k]].name,
                      merge->files[merge->funcs[merge->coops[k]].file->owner].path);
    for (size_t i = merge->coop_count; i < merge->input_count; i++) {
        size_t count = 0;
        for (size_t t = 0; t < merge->task_count; t++)
            count += merge->funcs[merge->tasks[t]].file->owner == i;
        mt_buf_printf(program, " *   task%s ", count == 1 ? "" : "s");
        const char *separator = "";
        for (size_t t = 0; t < merge->task_count; t++)
            if (merge->funcs[merge->tasks[t]].file->owner == i) {
                mt_buf_printf(program, "%s'%s'", separator, merge->funcs[merge->tasks[t]].name);
                separator = ", ";
            }
        mt_buf_printf(program, " from %s\n", merge->files[i].path);
    }
    if (o->standalone)
        mt_buf_printf(program, " * Persistent kernel %s, without kill and fork (the standalone baseline).\n",
                      merge->entry_name);
    else
        mt_buf_printf(program, " * Megakernel %s, coop-tasks: %zu (libcoop refuses a plan for a task above them).\n",
                      merge->entry_name, merge->task_count);
    if (merge->coop_count > 1)
        mt_buf_printf(program, " * coop-kernels: %zu (libcoop shares the groups between them: docs/DESIGN.md section 17).\n",
                      merge->coop_count);
    if (!o->standalone && spawns(merge))
        mt_buf_add(program,
                   " * It spawns tasks (spawn_task), coop-spawns: 1: an agent serves the queue where it can.\n");
    mt_buf_add(program, " * libcoop prepends its kernel header when it builds this program. */\n");
    emit_defines(o, program);
    unsigned char *emitted = mt_alloc(merge->file_count);
    int failed = 0;
    for (size_t i = 0; i < merge->input_count && !failed; i++) {
        mt_buf_printf(program, "\n/* ---- %s ---- */\n", merge->files[i].path);
        failed = emit_file(merge, i, emitted, program, &merge->spans) != 0;
    }
    free(emitted);
    if (failed)
        return -1;
    mt_buf_add(program, "\n/* ---- entry ---- */\n");
    emit_entry(merge, program);
    if (merge->barrier_site_count) {
        mt_buf_add(program, "\n/* The global barriers, numbered as coop_at() names them: libcoop's watchdog reads these lines\n"
                            " * to say where stuck groups wait.\n");
        for (size_t i = 0; i < merge->barrier_site_count; i++)
            mt_buf_printf(program, " * coop-site %zu: %s\n", i + 1, merge->barrier_sites[i]);
        mt_buf_add(program, " */\n");
    }
    emit_header(merge, header);
    return 0;
}
