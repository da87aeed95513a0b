/* coop-merge: fuses a cooperative kernel and high-priority kernels (tasks), written in plain
 * OpenCL C, into one megakernel for libcoop, plus a host header naming its arguments and tasks.
 *
 *   coop-merge COOP.cl [--task TASK.cl]... [-o OUT.cl] [--host-header OUT.h] [--standalone]
 *              [-I DIR]... [-D NAME[=VAL]]...
 *
 * Exit status 0 on success; 1 on any error, and then no output file is written. */
#include "merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: coop-merge COOP.cl [--task TASK.cl]... [-o OUT.cl] [--host-header OUT.h] [--standalone]\n"
    "                  [-I DIR]... [-D NAME[=VAL]]...\n"
    "  COOP.cl           the cooperative kernel (exactly one kernel) and its helpers\n"
    "  --task TASK.cl    ordinary kernels, each a task (indices in order of appearance)\n"
    "  -o OUT.cl         the megakernel's source (default, or '-': standard output)\n"
    "  --host-header H   a header with the megakernel's name, argument and task indices\n"
    "  --standalone      the cooperative kernel alone as a plain persistent kernel\n"
    "  -I DIR, -D N[=V]  preprocessor options for parsing (-D also goes into the output)\n";

typedef struct lists {
    const char **tasks, **includes, **defines;
    size_t task_count, task_capacity, include_count, include_capacity, define_count, define_capacity;
} lists;

/* Parses the command line into *o; returns 0, 1 (error, printed) or -1 (--help, printed). */
static int parse_command_line(int argc, char **argv, mt_options *o, lists *l)
{
    *o = (mt_options){0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            return -1;
        } else if (!strcmp(arg, "--standalone")) {
            o->standalone = 1;
        } else if (!strcmp(arg, "--task") || !strcmp(arg, "-o") || !strcmp(arg, "--host-header") ||
                   !strcmp(arg, "-I") || !strcmp(arg, "-D")) {
            if (!value || (value[0] == '-' && strcmp(value, "-"))) {
                fprintf(stderr, "coop-merge: %s needs an argument\n%s", arg, usage);
                return 1;
            }
            i++;
            if (!strcmp(arg, "--task"))
                MT_PUSH(l->tasks, l->task_count, l->task_capacity, value);
            else if (!strcmp(arg, "-I"))
                MT_PUSH(l->includes, l->include_count, l->include_capacity, value);
            else if (!strcmp(arg, "-D"))
                MT_PUSH(l->defines, l->define_count, l->define_capacity, value);
            else if (!strcmp(arg, "-o"))
                o->out_path = value;
            else
                o->header_path = value;
        } else if (!strncmp(arg, "-I", 2)) {
            MT_PUSH(l->includes, l->include_count, l->include_capacity, arg + 2);
        } else if (!strncmp(arg, "-D", 2)) {
            MT_PUSH(l->defines, l->define_count, l->define_capacity, arg + 2);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "coop-merge: unknown option %s\n%s", arg, usage);
            return 1;
        } else if (o->coop_path) {
            fprintf(stderr, "coop-merge: one cooperative kernel file only (%s and %s); tasks go after --task\n%s",
                    o->coop_path, arg, usage);
            return 1;
        } else {
            o->coop_path = arg;
        }
    }
    if (!o->coop_path) {
        fprintf(stderr, "coop-merge: no cooperative kernel file\n%s", usage);
        return 1;
    }
    for (size_t i = 0; i < l->define_count; i++)
        if (!l->defines[i][0] || l->defines[i][0] == '=') {
            fprintf(stderr, "coop-merge: -D needs a macro name\n");
            return 1;
        }
    o->task_paths = l->tasks;
    o->task_count = l->task_count;
    o->includes = l->includes;
    o->include_count = l->include_count;
    o->defines = l->defines;
    o->define_count = l->define_count;
    return 0;
}

