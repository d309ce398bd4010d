#include <cuda_runtime.h>

// Branch-free Huber: with m = min(|d|, delta),
//   loss = 0.5*m*m + delta*(|d| - m)
// equals 0.5*d*d when |d| <= delta (second term is 0) and
// delta*|d| - 0.5*delta^2 otherwise. Both terms are non-negative, so the
// rewrite adds no cancellation; every lane executes the same instructions.
__device__ __forceinline__ float huber(float d, float delta) {
  float a = fabsf(d);
  float m = fminf(a, delta);
  return 0.5f * m * m + delta * (a - m);
}

__global__ void huber_kernel(int n, const float* __restrict__ pred, const float* __restrict__ target,
                             float delta, float* __restrict__ loss) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  loss[i] = huber(pred[i] - target[i], delta);
}

void huber_loss_elementwise(int n, const float* pred, const float* target, float delta, float* loss) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *dp = nullptr, *dt = nullptr, *dl = nullptr;
  cudaMalloc(&dp, bytes);
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dl, bytes);
  cudaMemcpy(dp, pred, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, target, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  huber_kernel<<<(n + block - 1) / block, block>>>(n, dp, dt, delta, dl);
  cudaMemcpy(loss, dl, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dt);
  cudaFree(dl);
}
