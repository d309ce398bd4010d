#include <cuda_runtime.h>
#include <cstdint>

// Same mapping with the image declared const __restrict__ and read through the
// read-only cache: the nine byte loads of neighbouring threads overlap heavily,
// and the 32-byte read-only cache sectors serve them without reissuing L2 requests.
__global__ void emboss_ldg(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
  const uint8_t* r0 = in + (size_t)max(y - 1, 0) * width;
  const uint8_t* r1 = in + (size_t)y * width;
  const uint8_t* r2 = in + (size_t)min(y + 1, height - 1) * width;
  int acc = 128;
  acc += -2 * __ldg(r0 + xm) - __ldg(r0 + x);
  acc += -__ldg(r1 + xm) + __ldg(r1 + x) + __ldg(r1 + xp);
  acc += __ldg(r2 + x) + 2 * __ldg(r2 + xp);
  out[(size_t)y * width + x] = (uint8_t)min(max(acc, 0), 255);
}

void emboss_u8(const uint8_t* in, uint8_t* out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  emboss_ldg<<<grid, block>>>(d_in, d_out, width, height);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
