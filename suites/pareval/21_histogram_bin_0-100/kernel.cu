// Kernel form: one thread per value, a single launch. Each block counts its values into a
// shared 10-bin histogram, then adds its non-zero bins into the global bins (zero on entry) with
// one 64-bit atomic per bin per block. 100.0 goes to the last bin.
static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__global__ void binsBy10Count(const double *x, size_t N, size_t bins[10]) {
  __shared__ unsigned int local[10];
  if (threadIdx.x < 10) local[threadIdx.x] = 0u;
  __syncthreads();
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < N) {
    int k = static_cast<int>(x[i] / 10.0);
    atomicAdd(&local[k > 9 ? 9 : k], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 10 && local[threadIdx.x]) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&bins[threadIdx.x]),
              (unsigned long long)local[threadIdx.x]);
  }
}
