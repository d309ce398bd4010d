#include <cuda_runtime.h>
#include <cstddef>

// Trajectory:
// 1 thread_mapping: threads examine elements in parallel.
// 2 grid_stride_loop: a bounded grid strides over the array, each thread
//   keeping its running maximum in a register.
// 3 warp_shuffle_reduction: the 32 maxima of a warp are combined with
//   __shfl_xor_sync (no shared memory, no __syncthreads).
// 4 atomic_operations: one atomicMax per warp finishes the job. |x| >= 0, and
//   for non-negative doubles the IEEE bit pattern read as an unsigned 64-bit
//   integer orders exactly like the value, so atomicMax on the bits is a
//   floating-point max. The result starts at 0 (all-zero bits = +0.0).
__global__ void max_abs_kernel(const double* __restrict__ x, size_t n, unsigned long long* __restrict__ result) {
  double best = 0.0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    best = fmax(best, fabs(x[i]));
  }
  for (int off = 16; off > 0; off >>= 1) best = fmax(best, __shfl_xor_sync(0xffffffffu, best, off));
  if ((threadIdx.x & 31) == 0) atomicMax(result, (unsigned long long)__double_as_longlong(best));
}

double maxAbsValue(const double* x, size_t n) {
  if (n == 0) return 0.0;
  double* dx = nullptr;
  unsigned long long* dres = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dres, sizeof(unsigned long long));
  cudaMemcpy(dx, x, n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dres, 0, sizeof(unsigned long long));
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  size_t needed = (n + block - 1) / block;
  size_t cap = (size_t)sms * 8;
  int grid = (int)(needed < cap ? needed : cap);
  max_abs_kernel<<<grid, block>>>(dx, n, dres);
  unsigned long long bits = 0;
  cudaMemcpy(&bits, dres, sizeof(bits), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dres);
  double result;
  static_assert(sizeof(result) == sizeof(bits), "64-bit double expected");
  __builtin_memcpy(&result, &bits, sizeof(result));
  return result;
}
