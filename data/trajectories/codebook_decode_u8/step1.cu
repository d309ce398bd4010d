#include <cuda_runtime.h>
#include <cstdint>

// One thread per output: gather from the codebook, multiply by the group scale.
__global__ void decode_kernel(int n, const uint8_t* codes, const float* codebook, const float* scale,
                              float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = codebook[codes[i]] * scale[i / 64];
}

void codebook_decode_u8(int n, const uint8_t* codes, const float* codebook, const float* group_scale,
                        float* out) {
  if (n <= 0) return;
  int groups = (n + 63) / 64;
  uint8_t* dc = nullptr;
  float *dbook = nullptr, *ds = nullptr, *dout = nullptr;
  cudaMalloc(&dc, (size_t)n);
  cudaMalloc(&dbook, 256 * sizeof(float));
  cudaMalloc(&ds, (size_t)groups * sizeof(float));
  cudaMalloc(&dout, (size_t)n * sizeof(float));
  cudaMemcpy(dc, codes, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(dbook, codebook, 256 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, group_scale, (size_t)groups * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  decode_kernel<<<(n + block - 1) / block, block>>>(n, dc, dbook, ds, dout);
  cudaMemcpy(out, dout, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dc);
  cudaFree(dbook);
  cudaFree(ds);
  cudaFree(dout);
}
