#include <cuda_runtime.h>

#define K 16
#define THREADS 256

// A block per cluster: its 256 threads stride over the points, then fold their
// partial sums and counts in a shared-memory tree (8 levels).
__global__ void centroid_block_tree(int n, const float* px, const float* py, const int* label, float* cx,
                                    float* cy) {
  __shared__ float part_x[THREADS], part_y[THREADS];
  __shared__ int part_n[THREADS];
  int c = blockIdx.x;
  int t = threadIdx.x;
  float sx = 0.0f, sy = 0.0f;
  int cnt = 0;
  for (int i = t; i < n; i += THREADS) {
    if (label[i] == c) {
      sx += px[i];
      sy += py[i];
      ++cnt;
    }
  }
  part_x[t] = sx;
  part_y[t] = sy;
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
  if (t == 0) {
    cx[c] = part_n[0] > 0 ? part_x[0] / part_n[0] : 0.0f;
    cy[c] = part_n[0] > 0 ? part_y[0] / part_n[0] : 0.0f;
  }
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
  centroid_block_tree<<<K, THREADS>>>(n, d_px, d_py, d_label, d_cx, d_cy);
  cudaMemcpy(cx, d_cx, K * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(cy, d_cy, K * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_px);
  cudaFree(d_py);
  cudaFree(d_label);
  cudaFree(d_cx);
  cudaFree(d_cy);
}
