/* Internal structures of libcoop, shared by its source files; not installed. */
#ifndef COOP_INTERNAL_H
#define COOP_INTERNAL_H

#include "coop.h"
#include "coop_layout.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* The channel: a host-visible array of COOP_CHAN_WORDS words (see coop_layout.h). */
typedef struct coop_channel {
    coop_channel_kind kind;
    volatile uint32_t *host;    /* svm / nvhost: where the host reads and writes */
    void *svm;                  /* svm: the SVM allocation (kernel argument) */
    cl_mem buffer;              /* nvhost / queue: the buffer (kernel argument) */
} coop_channel;

struct coop_context {
    coop_device_info info;
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl;
    cl_command_queue queue;      /* kernels */
    cl_command_queue side_queue; /* channel traffic for the queue backend */
    coop_channel channel;
    cl_mem dev_area;             /* device area of persistent kernels (coop_layout.h) */
    size_t dev_area_words;
    cl_program echo_program;     /* built on first use by coop_channel_roundtrip */
    char *message;
    int hold_spawn_records;      /* tests only: the megakernel's host reads no record ring entry (an
                                    agent-served spawned run done) until every member finished, a
                                    host as slow to read as can be (docs/DESIGN.md section 10.2) */
};

struct coop_program {
    coop_context *ctx;
    cl_program cl;
    /* what a traced run builds again with COOP_TRACING=1 (program.c, coop_kernel_traced) */
    char *source;
    char *name;                  /* the file, or "<source>", in diagnostics */
    char *options;
    cl_program traced;           /* built at the first traced run, or NULL */
};

/* An argument as the caller set it, to set again on the traced kernel. */
typedef struct coop_arg {
    int set;
    size_t size;
    void *value;                 /* NULL: local memory of `size` bytes */
} coop_arg;

struct coop_kernel {
    coop_program *program;
    cl_kernel cl;
    cl_uint arg_count;
    int persistent;              /* first two parameters are COOP_PARAMS */
    char *name;
    coop_arg *args;              /* arg_count entries, indexed as OpenCL counts them */
    cl_kernel traced;            /* the same kernel of the traced program, or NULL */
};

/* How a persistent launch starts its groups (coop_launch_begin). */
typedef struct coop_start {
    const char *what;          /* the launch settings in messages: "coop_kernel_run: launch->" */
    int megakernel;            /* the kernel loops over coop_schedule() */
    unsigned members;          /* groups that start the cooperative kernel (0: all) */
    int agent;                 /* reserve the last group as the scheduler's agent */
    unsigned chaos_seed;       /* 0: no chaos */
    unsigned spawn_slot;       /* with an agent: the first task slot it gives spawned runs itself
                                  (COOP_DEV_SPAWN_SLOT; 0: the host serves the spawn queue) */
    unsigned trace_capacity;   /* a traced run: events per group's buffer (0: no trace area) */
    unsigned kernels;          /* cooperative kernels, each a kernel block (0 or 1: one) */
    const unsigned *weights;   /* kernels > 1: each one's weight */
} coop_start;

/* A persistent kernel launched and discovered, still running. */
typedef struct coop_running {
    coop_kernel *kernel;
    cl_event event;
    char name[128];
    size_t local_size;
    unsigned launched;         /* groups launched */
    unsigned groups;           /* co-resident groups found */
    double start_us;           /* when the device started running it (after compiling it) */
    double compile_us;         /* enqueue until start_us: the device's compiler, on PoCL */
    double discovered_us;      /* when the poll closed */
    double closing_us;         /* just before the host wrote the close */
    double acknowledged_us;    /* when the host saw the leader's count of groups */
    double timeout_s;
    unsigned area_groups;      /* groups the device area (and a trace area) was prepared for */
} coop_running;

/* launch.c: the words of a trace area for `groups` groups of `capacity` events in a megakernel of
 * `kernels` cooperative kernels, from COOP_DEV_TRACE_KERNEL(kernels, 1) on (the kernel blocks' own
 * trace words, then the area at COOP_DEV_TRACE_AT(kernels): coop_layout.h). */
