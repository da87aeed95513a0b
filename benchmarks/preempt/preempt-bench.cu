// preempt-bench: what an NVIDIA user would do instead of cooperative kernels to keep a
// high-priority task responsive beside a long-running kernel, on the same work as sched-bench's
// gather figure. Built only with make CUDA=1. Its help below says what it runs and prints.
//
// The work is sched-bench's, ported with identical arithmetic and sizes: the app is the unit loop
// of benchmarks/sched/units.cl (groups claim units from a shared counter; a unit is `iters`
// dependent multiply-adds per thread, work.h's unit_work, written to the same wrapped sink and
// counted in `done`), the task is task.cl's task_short (one unit_work of `task_iters` per block).
// Task times come from the device clock (globaltimer: the first block's start and the last
// block's end) against the host's submission time moved onto it (calibrate(): the best of 20 round
// trips, a few microseconds): start = first block start - submission, exec = last end - first start,
// response = last end - submission. Not events: an event recorded at submission on another stream
// can share a hardware queue with the task's stream and wait behind the last task.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "coop.h"   // COOP_VERSION_STRING only
#include "strict.h" // the programs' strict parser (libcoop/src/strict.c, linked in)

// work.h's SINK_SLOT and unit_work, for CUDA's indices.
__device__ __forceinline__ unsigned sink_slot(unsigned unit)
{
    return (unit & 4095u) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ unsigned unit_work(unsigned unit, unsigned iters)
{
    unsigned x = unit * 2654435761u + threadIdx.x;
    for (unsigned i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

__device__ __forceinline__ unsigned long long globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// units.cl's sched_units without the offers: units [first, end) from the counter *next (a chain
// launch has its own counter and range; the persistent kernel has all units).
__global__ void sched_units(unsigned *next, unsigned first, unsigned end, unsigned iters, unsigned *sink,
                            unsigned *done)
{
    __shared__ unsigned claimed;
    while (true) {
        if (threadIdx.x == 0)
            claimed = first + atomicAdd(next, 1u);
        __syncthreads();
        unsigned unit = claimed;
        __syncthreads();
        if (unit >= end)
            break;
        sink[sink_slot(unit)] = unit_work(unit, iters);
        if (threadIdx.x == 0)
            atomicAdd(&done[unit], 1u);
    }
}

// task.cl's task_short, with the device clock's first start and last end in stamp[0..1].
__global__ void task_short(unsigned task_iters, unsigned *task_sink, unsigned long long *stamp)
{
    if (threadIdx.x == 0)
        atomicMin(&stamp[0], globaltimer());
    unsigned g = blockIdx.x;
    task_sink[sink_slot(g)] = unit_work(g, task_iters);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicMax(&stamp[1], globaltimer());
}

__global__ void read_clock(unsigned long long *out)
{
    *out = globaltimer();
}

static const char usage[] =
    "Usage: preempt-bench [--iters N] [--units-per-group U] [--task-iters N] [--period-ms P] [--tasks T]\n"
    "                     [--local-size L] [--output FILE]\n";

static const char help_text[] =
    "Measures, on the work of sched-bench's gather figure, the ways an NVIDIA user keeps a\n"
    "high-priority task responsive beside a long-running kernel.\n"
    "\n"
    "The work is sched-bench's, ported to CUDA with identical arithmetic and sizes: the app is the\n"
    "unit loop of benchmarks/sched/units.cl (without the offers), on every co-resident block, the task\n"
    "is task.cl's task_short on a quarter or a half of those blocks, every period. Ways: the app alone;\n"
    "the task on a high-priority stream beside the persistent app (\"priority\"); green contexts, the\n"
    "task's share of SMs a quarter and a half (\"green\", cuGreenCtxCreate); the app as a chain of\n"
    "short launches of about 100 us and 1 ms, the task on a high-priority stream (\"chain\"). MPS is\n"
    "reported as unavailable where nvidia-cuda-mps-control is missing, and is not measured here\n"
    "(it shares a GPU between processes, which this single process is not).\n"
    "\n"
    "Prints one line per way and share: way, share, the app's SMs, the app's and the task's blocks,\n"
    "app ms, slowdown against alone, and the task's start (submission to first block start), exec\n"
    "(first start to last end) and response (submission to last end) median and p99 in us, on the\n"
    "device clock (globaltimer; the host's submission time moved onto it, to a few us), tasks\n"
    "submitted while the app ran, and units not run exactly once. --output writes the same as CSV.\n"
    "\n"
    "Options:\n"
    "  --iters N            iterations of one unit's work, 1 to 10000000 (default 2000, sched-bench's)\n"
    "  --units-per-group U  units per co-resident block, 1 to 1000000 (default 20000, sched-bench's)\n"
    "  --task-iters N       iterations of the task's work, 1 to 10000000 (default 1000, sched-bench's)\n"
    "  --period-ms P        the task's period in ms, above 0 and at most 1000000 (default 1)\n"
    "  --tasks T            task submissions at most per way, 1 to 1000000 (default 1000)\n"
    "  --local-size L       threads per block, 32 to 1024 (default 256, sched-bench's)\n"
    "  --output FILE        also write the table as CSV to FILE (written whole, or not at all)\n"
    "  -h, --help           print this help and exit\n"
    "  --version            print the version and exit\n"
    "\n"
    "Exit status:\n"
    "  0  measured, and every unit ran exactly once in every way\n"
    "  1  bad arguments, no CUDA device, a CUDA error, or FILE could not be written\n"
    "  2  a unit did not run exactly once\n";

struct settings {
    unsigned iters = 2000, units_per_group = 20000, task_iters = 1000, tasks = 1000, local_size = 256;
    double period_ms = 1.0;
    const char *output = nullptr;
};

struct row {
    std::string way, share;
    unsigned sms = 0, app_blocks = 0, task_blocks = 0, tasks = 0, wrong = 0;
    double app_ms = 0, slowdown = 0;
    double start[2] = {0, 0}, exec[2] = {0, 0}, response[2] = {0, 0}; // median, p99 (us)
};

static int fail(const char *what, cudaError_t err)
{
    fprintf(stderr, "preempt-bench: %s: %s\n", what, cudaGetErrorString(err));
    return 1;
}

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        cudaError_t err_ = (call);                                                                                     \
        if (err_ != cudaSuccess)                                                                                       \
            return fail(#call, err_);                                                                                  \
    } while (0)

static double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    size_t i = (size_t)(q * (double)(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

struct bench {
    settings s;
    int sms = 0, per_sm = 0;
    unsigned blocks = 0, units = 0;
    unsigned *next = nullptr, *sink = nullptr, *task_sink = nullptr, *done = nullptr;
    unsigned long long *stamps = nullptr; // two per task
    double clock_offset_ns = 0;           // globaltimer - host steady clock
};

static double host_ns()
{
    return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The device clock against the host's: the smallest round trip of a few reads.
static int calibrate(bench *b)
{
    unsigned long long *clock = nullptr, value = 0;
    CHECK(cudaMalloc(&clock, sizeof *clock));
    double best = 1e30;
    for (int i = 0; i < 20; i++) {
        double before = host_ns();
        read_clock<<<1, 1>>>(clock);
        CHECK(cudaMemcpy(&value, clock, sizeof value, cudaMemcpyDeviceToHost));
        double after = host_ns();
        if (after - before < best) {
            best = after - before;
            b->clock_offset_ns = (double)value - (before + after) / 2;
        }
    }
    cudaFree(clock);
    return 0;
}

static unsigned check_units(bench *b)
{
    std::vector<unsigned> done(b->units);
    cudaMemcpy(done.data(), b->done, b->units * sizeof(unsigned), cudaMemcpyDeviceToHost);
    unsigned wrong = 0;
    for (unsigned d : done)
        wrong += d != 1;
    return wrong;
}

// One way: the app on app_stream (persistent on app_blocks, or a chain of launches of `chunk`
// units each when chunk > 0) while a host thread submits the task on task_stream every period
// until the app ends or the tasks are spent. The app's time is its events'; the tasks' the device
// clock's.
static int run_way(bench *b, cudaStream_t app_stream, cudaStream_t task_stream, unsigned app_blocks,
                   unsigned task_blocks, unsigned chunk, unsigned tasks, row *out)
{
    unsigned launches = chunk ? (b->units + chunk - 1) / chunk : 1;
    unsigned *counters = nullptr;
    CHECK(cudaMalloc(&counters, launches * sizeof(unsigned)));
    CHECK(cudaMemset(counters, 0, launches * sizeof(unsigned)));
    CHECK(cudaMemset(b->done, 0, b->units * sizeof(unsigned)));
    std::vector<unsigned long long> init(2 * (size_t)b->s.tasks);
    for (size_t i = 0; i < init.size(); i += 2)
        init[i] = ~0ull, init[i + 1] = 0;
    CHECK(cudaMemcpy(b->stamps, init.data(), init.size() * sizeof init[0], cudaMemcpyHostToDevice));
    cudaEvent_t app_start, app_end;
    CHECK(cudaEventCreate(&app_start));
    CHECK(cudaEventCreate(&app_end));
    CHECK(cudaDeviceSynchronize());

    std::atomic<bool> app_done{false};
    std::atomic<unsigned> submitted{0};
    std::vector<double> submit_host_ns(tasks);
    std::thread submitter;
    if (tasks > 0)
        submitter = std::thread([&] {
            auto period = std::chrono::nanoseconds((long long)(b->s.period_ms * 1e6));
            auto next = std::chrono::steady_clock::now() + period;
            for (unsigned i = 0; i < tasks && !app_done.load(); i++) {
                std::this_thread::sleep_until(next);
                next += period;
                submit_host_ns[i] = host_ns();
                task_short<<<task_blocks, b->s.local_size, 0, task_stream>>>(b->s.task_iters, b->task_sink,
                                                                            b->stamps + 2 * i);
                submitted.store(i + 1);
            }
        });
    CHECK(cudaEventRecord(app_start, app_stream));
    for (unsigned k = 0; k < launches; k++) {
        unsigned first = k * chunk, last = chunk ? std::min(b->units, first + chunk) : b->units;
        sched_units<<<app_blocks, b->s.local_size, 0, app_stream>>>(counters + k, first, last, b->s.iters, b->sink,
                                                                    b->done);
    }
    CHECK(cudaEventRecord(app_end, app_stream));
    cudaError_t app_err = cudaEventSynchronize(app_end);
    app_done.store(true);
    if (submitter.joinable())
        submitter.join();
    CHECK(app_err);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    float app_ms = 0;
    CHECK(cudaEventElapsedTime(&app_ms, app_start, app_end));
    out->app_ms = app_ms;
    out->wrong = check_units(b);
    unsigned n = submitted.load();
    out->tasks = n;
    std::vector<unsigned long long> stamps(2 * (size_t)n);
    if (n)
        CHECK(cudaMemcpy(stamps.data(), b->stamps, stamps.size() * sizeof stamps[0], cudaMemcpyDeviceToHost));
    std::vector<double> start, exec, response;
    for (unsigned i = 0; i < n; i++) {
        exec.push_back((double)(stamps[2 * i + 1] - stamps[2 * i]) / 1e3);
        // submission on the device clock: the host's submission time, moved by the calibration
        double begin = (double)stamps[2 * i] - (submit_host_ns[i] + b->clock_offset_ns);
        start.push_back(std::max(0.0, begin / 1e3));
        double finish = (double)stamps[2 * i + 1] - (submit_host_ns[i] + b->clock_offset_ns);
        response.push_back(std::max(0.0, finish / 1e3));
    }
    out->start[0] = quantile(start, 0.5), out->start[1] = quantile(start, 0.99);
    out->exec[0] = quantile(exec, 0.5), out->exec[1] = quantile(exec, 0.99);
    out->response[0] = quantile(response, 0.5), out->response[1] = quantile(response, 0.99);
    out->app_blocks = app_blocks;
    out->task_blocks = task_blocks;
    cudaEventDestroy(app_start);
    cudaEventDestroy(app_end);
    cudaFree(counters);
    return 0;
}

// The driver API's green-context calls, looked up through the runtime (cudaGetDriverEntryPoint)
// rather than linked: the program then starts, for --help and on machines without a driver, like
// gridsync-bench.
struct driver {
    decltype(&cuDeviceGetDevResource) get_resource;
    decltype(&cuDevSmResourceSplitByCount) split;
    decltype(&cuDevResourceGenerateDesc) describe;
    decltype(&cuGreenCtxCreate) create;
    decltype(&cuGreenCtxStreamCreate) stream_create;
    decltype(&cuGreenCtxDestroy) destroy;
    decltype(&cuStreamDestroy) stream_destroy;
    decltype(&cuGetErrorString) error_string;
};

static int driver_symbol(const char *name, void **fn)
{
    cudaDriverEntryPointQueryResult found;
    cudaError_t err = cudaGetDriverEntryPointByVersion(name, fn, CUDART_VERSION, cudaEnableDefault, &found);
    if (err != cudaSuccess || found != cudaDriverEntryPointSuccess) {
        fprintf(stderr, "preempt-bench: the driver has no %s (green contexts need CUDA 12.5 or later)\n", name);
        return 1;
    }
    return 0;
}

static int driver_load(driver *d)
{
    return driver_symbol("cuDeviceGetDevResource", (void **)&d->get_resource) ||
           driver_symbol("cuDevSmResourceSplitByCount", (void **)&d->split) ||
           driver_symbol("cuDevResourceGenerateDesc", (void **)&d->describe) ||
           driver_symbol("cuGreenCtxCreate", (void **)&d->create) ||
           driver_symbol("cuGreenCtxStreamCreate", (void **)&d->stream_create) ||
           driver_symbol("cuGreenCtxDestroy", (void **)&d->destroy) ||
           driver_symbol("cuStreamDestroy", (void **)&d->stream_destroy) ||
           driver_symbol("cuGetErrorString", (void **)&d->error_string);
}

#define DRV(call)                                                                                                      \
    do {                                                                                                               \
        CUresult r_ = (call);                                                                                          \
        if (r_ != CUDA_SUCCESS) {                                                                                      \
            const char *name_ = nullptr;                                                                               \
            d->error_string(r_, &name_);                                                                               \
            fprintf(stderr, "preempt-bench: %s: %s\n", #call, name_ ? name_ : "unknown driver error");                 \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

// Green contexts: `task_sms_wanted` SMs (rounded to the split's granularity) for the task, the
// rest for the app; a stream in each. 0 with the streams and the SM counts, else 1 (printed why).
static int green_streams(const driver *d, unsigned task_sms_wanted, cudaStream_t *app_stream,
                         cudaStream_t *task_stream, unsigned *task_sms, unsigned *app_sms, CUgreenCtx ctx[2])
{
    CUdevResource all, split, rest;
    DRV(d->get_resource(0, &all, CU_DEV_RESOURCE_TYPE_SM));
    unsigned groups = 1;
    DRV(d->split(&split, &groups, &all, &rest, 0, task_sms_wanted));
    *task_sms = split.sm.smCount;
    *app_sms = rest.sm.smCount;
    CUdevResourceDesc desc[2];
    DRV(d->describe(&desc[0], &split, 1));
    DRV(d->describe(&desc[1], &rest, 1));
    DRV(d->create(&ctx[0], desc[0], 0, CU_GREEN_CTX_DEFAULT_STREAM));
    DRV(d->create(&ctx[1], desc[1], 0, CU_GREEN_CTX_DEFAULT_STREAM));
    CUstream task, app;
    DRV(d->stream_create(&task, ctx[0], CU_STREAM_NON_BLOCKING, 0));
    DRV(d->stream_create(&app, ctx[1], CU_STREAM_NON_BLOCKING, 0));
    *task_stream = (cudaStream_t)task;
    *app_stream = (cudaStream_t)app;
    return 0;
}

static void print_row(const row &r)
{
    printf("%-10s %-8s sms=%-4u app_blocks=%-5u task_blocks=%-5u app_ms=%9.3f slowdown=%6.3f "
           "start_us=%9.2f/%9.2f exec_us=%8.2f/%8.2f response_us=%9.2f/%9.2f tasks=%u wrong=%u\n",
           r.way.c_str(), r.share.c_str(), r.sms, r.app_blocks, r.task_blocks, r.app_ms, r.slowdown, r.start[0],
           r.start[1], r.exec[0], r.exec[1], r.response[0], r.response[1], r.tasks, r.wrong);
    fflush(stdout);
}

// The table as CSV, into a temporary file beside `path` renamed over it: FILE is whole or untouched.
static int write_csv(const char *path, const std::vector<row> &rows)
{
    std::string tmp = std::string(path) + ".tmp";
    FILE *f = fopen(tmp.c_str(), "w");
    if (!f) {
        fprintf(stderr, "preempt-bench: %s: %s\n", tmp.c_str(), strerror(errno));
        return 1;
    }
    fprintf(f, "way,share,sms,app_blocks,task_blocks,app_ms,slowdown,start_median_us,start_p99_us,exec_median_us,"
               "exec_p99_us,response_median_us,response_p99_us,tasks,wrong\n");
    for (const row &r : rows)
        fprintf(f, "%s,%s,%u,%u,%u,%.3f,%.4f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%u,%u\n", r.way.c_str(), r.share.c_str(),
                r.sms, r.app_blocks, r.task_blocks, r.app_ms, r.slowdown, r.start[0], r.start[1], r.exec[0],
                r.exec[1], r.response[0], r.response[1], r.tasks, r.wrong);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp.c_str(), path) != 0) {
        fprintf(stderr, "preempt-bench: %s: %s\n", path, strerror(errno));
        remove(tmp.c_str());
        return 1;
    }
    return 0;
}

// 0, or 1 after printing why `text` is not a number from min to max.
static int argument(const char *name, const char *text, unsigned min, unsigned max, unsigned *value)
{
    char why[COOP_PARSE_MESSAGE_BYTES];
    uint64_t number = 0;
    if (coop_parse_unsigned(name, text, min, max, &number, why, sizeof why) != 0) {
        fprintf(stderr, "preempt-bench: %s\n%s", why, usage);
        return 1;
    }
    *value = (unsigned)number;
    return 0;
}

static int parse(int argc, char **argv, settings *s)
{
    static const char *const names[] = {"--iters", "--units-per-group", "--task-iters", "--tasks", "--local-size"};
    unsigned *fields[] = {&s->iters, &s->units_per_group, &s->task_iters, &s->tasks, &s->local_size};
    const unsigned least[] = {1, 1, 1, 1, 32}, most[] = {10000000, 1000000, 10000000, 1000000, 1024};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(usage, stdout);
            fputs(help_text, stdout);
            return 0;
        }
        if (!strcmp(arg, "--version")) {
            printf("preempt-bench (libcoop) %s\n", COOP_VERSION_STRING);
            return 0;
        }
        size_t f = 0;
        while (f < 5 && strcmp(arg, names[f]))
            f++;
        if (f == 5 && strcmp(arg, "--period-ms") && strcmp(arg, "--output")) {
            fprintf(stderr, "preempt-bench: unknown option '%s'\n%s", arg, usage);
            return 1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "preempt-bench: %s needs a value\n%s", arg, usage);
            return 1;
        }
        const char *value = argv[++i];
        if (f < 5) {
            if (argument(arg, value, least[f], most[f], fields[f]) != 0)
                return 1;
        } else if (!strcmp(arg, "--period-ms")) {
            char why[COOP_PARSE_MESSAGE_BYTES];
            if (coop_parse_positive(arg, value, 1e6, &s->period_ms, why, sizeof why) != 0) {
                fprintf(stderr, "preempt-bench: %s\n%s", why, usage);
                return 1;
            }
        } else {
            s->output = value;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    bench b;
    int rc = parse(argc, argv, &b.s);
    if (rc >= 0)
        return rc;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "preempt-bench: no CUDA device\n");
        return 1;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    b.sms = prop.multiProcessorCount;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b.per_sm, sched_units, (int)b.s.local_size, 0));
    b.blocks = (unsigned)(b.per_sm * b.sms);
    if ((unsigned long long)b.s.units_per_group * b.blocks > 0xffffffffull) {
        fprintf(stderr, "preempt-bench: --units-per-group %u on %u blocks is over 2^32 units\n", b.s.units_per_group,
                b.blocks);
        return 1;
    }
    b.units = b.s.units_per_group * b.blocks;
    size_t sink_words = (size_t)4096 * b.s.local_size;
    CHECK(cudaMalloc(&b.next, sizeof(unsigned)));
    CHECK(cudaMalloc(&b.sink, sink_words * sizeof(unsigned)));
    CHECK(cudaMalloc(&b.task_sink, sink_words * sizeof(unsigned)));
    CHECK(cudaMalloc(&b.done, (size_t)b.units * sizeof(unsigned)));
    CHECK(cudaMalloc(&b.stamps, 2 * (size_t)b.s.tasks * sizeof(unsigned long long)));
    if (calibrate(&b) != 0)
        return 1;
    int least = 0, greatest = 0;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t low, high;
    CHECK(cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least));
    CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
    printf("preempt-bench on %s: %d SMs, %d blocks per SM of %u threads (%u blocks), %u units of %u iterations, "
           "task %u iterations every %.3f ms, at most %u tasks\n",
           prop.name, b.sms, b.per_sm, b.s.local_size, b.blocks, b.units, b.s.iters, b.s.task_iters, b.s.period_ms,
           b.s.tasks);
    printf("mps        %s\n", access("/usr/bin/nvidia-cuda-mps-control", X_OK) == 0
                                  ? "nvidia-cuda-mps-control exists, but MPS is not measured (one process)"
                                  : "unavailable: no nvidia-cuda-mps-control on this machine");
    std::vector<row> rows;
    row alone{"alone", "-"};
    alone.sms = (unsigned)b.sms;
    if (run_way(&b, low, high, b.blocks, 0, 0, 0, &alone) != 0) // warm-up
        return 1;
    if (run_way(&b, low, high, b.blocks, 0, 0, 0, &alone) != 0)
        return 1;
    alone.slowdown = 1.0;
    rows.push_back(alone);
    print_row(alone);
    const char *shares[2] = {"quarter", "half"};
    driver drv;
    bool green = driver_load(&drv) == 0;
    for (int q = 0; q < 2; q++) {
        unsigned task_blocks = q == 0 ? b.blocks / 4 : b.blocks / 2;
        row r{"priority", shares[q]};
        r.sms = (unsigned)b.sms;
        if (run_way(&b, low, high, b.blocks, task_blocks, 0, b.s.tasks, &r) != 0)
            return 1;
        r.slowdown = r.app_ms / alone.app_ms;
        rows.push_back(r);
        print_row(r);
    }
    const double chain_us[2] = {100, 1000};
    for (int c = 0; c < 2; c++) {
        // launches of chain_us each at the alone rate
        double units_per_us = b.units / (alone.app_ms * 1e3);
        unsigned chunk = std::max(1u, (unsigned)(units_per_us * chain_us[c]));
        for (int q = 0; q < 2; q++) {
            row r{c == 0 ? "chain100us" : "chain1ms", shares[q]};
            r.sms = (unsigned)b.sms;
            unsigned task_blocks = q == 0 ? b.blocks / 4 : b.blocks / 2;
            if (run_way(&b, low, high, b.blocks, task_blocks, chunk, b.s.tasks, &r) != 0)
                return 1;
            r.slowdown = r.app_ms / alone.app_ms;
            rows.push_back(r);
            print_row(r);
        }
    }
    // last: a way the driver refuses leaves the others measured
    for (int q = 0; q < 2; q++) {
        cudaStream_t app, task;
        unsigned task_sms = 0, app_sms = 0;
        CUgreenCtx ctx[2];
        row r{"green", shares[q]};
        if (!green || green_streams(&drv, q == 0 ? b.sms / 4 : b.sms / 2, &app, &task, &task_sms, &app_sms,
                                    ctx) != 0) {
            printf("green      %s unavailable (above)\n", shares[q]);
            continue;
        }
        r.sms = app_sms;
        // the task's blocks as in the other ways: at most what its SMs hold at once
        unsigned task_blocks = std::min(q == 0 ? b.blocks / 4 : b.blocks / 2, task_sms * (unsigned)b.per_sm);
        if (run_way(&b, app, task, app_sms * (unsigned)b.per_sm, task_blocks, 0, b.s.tasks, &r) != 0) {
            printf("green      %s failed (above)\n", shares[q]);
            break;
        }
        r.slowdown = r.app_ms / alone.app_ms;
        rows.push_back(r);
        print_row(r);
        drv.stream_destroy((CUstream)app);
        drv.stream_destroy((CUstream)task);
        drv.destroy(ctx[0]);
        drv.destroy(ctx[1]);
    }
    unsigned wrong = 0;
    for (const row &r : rows)
        wrong += r.wrong;
    if (b.s.output && write_csv(b.s.output, rows) != 0)
        return 1;
    return wrong ? 2 : 0;
}
