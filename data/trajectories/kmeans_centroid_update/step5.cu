#include <cuda_runtime.h>

#define K 16
#define THREADS 256
#define CHUNK 16384

// The points are only read, and each chunk is read by all 16 cluster blocks:
// const __restrict__ pointers and __ldg send these loads through the
// read-only data cache, where the 15 later blocks of a chunk find them.
__global__ void centroid_chunk_ldg(int n, const float* __restrict__ px, const float* __restrict__ py,
                                   const int* __restrict__ label, float* __restrict__ sum_x,
                                   float* __restrict__ sum_y, int* __restrict__ members) {
  __shared__ float part_x[THREADS], part_y[THREADS];
  __shared__ int part_n[THREADS];
  int c = blockIdx.x;
  int t = threadIdx.x;
  int begin = blockIdx.y * CHUNK;
  int end = min(n, begin + CHUNK);
  float sx0 = 0.0f, sx1 = 0.0f, sx2 = 0.0f, sx3 = 0.0f;
  float sy0 = 0.0f, sy1 = 0.0f, sy2 = 0.0f, sy3 = 0.0f;
  int cnt = 0;
  int i = begin + t;
  for (; i + 3 * THREADS < end; i += 4 * THREADS) {
    int l0 = __ldg(&label[i]), l1 = __ldg(&label[i + THREADS]);
    int l2 = __ldg(&label[i + 2 * THREADS]), l3 = __ldg(&label[i + 3 * THREADS]);
    float x0 = __ldg(&px[i]), x1 = __ldg(&px[i + THREADS]), x2 = __ldg(&px[i + 2 * THREADS]), x3 = __ldg(&px[i + 3 * THREADS]);
    float y0 = __ldg(&py[i]), y1 = __ldg(&py[i + THREADS]), y2 = __ldg(&py[i + 2 * THREADS]), y3 = __ldg(&py[i + 3 * THREADS]);
    if (l0 == c) { sx0 += x0; sy0 += y0; ++cnt; }
    if (l1 == c) { sx1 += x1; sy1 += y1; ++cnt; }
    if (l2 == c) { sx2 += x2; sy2 += y2; ++cnt; }
    if (l3 == c) { sx3 += x3; sy3 += y3; ++cnt; }
  }
  for (; i < end; i += THREADS) {
    if (__ldg(&label[i]) == c) {
      sx0 += __ldg(&px[i]);
      sy0 += __ldg(&py[i]);
      ++cnt;
    }
  }
  part_x[t] = (sx0 + sx1) + (sx2 + sx3);
  part_y[t] = (sy0 + sy1) + (sy2 + sy3);
  part_n[t] = cnt;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (t < s) {
      part_x[t] += part_x[t + s];
      part_y[t] += part_y[t + s];
      part_n[t] += part_n[t + s];
    }
    __syncthreads();
  }
  if (t == 0 && part_n[0] > 0) {
    atomicAdd(&sum_x[c], part_x[0]);
    atomicAdd(&sum_y[c], part_y[0]);
    atomicAdd(&members[c], part_n[0]);
  }
}

// Divides the accumulated sums by the member counts.
__global__ void centroid_finish(const float* sum_x, const float* sum_y, const int* members, float* cx, float* cy) {
  int c = threadIdx.x;
  if (c >= K) return;
  cx[c] = members[c] > 0 ? sum_x[c] / members[c] : 0.0f;
  cy[c] = members[c] > 0 ? sum_y[c] / members[c] : 0.0f;
}

void kmeans_update16(int n, const float* px, const float* py, const int* label, float* cx, float* cy) {
  float *d_px = nullptr, *d_py = nullptr, *d_cx = nullptr, *d_cy = nullptr;
  int* d_label = nullptr;
  size_t pts = (size_t)(n > 0 ? n : 1);
  cudaMalloc(&d_px, pts * sizeof(float));
  cudaMalloc(&d_py, pts * sizeof(float));
  cudaMalloc(&d_label, pts * sizeof(int));
  cudaMalloc(&d_cx, K * sizeof(float));
  cudaMalloc(&d_cy, K * sizeof(float));
  if (n > 0) {
    cudaMemcpy(d_px, px, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_py, py, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_label, label, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  }
  float *d_sx = nullptr, *d_sy = nullptr;
  int* d_members = nullptr;
  cudaMalloc(&d_sx, K * sizeof(float));
  cudaMalloc(&d_sy, K * sizeof(float));
  cudaMalloc(&d_members, K * sizeof(int));
  cudaMemset(d_sx, 0, K * sizeof(float));
  cudaMemset(d_sy, 0, K * sizeof(float));
  cudaMemset(d_members, 0, K * sizeof(int));
  if (n > 0) {
    dim3 grid(K, (unsigned)((n + CHUNK - 1) / CHUNK));
    centroid_chunk_ldg<<<grid, THREADS>>>(n, d_px, d_py, d_label, d_sx, d_sy, d_members);
  }
  centroid_finish<<<1, K>>>(d_sx, d_sy, d_members, d_cx, d_cy);
  cudaFree(d_sx);
  cudaFree(d_sy);
  cudaFree(d_members);
  cudaMemcpy(cx, d_cx, K * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(cy, d_cy, K * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_px);
  cudaFree(d_py);
  cudaFree(d_label);
  cudaFree(d_cx);
  cudaFree(d_cy);
}
