// Control: a kernel that stores a pixel as a uchar4 struct. The compiler narrows the
// store to the three colour bytes that change; the alpha byte keeps the value copied
// in. Correct (the emulator once called it host_compute: a word must now be written
// by a kernel in part, the rest copied in and left alone).
#include <cuda_runtime.h>
#include <cstdint>
__global__ void k(uchar4* px, int pixels) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += stride) {
    uchar4 p = px[i];
    unsigned a = p.w;
    if (a == 255u) continue;
    uchar4 o;
    o.x = (unsigned char)((p.x * a + 127u) / 255u);
    o.y = (unsigned char)((p.y * a + 127u) / 255u);
    o.z = (unsigned char)((p.z * a + 127u) / 255u);
    o.w = p.w;
    px[i] = o;
  }
}
void premultiplyAlphaRgba(uint8_t* rgba, int pixels) {
  if (pixels <= 0) return;
  size_t bytes = (size_t)pixels * 4;
  uchar4* d = nullptr;
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, rgba, bytes, cudaMemcpyHostToDevice);
  k<<<(pixels + 255) / 256, 256>>>(d, pixels);
  cudaMemcpy(rgba, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
}
