#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

__global__ void jacobi2d_kernel(const double* __restrict__ in, double* __restrict__ out, size_t N) {
  size_t j = blockIdx.x * blockDim.x + threadIdx.x;
  size_t i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= N || j >= N) return;
  double sum = in[i * N + j];
  if (i > 0) sum += in[(i - 1) * N + j];
  if (i + 1 < N) sum += in[(i + 1) * N + j];
  if (j > 0) sum += in[i * N + j - 1];
  if (j + 1 < N) sum += in[i * N + j + 1];
  out[i * N + j] = sum / 5.0;
}

void jacobi2d(std::vector<double> const& input, std::vector<double>& output, size_t N) {
  if (N == 0) return;
  size_t bytes = N * N * sizeof(double);
  double *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, input.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((unsigned)((N + block.x - 1) / block.x), (unsigned)((N + block.y - 1) / block.y));
  jacobi2d_kernel<<<grid, block>>>(din, dout, N);
  cudaMemcpy(output.data(), dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
