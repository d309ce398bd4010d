#include <cuda_runtime.h>
#include <cstdint>

__global__ void decode_kernel(int n, const uint8_t* __restrict__ codes, const float* __restrict__ codebook,
                              const float* __restrict__ scale, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = codebook[codes[i]] * scale[i / 64];
}

// Chunked pipeline on four streams. Chunks are multiples of 64 elements, so
// chunk k's scales start at group off/64 and the kernel's local i/64 indexing
// stays valid. The codebook is uploaded once and the device synchronised
// before any stream work is queued.
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
  cudaMemcpy(dbook, codebook, 256 * sizeof(float), cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();

  const int kStreams = 4;
  const int kChunk = 1 << 20;  // elements per chunk, a multiple of 64
  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s) cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
  int block = 256;
  int k = 0;
  for (int off = 0; off < n; off += kChunk, ++k) {
    int len = n - off < kChunk ? n - off : kChunk;
    int g0 = off / 64, glen = (len + 63) / 64;
    cudaStream_t st = streams[k % kStreams];
    cudaMemcpyAsync(dc + off, codes + off, (size_t)len, cudaMemcpyHostToDevice, st);
    cudaMemcpyAsync(ds + g0, group_scale + g0, (size_t)glen * sizeof(float), cudaMemcpyHostToDevice, st);
    decode_kernel<<<(len + block - 1) / block, block, 0, st>>>(len, dc + off, dbook, ds + g0, dout + off);
    cudaMemcpyAsync(out + off, dout + off, (size_t)len * sizeof(float), cudaMemcpyDeviceToHost, st);
  }
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamSynchronize(streams[s]);
    cudaStreamDestroy(streams[s]);
  }
  cudaFree(dc);
  cudaFree(dbook);
  cudaFree(ds);
  cudaFree(dout);
}
