#include <cuda_runtime.h>

// Four edges per thread: src and dst are read as int4 (the device buffers are
// 16-byte aligned); the first m % 4 threads also take one leftover edge each.
__global__ void degree_atomic_vec4(int m, const int4* __restrict__ src4, const int4* __restrict__ dst4,
                                   const int* __restrict__ src, const int* __restrict__ dst, int* degree) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int nvec = m / 4;
  if (t < nvec) {
    int4 s = src4[t];
    int4 d = dst4[t];
    atomicAdd(&degree[s.x], 1);
    atomicAdd(&degree[d.x], 1);
    atomicAdd(&degree[s.y], 1);
    atomicAdd(&degree[d.y], 1);
    atomicAdd(&degree[s.z], 1);
    atomicAdd(&degree[d.z], 1);
    atomicAdd(&degree[s.w], 1);
    atomicAdd(&degree[d.w], 1);
  }
  int e = nvec * 4 + t;
  if (t < 4 && e < m) {
    atomicAdd(&degree[src[e]], 1);
    atomicAdd(&degree[dst[e]], 1);
  }
}

void degrees_from_edges(int n, int m, const int* src, const int* dst, int* degree) {
  if (n <= 0) return;
  size_t me = (size_t)(m > 0 ? m : 1);
  int *d_src = nullptr, *d_dst = nullptr, *d_deg = nullptr;
  cudaMalloc(&d_src, me * sizeof(int));
  cudaMalloc(&d_dst, me * sizeof(int));
  cudaMalloc(&d_deg, (size_t)n * sizeof(int));
  if (m > 0) {
    cudaMemcpy(d_src, src, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, dst, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
  }
  cudaMemset(d_deg, 0, (size_t)n * sizeof(int));
  if (m > 0) {
    int block = 256;
    int nvec = m / 4;
    int threads = nvec > 4 ? nvec : 4;
    degree_atomic_vec4<<<(threads + block - 1) / block, block>>>(m, reinterpret_cast<const int4*>(d_src),
                                                                 reinterpret_cast<const int4*>(d_dst), d_src, d_dst,
                                                                 d_deg);
  }
  cudaMemcpy(degree, d_deg, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_deg);
}
