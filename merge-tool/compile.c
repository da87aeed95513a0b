/* compile.c: after emit, the check that the merged program compiles for every platform libcoop
 * supports, as libcoop builds it there. What fails is clang's verdict, printed as clang's
 * diagnostics at the input lines they come from (compile.h). */
#include "compile.h"

#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libcoop's kernel header (coop_kernel.h with the coop_device/ files and the
 * coop_request.h it includes), embedded by the build, for checking that the merged program
 * compiles. */
extern const char coop_kernel_header_source[];

/* The directory part of a path, for the -I that lets one file include its neighbours. */
static char *directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? mt_strndup(path, (size_t)(slash - path) + (slash == path)) : mt_strdup(".");
}

/* How each platform builds the merged program (libcoop/src/program.c, target_options): its
 * OpenCL C version, a clang target of the same kind, the OpenCL C features and extensions the
 * device reports, and libcoop's defines. The input files are parsed as OpenCL C 2.0. */
typedef struct check_target {
    const char *name;
    const char *const *args;
} check_target;

/* PoCL 3.1's pthread device: OpenCL C 3.0 without program-scope global variables, the generic
 * address space or work-group collectives (clinfo's "Device OpenCL C features"). */
static const char *const pocl_args[] = {
    "-cl-std=CL3.0", "--target=spir64-unknown-unknown", "-Xclang",
    "-cl-ext=-all,+cl_khr_byte_addressable_store,+cl_khr_fp64,+cl_khr_global_int32_base_atomics,"
    "+cl_khr_global_int32_extended_atomics,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,"
    "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,+cl_khr_3d_image_writes,"
    "+__opencl_c_images,+__opencl_c_3d_image_writes,+__opencl_c_read_write_images,"
    "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device,"
    "+__opencl_c_int64,+__opencl_c_fp64",
    "-DCOOP_TARGET_POCL=1", NULL};

/* NVIDIA's OpenCL builds with -cl-std=CL2.0 for a Hopper GPU; its compiler takes `asm`. */
static const char *const nvidia_args[] = {"-cl-std=CL2.0",          "--target=nvptx64-nvidia-nvcl",
                                          "-Dasm=__asm__",          "-DCOOP_TARGET_NVIDIA=1",
                                          "-DCOOP_PARALLEL_SPIN=1", "-DCOOP_NV_SM=90",
                                          NULL};

static const check_target check_targets[] = {
    {"PoCL (OpenCL C 3.0 without program-scope global variables)", pocl_args},
    {"NVIDIA's OpenCL (OpenCL C 2.0, nvptx64)", nvidia_args},
};

/* Prints the merged program's errors at the input lines they come from (text coop-merge inserted
 * counts as where it was inserted; the entry it wrote, as the merged program's own lines). */
static void report_merged_diagnostics(const mt_merge *merge, CXTranslationUnit tu, const char *shown)
{
    unsigned count = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < count; i++) {
        CXDiagnostic diagnostic = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(diagnostic);
        CXFile where = NULL;
        unsigned line = 0, column = 0, offset = 0;
        clang_getExpansionLocation(clang_getDiagnosticLocation(diagnostic), &where, &line, &column, &offset);
        CXString name = where ? clang_getFileName(where) : (CXString){0};
        int in_program = where && clang_getCString(name) && strstr(clang_getCString(name), "/coop-merge/output/");
        if (where)
            clang_disposeString(name);
        const mt_span *span = NULL;
        for (size_t s = 0; in_program && s < merge->spans.count && !span; s++)
            if (offset >= merge->spans.items[s].out_begin && offset < merge->spans.items[s].out_end)
                span = &merge->spans.items[s];
        CXString message = clang_getDiagnosticSpelling(diagnostic);
        const char *level = severity >= CXDiagnostic_Error ? "error" : severity == CXDiagnostic_Warning ? "warning"
                                                                                                       : "note";
        if (span) {
            unsigned at = span->from + (span->original ? (unsigned)(offset - span->out_begin) : 0u), l, c;
            mt_line_column(span->file, at, &l, &c);
            fprintf(stderr, "%s:%u:%u: %s: %s%s\n", span->file->path, l, c, level, clang_getCString(message),
                    span->original ? "" : " (in what coop-merge wrote here)");
        } else if (severity >= CXDiagnostic_Warning) {
            CXString text = clang_formatDiagnostic(diagnostic, CXDiagnostic_DisplaySourceLocation |
                                                                   CXDiagnostic_DisplayColumn);
            const char *formatted = clang_getCString(text);
            if (in_program)
                fprintf(stderr, "%s:%u:%u: %s: %s\n", shown, line, column, level, clang_getCString(message));
            else
                fprintf(stderr, "%s\n", formatted);
            clang_disposeString(text);
        }
        clang_disposeString(message);
        clang_disposeDiagnostic(diagnostic);
    }
}

