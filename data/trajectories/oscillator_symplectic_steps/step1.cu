#include <cuda_runtime.h>

// One thread per oscillator, running the 16 steps exactly as the serial loop.
__global__ void osc_kernel(int n, const float* mass, const float* stiffness, float dt,
                           float* pos, float* vel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = pos[i], v = vel[i];
    for (int s = 0; s < 16; ++s) {
      float a = -stiffness[i] * x / mass[i];
      v += dt * a;
      x += dt * v;
    }
    pos[i] = x;
    vel[i] = v;
  }
}

void oscillatorSteps(int n, const float* mass, const float* stiffness, float dt, float* pos,
                     float* vel) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dm = nullptr, *dk = nullptr, *dx = nullptr, *dv = nullptr;
  cudaMalloc(&dm, bytes);
  cudaMalloc(&dk, bytes);
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dv, bytes);
  cudaMemcpy(dm, mass, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dk, stiffness, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, pos, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, vel, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  osc_kernel<<<grid, block>>>(n, dm, dk, dt, dx, dv);
  cudaMemcpy(pos, dx, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(vel, dv, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dm);
  cudaFree(dk);
  cudaFree(dx);
  cudaFree(dv);
}
