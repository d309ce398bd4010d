#include <cuda_runtime.h>

// One thread per element, keeping the serial code's two-armed branch.
__global__ void huber_kernel(int n, const float* pred, const float* target, float delta, float* loss) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float d = pred[i] - target[i];
  float a = fabsf(d);
  if (a <= delta) {
    loss[i] = 0.5f * d * d;
  } else {
    loss[i] = delta * (a - 0.5f * delta);
  }
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
