/* coop-merge: fuses a cooperative kernel and high-priority kernels (tasks), written in plain
 * OpenCL C, into one megakernel for libcoop, plus a host header naming its arguments and tasks.
 *
 *   coop-merge COOP.cl [--task TASK.cl]... [-o OUT.cl] [--host-header OUT.h] [--standalone]
 *              [-I DIR]... [-D NAME[=VAL]]...
 *   coop-merge --help | --version
 *
 * Exit status 0 on success; 1 on any error, and then no output file is written. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "analyse.h"
#include "compile.h"
#include "emit.h"
#include "parse.h"
#include "rewrite.h"
#include "validate.h"

#include "coop.h" /* COOP_VERSION_STRING: the kernel header it embeds is this libcoop's */
#include "output.h" /* host/common/: the programs' whole-or-nothing outputs */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "usage: coop-merge COOP.cl [COOP.cl]... [--task TASK.cl]... [-o OUT.cl] [--host-header OUT.h]\n"
    "                  [--prefix P] [--standalone] [-Werror] [-I DIR]... [-D NAME[=VAL]]...\n"
    "  COOP.cl           a cooperative kernel (exactly one kernel a file) and its helpers; several\n"
    "                    share the megakernel's groups, each kernel index in the order given\n"
    "  --task TASK.cl    ordinary kernels, each a task (indices in order of appearance)\n"
    "  -o OUT.cl         the megakernel's source (default, or '-': standard output)\n"
    "  --host-header H   a header with the megakernel's name, argument and task indices\n"
    "  --prefix P        the header's names start with P_ (default: the kernel's name in capitals,\n"
    "                    RELAX_MEGA_ or RELAX_STANDALONE_ for a kernel 'relax')\n"
    "  --standalone      the cooperative kernel alone as a plain persistent kernel\n"
    "  -Werror           the warnings (what the language leaves to the author) are errors\n"
    "  -I DIR, -D N[=V]  preprocessor options for parsing (-D also goes into the output); the\n"
    "                    kernel library (ws_deque.h...) is found after every -I DIR\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n";

typedef struct lists {
    const char **coops, **tasks, **includes, **defines;
    size_t coop_count, coop_capacity, task_count, task_capacity, include_count, include_capacity, define_count,
        define_capacity;
    char *kernel_library; /* searched after every -I */
} lists;

/* The kernel library (ws_deque.h and the rest of kernels/lib/), where it lies beside this
 * executable: PREFIX/include/coop/kernels for PREFIX/bin/coop-merge once installed, and
 * build/include/coop/kernels (a link to kernels/lib) for build/bin/coop-merge. Relative to the
 * executable rather than compiled in, so that one build works in the tree, installed under any
 * PREFIX, and staged under DESTDIR. NULL where there is none. */
static char *kernel_library(void)
{
    char *self = realpath("/proc/self/exe", NULL);
    char *slash = self ? strrchr(self, '/') : NULL;
    if (!slash) {
        free(self);
        return NULL;
    }
    *slash = '\0';
    char *path = mt_printf("%s/../include/coop/kernels", self);
    free(self);
    char *resolved = realpath(path, NULL);
    free(path);
    struct stat st;
    if (!resolved || stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(resolved);
        return NULL;
    }
    /* clang names a folder, and every header in it, by the name it first meets the folder under,
     * and it meets the include path before any input: inside the current folder, a relative
     * name keeps the paths the output quotes (kernels/lib/expand.h) what they were without it,
     * and kernels/generated/ the same in every checkout. */
    char *here = getcwd(NULL, 0);
    size_t length = here ? strlen(here) : 0;
    if (here && !strncmp(resolved, here, length) && (resolved[length] == '/' || !resolved[length])) {
        char *relative = mt_strdup(resolved[length] ? resolved + length + 1 : ".");
        free(resolved);
        resolved = relative;
    }
    free(here);
    return resolved;
}

/* Sets a single-valued option, refusing a second value (rather than silently taking the last). */
static int once(const char *option, const char *value, const char **field)
{
    if (*field) {
        fprintf(stderr, "coop-merge: %s given twice ('%s', then '%s'); give it once\n%s", option, *field, value,
                usage);
        return -1;
    }
    *field = value;
    return 0;
}

/* Parses the command line into *o; returns 0, 1 (error, printed) or -1 (--help or --version,
 * printed). */
