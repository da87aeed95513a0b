/* smith-run: runs one program that fuzz/smith/gen.py wrote and coop-merge merged, and compares its
 * output words with the generator's (docs/TESTING.md). DIR holds smith.spec (the launch, the
 * arguments, the task plans and the expected words), mega.cl and mega.h (the megakernel and its
 * host header) and standalone.cl and standalone.h (the --standalone form).
 *
 *   smith-run DIR [--seeds N] [--first S] [--only-plain]
 *
 * The megakernel runs once under each chaos seed S .. S+N-1 with the spec's task plans, then the
 * standalone kernel runs once at the spec's group count. The device is COOP_PLATFORM's and
 * COOP_DEVICE's; the watchdog COOP_WATCHDOG_S's (default 10 s). Exit status: 0 every run gave
 * the expected words; 2 a word differs in a merged form and the user's kernel as plain OpenCL
 * gets that word right (mismatch: coop-merge's or libcoop's); 5 the plain kernel gets it wrong
 * too (platform); 3 a run made no progress (hang: the watchdog or the time limit); 4 a
 * program failed to build; 1 any other error. A mismatch ends the megakernel's runs; the report
 * then says the standalone kernel's verdict and the plain kernel's (DIR/plain.cl, gen.py's, run
 * as one group without libcoop); any other failure ends everything (after a hang the kernel may
 * still run). --only-plain runs the plain kernel alone: exit status 0 right, 5 wrong. */
#include "coop.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EXIT_MISMATCH = 2, EXIT_HANG = 3, EXIT_BUILD = 4, EXIT_PLATFORM = 5, MAX_ITEMS = 32, NAME_BYTES = 96 };

/* The plain kernel's time limit: PoCL compiles it at its launch, minutes on a loaded machine. */
#define PLAIN_TIMEOUT_S 600.0

/* An argument of the spec: a buffer (words > 0) or a uint, of kernel `kernel`. */
typedef struct item {
    char kernel[NAME_BYTES], param[NAME_BYTES];
    size_t words;
    cl_uint value;
    cl_uint *expect;              /* NULL: not checked */
    int plan;                     /* the task plan that writes it, or -1 for the cooperative kernel */
    cl_mem buffer;
} item;

typedef struct spec {
    size_t local_size;
    unsigned max_groups;
    item items[MAX_ITEMS];
    size_t item_count;
    coop_task_plan plans[4];
    char plan_kernel[4][NAME_BYTES];
    size_t plan_count;
} spec;

static const char *program_name = "smith-run";

static _Noreturn void fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(NULL);
    _Exit(status); /* after a hang the kernel still runs: releasing the context would wait for it */
}

static char *read_text(const char *path)
{
    FILE *stream = fopen(path, "rb");
    if (!stream)
        fail(1, "cannot read %s: %s", path, strerror(errno));
    fseek(stream, 0, SEEK_END);
    long size = ftell(stream);
    rewind(stream);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, stream) != (size_t)size)
        fail(1, "cannot read %s", path);
    text[size] = '\0';
    fclose(stream);
    return text;
}

static item *find_item(spec *s, const char *kernel, const char *param)
{
    for (size_t i = 0; i < s->item_count; i++)
        if (!strcmp(s->items[i].kernel, kernel) && !strcmp(s->items[i].param, param))
            return &s->items[i];
    return NULL;
}

static item *new_item(spec *s, const char *path, unsigned line, const char *kernel, const char *param)
{
    if (s->item_count == MAX_ITEMS || strlen(kernel) >= NAME_BYTES || strlen(param) >= NAME_BYTES)
        fail(1, "%s:%u: too many arguments or too long a name", path, line);
    item *it = &s->items[s->item_count++];
    *it = (item){.plan = -1};
    strcpy(it->kernel, kernel);
    strcpy(it->param, param);
    return it;
}