/* Writes `text` to a temporary file next to `path`; *temporary receives its name. */
static int write_temporary(const char *path, const char *text, size_t length, char **temporary)
{
    *temporary = mt_printf("%s.XXXXXX", path);
    int fd = mkstemp(*temporary);
    if (fd < 0) {
        fprintf(stderr, "coop-merge: cannot write %s: %s\n", path, strerror(errno));
        free(*temporary);
        *temporary = NULL;
        return -1;
    }
    FILE *stream = fdopen(fd, "w");
    int ok = stream && fwrite(text, 1, length, stream) == length;
    ok = stream ? (fclose(stream) == 0) && ok : (close(fd), 0);
    if (!ok) {
        fprintf(stderr, "coop-merge: cannot write %s: %s\n", path, strerror(errno ? errno : EIO));
        unlink(*temporary);
        free(*temporary);
        *temporary = NULL;
        return -1;
    }
    return 0;
}

/* Writes both outputs or neither: each goes to a temporary file first, then both are renamed. */
static int write_outputs(const mt_options *o, const mt_buf *program, const mt_buf *header)
{
    int to_stdout = !o->out_path || !strcmp(o->out_path, "-");
    char *program_temporary = NULL, *header_temporary = NULL;
    int failed = (!to_stdout && write_temporary(o->out_path, program->data, program->length, &program_temporary)) ||
                 (o->header_path && write_temporary(o->header_path, header->data, header->length, &header_temporary));
    if (!failed && program_temporary && rename(program_temporary, o->out_path) != 0) {
        fprintf(stderr, "coop-merge: cannot write %s: %s\n", o->out_path, strerror(errno));
        failed = 1;
    }
    if (!failed && header_temporary && rename(header_temporary, o->header_path) != 0) {
        fprintf(stderr, "coop-merge: cannot write %s: %s\n", o->header_path, strerror(errno));
        failed = 1;
    }
    if (failed) {
        if (program_temporary)
            unlink(program_temporary);
        if (header_temporary)
            unlink(header_temporary);
    } else if (to_stdout) {
        failed = fwrite(program->data, 1, program->length, stdout) != program->length || fflush(stdout) != 0;
    }
    free(program_temporary);
    free(header_temporary);
    return failed ? -1 : 0;
}

static void free_funcs(mt_merge *merge)
{
    for (size_t i = 0; i < merge->func_count; i++) {
        mt_func *func = &merge->funcs[i];
        for (size_t p = 0; p < func->param_count; p++) {
            free(func->params[p].name);
            free(func->params[p].text);
            free(func->params[p].entry_name);
        }
        for (size_t l = 0; l < func->local_count; l++) {
            free(func->locals[l].name);
            free(func->locals[l].entry_name);
            free(func->locals[l].entry_decl);
            free(func->locals[l].param_decl);
        }
        free(func->params);
        free(func->locals);
        free(func->calls);
        free(func->name);
        free(func->usr);
    }
    free(merge->funcs);
    free(merge->tasks);
    free(merge->entry_name);
}

/* Parse, check, rewrite, assemble, check that the result compiles, write: any error stops it. */
static int merge_files(mt_merge *merge, mt_buf *program, mt_buf *header)
{
    if (mt_load(merge) != 0 || mt_analyze(merge) != 0)
        return -1;
    mt_rewrite(merge);
    if (!merge->errors)
        mt_rewrite_cooperative(merge);
    if (merge->errors || mt_emit(merge, program, header) != 0 || mt_compile_check(merge, program->data) != 0)
        return -1;
    return write_outputs(&merge->options, program, header);
}

int main(int argc, char **argv)
{
    lists l = {0};
    mt_merge merge = {0};
    mt_buf program = {0}, header = {0};
    int parsed = parse_command_line(argc, argv, &merge.options, &l);
    int status = parsed > 0 || (parsed == 0 && merge_files(&merge, &program, &header) != 0);
    mt_buf_free(&program);
    mt_buf_free(&header);
    free_funcs(&merge);
    mt_unload(&merge);
    free(l.tasks);
    free(l.includes);
    free(l.defines);
    return status;
}
