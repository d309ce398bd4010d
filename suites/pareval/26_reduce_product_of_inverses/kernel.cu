// Kernel form: one thread per element, a single launch. Each thread contributes x[i] (even i)
// or 1/x[i] (odd i), each block multiplies its contributions with warp shuffles, and one thread
// per block multiplies the block's product into *product (1.0 on entry) with a compare-and-swap
// loop (CUDA has no atomic multiply).
__device__ __forceinline__ void atomic_mul(double* addr, double v) {
  unsigned long long* a = reinterpret_cast<unsigned long long*>(addr);
  unsigned long long old = atomicAdd(a, 0ull), assumed;  // atomic read
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __double_as_longlong(__longlong_as_double(assumed) * v));
  } while (assumed != old);
}

__global__ void productWithInverses(const double *x, size_t N, double *product) {
  __shared__ double warp_vals[32];
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  double v = 1.0;
  if (i < N) v = (i & 1) ? 1.0 / x[i] : x[i];
  for (int off = 16; off > 0; off >>= 1) v *= __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < (int)((blockDim.x + 31) >> 5)) ? warp_vals[lane] : 1.0;
    for (int off = 16; off > 0; off >>= 1) v *= __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomic_mul(product, v);
  }
}