/* The spec: one instruction a line (fuzz/smith/gen.py's spec()). */
static void read_spec(const char *path, spec *s)
{
    char *text = read_text(path);
    *s = (spec){0};
    unsigned line = 0;
    for (char *save = NULL, *row = strtok_r(text, "\n", &save); row; row = strtok_r(NULL, "\n", &save)) {
        line++;
        char kernel[NAME_BYTES], param[NAME_BYTES], when[16];
        unsigned long a = 0, b = 0, c = 0, d = 0;
        int used = 0;
        if (sscanf(row, "size %lu %lu", &a, &b) == 2) {
            s->local_size = a;
            s->max_groups = (unsigned)b;
        } else if (sscanf(row, "buffer %95s %95s %lu", kernel, param, &a) == 3) {
            new_item(s, path, line, kernel, param)->words = a;
        } else if (sscanf(row, "uint %95s %95s %lu", kernel, param, &a) == 3) {
            new_item(s, path, line, kernel, param)->value = (cl_uint)a;
        } else if (sscanf(row, "task %95s %lu %lu %lu %15s", kernel, &b, &c, &d, when) == 5) {
            if (s->plan_count == 4)
                fail(1, "%s:%u: more than 4 task plans", path, line);
            coop_task_plan *plan = &s->plans[s->plan_count];
            /* a periodic task takes half the groups every millisecond; a one-off task one group */
            *plan = (coop_task_plan){.workgroups = (unsigned)b, .args = {(unsigned)c, (unsigned)d}};
            plan->take = strcmp(when, "periodic") ? COOP_TAKE_ONE : COOP_TAKE_HALF;
            plan->period_ms = strcmp(when, "periodic") ? 0 : 1;
            plan->repeats = strcmp(when, "periodic") ? 0 : 3;
            strcpy(s->plan_kernel[s->plan_count++], kernel);
        } else if (sscanf(row, "expect %95s %95s%n", kernel, param, &used) == 2) {
            item *it = find_item(s, kernel, param);
            if (!it || !it->words)
                fail(1, "%s:%u: expect names no buffer", path, line);
            it->expect = malloc(it->words * sizeof *it->expect);
            char *p = row + used;
            for (size_t i = 0; i < it->words; i++) {
                char *end = NULL;
                it->expect[i] = (cl_uint)strtoul(p, &end, 10);
                if (end == p)
                    fail(1, "%s:%u: %zu words expected, fewer given", path, line, it->words);
                p = end;
            }
        } else {
            fail(1, "%s:%u: cannot read '%s'", path, line, row);
        }
    }
    for (size_t i = 0; i < s->item_count; i++)
        for (size_t p = 0; p < s->plan_count; p++)
            if (!strcmp(s->items[i].kernel, s->plan_kernel[p]))
                s->items[i].plan = (int)p;
    if (!s->local_size || !s->max_groups)
        fail(1, "%s: no size line", path);
    free(text);
}

/* The value of `#define NAME VALUE` in a coop-merge host header, or -1 if it has none. */
static long header_value(const char *header, const char *name)
{
    size_t length = strlen(name);
    for (const char *p = strstr(header, "#define "); p; p = strstr(p + 1, "#define ")) {
        const char *n = p + 8;
        if (!strncmp(n, name, length) && n[length] == ' ')
            return strtol(n + length + 1, NULL, 10);
    }
    return -1;
}

static int exit_for(coop_status status)
{
    return status == COOP_ERR_TIMEOUT ? EXIT_HANG : status == COOP_ERR_BUILD ? EXIT_BUILD : 1;
}

/* Builds DIR/FORM.cl and sets the arguments of the kernels it holds from the spec. */
static coop_kernel *build(coop_context *ctx, const char *dir, const char *form, const char *prefix, spec *s,
                          coop_program **program)
{
    char path[4096], name[256];
    snprintf(path, sizeof path, "%s/%s.h", dir, form);
    char *header = read_text(path);
    snprintf(path, sizeof path, "%s/%s.cl", dir, form);
    char *source = read_text(path);
    coop_kernel *kernel = NULL;
    coop_status status = coop_program_create(ctx, source, NULL, program);
    if (status == COOP_OK)
        status = coop_kernel_create(*program, !strcmp(form, "mega") ? "smith_mega" : "smith_standalone", &kernel);
    if (status != COOP_OK)
        fail(exit_for(status), "%s: build: %s: %s", path, coop_strerror(status), coop_context_message(ctx));
    for (size_t i = 0; i < s->item_count; i++) {
        item *it = &s->items[i];
        snprintf(name, sizeof name, "%s_ARG_%s_%s", prefix, it->kernel, it->param);
        long index = header_value(header, name);
        if (index < 0 && it->plan < 0)
            fail(1, "%s.h has no %s", form, name);
        if (index < 0)
            continue;
        status = it->words ? coop_kernel_set_buffer(kernel, (unsigned)index, it->buffer)
                           : coop_kernel_set_arg(kernel, (unsigned)index, sizeof it->value, &it->value);
        if (status != COOP_OK)
            fail(1, "%s: argument %s: %s", form, name, coop_context_message(ctx));
    }
    for (size_t p = 0; p < s->plan_count; p++) {
        snprintf(name, sizeof name, "%s_TASK_%s", prefix, s->plan_kernel[p]);
        long task = header_value(header, name);
        if (task >= 0)
            s->plans[p].task = (unsigned)task;
    }
    free(header);
    free(source);
    return kernel;
}

