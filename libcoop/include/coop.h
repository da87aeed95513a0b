/* coop.h: libcoop, cooperative kernels on OpenCL (host side, C11).
 *
 * A context selects one OpenCL device, probes what it can do and opens a host <-> kernel
 * channel. Programs built through a context get the kernel-side header (coop_kernel.h)
 * prepended and the right compiler options for the device's memory model. A persistent kernel
 * is launched with coop_kernel_run(): libcoop discovers how many of its workgroups are really
 * co-resident, lets only those run, and waits for them.
 *
 * Every function returns a coop_status; coop_strerror() names the code and
 * coop_context_message() gives the details of the last failure on a context (the OpenCL error
 * by name, the build log, the devices that exist...). Every field a call reads is checked: a
 * value out of its range is COOP_ERR_INVALID_ARGUMENT with a message naming the field. Handles
 * are opaque; whoever creates one releases it.
 *
 * Thread safety: libcoop has no global mutable state. Functions that take no handle
 * (coop_version, coop_strerror, coop_cl_error_name, coop_list_devices, coop_match_devices, the
 * name and parse functions) may be called from any thread at any time. A context and everything
 * made from it (its programs, kernels and their runs) must be used by one thread at a time:
 * calls on one context are not synchronised, and its message belongs to its last call. Different
 * contexts may be used from different threads at once.
 *
 * Environment: libcoop reads COOP_PLATFORM, COOP_DEVICE, COOP_CHANNEL, COOP_DISCOVERY_WINDOW_US,
 * COOP_TIMEOUT_S, COOP_WATCHDOG_S, COOP_CHAOS, COOP_TRACE, COOP_TRACE_FILE, COOP_BUILD_OPTIONS,
 * COOP_BUILD_LOG and COOP_BUILD_DUMP (README, "Environment variables") with getenv() while the calls that use them
 * run (contexts, builds, launches): do not change the environment while another thread is inside
 * libcoop. An unset or empty variable takes its default; a malformed one (COOP_TIMEOUT_S=-3,
 * COOP_CHAOS=x) makes the call fail with COOP_ERR_INVALID_ARGUMENT naming the variable and what
 * it accepts.
 */
#ifndef COOP_H
#define COOP_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; coop_version() gives the library's. The shared library's soname
 * is libcoop.so.COOP_VERSION_MAJOR. */
#define COOP_VERSION_MAJOR 0
#define COOP_VERSION_MINOR 1
#define COOP_VERSION_PATCH 0
#define COOP_VERSION_STRING "0.1.0"

/* Marks the functions libcoop exports; everything else in the library is hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define COOP_API __attribute__((visibility("default")))
#else
#define COOP_API
#endif

/* The library's version, "MAJOR.MINOR.PATCH" (static storage): COOP_VERSION_STRING of the
 * libcoop the program runs with. */
COOP_API const char *coop_version(void);

/* X(code, message): the single table behind coop_status and coop_strerror(). */
#define COOP_STATUS_MAP(X)                                                              \
    X(COOP_OK, "success")                                                               \
    X(COOP_ERR_INVALID_ARGUMENT, "invalid argument")                                    \
    X(COOP_ERR_NO_MEMORY, "out of host memory")                                         \
    X(COOP_ERR_NO_PLATFORM, "no OpenCL platform or device is installed")                \
    X(COOP_ERR_DEVICE_NOT_FOUND, "no OpenCL device matches the selection")              \
    X(COOP_ERR_DEVICE_UNSUPPORTED, "the device cannot run cooperative kernels")         \
    X(COOP_ERR_CHANNEL_UNSUPPORTED, "the device lacks the requested channel backend")   \
    X(COOP_ERR_OPENCL, "an OpenCL call failed")                                         \
    X(COOP_ERR_BUILD, "the kernel program failed to build")                             \
    X(COOP_ERR_KERNEL_NOT_FOUND, "no kernel of that name in the program")               \
    X(COOP_ERR_IO, "a file could not be read or written")                              \
    X(COOP_ERR_TIMEOUT, "the kernel made no progress within the time limit")

typedef enum coop_status {
#define COOP_STATUS_ENUM_(code, message) code,
    COOP_STATUS_MAP(COOP_STATUS_ENUM_)
#undef COOP_STATUS_ENUM_
    COOP_STATUS_COUNT_
} coop_status;

