// Kernel form: one thread per pixel, a single launch. Each block counts its pixels into a
// shared-memory histogram, then adds its non-zero bins into the global bins (zero on entry) with
// one 64-bit atomic per bin per block.
static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__global__ void pixelCounts(const int *image, size_t N, size_t bins[256]) {
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(&local[image[i] & 255], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned int c = local[b];
    if (c) atomicAdd(reinterpret_cast<unsigned long long*>(&bins[b]), (unsigned long long)c);
  }
}
