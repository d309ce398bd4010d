// Kernel form: one thread per element, a single launch. Each block sums its elements with warp
// shuffles and one thread per block adds (block sum) / N into *average (0.0 on entry).
__global__ void average(const double *x, size_t N, double *average) {
  __shared__ double warp_vals[32];
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  double v = i < N ? x[i] : 0.0;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < (int)((blockDim.x + 31) >> 5)) ? warp_vals[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomicAdd(average, v / static_cast<double>(N));
  }
}
