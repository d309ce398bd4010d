#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): reads are independent; one thread scans one read
// from its 3' end, with the same early stop as the reference.
// Step 2 (read_only_cache): a thread walks its read's qualities backwards,
// byte by byte; __ldg keeps those lines in the read-only data cache between
// its steps instead of refetching them.
__global__ void trim_bwa_kernel(const uint8_t* __restrict__ quals, int nreads, int L, int threshold,
                                int* __restrict__ kept) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nreads) return;
  const uint8_t* q = quals + (size_t)r * L;
  int s = 0, best = 0, cut = L;
  for (int i = L - 1; i >= 0; --i) {
    s += threshold - (int)__ldg(q + i);
    if (s < 0) break;
    if (s > best) {
      best = s;
      cut = i;
    }
  }
  kept[r] = cut;
}

void trimReadsBwa(const uint8_t* quals, int nreads, int L, int threshold, int* kept) {
  if (nreads <= 0 || L <= 0) return;
  size_t bytes = (size_t)nreads * L;
  uint8_t* dq = nullptr;
  int* dkept = nullptr;
  cudaMalloc(&dq, bytes);
  cudaMalloc(&dkept, (size_t)nreads * sizeof(int));
  cudaMemcpy(dq, quals, bytes, cudaMemcpyHostToDevice);
  const int block = 128;
  trim_bwa_kernel<<<(nreads + block - 1) / block, block>>>(dq, nreads, L, threshold, dkept);
  cudaMemcpy(kept, dkept, (size_t)nreads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dq);
  cudaFree(dkept);
}