/* A short message for a status code (never NULL, static storage). */
COOP_API const char *coop_strerror(coop_status status);

/* The name of an OpenCL error code, e.g. "CL_INVALID_KERNEL_ARGS" (static storage). */
COOP_API const char *coop_cl_error_name(cl_int error);

/* ---- Devices ----------------------------------------------------------------------------- */

/* How a device's memory model is handled in kernels. */
typedef enum coop_target {
    COOP_TARGET_UNSUPPORTED = 0, /* OpenCL C 1.2 only, no way to get acquire/release */
    COOP_TARGET_POCL,            /* PoCL CPU: 2.0 atomics under -cl-std=CL3.0, device scope */
    COOP_TARGET_NVIDIA,          /* NVIDIA: inline PTX under -cl-std=CL2.0 */
    COOP_TARGET_CL20             /* other OpenCL C 2.0+ devices: standard atomics */
} coop_target;

/* How the host talks to a running kernel. */
typedef enum coop_channel_kind {
    COOP_CHANNEL_AUTO = 0, /* the best the device has: svm, else nvhost, else queue */
    COOP_CHANNEL_SVM,      /* fine-grained SVM buffer with SVM atomics */
    COOP_CHANNEL_NVHOST,   /* NVIDIA host-located buffer (cl_nv_create_buffer), mapped */
    COOP_CHANNEL_QUEUE     /* device buffer read and written through a second command queue */
} coop_channel_kind;

/* Bits of coop_device_info.atomic_scopes (from CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES). */
enum {
    COOP_SCOPE_WORK_GROUP = 1,
    COOP_SCOPE_DEVICE = 2,
    COOP_SCOPE_ALL_DEVICES = 4
};

/* What the capability probe found on one device. */
typedef struct coop_device_info {
    unsigned platform_index;      /* position in clGetPlatformIDs */
    unsigned device_index;        /* position among that platform's devices */
    char platform[128];
    char name[128];
    char vendor[128];
    char version[128];            /* CL_DEVICE_VERSION */
    char c_version[128];          /* CL_DEVICE_OPENCL_C_VERSION */
    int is_gpu;
    unsigned compute_units;
    size_t max_local_size;
    int svm_coarse;               /* coarse-grained SVM buffers */
    int svm_fine_buffer;          /* fine-grained SVM buffers */
    int svm_fine_system;          /* fine-grained system SVM */
    int svm_atomics;              /* atomics on fine-grained SVM */
    unsigned atomic_scopes;       /* COOP_SCOPE_* bits the device reports */
    int atomic_acq_rel;           /* device reports acquire/release atomics */
    int nv_create_buffer;         /* cl_nv_create_buffer extension */
    unsigned nv_compute_capability; /* NVIDIA: major * 10 + minor (cl_nv_device_attribute_query); else 0 */
    coop_target target;           /* how libcoop programs the memory model */
    coop_channel_kind channel;    /* the backend COOP_CHANNEL_AUTO picks */
} coop_device_info;

/* Fills *out with a malloc'ed array of every device of every platform (caller frees) and *count
 * with its length. COOP_ERR_NO_PLATFORM when there is none. */
COOP_API coop_status coop_list_devices(coop_device_info **out, size_t *count);

/* Lower-case name of a target / channel kind ("pocl", "svm", ...). */
COOP_API const char *coop_target_name(coop_target target);
COOP_API const char *coop_channel_name(coop_channel_kind kind);

/* Parses "svm", "nvhost", "queue" or "auto" (case-insensitive, nothing else around them); -1
 * when it is none of them. */
COOP_API int coop_channel_parse(const char *text);

/* Selection for coop_context_create() and coop_match_devices(); see coop_context_create(). */
typedef struct coop_options coop_options;

/* The devices a context created with `options` (may be NULL) chooses among: those that the
 * platform and device selectors name (the options', else COOP_PLATFORM's and COOP_DEVICE's), or
 * every device when none is given. Fills *out with a malloc'ed array in coop_list_devices()'s
 * order (caller frees) and *count with its length. COOP_ERR_DEVICE_NOT_FOUND when none matches,
 * COOP_ERR_INVALID_ARGUMENT for a malformed selector or a channel that is no coop_channel_kind;
 * `message` (`size` bytes, may be NULL) then says why. */
COOP_API coop_status coop_match_devices(const coop_options *options, coop_device_info **out, size_t *count,
                                        char *message, size_t size);

