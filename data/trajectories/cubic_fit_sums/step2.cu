#include <cuda_runtime.h>

#define GROUP 64  // samples per partial

// Kernel 1: one thread per group of 64 samples computes all eleven partial sums
// of its group in registers (the powers are shared across the sums) and stores
// them; at the timing size that is 262144 threads instead of 11.
__global__ void fit_sums_partial(int n, const double* x, const double* y, double* partial) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = g * GROUP;
  if (begin >= n) return;
  int end = min(n, begin + GROUP);
  double s[11] = {0.0};
  for (int i = begin; i < end; ++i) {
    double xi = x[i], yi = y[i];
    double p = 1.0;
#pragma unroll
    for (int k = 0; k < 7; ++k) {
      s[k] += p;
      if (k < 4) s[7 + k] += p * yi;
      p *= xi;
    }
  }
#pragma unroll
  for (int k = 0; k < 11; ++k) partial[(size_t)g * 11 + k] = s[k];
}

// Kernel 2: one thread per output adds the group partials in group order, so
// the result does not depend on scheduling.
__global__ void fit_sums_combine(int groups, const double* partial, double* out) {
  int t = threadIdx.x;
  if (t >= 11) return;
  double s = 0.0;
  for (int g = 0; g < groups; ++g) s += partial[(size_t)g * 11 + t];
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
  int groups = (n + GROUP - 1) / GROUP;
  if (groups == 0) {
    cudaMemset(d_out, 0, 11 * sizeof(double));
  } else {
    double* d_partial = nullptr;
    cudaMalloc(&d_partial, (size_t)groups * 11 * sizeof(double));
    fit_sums_partial<<<(groups + 255) / 256, 256>>>(n, d_x, d_y, d_partial);
    fit_sums_combine<<<1, 32>>>(groups, d_partial, d_out);
    cudaFree(d_partial);
  }
  cudaMemcpy(S, d_out, 7 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(T, d_out + 7, 4 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_out);
}
