#include <cuda_runtime.h>

#define READINGS_PER_THREAD 4

// The degree is a runtime value, so the Horner loop could not be unrolled.
// Templating on DEG (the host dispatches degree 0..7) makes the trip count a
// compile-time constant: the loop is fully unrolled and the coefficient
// gathers get constant offsets that can all be issued up front.
template <int DEG>
__device__ __forceinline__ float poly_eval(const float* __restrict__ c, float x) {
  float acc = __ldg(&c[DEG]);
#pragma unroll
  for (int k = DEG - 1; k >= 0; --k) acc = acc * x + __ldg(&c[k]);
  return acc;
}

template <int DEG>
__global__ void calib_kernel_x4(int n, const int* __restrict__ sensor,
                                const float* __restrict__ raw, const float* __restrict__ coef,
                                float* __restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int base = t * READINGS_PER_THREAD;
  float res[READINGS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < READINGS_PER_THREAD; ++k) {
    int p = base + k;
    if (p < n) res[k] = poly_eval<DEG>(coef + __ldg(&sensor[p]) * 8, __ldg(&raw[p]));
  }
#pragma unroll
  for (int k = 0; k < READINGS_PER_THREAD; ++k) {
    int p = base + k;
    if (p < n) out[p] = res[k];
  }
}

template <int DEG>
static void launch_calib(int n, const int* ds, const float* dr, const float* dc, float* dout) {
  int block = 256;
  int threads = (n + READINGS_PER_THREAD - 1) / READINGS_PER_THREAD;
  int grid = (threads + block - 1) / block;
  calib_kernel_x4<DEG><<<grid, block>>>(n, ds, dr, dc, dout);
}

void calibrateReadings(int n, const int* sensor, const float* raw, const float* coef,
                       int degree, float* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  size_t ibytes = static_cast<size_t>(n) * sizeof(int);
  int* ds = nullptr;
  float *dr = nullptr, *dc = nullptr, *dout = nullptr;
  cudaMalloc(&ds, ibytes);
  cudaMalloc(&dr, bytes);
  cudaMalloc(&dc, 256 * sizeof(float));
  cudaMalloc(&dout, bytes);
  cudaMemcpy(ds, sensor, ibytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dr, raw, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, coef, 256 * sizeof(float), cudaMemcpyHostToDevice);
  switch (degree) {
    case 0: launch_calib<0>(n, ds, dr, dc, dout); break;
    case 1: launch_calib<1>(n, ds, dr, dc, dout); break;
    case 2: launch_calib<2>(n, ds, dr, dc, dout); break;
    case 3: launch_calib<3>(n, ds, dr, dc, dout); break;
    case 4: launch_calib<4>(n, ds, dr, dc, dout); break;
    case 5: launch_calib<5>(n, ds, dr, dc, dout); break;
    case 6: launch_calib<6>(n, ds, dr, dc, dout); break;
    default: launch_calib<7>(n, ds, dr, dc, dout); break;  // table holds 8 coefficients
  }
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dr);
  cudaFree(dc);
  cudaFree(dout);
}
