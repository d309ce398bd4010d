#include <cuda_runtime.h>
#include <cstdint>

// A descriptor is 32 bytes at a 32-byte aligned offset, so a thread reads it
// as two uint4 loads instead of eight 4-byte loads; the query is loaded once
// into registers.
__global__ void hamming_popc_vec4(int n, const uint32_t* __restrict__ desc, const uint32_t* __restrict__ query,
                                  int* __restrict__ dist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4* q4 = reinterpret_cast<const uint4*>(query);
  const uint4* d4 = reinterpret_cast<const uint4*>(desc) + (size_t)2 * i;
  uint4 qa = q4[0], qb = q4[1];
  uint4 a = d4[0], b = d4[1];
  dist[i] = __popc(a.x ^ qa.x) + __popc(a.y ^ qa.y) + __popc(a.z ^ qa.z) + __popc(a.w ^ qa.w) +
            __popc(b.x ^ qb.x) + __popc(b.y ^ qb.y) + __popc(b.z ^ qb.z) + __popc(b.w ^ qb.w);
}

void descriptor_hamming(int n, const uint32_t* desc, const uint32_t* query, int* dist) {
  if (n <= 0) return;
  uint32_t *d_desc = nullptr, *d_query = nullptr;
  int* d_dist = nullptr;
  cudaMalloc(&d_desc, (size_t)n * 8 * sizeof(uint32_t));
  cudaMalloc(&d_query, 8 * sizeof(uint32_t));
  cudaMalloc(&d_dist, (size_t)n * sizeof(int));
  cudaMemcpy(d_desc, desc, (size_t)n * 8 * sizeof(uint32_t), cudaMemcpyHostToDevice);
  cudaMemcpy(d_query, query, 8 * sizeof(uint32_t), cudaMemcpyHostToDevice);
  hamming_popc_vec4<<<(n + 255) / 256, 256>>>(n, d_desc, d_query, d_dist);
  cudaMemcpy(dist, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_desc);
  cudaFree(d_query);
  cudaFree(d_dist);
}