static void zero_buffers(coop_context *ctx, spec *s)
{
    for (size_t i = 0; i < s->item_count; i++) {
        item *it = &s->items[i];
        cl_uint zero = 0;
        if (it->words && clEnqueueFillBuffer(coop_context_queue(ctx), it->buffer, &zero, sizeof zero, 0,
                                             it->words * sizeof zero, 0, NULL, NULL) != CL_SUCCESS)
            fail(1, "clEnqueueFillBuffer failed");
    }
    clFinish(coop_context_queue(ctx));
}

/* A form's first wrong word. */
typedef struct wrong_word {
    const item *it;
    size_t word;
} wrong_word;

/* Compares every checked buffer of the run (`ran[p]`: whether plan p ran): 0, or 1 with what differs
 * in `message` and the first wrong word in `*at` (may be NULL). */
static int check(coop_context *ctx, spec *s, const int *ran, char *message, size_t size, wrong_word *at)
{
    for (size_t i = 0; i < s->item_count; i++) {
        item *it = &s->items[i];
        if (!it->expect || (it->plan >= 0 && !ran[it->plan]))
            continue;
        cl_uint *words = malloc(it->words * sizeof *words);
        if (clEnqueueReadBuffer(coop_context_queue(ctx), it->buffer, CL_TRUE, 0, it->words * sizeof *words, words, 0,
                                NULL, NULL) != CL_SUCCESS)
            fail(1, "clEnqueueReadBuffer failed");
        size_t wrong = 0, first = 0;
        for (size_t w = 0; w < it->words; w++)
            if (words[w] != it->expect[w] && !wrong++)
                first = w;
        if (wrong)
            snprintf(message, size, "mismatch: %s %s[%zu] = %u, expected %u (%zu of %zu words wrong)", it->kernel,
                     it->param, first, words[first], it->expect[first], wrong, it->words);
        free(words);
        if (wrong && at)
            *at = (wrong_word){it, first};
        if (wrong)
            return 1;
    }
    return 0;
}

/* Whether the word `w` names is wrong in its buffer now (a task's word cannot be: the plain
 * kernel runs no task). */
