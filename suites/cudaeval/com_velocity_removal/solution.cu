#include <cuda_runtime.h>
#include <cstddef>

constexpr int kThreads = 256;

struct Sums {
  double px, py, pz, m;
};

// Step 3 (warp_shuffle_reduction): the four sums are reduced within a warp by
// shuffles. Step 4 (block_tree_reduction): warp results meet in shared memory
// and the first warp reduces them. Returns the block's sums in thread 0.
__device__ Sums block_reduce(Sums s) {
  __shared__ Sums warp_sums[kThreads / 32];
  for (int off = 16; off > 0; off >>= 1) {
    s.px += __shfl_down_sync(0xffffffffu, s.px, off);
    s.py += __shfl_down_sync(0xffffffffu, s.py, off);
    s.pz += __shfl_down_sync(0xffffffffu, s.pz, off);
    s.m += __shfl_down_sync(0xffffffffu, s.m, off);
  }
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < kThreads / 32 ? warp_sums[lane] : Sums{0.0, 0.0, 0.0, 0.0};
    for (int off = 16; off > 0; off >>= 1) {
      s.px += __shfl_down_sync(0xffffffffu, s.px, off);
      s.py += __shfl_down_sync(0xffffffffu, s.py, off);
      s.pz += __shfl_down_sync(0xffffffffu, s.pz, off);
      s.m += __shfl_down_sync(0xffffffffu, s.m, off);
    }
  }
  return s;
}

// Step 1 (thread_mapping) and Step 2 (grid_stride_loop): a grid of a few
// blocks per SM strides over the particles, each thread accumulating its
// share of the momentum and mass in double registers.
__global__ void momentum_partials_kernel(int n, const float* __restrict__ mass, const float* __restrict__ vel,
                                         Sums* __restrict__ partials) {
  Sums s{0.0, 0.0, 0.0, 0.0};
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double m = mass[i];
    s.px += m * vel[3 * (size_t)i];
    s.py += m * vel[3 * (size_t)i + 1];
    s.pz += m * vel[3 * (size_t)i + 2];
    s.m += m;
  }
  s = block_reduce(s);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// Step 5 (kernel_fusion): instead of a separate launch that reduces the block
// partials, every block of the update kernel reduces them itself (a few
// hundred values, read from L2) and then subtracts the centre-of-mass
// velocity from its share of the components (one thread per component, so
// consecutive threads touch consecutive floats).
__global__ void subtract_kernel(int n, int nparts, const Sums* __restrict__ partials, float* __restrict__ vel) {
  __shared__ float com[3];
  Sums s{0.0, 0.0, 0.0, 0.0};
  for (int p = threadIdx.x; p < nparts; p += blockDim.x) {
    Sums q = partials[p];
    s.px += q.px;
    s.py += q.py;
    s.pz += q.pz;
    s.m += q.m;
  }
  s = block_reduce(s);
  if (threadIdx.x == 0) {
    com[0] = (float)(s.px / s.m);
    com[1] = (float)(s.py / s.m);
    com[2] = (float)(s.pz / s.m);
  }
  __syncthreads();
  const float c0 = com[0], c1 = com[1], c2 = com[2];
  size_t total = (size_t)n * 3;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < total; k += stride) {
    int axis = (int)(k % 3);
    vel[k] -= axis == 0 ? c0 : (axis == 1 ? c1 : c2);
  }
}

void removeComMotion(int n, const float* mass, float* vel) {
  if (n <= 0) return;
  size_t mb = (size_t)n * sizeof(float), vb = (size_t)n * 3 * sizeof(float);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int needed = (n + kThreads - 1) / kThreads;
  int grid = needed < sms * 4 ? needed : sms * 4;
  float *dm = nullptr, *dv = nullptr;
  Sums* dparts = nullptr;
  cudaMalloc(&dm, mb);
  cudaMalloc(&dv, vb);
  cudaMalloc(&dparts, (size_t)grid * sizeof(Sums));
  cudaMemcpy(dm, mass, mb, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, vel, vb, cudaMemcpyHostToDevice);
  momentum_partials_kernel<<<grid, kThreads>>>(n, dm, dv, dparts);
  int needed3 = (int)((vb / sizeof(float) + kThreads - 1) / kThreads);
  int grid3 = needed3 < sms * 8 ? needed3 : sms * 8;
  subtract_kernel<<<grid3, kThreads>>>(n, grid, dparts, dv);
  cudaMemcpy(vel, dv, vb, cudaMemcpyDeviceToHost);
  cudaFree(dm);
  cudaFree(dv);
  cudaFree(dparts);
}
