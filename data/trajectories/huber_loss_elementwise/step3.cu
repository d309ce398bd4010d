#include <cuda_runtime.h>

__device__ __forceinline__ float huber(float d, float delta) {
  float a = fabsf(d);
  float m = fminf(a, delta);
  return 0.5f * m * m + delta * (a - m);
}

// Each thread handles four consecutive elements with float4 loads and one
// float4 store (cudaMalloc buffers are 256-byte aligned); the n % 4 tail
// elements are done by the first threads of the grid.
__global__ void huber_kernel_vec4(int n, const float* __restrict__ pred, const float* __restrict__ target,
                                  float delta, float* __restrict__ loss) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 p = reinterpret_cast<const float4*>(pred)[i];
    float4 t = reinterpret_cast<const float4*>(target)[i];
    float4 r;
    r.x = huber(p.x - t.x, delta);
    r.y = huber(p.y - t.y, delta);
    r.z = huber(p.z - t.z, delta);
    r.w = huber(p.w - t.w, delta);
    reinterpret_cast<float4*>(loss)[i] = r;
  }
  if (i < (n & 3)) {
    int k = (n4 << 2) + i;
    loss[k] = huber(pred[k] - target[k], delta);
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
  int work = (n >> 2) > 3 ? (n >> 2) : 3;  // at least 3 threads for the tail
  huber_kernel_vec4<<<(work + block - 1) / block, block>>>(n, dp, dt, delta, dl);
  cudaMemcpy(loss, dl, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dt);
  cudaFree(dl);
}