static int still_wrong(coop_context *ctx, const wrong_word *w)
{
    if (w->it->plan >= 0)
        return 0;
    cl_uint word;
    if (clEnqueueReadBuffer(coop_context_queue(ctx), w->it->buffer, CL_TRUE, w->word * sizeof word, sizeof word, &word,
                            0, NULL, NULL) != CL_SUCCESS)
        fail(1, "clEnqueueReadBuffer failed");
    return word != w->it->expect[w->word];
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs DIR/plain.cl, the cooperative kernel as plain OpenCL (no libcoop), as one group of the
 * spec's local size; its parameters are the spec's arguments of `smith` in their order. Returns
 * 0 when out is right, 1 when it is wrong or the kernel never completed, -1 when it could not
 * run; `message` says which. */
static int run_plain(coop_context *ctx, const char *dir, spec *s, char *message, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/plain.cl", dir);
    FILE *stream = fopen(path, "rb");
    if (!stream) {
        snprintf(message, size, "not run (no plain.cl)");
        return -1;
    }
    fclose(stream);
    char *source = read_text(path);
    cl_command_queue queue = coop_context_queue(ctx);
    cl_device_id device = NULL;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL);
    cl_program program = NULL;
    if (err == CL_SUCCESS)
        program = clCreateProgramWithSource(coop_context_cl(ctx), 1, (const char **)&source, NULL, &err);
    free(source);
    if (err == CL_SUCCESS && clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        char log[256] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        snprintf(message, size, "not run (plain.cl does not build: %.200s)", log);
        clReleaseProgram(program);
        return -1;
    }
    cl_kernel kernel = err == CL_SUCCESS ? clCreateKernel(program, "smith", &err) : NULL;
    cl_uint index = 0;
    for (size_t i = 0; i < s->item_count && err == CL_SUCCESS; i++) {
        item *it = &s->items[i];
        if (strcmp(it->kernel, "smith"))
            continue;
        err = it->words ? clSetKernelArg(kernel, index, sizeof it->buffer, &it->buffer)
                        : clSetKernelArg(kernel, index, sizeof it->value, &it->value);
        index++;
    }
    if (err != CL_SUCCESS) {
        snprintf(message, size, "not run (plain.cl: %s)", coop_cl_error_name(err));
        return -1;
    }
    zero_buffers(ctx, s);
    size_t global = s->local_size;
    cl_event done = NULL;
    if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &s->local_size, 0, NULL, &done) != CL_SUCCESS ||
        clFlush(queue) != CL_SUCCESS)
        fail(1, "%s: clEnqueueNDRangeKernel failed", path);
    cl_int state = CL_QUEUED;
    for (double start = now_s(); now_s() - start < PLAIN_TIMEOUT_S;) {
        if (clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL) != CL_SUCCESS)
            fail(1, "%s: clGetEventInfo failed", path);
        if (state <= CL_COMPLETE)
            break;
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    if (state < CL_COMPLETE)
        fail(1, "%s: the plain kernel failed: %s", path, coop_cl_error_name(state));
    if (state != CL_COMPLETE) {
        /* the kernel still runs: the caller's report ends the process */
        snprintf(message, size, "did not complete in %.0f s", PLAIN_TIMEOUT_S);
        return 1;
    }
    clReleaseEvent(done);
    int none[4] = {0};
    int wrong = check(ctx, s, none, message, size, NULL);
    if (!wrong)
        snprintf(message, size, "right");
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return wrong;
}

/* Ends a run in which a merged form gave a wrong word (its first one in `wrong[0 .. count)`): runs
 * the plain kernel and says whose fault it is. The platform's when the plain kernel is wrong at
 * one of those words too; the merge's when it is right there, even if it is wrong elsewhere (a
 * platform's fault that the merged forms got right does not explain theirs). */
static _Noreturn void report_mismatch(coop_context *ctx, const char *dir, spec *s, const char *what,
                                      const wrong_word *wrong, size_t count)
{
    char message[400];
    int plain = run_plain(ctx, dir, s, message, sizeof message);
    if (plain < 0)
        fail(EXIT_MISMATCH, "%s; plain: %s", what, message);
    int same = 0;
    for (size_t i = 0; i < count && plain; i++)
        same |= still_wrong(ctx, &wrong[i]);
    if (same)
        fail(EXIT_PLATFORM, "%s; plain: %s (platform: the plain kernel is wrong too)", what, message);
    if (plain)
        fail(EXIT_MISMATCH, "%s; plain: %s, right at %s[%zu] (merge: only the merged forms are wrong there)", what,
             message, wrong[0].it->param, wrong[0].word);
    fail(EXIT_MISMATCH, "%s; plain: right (merge: only the merged forms are wrong)", what);
}