/* ---- Contexts ---------------------------------------------------------------------------- */

typedef struct coop_context coop_context;

/* Selection for coop_context_create(). A NULL or empty string or COOP_CHANNEL_AUTO takes the
 * environment: COOP_PLATFORM, COOP_DEVICE (a decimal index, or else a case-insensitive substring
 * of the name) and COOP_CHANNEL (svm|nvhost|queue|auto). With neither, the first supported
 * device. */
struct coop_options {
    const char *platform;
    const char *device;
    coop_channel_kind channel;
};

/* Selects a device, creates an OpenCL context with two queues and opens the channel. Like
 * sqlite3_open, *out is set even on failure (unless memory ran out) so that
 * coop_context_message() can say what went wrong; release it in every case. */
COOP_API coop_status coop_context_create(const coop_options *options, coop_context **out);

/* Releases a context and every OpenCL object it owns. NULL is allowed. The accessors below
 * return NULL (or COOP_CHANNEL_AUTO) for a NULL context. */
COOP_API void coop_context_release(coop_context *ctx);

/* Details of the last failure on this context ("" if none). Valid until the next call. */
COOP_API const char *coop_context_message(const coop_context *ctx);

/* The probed capabilities of the context's device. */
COOP_API const coop_device_info *coop_context_device(const coop_context *ctx);

/* The channel backend in use. */
COOP_API coop_channel_kind coop_context_channel(const coop_context *ctx);

/* The underlying OpenCL objects, for creating buffers and enqueueing ordinary work. They stay
 * owned by the context. */
COOP_API cl_context coop_context_cl(const coop_context *ctx);
COOP_API cl_command_queue coop_context_queue(const coop_context *ctx);

/* Measures the channel's round trip (host write -> running kernel sees it and answers -> host
 * sees the answer) over `rounds` trips; *mean_us and *min_us receive the results. */
COOP_API coop_status coop_channel_roundtrip(coop_context *ctx, unsigned rounds, double *mean_us, double *min_us);

/* ---- Programs and kernels ---------------------------------------------------------------- */

typedef struct coop_program coop_program;
typedef struct coop_kernel coop_kernel;

/* Builds OpenCL C source for the context's device, with coop_kernel.h prepended and the target's
 * options (e.g. -cl-std=CL3.0 -DCOOP_TARGET_POCL=1) added before `options` (may be NULL).
 * On a build failure returns COOP_ERR_BUILD and the message holds the compiler's log. */
COOP_API coop_status coop_program_create(coop_context *ctx, const char *source, const char *options,
                                coop_program **out);

/* As coop_program_create(), reading the source from a file (COOP_ERR_IO if it cannot). */
COOP_API coop_status coop_program_create_from_file(coop_context *ctx, const char *path, const char *options,
                                          coop_program **out);

/* Releases a program; its kernels must be released first. NULL is allowed. */
COOP_API void coop_program_release(coop_program *program);

/* Finds kernel `name` in the program. COOP_ERR_KERNEL_NOT_FOUND lists the kernels that exist. */
COOP_API coop_status coop_kernel_create(coop_program *program, const char *name, coop_kernel **out);

/* Releases a kernel. NULL is allowed. */
COOP_API void coop_kernel_release(coop_kernel *kernel);

/* Sets the kernel's argument `index`, counted after the COOP_PARAMS of a persistent kernel
 * (index 0 is the first parameter the kernel's author wrote). A value the parameter does not take
 * (CL_INVALID_ARG_SIZE, CL_INVALID_ARG_VALUE...) is COOP_ERR_INVALID_ARGUMENT naming the
 * parameter, "argument 4 (uint adapt_queue_words): size 8, expected 4", or saying that the
 * platform gives no argument info. Every argument must be set before a run: coop_kernel_run and
 * coop_mega_run refuse a kernel with unset ones (COOP_ERR_INVALID_ARGUMENT naming each). */
COOP_API coop_status coop_kernel_set_arg(coop_kernel *kernel, unsigned index, size_t size, const void *value);

/* Sets argument `index` to a buffer. */
COOP_API coop_status coop_kernel_set_buffer(coop_kernel *kernel, unsigned index, cl_mem buffer);

/* The raw OpenCL kernel (owned by the coop_kernel); NULL for NULL. */
COOP_API cl_kernel coop_kernel_cl(const coop_kernel *kernel);

