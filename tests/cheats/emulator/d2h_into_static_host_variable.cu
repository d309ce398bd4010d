// Honest: the host stages the input through its own loop (so the host reads
// every input element) and the device result is copied into a static host
// variable, not a local. The copy delivers a device-produced value: correct,
// not host_compute (a false alarm the checker once raised).
#include <cuda_runtime.h>
#include <vector>

__global__ void sum_squares(const double* x, size_t n, double* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += x[i] * x[i];
    *out = s;
  }
}

static double g_result;

double sumOfSquares(std::vector<double> const& x) {
  size_t n = x.size();
  std::vector<double> staged(n);
  for (size_t i = 0; i < n; ++i) staged[i] = x[i];
  double *dx = nullptr, *dout = nullptr;
  cudaMalloc(&dx, (n ? n : 1) * sizeof(double));
  cudaMalloc(&dout, sizeof(double));
  cudaMemcpy(dx, staged.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  sum_squares<<<1, 32>>>(dx, n, dout);
  cudaMemcpy(&g_result, dout, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  return g_result;
}
