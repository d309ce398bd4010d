#include <cuda_runtime.h>

#define GROUP 64

// The partial kernel issues one 8-byte load per sample and array. A group
// starts at a multiple of 64 samples, so its x and y are 16-byte aligned and a
// thread can read them as double2: two samples per load instruction, with a
// scalar step for an odd last sample.
__global__ void fit_sums_partial_vec2(int n, const double* __restrict__ x, const double* __restrict__ y,
                                      double* __restrict__ partial) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = g * GROUP;
  if (begin >= n) return;
  int end = min(n, begin + GROUP);
  double s[11] = {0.0};
  int i = begin;
  for (; i + 1 < end; i += 2) {
    double2 x2 = *reinterpret_cast<const double2*>(x + i);
    double2 y2 = *reinterpret_cast<const double2*>(y + i);
    {
      double xi = x2.x, yi = y2.x;
    double p = 1.0;
#pragma unroll
    for (int k = 0; k < 7; ++k) {
      s[k] += p;
      if (k < 4) s[7 + k] += p * yi;
      p *= xi;
    }
    }
    {
      double xi = x2.y, yi = y2.y;
    double p = 1.0;
#pragma unroll
    for (int k = 0; k < 7; ++k) {
      s[k] += p;
      if (k < 4) s[7 + k] += p * yi;
      p *= xi;
    }
    }
  }
  if (i < end) {
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
    fit_sums_partial_vec2<<<(groups + 255) / 256, 256>>>(n, d_x, d_y, d_partial);
    fit_sums_combine<<<1, 32>>>(groups, d_partial, d_out);
    cudaFree(d_partial);
  }
  cudaMemcpy(S, d_out, 7 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(T, d_out + 7, 4 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_out);
}