size_t coop_trace_area_words(unsigned kernels, unsigned groups, unsigned capacity);
/* launch.c: launches `kernel` and runs discovery; the kernel then runs on. */
coop_status coop_launch_begin(coop_kernel *kernel, const coop_launch *launch, const coop_start *start,
                              coop_running *run);
/* coop_kernel_run, naming the launch settings `what` in messages ("coop_kernel_run: launch->"). */
coop_status coop_kernel_run_as(coop_kernel *kernel, const coop_launch *launch, const char *what,
                               coop_run_stats *stats);
/* launch.c: the local size to launch `kernel` with: `asked`, checked against what the kernel allows
 * on the device (before anything reaches OpenCL's compiler; a `megakernel` on PoCL takes at least
 * 3), or the default, 256 capped; `what` names the setting in messages ("coop_kernel_run:
 * launch->"). */
coop_status coop_local_size(const coop_kernel *kernel, size_t asked, int megakernel, const char *what, size_t *local);
/* 1 once the kernel has ended (*status tells how), 0 while it runs. */
int coop_launch_ended(coop_running *run, coop_status *status);
/* Waits for the kernel to end, within run->timeout_s of its start; a timeout says where the
 * groups are. */
coop_status coop_launch_wait(coop_running *run);
/* COOP_OK if `value` is 0 or a positive finite number, else COOP_ERR_INVALID_ARGUMENT naming
 * `field` ("coop_kernel_run: launch->timeout_s"). */
coop_status coop_check_time(coop_context *ctx, const char *field, double value);

