#include <cuda_runtime.h>

// One thread per output sum: threads 0..6 sum x^k, threads 7..10 sum x^k y.
__global__ void fit_sums_per_output(int n, const double* x, const double* y, double* out) {
  int t = threadIdx.x;
  if (t >= 11) return;
  int k = t < 7 ? t : t - 7;
  bool moment = t >= 7;
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double p = 1.0;
    for (int j = 0; j < k; ++j) p *= x[i];
    s += moment ? p * y[i] : p;
  }
  out[t] = s;
}

void cubic_fit_sums(int n, const double* x, const double* y, double* S, double* T) {
  double *d_x = nullptr, *d_y = nullptr, *d_out = nullptr;  // d_out: S[0..6] then T[0..3]
  size_t len = (size_t)(n > 0 ? n : 1);
  cudaMalloc(&d_x, len * sizeof(double));
  cudaMalloc(&d_y, len * sizeof(double));
  cudaMalloc(&d_out, 11 * sizeof(double));
  if (n > 0) {
    cudaMemcpy(d_x, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  }
  fit_sums_per_output<<<1, 32>>>(n, d_x, d_y, d_out);
  cudaMemcpy(S, d_out, 7 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(T, d_out + 7, 4 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_out);
}