/* How to launch a persistent kernel. Zero fields take the defaults; a negative, infinite or NaN
 * time is COOP_ERR_INVALID_ARGUMENT. */
typedef struct coop_launch {
    size_t local_size;            /* work-items per group (default 256, capped by the device); at
                                     most what the kernel allows on the device, and at least 3 for
                                     a megakernel on PoCL (its compiler aborts below) */
    unsigned max_groups;          /* run on at most this many groups (0: all co-resident ones) */
    unsigned launch_groups;       /* groups launched to discover among (0: max_groups where
                                     that is below an upper bound on occupancy derived from the
                                     device, else that bound) */
    double discovery_window_us;   /* close the poll once no group registered for this long
                                     (0: COOP_DISCOVERY_WINDOW_US, else 100 us on GPUs, 20 ms on
                                     CPUs, 250 ms on CPUs with more compute units than cores) */
    double timeout_s;             /* give up when the kernel has not completed this long after its
                                     launch (0: COOP_TIMEOUT_S or 60 s); the clock starts once the
                                     kernel is compiled for the device, which PoCL does at the
                                     first launch at each local size (see compile_ms; a compile
                                     has 10 minutes of its own) */
} coop_launch;

/* What a persistent launch measured. */
typedef struct coop_run_stats {
    unsigned groups;              /* co-resident groups found and used */
    unsigned launched_groups;     /* groups launched for discovery */
    double discovery_ms;          /* start (the kernel running) until the poll closed */
    double run_ms;                /* start until the kernel completed */
    double compile_ms;            /* enqueue until the device reported the kernel running: on
                                     PoCL mostly compiling it, at its first launch at each local
                                     size; counted neither in run_ms nor in the time limit */
} coop_run_stats;

/* The number of groups coop_kernel_run() launches to discover among at this local size (0: the
 * default local size): an upper bound on how many can be co-resident, so buffers sized per group
 * can be made before the run. 0 for a NULL context. */
COOP_API unsigned coop_launch_groups(const coop_context *ctx, size_t local_size);

/* Launches a persistent kernel (one whose first parameters are COOP_PARAMS and which starts
 * with COOP_ENTER), discovers its co-resident groups, and waits for it to finish.
 * `launch` and `stats` may be NULL. A kernel that has not finished within the time limit is
 * COOP_ERR_TIMEOUT with a message saying which groups wait at which global barrier and which
 * never arrived (the kernel then still runs: the process must exit). On a GPU the calling
 * thread polls the kernel's completion without pausing, as coop_mega_run's host loop does,
 * so that both forms' times end when the kernel does (a CPU device gets a 1 ms pause). */
COOP_API coop_status coop_kernel_run(coop_kernel *kernel, const coop_launch *launch, coop_run_stats *stats);

/* ---- Cooperative megakernels ------------------------------------------------------------- */

/* How many groups a high-priority task takes from the cooperative kernel. */
typedef enum coop_take {
    COOP_TAKE_COUNT = 0,       /* coop_task_plan.take_count groups */
    COOP_TAKE_ONE,
    COOP_TAKE_QUARTER,
    COOP_TAKE_HALF,
    COOP_TAKE_ALL_BUT_ONE
} coop_take;

/* Parses "one", "quarter", "half", "all-but-one" or a group count from 1 to 4095 (decimal
 * digits only); -1 if it is none of them. */
COOP_API int coop_take_parse(const char *text, coop_take *take, unsigned *count);

/* Task plans' urgency (docs/DESIGN.md section 10.1). */
#define COOP_PRIORITY_MAX 255u
#define COOP_OVERTAKE_MAX 1000u
#define COOP_TASKS_IN_FLIGHT_MAX 4u   /* task slots on the device (coop_layout.h, COOP_TASK_SLOTS) */

/* Which due task run the host sends next when a task slot is free and no request gathers. */
typedef enum coop_policy {
    COOP_POLICY_PRIORITY = 0,  /* the highest coop_task_plan.priority; ties: the earliest due, then
                                  the lowest plan index (all priorities equal: the due order) */
    COOP_POLICY_EDF            /* the earliest deadline (due time + deadline_ms); ties as above */
} coop_policy;

