#include <cuda_runtime.h>
#include <complex>

__device__ __forceinline__ void caxpy1(float ar, float ai, float xr, float xi, float& yr,
                                       float& yi) {
  float r = ar * xr - ai * xi + yr;
  float s = ar * xi + ai * xr + yi;
  yr = r;
  yi = s;
}

// Both passes fused: the updated pair of y values stays in registers for the
// magnitudes, so y is no longer re-read from DRAM and one launch disappears.
__global__ void __launch_bounds__(512) caxpy_abs_vec4(int n, float ar, float ai, const float2* __restrict__ x,
                               float2* __restrict__ y, float* __restrict__ mag) {
  int n2 = n >> 1;
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n2) {
    float4 xv = reinterpret_cast<const float4*>(x)[p];
    float4 yv = reinterpret_cast<float4*>(y)[p];
    caxpy1(ar, ai, xv.x, xv.y, yv.x, yv.y);
    caxpy1(ar, ai, xv.z, xv.w, yv.z, yv.w);
    reinterpret_cast<float4*>(y)[p] = yv;
    reinterpret_cast<float2*>(mag)[p] = make_float2(hypotf(yv.x, yv.y), hypotf(yv.z, yv.w));
  }
  if (p == 0 && (n & 1)) {
    float2 xv = x[n - 1], yv = y[n - 1];
    caxpy1(ar, ai, xv.x, xv.y, yv.x, yv.y);
    y[n - 1] = yv;
    mag[n - 1] = hypotf(yv.x, yv.y);
  }
}

void complexAxpyMagnitude(int n, float ar, float ai, const std::complex<float>* x,
                          std::complex<float>* y, float* mag) {
  if (n <= 0) return;
  // std::complex<float> is laid out as (re, im), identical to float2.
  size_t cbytes = static_cast<size_t>(n) * sizeof(std::complex<float>);
  size_t fbytes = static_cast<size_t>(n) * sizeof(float);
  float2 *dx = nullptr, *dy = nullptr;
  float* dmag = nullptr;
  cudaMalloc(&dx, cbytes);
  cudaMalloc(&dy, cbytes);
  cudaMalloc(&dmag, fbytes);
  cudaMemcpy(dx, x, cbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, cbytes, cudaMemcpyHostToDevice);
  // Block size from the occupancy calculator for the fused kernel, then
  // halved (down to 64) while the grid would give fewer than two blocks per
  // SM, so mid-sized vectors still occupy every SM.
  int n2 = n >> 1;
  int work = n2 > 1 ? n2 : 1;
  int min_grid = 0, block = 0;
  if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, caxpy_abs_vec4, 0, 512) !=
          cudaSuccess ||
      block <= 0)
    block = 256;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
    sms = 108;
  while (block > 64 && (work + block - 1) / block < 2 * sms) block >>= 1;
  int grid = (work + block - 1) / block;
  caxpy_abs_vec4<<<grid, block>>>(n, ar, ai, dx, dy, dmag);
  cudaMemcpy(y, dy, cbytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(mag, dmag, fbytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dmag);
}
