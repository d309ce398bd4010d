#include <cuda_runtime.h>

// Explicitly rounded multiply and subtracts: no FMA contraction, so every step
// rounds exactly like the reference.
__device__ __forceinline__ float upwind_update(float c, float left, float courant) {
  return __fsub_rn(c, __fmul_rn(courant, __fsub_rn(c, left)));
}

// One time step, one thread per cell; periodic left neighbour.
__global__ void upwind_step(int n, float courant, const float* cur, float* nxt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float left = cur[i == 0 ? n - 1 : i - 1];
  nxt[i] = upwind_update(cur[i], left, courant);
}

void advect_upwind_periodic(int n, int steps, float courant, const float* u0, float* u) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMemcpy(d_a, u0, bytes, cudaMemcpyHostToDevice);
  int blocks = (n + 255) / 256;
  for (int s = 0; s < steps; ++s) {
    upwind_step<<<blocks, 256>>>(n, courant, d_a, d_b);
    float* t = d_a;
    d_a = d_b;
    d_b = t;
  }
  cudaMemcpy(u, d_a, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
}
