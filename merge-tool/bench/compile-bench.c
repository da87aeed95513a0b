/* compile-bench: how long a program coop-merge writes takes to build and to start on a device
 * (PoCL compiles a kernel at its first launch, and replicates code around workgroup barriers in
 * branches and loops: the generated control flow must keep that linear).
 *
 * Cases: kernels it writes itself, with 1, 2, 4 and 8 fork points in loop nests 1 to 4 deep, a
 * kill point at the end of every loop, a local array with a workgroup barrier at every depth,
 * and a task beside them; then every merged program kernels/generated/merges.txt lists. Each
 * is merged by build/bin/coop-merge, built (coop_program_create) and launched once through
 * coop_mega_run (a --standalone program through coop_kernel_run) with every buffer zeroed and
 * every number 0 (loops do not run; the launch is the compile). Prints one line per case and the slowest.
 *
 * A device without coop-merge (its machine has no libclang) builds programs merged elsewhere:
 * --save DIR writes every merged program to DIR with an index, --merged DIR reads them back.
 *
 *   compile-bench [--local-size L] [--points N] [--depth D] [--no-shipped] [--save DIR | --merged DIR]
 *
 * Exit status: 0 when every case built and started, 1 otherwise. */
#define _DEFAULT_SOURCE /* mkstemps, popen */
#include <coop.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct text {
    char *data;
    size_t length, capacity;
} text;

static void add(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *format, ...)
{
    va_list args;
    for (;;) {
        va_start(args, format);
        int n = vsnprintf(t->data ? t->data + t->length : NULL, t->data ? t->capacity - t->length : 0, format,
                          args);
        va_end(args);
        if (n < 0)
            return;
        if (t->data && t->length + (size_t)n < t->capacity) {
            t->length += (size_t)n;
            return;
        }
        t->capacity = 2 * (t->capacity + (size_t)n + 64);
        t->data = realloc(t->data, t->capacity);
        if (!t->data) {
            fputs("compile-bench: out of memory\n", stderr);
            exit(1);
        }
    }
}

/* A cooperative kernel with `points` fork points (resizing barriers) spread over a loop nest
 * `depth` deep (the innermost loop takes what is left), a kill point at the end of every
 * loop, and at every depth some work spread over the groups and a local exchange with a
 * workgroup barrier, which a forked group walking to its point skips. */
static void synthetic_kernel(text *t, unsigned points, unsigned depth)
{
    add(t, "kernel void nest(global uint *data, uint n, uint trips)\n{\n    local uint tile[64];\n");
    for (unsigned d = 0; d < depth; d++)
        add(t, "    transmit uint i%u;\n", d);
    for (unsigned d = 0; d < depth; d++) {
        /* the inner loops take the points that do not divide evenly */
        unsigned here = points / depth + (d >= depth - points % depth);
        int indent = 4 * (int)(d + 2);
        add(t, "%*sfor (i%u = 0; i%u < trips; i%u++) {\n", indent - 4, "", d, d, d);
        add(t, "%*stile[get_local_id(0) %% 64] = i%u;\n", indent, "", d);
        add(t, "%*sbarrier(CLK_LOCAL_MEM_FENCE);\n", indent, "");
        for (unsigned p = 0; p < here; p++) {
            add(t, "%*sfor (uint k = get_global_id(0); k < n; k += get_global_size(0))\n", indent, "");
            add(t, "%*s    data[k] += tile[(get_local_id(0) + %u) %% 64 %% get_local_size(0)];\n", indent, "", p + 1);
            add(t, "%*sresizing_global_barrier();\n", indent, "");
        }
    }
    for (unsigned d = depth; d-- > 0;) {
        add(t, "%*soffer_kill();\n", 4 * (int)(d + 2), "");
        add(t, "%*sglobal_barrier();\n", 4 * (int)(d + 2), "");
        add(t, "%*s}\n", 4 * (int)(d + 1), "");
    }
    add(t, "}\n");
}