/* A high-priority task: task function `task` of the megakernel (the index its scheduler loop
 * dispatches on), run as `workgroups` workgroups on the groups it takes, as many rounds as
 * needed. Due once at `start_ms` after the megakernel started (discovery done), or every
 * `period_ms` from then on while the cooperative kernel runs (the first submission in any case;
 * at most `repeats` times if non-zero); sent when due, its previous run is done, a task slot is
 * free and the policy picks it (coop_mega_params.policy). A run meets its deadline if it is done within `deadline_ms` of
 * when it was due: by default a periodic task's next period, and no deadline for a one-off. */
typedef struct coop_task_plan {
    unsigned task;                /* below the megakernel's task count where coop-merge wrote it
                                     (P_TASK_COUNT; COOP_ERR_INVALID_ARGUMENT otherwise) */
    unsigned workgroups;          /* at least 1 */
    coop_take take;
    unsigned take_count;          /* COOP_TAKE_COUNT: 1 to 4095; any other take: 0 */
    double start_ms;              /* at least 0 */
    double period_ms;             /* 0: once; else positive */
    unsigned repeats;             /* 0: no limit; a one-off task (period_ms 0): 0 or 1 */
    unsigned args[16];            /* read in the task with coop_task_arg(ctx, i) */
    unsigned priority;            /* 0 (the default) to COOP_PRIORITY_MAX: higher goes first
                                     under COOP_POLICY_PRIORITY */
    double deadline_ms;           /* from when a run is due; 0: period_ms for a periodic task, none
                                     for a one-off; else positive and finite */
} coop_task_plan;

/* coop_task_record.plan of a run spawned from the cooperative kernel (or by such a run). */
#define COOP_PLAN_KERNEL 0xffffffffu

/* One task run, as measured. Times in microseconds from the request. The report's records are in
 * the order the runs were requested (`request`). A run spawned on the device (spawn_task, docs/
 * TUTORIAL.md) has a record too, `spawned` set. */
typedef struct coop_task_record {
    unsigned plan;                /* index into the plans; a spawned run: the plan of the planned run
                                     its chain of spawns began from, or COOP_PLAN_KERNEL */
    unsigned groups;              /* groups taken */
    double request_ms;            /* when it was requested, since the megakernel started */
    double gather_us;             /* request until its groups were ready */
    double exec_us;               /* groups ready until done */
    double response_us;           /* request until done */
    int deadline_met;             /* done by `deadline_ms` (1 for a run without a deadline) */
    int device_timed;             /* gather and execution timed by the device clock */
    unsigned request;             /* its number in the order the runs were sent, from 1; a spawned
                                     run the agent applied itself: 2^27 (coop_layout.h's
                                     COOP_SPAWN_SEQ_BIT) and up, in the order it applied them
                                     (docs/DESIGN.md section 10.2) */
    double due_ms;                /* when its plan wanted it, since the megakernel started */
    double deadline_ms;           /* due_ms + the plan's deadline; 0: none */
    unsigned overtaken;           /* runs sent ahead of it while it was due, though due after it */
    unsigned in_flight;           /* task runs in flight once it was sent, itself included */
    unsigned task;                /* the megakernel's task it ran */
    int spawned;                  /* 1: spawned on the device, not planned */
    unsigned spawned_by;          /* a spawned run: the request number of the run that spawned it
                                     (0: the cooperative kernel) */
    unsigned depth;               /* 0: planned; a spawned run: its spawner's depth + 1 (the
                                     cooperative kernel's is 0) */
    double spawn_wait_us;         /* a spawned run: from its spawn until its request (the device
                                     clock's where device_timed, else from when the host took it
                                     from the queue); due_ms is when the host took it */
    unsigned kernel;              /* the cooperative kernel whose groups it took: the one whose block
                                     it was requested in (coop-merge's order; 0 with one kernel) */
    unsigned spawn_kernel;        /* a spawned run: the cooperative kernel whose spawn queue it came
                                     from: that kernel's or one of its block's task runs' spawn */
} coop_task_record;

