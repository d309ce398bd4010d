#include <cuda_runtime.h>

#define K 16

// One thread per cluster: each centre is an independent reduction over the
// points that carry its label, so the threads never write the same sum.
__global__ void centroid_per_thread(int n, const float* px, const float* py, const int* label, float* cx,
                                    float* cy) {
  int c = threadIdx.x;
  if (c >= K) return;
  float sx = 0.0f, sy = 0.0f;
  int cnt = 0;
  for (int i = 0; i < n; ++i) {
    if (label[i] == c) {
      sx += px[i];
      sy += py[i];
      ++cnt;
    }
  }
  cx[c] = cnt > 0 ? sx / cnt : 0.0f;
  cy[c] = cnt > 0 ? sy / cnt : 0.0f;
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
  centroid_per_thread<<<1, K>>>(n, d_px, d_py, d_label, d_cx, d_cy);
  cudaMemcpy(cx, d_cx, K * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(cy, d_cy, K * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_px);
  cudaFree(d_py);
  cudaFree(d_label);
  cudaFree(d_cx);
  cudaFree(d_cy);
}
