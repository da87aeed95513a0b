// gridsync-bench GRID BLOCK BARRIERS: CUDA cooperative_groups grid.sync() latency, with the same
// data check as libcoop's barrier check, for comparison with coop_global_barrier().
// Prints one line: "gridsync grid=G block=B barriers=N us_per_sync=X failures=F", or
// "gridsync unavailable: REASON" and exit status 3.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

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

static int unavailable(const char *why)
{
    printf("gridsync unavailable: %s\n", why);
    return 3;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gridsync-bench GRID BLOCK BARRIERS\n");
        return 2;
    }
    unsigned grid = (unsigned)atoi(argv[1]), block = (unsigned)atoi(argv[2]), barriers = (unsigned)atoi(argv[3]);
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
    return 0;
}
