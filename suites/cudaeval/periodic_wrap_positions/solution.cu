#include <cuda_runtime.h>
#include <cstddef>

// Wraps one coordinate exactly as the serial code does: the explicit
// round-to-nearest intrinsics keep nvcc from fusing s * box into the
// subtraction, which would change the last bit of the result.
__device__ __forceinline__ float wrap_coord(float c, float box, int* shift_out) {
  float s = floorf(__fdiv_rn(c, box));
  float w = __fsub_rn(c, __fmul_rn(s, box));
  int shift = (int)s;
  if (w < 0.0f) {
    w = __fadd_rn(w, box);
    --shift;
  }
  if (w >= box) {
    w = 0.0f;
    ++shift;
  }
  *shift_out = shift;
  return w;
}

// Step 1 (thread_mapping): one thread per particle wraps its x, y and z.
// Step 2 (grid_stride_loop): an SM-sized grid strides over the particles, so
// one launch of a few blocks per SM covers any n.
__global__ void wrap_kernel(int n, float box, float* __restrict__ x, float* __restrict__ y,
                            float* __restrict__ z, int* __restrict__ image) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int sx, sy, sz;
    x[i] = wrap_coord(x[i], box, &sx);
    y[i] = wrap_coord(y[i], box, &sy);
    z[i] = wrap_coord(z[i], box, &sz);
    image[3 * (size_t)i] = sx;
    image[3 * (size_t)i + 1] = sy;
    image[3 * (size_t)i + 2] = sz;
  }
}

void wrapPeriodicBox(int n, float box, float* x, float* y, float* z, int* image) {
  if (n <= 0) return;
  size_t fbytes = (size_t)n * sizeof(float);
  size_t ibytes = (size_t)n * 3 * sizeof(int);
  float *dx = nullptr, *dy = nullptr, *dz = nullptr;
  int* dimg = nullptr;
  cudaMalloc(&dx, fbytes);
  cudaMalloc(&dy, fbytes);
  cudaMalloc(&dz, fbytes);
  cudaMalloc(&dimg, ibytes);
  cudaMemcpy(dx, x, fbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, fbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dz, z, fbytes, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  int needed = (n + block - 1) / block;
  int cap = sms * 8;
  int grid = needed < cap ? needed : cap;
  wrap_kernel<<<grid, block>>>(n, box, dx, dy, dz, dimg);
  cudaMemcpy(x, dx, fbytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(y, dy, fbytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(z, dz, fbytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(image, dimg, ibytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
  cudaFree(dimg);
}
