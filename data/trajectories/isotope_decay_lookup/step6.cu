#include <cuda_runtime.h>
#include <cmath>

#define SAMPLES_PER_THREAD 4

// Fast-math: __fdividef for the decay constant and the SFU __expf for the decay
// factor. Exponents reach about -14, where __expf's error stays under 2e-6
// relative; the problem's tolerance (rel 2e-5) is set to allow this.
__device__ __forceinline__ void decay_one(int iso, float amt, float t,
                                          const float* __restrict__ halfLife, float& rem,
                                          float& act) {
  const float ln2 = 0.69314718f;
  float lambda = __fdividef(ln2, __ldg(&halfLife[iso]));
  rem = amt * __expf(-lambda * t);
  act = lambda * rem;
}

// Each thread's four samples start at a multiple of 4, so a complete group is
// read with one int4 and two float4 loads (through the read-only path) and
// written with two float4 stores; cudaMalloc alignment makes these legal.
// Only the thread holding the partial last group takes the scalar path.
__global__ void decay_kernel_x4(int n, const int* __restrict__ isotope,
                                const float* __restrict__ amount,
                                const float* __restrict__ elapsed,
                                const float* __restrict__ halfLife,
                                float* __restrict__ remaining, float* __restrict__ activity) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int base = t * SAMPLES_PER_THREAD;
  if (base + SAMPLES_PER_THREAD <= n) {
    int4 iv = __ldg(reinterpret_cast<const int4*>(isotope) + t);
    float4 av = __ldg(reinterpret_cast<const float4*>(amount) + t);
    float4 tv = __ldg(reinterpret_cast<const float4*>(elapsed) + t);
    float4 rv, cv;
    decay_one(iv.x, av.x, tv.x, halfLife, rv.x, cv.x);
    decay_one(iv.y, av.y, tv.y, halfLife, rv.y, cv.y);
    decay_one(iv.z, av.z, tv.z, halfLife, rv.z, cv.z);
    decay_one(iv.w, av.w, tv.w, halfLife, rv.w, cv.w);
    reinterpret_cast<float4*>(remaining)[t] = rv;
    reinterpret_cast<float4*>(activity)[t] = cv;
  } else {
    for (int p = base; p < n; ++p) {
      float r, c;
      decay_one(__ldg(&isotope[p]), __ldg(&amount[p]), __ldg(&elapsed[p]), halfLife, r, c);
      remaining[p] = r;
      activity[p] = c;
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
  // Block size from the occupancy calculator for the compiled kernel instead
  // of a fixed 256; the grid still covers ceil(n/4) threads.
  int min_grid = 0, block = 0;
  if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, decay_kernel_x4, 0, 0) !=
          cudaSuccess ||
      block <= 0)
    block = 256;
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
