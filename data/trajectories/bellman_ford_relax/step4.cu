#include <cuda_runtime.h>

__device__ __forceinline__ void relax_one(int s, int v, int w, const int* __restrict__ dist, int* new_dist) {
  int cand = __ldg(&dist[s]) + w;
  if (cand < new_dist[v]) atomicMin(&new_dist[v], cand);
}

// Four edges per thread: src, dst and weight are read as int4 (cudaMalloc
// buffers are 16-byte aligned), so the three edge streams need one 128-bit
// load each per four edges. The last m % 4 edges are handled one per thread
// by the first threads of the grid.
__global__ void bf_relax_vec4(int m, const int4* __restrict__ src4, const int4* __restrict__ dst4,
                              const int4* __restrict__ w4, const int* __restrict__ src, const int* __restrict__ dst,
                              const int* __restrict__ weight, const int* __restrict__ dist, int* new_dist) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int nvec = m / 4;
  if (t < nvec) {
    int4 s = __ldg(&src4[t]);
    int4 v = __ldg(&dst4[t]);
    int4 w = __ldg(&w4[t]);
    relax_one(s.x, v.x, w.x, dist, new_dist);
    relax_one(s.y, v.y, w.y, dist, new_dist);
    relax_one(s.z, v.z, w.z, dist, new_dist);
    relax_one(s.w, v.w, w.w, dist, new_dist);
  }
  int e = nvec * 4 + t;
  if (t < 4 && e < m) relax_one(__ldg(&src[e]), __ldg(&dst[e]), __ldg(&weight[e]), dist, new_dist);
}

void bellman_ford_sweep(int n, int m, const int* src, const int* dst, const int* weight, const int* dist,
                        int* new_dist) {
  if (n <= 0) return;
  size_t me = (size_t)(m > 0 ? m : 1);
  int *d_src = nullptr, *d_dst = nullptr, *d_w = nullptr, *d_dist = nullptr, *d_new = nullptr;
  cudaMalloc(&d_src, me * sizeof(int));
  cudaMalloc(&d_dst, me * sizeof(int));
  cudaMalloc(&d_w, me * sizeof(int));
  cudaMalloc(&d_dist, (size_t)n * sizeof(int));
  cudaMalloc(&d_new, (size_t)n * sizeof(int));
  if (m > 0) {
    cudaMemcpy(d_src, src, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, dst, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, weight, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_dist, dist, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_new, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice);
  if (m > 0) {
    int block = 256;
    int nvec = m / 4;
    int threads = nvec > 4 ? nvec : 4;  // at least 4 threads for the tail
    bf_relax_vec4<<<(threads + block - 1) / block, block>>>(
        m, reinterpret_cast<const int4*>(d_src), reinterpret_cast<const int4*>(d_dst),
        reinterpret_cast<const int4*>(d_w), d_src, d_dst, d_w, d_dist, d_new);
  }
  cudaMemcpy(new_dist, d_new, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_w);
  cudaFree(d_dist);
  cudaFree(d_new);
}