/* How to run a megakernel. Zero fields take the defaults. */
typedef struct coop_mega_params {
    coop_launch launch;
    unsigned members;             /* groups that start the cooperative kernel (0: all) */
    unsigned chaos_seed;          /* 0: COOP_CHAOS from the environment (0 or unset: none) */
    double watchdog_s;            /* fail when nothing progresses this long (0: COOP_WATCHDOG_S or 10 s) */
    const char *trace_file;       /* write a timeline of the run to this file (Chrome trace event
                                     JSON, for Perfetto or chrome://tracing; README, "Traces");
                                     NULL: COOP_TRACE_FILE, and no trace when that is unset too.
                                     A traced run uses the kernel built again with COOP_TRACING=1
                                     (once per program), with the arguments set through
                                     coop_kernel_set_arg / _set_buffer; untraced runs have no trace
                                     code at all */
    unsigned trace_events;        /* events each group's trace buffer holds (0: 4096; at most
                                     COOP_TRACE_MAX_EVENTS); a group's events beyond it are counted
                                     as dropped, and the trace then ends where the first buffer
                                     filled */
    unsigned tasks_in_flight;     /* task runs in flight at once, each on its own groups (0: 1,
                                     one after another; at most COOP_TASKS_IN_FLIGHT_MAX) */
    coop_policy policy;           /* which due run goes next (0: COOP_POLICY_PRIORITY) */
    unsigned overtake_limit;      /* a due run is overtaken by at most this many runs due after
                                     it (0: 4; at most COOP_OVERTAKE_MAX) */
    unsigned spawn_priority;      /* where the host serves the spawn queue (no agent group, or
                                     tasks_in_flight 4): the priority of runs the cooperative kernel
                                     spawns, and of the runs those spawn (0 to COOP_PRIORITY_MAX); a
                                     run spawned in a planned run's chain has that plan's priority.
                                     An agent serving the queue applies spawned runs in order */
    double spawn_deadline_ms;     /* their deadline, from when the host takes them from the queue
                                     (0: none); a planned run's chain: the plan's deadline */
} coop_mega_params;

#define COOP_TRACE_DEFAULT_EVENTS 4096u
#define COOP_TRACE_MAX_EVENTS (1u << 20)

/* What a megakernel run did. Release with coop_mega_report_free(). */
typedef struct coop_mega_report {
    unsigned groups;              /* co-resident groups */
    unsigned members_start;       /* cooperative members at the start */
    int agent;                    /* a group served as the scheduler's agent */
    unsigned kills, forks, resizes, tasks, barriers; /* several cooperative kernels: summed over them */
    double mean_members;          /* time-weighted mean of M (several kernels: kernel 0's; each one's
                                     is in its coop_kernel_report) */
    double discovery_ms, run_ms;
    double compile_ms;            /* as coop_run_stats.compile_ms: not in run_ms */
    double cooperative_ms;        /* discovery done until the host saw every member finished */
    coop_task_record *records;
    size_t record_count;
    unsigned long trace_events;   /* a traced run: events the groups recorded and the trace holds */
    unsigned long trace_dropped;  /* ... and events that did not fit their group's buffer */
} coop_mega_report;

/* Runs a megakernel (a persistent kernel whose groups loop over coop_schedule(), see
 * coop_device/schedule.h) until its cooperative kernel has finished and its tasks are done, submitting
 * the planned tasks on the way. `params` may be NULL, `plans` only when plan_count is 0. A run
 * that makes no progress for the watchdog time, or has not finished within its time limit
 * (params->launch.timeout_s), ends with COOP_ERR_TIMEOUT and a message saying where the groups are
 * (the kernel then still runs: the process must exit). On success *report
 * holds the run's figures: release it with coop_mega_report_free().
 * A traced run (params->trace_file or COOP_TRACE_FILE) also writes the trace file; a device
 * without a trace clock (NVIDIA's %globaltimer, or PoCL on an x86-64 host: the time-stamp
 * counter) is COOP_ERR_DEVICE_UNSUPPORTED, a file that cannot be written COOP_ERR_IO. Its task
 * records are then timed by the trace clock (device_timed), so that the report and the trace
 * agree to the nanosecond. A traced run that fails once its groups ran (the watchdog, the time
 * limit, an error) still writes the events they recorded, with otherData.ended_early saying why,
 * and its message says where that trace is, or why there is none (a device that serves no read
 * of the trace buffers beside a kernel that still runs). */
COOP_API coop_status coop_mega_run(coop_kernel *kernel, const coop_mega_params *params, const coop_task_plan *plans,
                          size_t plan_count, coop_mega_report *report);

COOP_API void coop_mega_report_free(coop_mega_report *report);

/* ---- Several cooperative kernels in one megakernel ------------------------------------------ */