/* Records a formatted message on ctx and returns status (errors.c). */
coop_status coop_fail(coop_context *ctx, coop_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records "what: CL_ERROR_NAME" for a failed OpenCL call and returns COOP_ERR_OPENCL. */
coop_status coop_fail_cl(coop_context *ctx, cl_int err, const char *what);
/* "COOP_ERR_TIMEOUT" for COOP_ERR_TIMEOUT (static storage). */
const char *coop_status_name(coop_status status);
/* Clears the message. */
void coop_clear_message(coop_context *ctx);

/* device.c */
coop_status coop_probe_device(cl_platform_id platform, cl_device_id device, coop_device_info *info);
/* Why a device that could run cooperative kernels by its features is refused (a platform release
 * measured to run them wrong or abort on them), or NULL. */
const char *coop_device_refusal(const coop_device_info *info);
coop_status coop_select_device(coop_context *ctx, const coop_options *options);

/* channel.c */
coop_status coop_channel_open(coop_context *ctx, coop_channel_kind kind);
void coop_channel_close(coop_context *ctx);
coop_status coop_channel_load(coop_context *ctx, unsigned slot, uint32_t *value);
coop_status coop_channel_store(coop_context *ctx, unsigned slot, uint32_t value);
/* Reads `count` words from `slot` on, each as coop_channel_load does (acquire), with the queue
 * backend in one transfer. */
coop_status coop_channel_read(coop_context *ctx, unsigned slot, unsigned count, uint32_t *values);
coop_status coop_channel_reset(coop_context *ctx);
/* Zeroes the channel's kernel blocks 1 .. kernels-1 (several cooperative kernels). */
coop_status coop_channel_reset_kernels(coop_context *ctx, unsigned kernels);
/* Where an agent copies the control block out (every channel but 'svm'), asks it to copy kernel
 * block `block`'s group states and sites too (docs/DESIGN.md section 11, step 3) and waits up to
 * a second for it; with 'svm' they are in the channel already. */
void coop_channel_dump(coop_context *ctx, unsigned block);
coop_status coop_channel_set_arg(coop_context *ctx, cl_kernel kernel, cl_uint index);

/* program.c */
/* plans.c: the groups a run of `plan` takes of `limit` (at least 1, at most limit - 1). */
unsigned coop_groups_to_take(const coop_task_plan *plan, unsigned limit);
/* plans.c: every field of the plans that a megakernel run reads, named in the message when it is
 * out of range (COOP_ERR_INVALID_ARGUMENT). */
coop_status coop_check_plans(coop_context *ctx, const coop_kernel *kernel, const coop_task_plan *plans, size_t count);
/* program.c: the cooperative kernels a program coop-merge made holds (its coop-kernels line), 1 if
 * it says nothing. */
unsigned coop_source_kernels(const char *source);
coop_status coop_build(coop_context *ctx, const char *source, const char *options, cl_program *out);
/* The kernel as built with COOP_TRACING=1, with the arguments the caller set: built (once per
 * program) and created (once per kernel) at the first traced run. */
coop_status coop_kernel_traced(coop_kernel *kernel, cl_kernel *out);
/* COOP_OK once every argument of `kernel` after COOP_PARAMS was set; else
 * COOP_ERR_INVALID_ARGUMENT naming each unset one by index, type and name. */
coop_status coop_check_args_set(const coop_kernel *kernel);
/* Writes `size` bytes of `data` to `file` (a COOP_BUILD_DUMP file, named `path`) and closes it;
 * COOP_ERR_IO with the path and the reason if the write or the close fails. */
coop_status coop_dump_write(coop_context *ctx, FILE *file, const char *path, const void *data, size_t size);

/* env.c: the environment variables libcoop reads, each read and checked there only. */
typedef enum coop_env_var {
    COOP_ENV_PLATFORM,
    COOP_ENV_DEVICE,
    COOP_ENV_CHANNEL,
    COOP_ENV_DISCOVERY_WINDOW_US,
    COOP_ENV_TIMEOUT_S,
    COOP_ENV_WATCHDOG_S,
    COOP_ENV_CHAOS,
    COOP_ENV_TRACE,
    COOP_ENV_TRACE_FILE,
    COOP_ENV_BUILD_OPTIONS,
    COOP_ENV_BUILD_LOG,
    COOP_ENV_BUILD_DUMP,
    COOP_ENV_COUNT
} coop_env_var;
const char *coop_env_name(coop_env_var var);
/* A text variable's value; NULL when it is unset or empty. */
const char *coop_env_text(coop_env_var var);
/* A number or 0/1 flag; *value is 0 when unset or empty (the caller's default then applies), and
 * a malformed value is COOP_ERR_INVALID_ARGUMENT with a message naming the variable and what it
 * accepts. */
coop_status coop_env_number(coop_context *ctx, coop_env_var var, double *value);
/* COOP_CHANNEL: COOP_CHANNEL_AUTO when unset or empty. */
coop_status coop_env_channel(coop_context *ctx, coop_channel_kind *kind);

/* where.c: the words of a per-group state array (COOP_CTRL_GROUP_STATE, one per discovery
 * ticket) as "3 groups waiting at global barrier #2 (global_barrier() at k.cl:7:5), group 1 never
 * arrived" into `text`: the site comes from the waiters' COOP_CTRL_GROUP_SITE words (`sites`) and
 * the program's coop-site lines (`source`, may be NULL); `plain`: a plain persistent kernel, whose
 * running groups write nothing. Returns the length written. */
size_t coop_describe_groups(const uint32_t *where, const uint32_t *sites, const char *source, unsigned groups,
                            int plain, char *text, size_t size);
/* "idle", "running"... for a COOP_WHERE_* kind. */
const char *coop_where_name(uint32_t where);

/* clock.c */
double coop_now_us(void);
/* Sleeps between two polls of a running kernel: gpu_us on a GPU (0: spin), cpu_us on a CPU
 * device, whose workgroups are threads of this process competing for the same cores. */
void coop_poll_pause(const coop_context *ctx, unsigned gpu_us, unsigned cpu_us);

/* Source of coop_kernel.h with the files it includes, generated at build time (build/gen/kernel_header.c). */
extern const char coop_kernel_header_source[];

#endif
