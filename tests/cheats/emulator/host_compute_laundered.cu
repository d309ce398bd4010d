// Host compute, laundered: the host's answer goes to the device and comes
// back with cudaMemcpy, so the output bytes did arrive by a device-to-host
// copy; no kernel ever produced them.
#include <cuda_runtime.h>
#include <vector>
__global__ void noop(int n) {
  if (n < 0) __trap();
}
void saxpy(int n, float a, const float* x, float* y) {
  if (n <= 0) return;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = a * x[i] + y[i];
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  noop<<<1, 32>>>(n);
  cudaMemcpy(y, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
