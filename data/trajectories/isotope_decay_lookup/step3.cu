#include <cuda_runtime.h>
#include <cmath>

#define SAMPLES_PER_THREAD 4

__device__ __forceinline__ void decay_one(int iso, float amt, float t,
                                          const float* __restrict__ halfLife, float& rem,
                                          float& act) {
  const float ln2 = 0.69314718f;
  float lambda = ln2 / __ldg(&halfLife[iso]);
  rem = amt * expf(-lambda * t);
  act = lambda * rem;
}

// Thread coarsening: thread t handles the four consecutive samples 4t..4t+3
// (each bounds-checked), keeping their results in registers until all four
// are computed; four independent gather + exp chains per thread, and the
// index math is paid once per four samples.
__global__ void decay_kernel_x4(int n, const int* __restrict__ isotope,
                                const float* __restrict__ amount,
                                const float* __restrict__ elapsed,
                                const float* __restrict__ halfLife,
                                float* __restrict__ remaining, float* __restrict__ activity) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int base = t * SAMPLES_PER_THREAD;
  float rem[SAMPLES_PER_THREAD], act[SAMPLES_PER_THREAD];
#pragma unroll
  for (int k = 0; k < SAMPLES_PER_THREAD; ++k) {
    int p = base + k;
    if (p < n)
      decay_one(__ldg(&isotope[p]), __ldg(&amount[p]), __ldg(&elapsed[p]), halfLife, rem[k],
                act[k]);
  }
#pragma unroll
  for (int k = 0; k < SAMPLES_PER_THREAD; ++k) {
    int p = base + k;
    if (p < n) {
      remaining[p] = rem[k];
      activity[p] = act[k];
    }
  }
}

void isotopeDecay(int n, const int* isotope, const float* amount, const float* elapsed,
                  const float* halfLife, float* remaining, float* activity) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  size_t ibytes = static_cast<size_t>(n) * sizeof(int);
  int* diso = nullptr;
  float *damt = nullptr, *dt = nullptr, *dhl = nullptr, *drem = nullptr, *dact = nullptr;
  cudaMalloc(&diso, ibytes);
  cudaMalloc(&damt, bytes);
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dhl, 16 * sizeof(float));
  cudaMalloc(&drem, bytes);
  cudaMalloc(&dact, bytes);
  cudaMemcpy(diso, isotope, ibytes, cudaMemcpyHostToDevice);
  cudaMemcpy(damt, amount, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, elapsed, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dhl, halfLife, 16 * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  int threads = (n + SAMPLES_PER_THREAD - 1) / SAMPLES_PER_THREAD;
  int grid = (threads + block - 1) / block;
  decay_kernel_x4<<<grid, block>>>(n, diso, damt, dt, dhl, drem, dact);
  cudaMemcpy(remaining, drem, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(activity, dact, bytes, cudaMemcpyDeviceToHost);
  cudaFree(diso);
  cudaFree(damt);
  cudaFree(dt);
  cudaFree(dhl);
  cudaFree(drem);
  cudaFree(dact);
}