/* Parses the merged program with libcoop's kernel header in front, as libcoop builds it for one
 * platform. Returns the number of errors, printed (at the merged program's lines). */
static int check_for(mt_merge *merge, const check_target *target, const char *text, const char *name,
                     const mt_options *check)
{
    char *path = mt_printf("/coop-merge/output/%s", name[0] == '/' ? name + 1 : name);
    mt_merge checker = {.options = *check, .file_count = merge->file_count};
    int arg_count = 0;
    const char **args = mt_clang_arguments(&checker, target->args, MT_KERNEL_HEADER_PATH, &arg_count);
    /* The merged program has no prelude: it must compile as plain OpenCL C. */
    struct CXUnsavedFile unsaved[2] = {
        {.Filename = MT_KERNEL_HEADER_PATH, .Contents = coop_kernel_header_source,
         .Length = (unsigned long)strlen(coop_kernel_header_source)},
        {.Filename = path, .Contents = text, .Length = (unsigned long)strlen(text)},
    };
    CXTranslationUnit tu = NULL;
    enum CXErrorCode code = clang_parseTranslationUnit2(merge->index, path, args, arg_count, unsaved, 2,
                                                        CXTranslationUnit_None, &tu);
    int errors = 1;
    if (code == CXError_Success && tu) {
        char *shown = mt_printf("%s (merged)", name);
        errors = 0;
        unsigned count = clang_getNumDiagnostics(tu);
        for (unsigned i = 0; i < count; i++) {
            CXDiagnostic diagnostic = clang_getDiagnostic(tu, i);
            if (clang_getDiagnosticSeverity(diagnostic) >= CXDiagnostic_Error)
                errors++;
            clang_disposeDiagnostic(diagnostic);
        }
        if (errors) {
            fprintf(stderr, "coop-merge: the merged program does not compile for %s:\n", target->name);
            report_merged_diagnostics(merge, tu, shown);
        }
        free(shown);
        clang_disposeTranslationUnit(tu);
    } else {
        fprintf(stderr, "coop-merge: libclang could not parse the merged program (error %d)\n", (int)code);
    }
    free(args);
    free(path);
    return errors;
}

/* Whether the merged program compiles on every platform libcoop supports, as libcoop builds it
 * there. Returns 0 if it does; otherwise the errors have been printed. */
int mt_compile_check(mt_merge *merge, const char *text)
{
    const mt_options *o = &merge->options;
    const char *name = o->out_path && strcmp(o->out_path, "-") ? o->out_path : "<stdout>";
    const char **dirs = mt_alloc(merge->file_count * sizeof *dirs);
    mt_options check = *o;
    /* libcoop builds a program of several cooperative kernels with COOP_KERNELS (program.c,
     * from its coop-kernels line) */
    char *kernels = merge->coop_count > 1 ? mt_printf("COOP_KERNELS=%zu", merge->coop_count) : NULL;
    const char *kernels_define[1] = {kernels};
    check.defines = kernels ? kernels_define : NULL;
    check.define_count = kernels ? 1 : 0;
    check.includes = mt_alloc((o->include_count + merge->file_count + 1) * sizeof *check.includes);
    for (size_t i = 0; i < o->include_count; i++)
        check.includes[i] = o->includes[i];
    for (size_t i = 0; i < merge->file_count; i++)
        check.includes[o->include_count + i] = dirs[i] = directory_of(merge->files[i].path);
    check.include_count = o->include_count + merge->file_count;
    int errors = 0;
    for (size_t t = 0; t < sizeof check_targets / sizeof *check_targets && !errors; t++)
        errors = check_for(merge, &check_targets[t], text, name, &check);
    for (size_t i = 0; i < merge->file_count; i++)
        free((char *)dirs[i]);
    free(dirs);
    free(check.includes);
    free(kernels);
    return errors ? -1 : 0;
}