static const char task_kernel[] = "kernel void task(global uint *out)\n"
                                  "{\n"
                                  "    local uint tile[64];\n"
                                  "    tile[get_local_id(0) % 64] = get_global_id(0);\n"
                                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                                  "    out[get_global_id(0)] = tile[(get_local_id(0) + 1) % 64 % get_local_size(0)];\n"
                                  "}\n";

static int write_temporary(char *path, const char *data)
{
    int fd = mkstemps(path, 3);
    if (fd < 0)
        return -1;
    size_t length = strlen(data);
    int ok = write(fd, data, length) == (ssize_t)length;
    return close(fd) == 0 && ok ? 0 : -1;
}

/* coop-merge's output for `args` (NULL on failure, said). */
static char *merge(const char *args)
{
    text command = {0};
    add(&command, "build/bin/coop-merge %s -o - 2>&1", args);
    FILE *pipe = popen(command.data, "r");
    free(command.data);
    if (!pipe)
        return NULL;
    text out = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, pipe)) > 0)
        add(&out, "%.*s", (int)got, chunk);
    int status = pclose(pipe);
    if (status != 0) {
        fprintf(stderr, "compile-bench: coop-merge %s failed:\n%s", args, out.data ? out.data : "");
        free(out.data);
        return NULL;
    }
    return out.data;
}

/* The whole of a file (NULL on failure, said). */
static char *slurp(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "compile-bench: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    text out = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0)
        add(&out, "%.*s", (int)got, chunk);
    fclose(file);
    return out.data ? out.data : strdup("");
}

static int save(const char *path, const char *data)
{
    FILE *file = fopen(path, "w");
    int ok = file && fputs(data, file) >= 0;
    if (file && fclose(file) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "compile-bench: %s: %s\n", path, strerror(errno));
    return ok ? 0 : -1;
}

/* The kernel's name: the one `kernel void NAME(COOP_PARAMS` of the merged program. */
static char *megakernel_name(const char *program)
{
    const char *at = strstr(program, "\nkernel void ");
    if (!at)
        return NULL;
    at += strlen("\nkernel void ");
    size_t length = strcspn(at, "(");
    char *name = malloc(length + 1);
    if (name) {
        memcpy(name, at, length);
        name[length] = '\0';
    }
    return name;
}

typedef struct result {
    double build_s, launch_s;
    int ok;
} result;

/* Builds and launches a merged program once; every pointer argument gets a zeroed buffer, every
 * other argument zero bytes. */
static result run_case(coop_context *ctx, const char *program, size_t local_size)
{
    result r = {0};
    char *name = megakernel_name(program);
    coop_program *built = NULL;
    coop_kernel *kernel = NULL;
    cl_mem zeros = NULL;
    double start = now_s();
    if (!name || coop_program_create(ctx, program, NULL, &built) != COOP_OK ||
        coop_kernel_create(built, name, &kernel) != COOP_OK) {
        fprintf(stderr, "compile-bench: %s\n", name ? coop_context_message(ctx) : "no megakernel in the program");
        goto done;
    }
    r.build_s = now_s() - start;
    cl_kernel cl = coop_kernel_cl(kernel);
    cl_uint args = 0;
    clGetKernelInfo(cl, CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL);
    static unsigned char nothing[4096];
    cl_int err = CL_SUCCESS;
    void *zero_bytes = calloc(1, 1 << 20);
    zeros = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 1 << 20, zero_bytes,
                           &err);
    free(zero_bytes);
    for (cl_uint a = 2; a < args && err == CL_SUCCESS; a++) {
        char type[256] = "";
        cl_kernel_arg_address_qualifier space = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        clGetKernelArgInfo(cl, a, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
        clGetKernelArgInfo(cl, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, NULL);
        if (strchr(type, '*')) {
            if (coop_kernel_set_buffer(kernel, a - 2, zeros) != COOP_OK)
                err = CL_INVALID_ARG_VALUE;
        } else {
            size_t size = strstr(type, "long") || strstr(type, "double") || strstr(type, "2") ? 8 : 4;
            if (strstr(type, "4"))
                size = 16;
            if (coop_kernel_set_arg(kernel, a - 2, size, nothing) != COOP_OK)
                err = CL_INVALID_ARG_SIZE;
        }
    }
    if (err != CL_SUCCESS) {
        fprintf(stderr, "compile-bench: cannot set the arguments: %s\n", coop_context_message(ctx));
        goto done;
    }
    coop_mega_params params = {.launch = {.local_size = local_size, .timeout_s = 600}, .watchdog_s = 60};
    size_t name_length = strlen(name);
    int standalone = name_length > 11 && !strcmp(name + name_length - 11, "_standalone");
    coop_mega_report report = {0};
    coop_run_stats stats;
    start = now_s();
    coop_status status = standalone ? coop_kernel_run(kernel, &params.launch, &stats)
                                    : coop_mega_run(kernel, &params, NULL, 0, &report);
    if (status != COOP_OK) {
        fprintf(stderr, "compile-bench: %s\n", coop_context_message(ctx));
        goto done;
    }
    r.launch_s = now_s() - start;
    coop_mega_report_free(&report);
    r.ok = 1;
done:
    if (zeros)
        clReleaseMemObject(zeros);
    coop_kernel_release(kernel);
    coop_program_release(built);
    free(name);
    return r;
}