static int parse_command_line(int argc, char **argv, mt_options *o, lists *l)
{
    *o = (mt_options){0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            return -1;
        } else if (!strcmp(arg, "--version")) {
            printf("coop-merge (libcoop) %s\n", COOP_VERSION_STRING);
            return -1;
        } else if (!strcmp(arg, "--standalone")) {
            o->standalone = 1;
        } else if (!strcmp(arg, "-Werror")) {
            o->warnings_are_errors = 1;
        } else if (!strcmp(arg, "--task") || !strcmp(arg, "-o") || !strcmp(arg, "--host-header") ||
                   !strcmp(arg, "--prefix") || !strcmp(arg, "-I") || !strcmp(arg, "-D")) {
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
            else if (once(arg, value, !strcmp(arg, "-o")         ? &o->out_path
                                      : !strcmp(arg, "--prefix") ? &o->prefix
                                                                 : &o->header_path) != 0)
                return 1;
        } else if (!strncmp(arg, "-I", 2)) {
            MT_PUSH(l->includes, l->include_count, l->include_capacity, arg + 2);
        } else if (!strncmp(arg, "-D", 2)) {
            MT_PUSH(l->defines, l->define_count, l->define_capacity, arg + 2);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "coop-merge: unknown option %s\n%s", arg, usage);
            return 1;
        } else if (l->coop_count == COOP_MERGE_MAX_KERNELS) {
            fprintf(stderr, "coop-merge: at most %d cooperative kernel files (%s is one more); tasks go after "
                            "--task\n%s", COOP_MERGE_MAX_KERNELS, arg, usage);
            return 1;
        } else {
            MT_PUSH(l->coops, l->coop_count, l->coop_capacity, arg);
        }
    }
    if (!l->coop_count) {
        fprintf(stderr, "coop-merge: no cooperative kernel file\n%s", usage);
        return 1;
    }
    o->coop_path = l->coops[0];
    o->coop_paths = l->coops;
    o->coop_count = l->coop_count;
    if (o->standalone && o->coop_count > 1) {
        fprintf(stderr, "coop-merge: --standalone makes one cooperative kernel a plain persistent kernel: give "
                        "one file, not %zu\n", o->coop_count);
        return 1;
    }
    if (o->prefix) {
        int valid = (o->prefix[0] == '_' || isalpha((unsigned char)o->prefix[0]));
        for (const char *p = o->prefix; *p && valid; p++)
            valid = *p == '_' || isalnum((unsigned char)*p);
        if (!valid) {
            fprintf(stderr, "coop-merge: --prefix %s: not a C identifier\n", o->prefix);
            return 1;
        }
    }
    for (size_t i = 0; i < l->define_count; i++)
        if (!l->defines[i][0] || l->defines[i][0] == '=') {
            fprintf(stderr, "coop-merge: -D needs a macro name\n");
            return 1;
        }
    l->kernel_library = kernel_library();
    if (l->kernel_library)
        MT_PUSH(l->includes, l->include_count, l->include_capacity, l->kernel_library);
    o->task_paths = l->tasks;
    o->task_count = l->task_count;
    o->includes = l->includes;
    o->include_count = l->include_count;
    o->defines = l->defines;
    o->define_count = l->define_count;
    return 0;
}

/* The absolute path of a file, or of the file a path would create. NULL if its directory is
 * not there. */
static char *resolved(const char *path)
{
    char *whole = realpath(path, NULL);
    if (whole)
        return whole;
    const char *slash = strrchr(path, '/');
    char *directory = slash ? mt_strndup(path, (size_t)(slash - path) + (slash == path)) : mt_strdup(".");
    char *real = realpath(directory, NULL);
    char *joined = real ? mt_printf("%s/%s", real, slash ? slash + 1 : path) : NULL;
    free(real);
    free(directory);
    return joined;
}

static int same_file(const char *a, const char *b)
{
    struct stat x, y;
    if (stat(a, &x) == 0 && stat(b, &y) == 0)
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
    char *ra = resolved(a), *rb = resolved(b);
    int same = ra && rb ? !strcmp(ra, rb) : !strcmp(a, b);
    free(ra);
    free(rb);
    return same;
}

/* Writes both outputs or neither (as far as replaced files go): both are complete before either
 * replaces its file. */
