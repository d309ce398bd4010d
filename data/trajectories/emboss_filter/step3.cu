#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ int emboss_px(int a0, int a1, int a2, int b0, int b1, int b2, int c0, int c1, int c2) {
  (void)a2;
  (void)c0;
  int acc = 128 - 2 * a0 - a1 - b0 + b1 + b2 + c1 + 2 * c2;
  return min(max(acc, 0), 255);
}

// Scalar kernel, used when rows are not 4-byte aligned (width % 4 != 0).
__global__ void emboss_scalar(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
  const uint8_t* r0 = in + (size_t)max(y - 1, 0) * width;
  const uint8_t* r1 = in + (size_t)y * width;
  const uint8_t* r2 = in + (size_t)min(y + 1, height - 1) * width;
  out[(size_t)y * width + x] = (uint8_t)emboss_px(__ldg(r0 + xm), __ldg(r0 + x), __ldg(r0 + xp), __ldg(r1 + xm),
                                                  __ldg(r1 + x), __ldg(r1 + xp), __ldg(r2 + xm), __ldg(r2 + x),
                                                  __ldg(r2 + xp));
}

// Loads the 6 bytes [x-1, x+4] of one row around a 4-pixel group: the aligned
// middle four as one 32-bit uchar4 load, the two edge bytes clamped separately.
__device__ __forceinline__ void load_row6(const uint8_t* row, int x, int width, int v[6]) {
  uchar4 m = __ldg(reinterpret_cast<const uchar4*>(row + x));
  v[0] = __ldg(row + max(x - 1, 0));
  v[1] = m.x;
  v[2] = m.y;
  v[3] = m.z;
  v[4] = m.w;
  v[5] = __ldg(row + min(x + 4, width - 1));
}

// Vector kernel: each thread produces four horizontally adjacent pixels from
// three 32-bit row loads plus edge bytes and writes them with one uchar4 store,
// a quarter of the memory instructions of the byte-per-thread version.
__global__ void emboss_vec4(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int width, int height) {
  int x = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int a[6], b[6], c[6];
  load_row6(in + (size_t)max(y - 1, 0) * width, x, width, a);
  load_row6(in + (size_t)y * width, x, width, b);
  load_row6(in + (size_t)min(y + 1, height - 1) * width, x, width, c);
  uchar4 o;
  o.x = (uint8_t)emboss_px(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
  o.y = (uint8_t)emboss_px(a[1], a[2], a[3], b[1], b[2], b[3], c[1], c[2], c[3]);
  o.z = (uint8_t)emboss_px(a[2], a[3], a[4], b[2], b[3], b[4], c[2], c[3], c[4]);
  o.w = (uint8_t)emboss_px(a[3], a[4], a[5], b[3], b[4], b[5], c[3], c[4], c[5]);
  *reinterpret_cast<uchar4*>(out + (size_t)y * width + x) = o;
}

void emboss_u8(const uint8_t* in, uint8_t* out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  if (width % 4 == 0) {
    dim3 grid((width / 4 + 31) / 32, (height + 7) / 8);
    emboss_vec4<<<grid, block>>>(d_in, d_out, width, height);
  } else {
    dim3 grid((width + 31) / 32, (height + 7) / 8);
    emboss_scalar<<<grid, block>>>(d_in, d_out, width, height);
  }
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
