// Order dependence: each thread takes an output slot with atomicAdd, so the
// order of the kept elements is the order the threads happen to run in. A
// sequential emulator that always runs threads 0, 1, 2, ... agrees with the
// reference by luck; the seeded schedule does not.
#include <cuda_runtime.h>
#include <vector>
__global__ void k(const float* x, int n, float* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.0f) out[atomicAdd(count, 1)] = x[i];
}
int compactPositive(const std::vector<float>& x, std::vector<float>& positives) {
  int n = (int)x.size();
  positives.clear();
  if (n == 0) return 0;
  float *dx, *dout;
  int* dc;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMalloc(&dc, sizeof(int));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, sizeof(int));
  k<<<(n + 255) / 256, 256>>>(dx, n, dout, dc);
  int c = 0;
  cudaMemcpy(&c, dc, sizeof(int), cudaMemcpyDeviceToHost);
  positives.resize(c);
  if (c > 0) cudaMemcpy(positives.data(), dout, c * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  cudaFree(dc);
  return c;
}
