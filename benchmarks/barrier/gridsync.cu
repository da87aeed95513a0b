// gridsync-bench GRID BLOCK BARRIERS: CUDA cooperative_groups grid.sync() latency, with the same
// data check as libcoop's barrier check, for comparison with coop_global_barrier() (barrier-bench
// runs it). Built only with make CUDA=1. Its help below says what it prints and returns.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "coop.h"   // COOP_VERSION_STRING only
#include "strict.h" // the programs' strict parser (libcoop/src/strict.c, linked in)

namespace cg = cooperative_groups;

__global__ void barrier_check(unsigned barriers, unsigned *data, unsigned *failures)
{
    cg::grid_group grid = cg::this_grid();
    unsigned group = blockIdx.x, groups = gridDim.x, lid = threadIdx.x, lsize = blockDim.x;
    unsigned slots = groups * lsize, wrong = 0;
    for (unsigned i = 0; i < barriers; i++) {
        unsigned *buffer = data + (i & 1) * slots;
        buffer[group * lsize + lid] = i * 2654435761u + group * lsize + lid;
        grid.sync();
        unsigned other = (group + 1 + i % groups) % groups;
        if (buffer[other * lsize + lid] != i * 2654435761u + other * lsize + lid)
            wrong++;
    }
    if (wrong)
        atomicAdd(failures, wrong);
}

static const char help[] =
    "Usage: gridsync-bench GRID BLOCK BARRIERS\n"
    "Measures CUDA's grid.sync() latency with libcoop's barrier data check.\n"
    "\n"
    "Runs BARRIERS grid.sync() calls on GRID blocks of BLOCK threads in one cooperative launch, each\n"
    "followed by a data check, and prints one line: \"gridsync grid=G block=B barriers=N\n"
    "us_per_sync=X failures=F\", or \"gridsync unavailable: REASON\". barrier-bench runs it.\n"
    "\n"
    "Arguments:\n"
    "  GRID              blocks, 1 to 2147483647 (at most what is co-resident)\n"
    "  BLOCK             threads per block, 1 to 1024\n"
    "  BARRIERS          grid.sync() calls, 1 to 10000000\n"
    "  -h, --help        print this help and exit\n"
    "  --version         print the version and exit\n"
    "\n"
    "Exit status:\n"
    "  0  measured, and every data check passed\n"
    "  1  bad arguments, or no CUDA device that can run it (\"gridsync unavailable\")\n"
    "  2  a data check failed\n";

static int unavailable(const char *why)
{
    printf("gridsync unavailable: %s\n", why);
    return 1;
}

// 0, or -1 after printing why `text` is not a number from min to max.
static int argument(const char *name, const char *text, unsigned min, unsigned max, unsigned *value)
{
    char why[COOP_PARSE_MESSAGE_BYTES];
    uint64_t number = 0;
    if (coop_parse_unsigned(name, text, min, max, &number, why, sizeof why) != 0) {
        fprintf(stderr, "gridsync-bench: %s\nUsage: gridsync-bench GRID BLOCK BARRIERS\n", why);
        return -1;
    }
    *value = (unsigned)number;
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("gridsync-bench (libcoop) %s\n", COOP_VERSION_STRING);
            return 0;
        }
    }
    if (argc != 4) {
        fprintf(stderr, "gridsync-bench: needs 3 arguments, not %d\nUsage: gridsync-bench GRID BLOCK BARRIERS\n",
                argc - 1);
        return 1;
    }
    unsigned grid = 0, block = 0, barriers = 0;
    if (argument("GRID", argv[1], 1, 2147483647u, &grid) != 0 || argument("BLOCK", argv[2], 1, 1024, &block) != 0 ||
        argument("BARRIERS", argv[3], 1, 10000000, &barriers) != 0)
        return 1;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return unavailable("no CUDA device");
    int per_sm = 0, sms = 0, coop = 0;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, barrier_check, (int)block, 0);
    if (!coop)
        return unavailable("device has no cooperative launch");
    if (grid > (unsigned)(per_sm * sms))
        return unavailable("grid larger than the co-resident limit");
    unsigned *data = nullptr, *failures = nullptr;
    cudaMalloc(&data, 2ull * grid * block * sizeof(unsigned));
    cudaMalloc(&failures, sizeof(unsigned));
    cudaMemset(failures, 0, sizeof(unsigned));
    void *args[] = {&barriers, &data, &failures};
    unsigned warm = 100;
    void *warm_args[] = {&warm, &data, &failures};
    cudaLaunchCooperativeKernel((void *)barrier_check, grid, block, warm_args, 0, 0);
    cudaDeviceSynchronize();
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    cudaError_t err = cudaLaunchCooperativeKernel((void *)barrier_check, grid, block, args, 0, 0);
    cudaEventRecord(stop);
    if (err == cudaSuccess)
        err = cudaEventSynchronize(stop);
    if (err != cudaSuccess)
        return unavailable(cudaGetErrorString(err));
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    unsigned wrong = 0;
    cudaMemcpy(&wrong, failures, sizeof wrong, cudaMemcpyDeviceToHost);
    printf("gridsync grid=%u block=%u barriers=%u us_per_sync=%.3f failures=%u\n", grid, block, barriers,
           ms * 1e3 / barriers, wrong);
    return wrong ? 2 : 0;
}