static const char usage[] =
    "Usage: compile-bench [--local-size L] [--points N] [--depth D] [--no-shipped] [--save DIR | --merged DIR]\n"
    "Times the build and the first launch (PoCL's compile) of what coop-merge writes.\n"
    "  --local-size L  work-items per group (default 64)\n"
    "  --points N      the most fork points of the kernels it writes: 1, 2, 4, 8 up to N (default 8)\n"
    "  --depth D       their deepest loop nest (default 4)\n"
    "  --no-shipped    only the kernels it writes, not kernels/generated/merges.txt's\n"
    "  --save DIR      also write every merged program to DIR (an existing folder) with an index\n"
    "  --merged DIR    build the programs --save wrote to DIR instead of merging (no coop-merge needed)\n"
    "Run from the repository root, after make. Exit status: 0 every case started, 1 otherwise.\n";

int main(int argc, char **argv)
{
    size_t local_size = 64;
    unsigned max_points = 8, max_depth = 4;
    int shipped = 1;
    const char *save_dir = NULL, *merged_dir = NULL;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--no-shipped")) {
            shipped = 0;
            continue;
        }
        if (i + 1 < argc && (!strcmp(argv[i], "--save") || !strcmp(argv[i], "--merged"))) {
            *(argv[i][2] == 's' ? &save_dir : &merged_dir) = argv[i + 1];
            i++;
            continue;
        }
        if (i + 1 >= argc || (strcmp(argv[i], "--local-size") && strcmp(argv[i], "--points") &&
                              strcmp(argv[i], "--depth"))) {
            fputs(usage, strcmp(argv[i], "--help") ? stderr : stdout);
            return strcmp(argv[i], "--help") ? 1 : 0;
        }
        unsigned long value = strtoul(argv[i + 1], &end, 10);
        if (!*argv[i + 1] || *end || value < 1 || value > 1024) {
            fprintf(stderr, "compile-bench: %s: '%s' is not a number from 1 to 1024\n", argv[i], argv[i + 1]);
            return 1;
        }
        if (!strcmp(argv[i], "--local-size"))
            local_size = value;
        else if (!strcmp(argv[i], "--points"))
            max_points = (unsigned)value;
        else
            max_depth = (unsigned)value;
        i++;
    }
    if (save_dir && merged_dir) {
        fputs("compile-bench: --save and --merged exclude each other\n", stderr);
        return 1;
    }
    /* PoCL keeps compiled kernels on disk: every case must compile */
    setenv("POCL_KERNEL_CACHE", "0", 1);
    coop_context *ctx = NULL;
    if (coop_context_create(NULL, &ctx) != COOP_OK) {
        fprintf(stderr, "compile-bench: %s\n", coop_context_message(ctx));
        coop_context_release(ctx);
        return 1;
    }
    printf("device: %s; local size %zu; seconds\n", coop_context_device(ctx)->name, local_size);
    printf("%-44s %8s %8s %8s\n", "case", "merge", "build", "launch");
    char task_path[] = "/tmp/compile-bench-task-XXXXXX.cl";
    if (write_temporary(task_path, task_kernel) != 0) {
        perror("compile-bench: a temporary file");
        return 1;
    }
    double worst = 0;
    int failed = 0;
    const char *worst_case = "";
    text cases = {0}, temporaries = {0}, index = {0};
    if (merged_dir) {
        text path = {0};
        add(&path, "%s/index.txt", merged_dir);
        char *listed = slurp(path.data);
        free(path.data);
        if (!listed)
            return 1;
        add(&cases, "%s", listed);
        free(listed);
        max_points = 0;
        shipped = 0;
    }
    for (unsigned points = 1; points <= max_points; points *= 2)
        for (unsigned depth = 1; depth <= max_depth; depth++) {
            text kernel = {0};
            synthetic_kernel(&kernel, points, depth);
            char path[] = "/tmp/compile-bench-XXXXXX.cl";
            if (write_temporary(path, kernel.data) != 0) {
                perror("compile-bench: a temporary file");
                return 1;
            }
            add(&cases, "%u fork points, loops %u deep + task|%s --task %s\n", points, depth, path, task_path);
            add(&temporaries, "%s\n", path);
            free(kernel.data);
        }
    if (shipped) {
        FILE *list = fopen("kernels/generated/merges.txt", "r");
        char line[1024];
        while (list && fgets(line, sizeof line, list)) {
            line[strcspn(line, "\n")] = '\0';
            char *args = strchr(line, ' ');
            if (line[0] == '#' || !args)
                continue;
            *args++ = '\0';
            add(&cases, "%s|%s\n", line, args);
        }
        if (list)
            fclose(list);
    }
    unsigned number = 0;
    for (char *row = strtok(cases.data, "\n"); row; row = strtok(NULL, "\n"), number++) {
        char *args = strchr(row, '|');
        if (!args) {
            fprintf(stderr, "compile-bench: a case without '|': %s\n", row);
            return 1;
        }
        *args++ = '\0';
        double start = now_s();
        char *program = NULL;
        if (merged_dir) {
            text path = {0};
            add(&path, "%s/%s", merged_dir, args);
            program = slurp(path.data);
            free(path.data);
        } else {
            program = merge(args);
        }
        double merge_s = merged_dir ? 0 : now_s() - start;
        if (program && save_dir) {
            text path = {0};
            add(&path, "%s/%02u.cl", save_dir, number);
            if (save(path.data, program) != 0)
                failed = 1;
            add(&index, "%s|%02u.cl\n", row, number);
            free(path.data);
        }
        result r = program ? run_case(ctx, program, local_size) : (result){0};
        free(program);
        if (r.ok)
            printf("%-44s %8.2f %8.2f %8.2f\n", row, merge_s, r.build_s, r.launch_s);
        else
            printf("%-44s %8.2f %8s %8s\n", row, merge_s, "failed", "");
        fflush(stdout);
        failed |= !r.ok;
        if (r.ok && r.build_s + r.launch_s > worst) {
            worst = r.build_s + r.launch_s;
            worst_case = row;
        }
    }
    printf("slowest: %s, %.2f s to build and start\n", worst_case, worst);
    if (save_dir) {
        text path = {0};
        add(&path, "%s/index.txt", save_dir);
        if (save(path.data, index.data ? index.data : "") != 0)
            failed = 1;
        free(path.data);
    }
    free(index.data);
    for (char *path = strtok(temporaries.data, "\n"); path; path = strtok(NULL, "\n"))
        unlink(path);
    free(temporaries.data);
    free(cases.data);
    unlink(task_path);
    coop_context_release(ctx);
    return failed ? 1 : 0;
}
