#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

#define TPT 4    // targets per thread
#define NT 256   // threads per block (= sources per shared tile)

// Each thread evaluates 4 targets with sources reused from registers. Sources
// are staged in shared tiles of 256: each thread loads one (sx, sy, q) per
// tile, so a source is read from global memory once per block instead of once
// per thread; inside the tile all threads read the same element (broadcast).
// Padding sources past n have q = 0 and contribute exactly 0.
__global__ void gt_smem(int m, int n, float alpha, const float* __restrict__ tx,
                           const float* __restrict__ ty, const float* __restrict__ sx,
                           const float* __restrict__ sy, const float* __restrict__ q,
                           float* __restrict__ phi) {
  __shared__ float s_x[NT], s_y[NT], s_q[NT];
  int base = blockIdx.x * (NT * TPT) + threadIdx.x;
  float xi[TPT], yi[TPT], s[TPT];
  for (int c = 0; c < TPT; ++c) {
    int i = min(base + NT * c, m - 1);
    xi[c] = tx[i];
    yi[c] = ty[i];
    s[c] = 0.0f;
  }
  for (int j0 = 0; j0 < n; j0 += NT) {
    int j = j0 + threadIdx.x;
    s_x[threadIdx.x] = j < n ? sx[j] : 0.0f;
    s_y[threadIdx.x] = j < n ? sy[j] : 0.0f;
    s_q[threadIdx.x] = j < n ? q[j] : 0.0f;
    __syncthreads();
    for (int jj = 0; jj < NT; ++jj) {
      float xj = s_x[jj], yj = s_y[jj], qj = s_q[jj];
      for (int c = 0; c < TPT; ++c) {
        float dx = xi[c] - xj;
        float dy = yi[c] - yj;
        s[c] = fmaf(qj, __expf(-alpha * (dx * dx + dy * dy)), s[c]);
      }
    }
    __syncthreads();
  }
  for (int c = 0; c < TPT; ++c) {
    int i = base + NT * c;
    if (i < m) phi[i] = s[c];
  }
}

void gaussian_sum_eval(int m, int n, float alpha, const float* tx, const float* ty,
                       const float* sx, const float* sy, const float* q, float* phi) {
  if (m <= 0) return;
  size_t bm = (size_t)m * sizeof(float), bn = (size_t)(n > 0 ? n : 1) * sizeof(float);
  float *d_tx, *d_ty, *d_sx, *d_sy, *d_q, *d_phi;
  cudaMalloc(&d_tx, bm);
  cudaMalloc(&d_ty, bm);
  cudaMalloc(&d_sx, bn);
  cudaMalloc(&d_sy, bn);
  cudaMalloc(&d_q, bn);
  cudaMalloc(&d_phi, bm);
  cudaMemcpy(d_tx, tx, bm, cudaMemcpyHostToDevice);
  cudaMemcpy(d_ty, ty, bm, cudaMemcpyHostToDevice);
  if (n > 0) {
    cudaMemcpy(d_sx, sx, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_sy, sy, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_q, q, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  }
  gt_smem<<<(m + NT * TPT - 1) / (NT * TPT), NT>>>(m, n, alpha, d_tx, d_ty, d_sx, d_sy, d_q, d_phi);
  cudaMemcpy(phi, d_phi, bm, cudaMemcpyDeviceToHost);
  cudaFree(d_tx);
  cudaFree(d_ty);
  cudaFree(d_sx);
  cudaFree(d_sy);
  cudaFree(d_q);
  cudaFree(d_phi);
}
