#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

#define TPT 4    // targets per thread
#define NT 256   // threads per block

// Each thread evaluates 4 targets (i, i+256, i+512, i+768 of a 1024-target
// block tile): every source (sx, sy, q) is loaded once into registers and
// reused for four pairs, quartering source loads per pair. Targets past m use
// a clamped copy and are not stored.
__global__ void gt_regtile(int m, int n, float alpha, const float* tx, const float* ty,
                           const float* sx, const float* sy, const float* q, float* phi) {
  int base = blockIdx.x * (NT * TPT) + threadIdx.x;
  float xi[TPT], yi[TPT], s[TPT];
  for (int c = 0; c < TPT; ++c) {
    int i = min(base + NT * c, m - 1);
    xi[c] = tx[i];
    yi[c] = ty[i];
    s[c] = 0.0f;
  }
  for (int j = 0; j < n; ++j) {
    float xj = sx[j], yj = sy[j], qj = q[j];
    for (int c = 0; c < TPT; ++c) {
      float dx = xi[c] - xj;
      float dy = yi[c] - yj;
      s[c] = fmaf(qj, __expf(-alpha * (dx * dx + dy * dy)), s[c]);
    }
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
  gt_regtile<<<(m + NT * TPT - 1) / (NT * TPT), NT>>>(m, n, alpha, d_tx, d_ty, d_sx, d_sy, d_q, d_phi);
  cudaMemcpy(phi, d_phi, bm, cudaMemcpyDeviceToHost);
  cudaFree(d_tx);
  cudaFree(d_ty);
  cudaFree(d_sx);
  cudaFree(d_sy);
  cudaFree(d_q);
  cudaFree(d_phi);
}
