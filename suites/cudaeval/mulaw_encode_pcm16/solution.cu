#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): samples are independent, one thread each.
// Step 2 (warp_divergence_elimination): the segment is the index of the
// highest set bit of the biased magnitude minus 7 (the bias 0x84 sets bit 7
// or higher; the clip keeps it at most bit 14), i.e. 24 - __clz(mag),
// clamped to [0, 7] for safety; one count-leading-zeros replaces the loop
// whose trip count differs per lane.
__global__ void mulaw_encode_kernel(const int16_t* __restrict__ pcm, uint8_t* __restrict__ codes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int sample = pcm[i];
  int sign = (sample >> 8) & 0x80;
  int mag = sign ? -sample : sample;
  mag = min(mag, 32635) + 0x84;
  int exponent = min(max(24 - __clz(mag), 0), 7);
  int mantissa = (mag >> (exponent + 3)) & 0x0F;
  codes[i] = (uint8_t)(~(sign | (exponent << 4) | mantissa));
}

void mulawEncode(const int16_t* pcm, uint8_t* codes, int n) {
  if (n <= 0) return;
  int16_t* dpcm = nullptr;
  uint8_t* dcodes = nullptr;
  cudaMalloc(&dpcm, (size_t)n * sizeof(int16_t));
  cudaMalloc(&dcodes, (size_t)n);
  cudaMemcpy(dpcm, pcm, (size_t)n * sizeof(int16_t), cudaMemcpyHostToDevice);
  const int block = 256;
  mulaw_encode_kernel<<<(n + block - 1) / block, block>>>(dpcm, dcodes, n);
  cudaMemcpy(codes, dcodes, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(dpcm);
  cudaFree(dcodes);
}