static int write_outputs(const mt_options *o, const mt_buf *program, const mt_buf *header)
{
    int to_stdout = !o->out_path || !strcmp(o->out_path, "-");
    if (!to_stdout && o->header_path && same_file(o->out_path, o->header_path)) {
        fprintf(stderr, "coop-merge: -o and --host-header name the same file (%s)\n", o->out_path);
        return -1;
    }
    /* each complete and flushed beside its target before either replaces it (outfile.h) */
    coop_outfile outputs[2];
    const mt_buf *texts[2];
    size_t count = 0;
    int failed = 0;
    if (!to_stdout) {
        texts[count] = program;
        failed = output_open(&outputs[count++], "coop-merge", o->out_path) != 0;
    }
    if (!failed && o->header_path) {
        texts[count] = header;
        failed = output_open(&outputs[count++], "coop-merge", o->header_path) != 0;
    }
    for (size_t i = 0; i < count && !failed; i++) {
        fwrite(texts[i]->data, 1, texts[i]->length, outputs[i].stream);
        failed = output_close(&outputs[i], "coop-merge") != 0;
    }
    for (size_t i = 0; i < count && !failed; i++)
        failed = output_commit(&outputs[i], "coop-merge") != 0;
    for (size_t i = 0; i < count; i++)
        coop_outfile_abandon(&outputs[i]);
    if (!failed && to_stdout) {
        errno = 0;
        int error = fwrite(program->data, 1, program->length, stdout) != program->length ? errno : 0;
        errno = 0;
        if (fflush(stdout) != 0 && !error)
            error = errno;
        if (error || ferror(stdout)) {
            fprintf(stderr, "coop-merge: cannot write standard output: %s\n", strerror(error ? error : EIO));
            failed = 1;
        }
    }
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
        free(func->sites);
        free(func->calls);
        free(func->name);
        free(func->usr);
    }
    free(merge->funcs);
    free(merge->coops);
    free(merge->tasks);
    free(merge->entry_name);
    free(merge->spans.items);
    for (size_t i = 0; i < merge->barrier_site_count; i++)
        free(merge->barrier_sites[i]);
    free(merge->barrier_sites);
}

/* An output that is one of the input files or headers (the same device and inode: a link to it
 * too) would replace the input: refused. */
static int check_outputs_are_not_inputs(const mt_merge *merge)
{
    const mt_options *o = &merge->options;
    const char *options[] = {"-o", "--host-header"};
    const char *paths[] = {o->out_path && strcmp(o->out_path, "-") ? o->out_path : NULL, o->header_path};
    for (size_t i = 0; i < 2; i++) {
        struct stat output, input;
        if (!paths[i] || stat(paths[i], &output) != 0)
            continue;
        for (size_t f = 0; f < merge->file_count; f++)
            if (stat(merge->files[f].path, &input) == 0 && input.st_dev == output.st_dev &&
                input.st_ino == output.st_ino) {
                fprintf(stderr, "coop-merge: %s %s is the input file %s; write the output elsewhere\n", options[i],
                        paths[i], merge->files[f].path);
                return -1;
            }
    }
    return 0;
}

/* The passes in order (parse, analyse, validate, rewrite, emit), then the check that the result
 * compiles, then the writing: any error stops it. */
static int merge_files(mt_merge *merge, mt_buf *program, mt_buf *header)
{
    /* each file is read, judged and parsed before the next: the messages come in the files' order */
    mt_open(merge);
    for (size_t i = 0; i < merge->input_count; i++)
        if (mt_read(merge, i) == 0 && mt_validate_text(merge, &merge->files[i]) == 0)
            mt_parse(merge, i);
    if (mt_parse_headers(merge) != 0 || check_outputs_are_not_inputs(merge) != 0)
        return -1;
    mt_analyse(merge);
    if (mt_validate(merge) != 0)
        return -1;
    mt_rewrite(merge);
    if (mt_emit(merge, program, header) != 0 || mt_compile_check(merge, program->data) != 0)
        return -1;
    return write_outputs(&merge->options, program, header);
}

int main(int argc, char **argv)
{
    lists l = {0};
    mt_merge merge = {0};
    mt_buf program = {0}, header = {0};
    output_catch_signals();
    int parsed = parse_command_line(argc, argv, &merge.options, &l);
    int status = parsed > 0 || (parsed == 0 && merge_files(&merge, &program, &header) != 0);
    mt_buf_free(&program);
    mt_buf_free(&header);
    mt_analysis_free(&merge);
    free_funcs(&merge);
    mt_unload(&merge);
    free(l.coops);
    free(l.tasks);
    free(l.includes);
    free(l.defines);
    free(l.kernel_library);
    return status;
}