int main(int argc, char **argv)
{
    unsigned seeds = 3, first = 1;
    int only_plain = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--first") && i + 1 < argc)
            first = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--only-plain"))
            only_plain = 1;
        else if (!dir && argv[i][0] != '-')
            dir = argv[i];
        else
            fail(1, "usage: smith-run DIR [--seeds N] [--first S] [--only-plain]");
    }
    if (!dir)
        fail(1, "usage: smith-run DIR [--seeds N] [--first S] [--only-plain]");
    char path[4096];
    snprintf(path, sizeof path, "%s/smith.spec", dir);
    spec s;
    read_spec(path, &s);

    coop_context *ctx = NULL;
    coop_status status = coop_context_create(NULL, &ctx);
    if (status != COOP_OK)
        fail(1, "context: %s: %s", coop_strerror(status), coop_context_message(ctx));
    for (size_t i = 0; i < s.item_count; i++) {
        cl_int err = CL_SUCCESS;
        if (s.items[i].words)
            s.items[i].buffer = clCreateBuffer(coop_context_cl(ctx), CL_MEM_READ_WRITE,
                                               s.items[i].words * sizeof(cl_uint), NULL, &err);
        if (err != CL_SUCCESS)
            fail(1, "clCreateBuffer: %s", coop_cl_error_name(err));
    }

    if (only_plain) {
        char message[400];
        int plain = run_plain(ctx, dir, &s, message, sizeof message);
        if (plain)
            fail(plain > 0 ? EXIT_PLATFORM : 1, "plain: %s", message);
        printf("plain: right\n");
        return 0;
    }

    /* A mismatch in the megakernel still runs the standalone kernel, whose verdict the report
     * adds: whether the fault is in the megakernel's rewriting or in both forms. */
    char mismatch[512] = "";
    wrong_word wrong[2];
    size_t wrong_count = 0;
    coop_program *program = NULL;
    coop_kernel *kernel = build(ctx, dir, "mega", "SMITH_MEGA", &s, &program);
    /* PoCL compiles a kernel at its first launch, inside the time limit: minutes on a loaded
     * machine. A megakernel that stops progressing is the watchdog's (10 s) long before. */
    coop_launch launch = {.local_size = s.local_size, .max_groups = s.max_groups, .timeout_s = 600};
    for (unsigned n = 0; n < seeds && !mismatch[0]; n++) {
        char what[64], message[400];
        snprintf(what, sizeof what, "megakernel, chaos seed %u", first + n);
        zero_buffers(ctx, &s);
        coop_mega_params params = {.launch = launch, .chaos_seed = first + n};
        coop_mega_report report;
        status = coop_mega_run(kernel, &params, s.plans, s.plan_count, &report);
        if (status != COOP_OK)
            fail(exit_for(status), "%s: %s: %s", what, coop_strerror(status), coop_context_message(ctx));
        int ran[4] = {0};
        for (size_t r = 0; r < report.record_count; r++)
            ran[report.records[r].plan] = 1;
        if (check(ctx, &s, ran, message, sizeof message, &wrong[0])) {
            snprintf(mismatch, sizeof mismatch, "%s: %s", what, message);
            wrong_count = 1;
        }
        printf("%s: %u groups, %u kills, %u forks, %u resizes, %u tasks\n", what, report.groups, report.kills,
               report.forks, report.resizes, report.tasks);
        coop_mega_report_free(&report);
    }
    coop_kernel_release(kernel);
    coop_program_release(program);

    kernel = build(ctx, dir, "standalone", "SMITH_STANDALONE", &s, &program);
    zero_buffers(ctx, &s);
    coop_run_stats stats;
    status = coop_kernel_run(kernel, &launch, &stats);
    if (status != COOP_OK)
        fail(exit_for(status), "%s%sstandalone: %s: %s", mismatch, mismatch[0] ? "; " : "", coop_strerror(status),
             coop_context_message(ctx));
    int none[4] = {0};
    char message[400];
    int standalone_wrong = check(ctx, &s, none, message, sizeof message, &wrong[wrong_count]);
    wrong_count += (size_t)standalone_wrong;
    char what[1024];
    if (mismatch[0]) {
        snprintf(what, sizeof what, "%s; standalone: %s", mismatch, standalone_wrong ? message : "right");
        report_mismatch(ctx, dir, &s, what, wrong, wrong_count);
    }
    if (standalone_wrong) {
        snprintf(what, sizeof what, "standalone: %s; megakernel: right under %u chaos seeds", message, seeds);
        report_mismatch(ctx, dir, &s, what, wrong, wrong_count);
    }
    printf("standalone: %u groups\n", stats.groups);
    coop_kernel_release(kernel);
    coop_program_release(program);
    for (size_t i = 0; i < s.item_count; i++) {
        if (s.items[i].buffer)
            clReleaseMemObject(s.items[i].buffer);
        free(s.items[i].expect);
    }
    coop_context_release(ctx);
    return 0;
}