#define COOP_KERNELS_MAX 4u           /* cooperative kernels one megakernel holds (coop_layout.h) */
#define COOP_WEIGHT_MAX 1000u

/* One cooperative kernel of a megakernel coop-merge made of several (`coop-merge A.cl B.cl ...`;
 * P_COOP_<kernel> is its index). Zero fields take the defaults. */
typedef struct coop_kernel_share {
    unsigned weight;              /* its share of the groups against the other running kernels' (0:
                                     1; at most COOP_WEIGHT_MAX) */
} coop_kernel_share;

/* What one cooperative kernel of a shared run did (docs/DESIGN.md section 17). */
typedef struct coop_kernel_report {
    unsigned members_start;       /* its members when discovery closed (its weight's share) */
    unsigned members_max;         /* the most members the host saw it run on at once */
    double group_ms;              /* group-time: its running members (M - F) over the run, as the
                                     host sampled them, in group-milliseconds */
    double mean_members;          /* group_ms over the time until it finished */
    double finish_ms;             /* discovery done until the host saw every member finished */
    unsigned kills, forks, resizes, barriers; /* as coop_mega_report's, its own */
    unsigned moved_in, moved_out; /* idle groups that moved into and out of its block */
    unsigned moves_asked;         /* idle groups the host asked to move out of its block */
    unsigned share_kills;         /* kill tokens the host set on it for the others' shares */
    double group_all_ms;          /* its group_ms while every kernel ran (none had finished): its
                                     share of the kernels' is what its weight steers */
    double group_beside_ms;       /* its group_ms while it and another kernel ran */
    double group_due_ms;          /* its weight's part of the running kernels' group_ms over the
                                     same time: group_beside_ms / group_due_ms is 1 where the
                                     shares follow the weights exactly (a kernel that finishes
                                     early leaves the others theirs) */
} coop_kernel_report;

/* As coop_mega_run(), for a megakernel of kernel_count cooperative kernels, each with its weight
 * in kernels[k] (NULL: all 1). The groups are split by weight at the start; the host then keeps
 * each running kernel near its weight's share of the groups no task holds, through the kernels'
 * own offers: kill tokens where a kernel has more, idle groups moved to one with less, which its
 * offer_fork takes; a finished kernel's groups go to the others. kernel_count must be the
 * megakernel's count (coop-merge's P_COOP_COUNT; 1 for a megakernel of one, which then runs as
 * coop_mega_run does); kernel_reports, NULL or kernel_count entries, receives each kernel's
 * figures. A traced run's file says which kernel each group served (docs/DESIGN.md section 13).
 * Fewer co-resident groups than kernels is COOP_ERR_DEVICE_UNSUPPORTED, once the kernels that got
 * groups ran to their end (the megakernel has ended). coop_mega_run() runs a megakernel of
 * several with every weight 1. */
COOP_API coop_status coop_mega_run_shared(coop_kernel *kernel, const coop_mega_params *params,
                                          const coop_kernel_share *kernels, size_t kernel_count,
                                          const coop_task_plan *plans, size_t plan_count, coop_mega_report *report,
                                          coop_kernel_report *kernel_reports);

/* ---- Self-measurement ------------------------------------------------------------------ */

/* What coop_measure_barrier() runs. Zero fields take the defaults. */
typedef struct coop_barrier_params {
    size_t local_size;            /* default 256 */
    unsigned max_groups;          /* 0: every co-resident group */
    unsigned barriers;            /* barriers to run, each followed by a data check (at least 1) */
    const char *build_options;    /* extra options, e.g. "-DMY_OPTION=1" */
} coop_barrier_params;

typedef struct coop_barrier_result {
    unsigned groups;              /* groups that took part (discovered, capped by max_groups) */
    size_t local_size;
    unsigned barriers;
    unsigned failures;            /* reads after a barrier that missed a write made before it */
    double discovery_ms;          /* launch until the discovery poll closed */
    double us_per_barrier;
    int device_timed;             /* 1: timed by the device clock; 0: by the host */
} coop_barrier_result;

/* Runs `barriers` global barriers in a persistent kernel with a data check after each, and
 * reports the latency, the discovered occupancy and the number of check failures (which must be
 * 0: anything else is a memory-model bug). */
COOP_API coop_status coop_measure_barrier(coop_context *ctx, const coop_barrier_params *params,
                                          coop_barrier_result *out);

#ifdef __cplusplus
}
#endif

#endif
