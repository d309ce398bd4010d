#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// For a byte, 255 - v == ~v, so sixteen samples can be inverted at once with a
// bitwise NOT of a uint4. cudaMalloc returns 256-byte aligned buffers, so the
// uint4 view of the flat sample array is aligned; the last total % 16 bytes
// are handled one byte per thread.
__global__ void invert_vec16_kernel(size_t nvec, const uint4* __restrict__ src, uint4* __restrict__ dst) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nvec) {
    uint4 v = src[i];
    v.x = ~v.x;
    v.y = ~v.y;
    v.z = ~v.z;
    v.w = ~v.w;
    dst[i] = v;
  }
}

__global__ void invert_tail_kernel(size_t start, size_t total, const uint8_t* __restrict__ src,
                                   uint8_t* __restrict__ dst) {
  size_t i = start + threadIdx.x;
  if (i < total) dst[i] = (uint8_t)(255 - src[i]);
}

void invertImageU8(int width, int height, int channels, const uint8_t* src, uint8_t* dst) {
  if (width <= 0 || height <= 0 || channels <= 0) return;
  size_t total = (size_t)width * (size_t)height * (size_t)channels;
  uint8_t *dsrc = nullptr, *ddst = nullptr;
  cudaMalloc(&dsrc, total);
  cudaMalloc(&ddst, total);
  cudaMemcpy(dsrc, src, total, cudaMemcpyHostToDevice);
  size_t nvec = total / 16;
  if (nvec > 0) {
    const int block = 256;
    size_t grid = (nvec + block - 1) / block;
    invert_vec16_kernel<<<(unsigned)grid, block>>>(nvec, reinterpret_cast<const uint4*>(dsrc),
                                                    reinterpret_cast<uint4*>(ddst));
  }
  size_t tail = total - nvec * 16;
  if (tail > 0) invert_tail_kernel<<<1, 32>>>(nvec * 16, total, dsrc, ddst);
  cudaMemcpy(dst, ddst, total, cudaMemcpyDeviceToHost);
  cudaFree(dsrc);
  cudaFree(ddst);
}
