#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

__device__ __forceinline__ double warp_sum(double x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffffu, x, off);
  return x;
}

__device__ __forceinline__ double block_sum(double s, double* warp_sums) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s = warp_sum(s);
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  s = 0.0;
  if (warp == 0) {
    s = (lane < kBlock / 32) ? warp_sums[lane] : 0.0;
    s = warp_sum(s);
  }
  return s;
}

// As before, but the grid-stride loop reads double2 (16 bytes) per load; the
// odd last element (if n is odd) is added by global thread 0.
__global__ void norm_fused_kernel(const double* __restrict__ v, size_t n, double* partials,
                                  unsigned int* ticket, double* result) {
  __shared__ double warp_sums[kBlock / 32];
  __shared__ bool is_last;
  int tid = threadIdx.x;
  size_t gtid = static_cast<size_t>(blockIdx.x) * kBlock + tid;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  size_t n2 = n >> 1;
  const double2* v2 = reinterpret_cast<const double2*>(v);
  double s0 = 0.0, s1 = 0.0;
  for (size_t i = gtid; i < n2; i += stride) {
    double2 t = v2[i];
    s0 = fma(t.x, t.x, s0);
    s1 = fma(t.y, t.y, s1);
  }
  if (gtid == 0 && (n & 1)) {
    double t = v[n - 1];
    s0 = fma(t, t, s0);
  }
  double s = block_sum(s0 + s1, warp_sums);
  if (tid == 0) {
    partials[blockIdx.x] = s;
    __threadfence();
    unsigned int done = atomicAdd(ticket, 1u);
    is_last = (done == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last) {
    __syncthreads();
    const volatile double* vp = partials;
    double t = 0.0;
    for (int b = tid; b < static_cast<int>(gridDim.x); b += kBlock) t += vp[b];
    t = block_sum(t, warp_sums);
    if (tid == 0) *result = sqrt(t);
  }
}

double euclideanNorm(std::vector<double> const& v) {
  size_t n = v.size();
  if (n == 0) return 0.0;
  size_t work = (n >> 1) > 0 ? (n >> 1) : 1;
  size_t want = (work + kBlock - 1) / kBlock;
  int grid = static_cast<int>(want < kMaxGrid ? want : kMaxGrid);
  double *dv = nullptr, *dpart = nullptr, *dres = nullptr;
  unsigned int* dticket = nullptr;
  cudaMalloc(&dv, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(double));
  cudaMalloc(&dres, sizeof(double));
  cudaMalloc(&dticket, sizeof(unsigned int));
  cudaMemcpy(dv, v.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dticket, 0, sizeof(unsigned int));
  norm_fused_kernel<<<grid, kBlock>>>(dv, n, dpart, dticket, dres);
  double result = 0.0;
  cudaMemcpy(&result, dres, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dpart);
  cudaFree(dres);
  cudaFree(dticket);
  return result;
}
