#include <cuda_runtime.h>
#include <cstdint>
#include <cstring>

__global__ void decode_kernel(int n, const uint8_t* __restrict__ codes, const float* __restrict__ codebook,
                              const float* __restrict__ scale, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = codebook[codes[i]] * scale[i / 64];
}

// The stream pipeline now goes through page-locked staging: each stream owns
// pinned slots (codes, scales, output) allocated with cudaMallocHost, so its
// async copies are true DMAs that overlap the kernels. The CPU fills a slot
// while other streams work; before a slot is reused, its stream is
// synchronised and the finished chunk is copied from the slot into out.
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
  const int kChunk = 1 << 20;  // multiple of 64
  int slot = n < kChunk ? n : kChunk;
  int gslot = (slot + 63) / 64;
  uint8_t* h_codes = nullptr;
  float *h_scale = nullptr, *h_out = nullptr;
  cudaMallocHost(&h_codes, (size_t)kStreams * slot);
  cudaMallocHost(&h_scale, (size_t)kStreams * gslot * sizeof(float));
  cudaMallocHost(&h_out, (size_t)kStreams * slot * sizeof(float));

  cudaStream_t streams[kStreams];
  int pend_off[kStreams], pend_len[kStreams];
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
    pend_off[s] = 0;
    pend_len[s] = 0;
  }
  int block = 256;
  int k = 0;
  for (int off = 0; off < n; off += kChunk, ++k) {
    int len = n - off < kChunk ? n - off : kChunk;
    int g0 = off / 64, glen = (len + 63) / 64;
    int s = k % kStreams;
    cudaStream_t st = streams[s];
    uint8_t* c_slot = h_codes + (size_t)s * slot;
    float* s_slot = h_scale + (size_t)s * gslot;
    float* o_slot = h_out + (size_t)s * slot;
    if (pend_len[s] > 0) {  // wait for the slot's previous chunk and drain it
      cudaStreamSynchronize(st);
      memcpy(out + pend_off[s], o_slot, (size_t)pend_len[s] * sizeof(float));
      pend_len[s] = 0;
    }
    memcpy(c_slot, codes + off, (size_t)len);
    memcpy(s_slot, group_scale + g0, (size_t)glen * sizeof(float));
    cudaMemcpyAsync(dc + off, c_slot, (size_t)len, cudaMemcpyHostToDevice, st);
    cudaMemcpyAsync(ds + g0, s_slot, (size_t)glen * sizeof(float), cudaMemcpyHostToDevice, st);
    decode_kernel<<<(len + block - 1) / block, block, 0, st>>>(len, dc + off, dbook, ds + g0, dout + off);
    cudaMemcpyAsync(o_slot, dout + off, (size_t)len * sizeof(float), cudaMemcpyDeviceToHost, st);
    pend_off[s] = off;
    pend_len[s] = len;
  }
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamSynchronize(streams[s]);
    if (pend_len[s] > 0)
      memcpy(out + pend_off[s], h_out + (size_t)s * slot, (size_t)pend_len[s] * sizeof(float));
    cudaStreamDestroy(streams[s]);
  }
  cudaFreeHost(h_codes);
  cudaFreeHost(h_scale);
  cudaFreeHost(h_out);
  cudaFree(dc);
  cudaFree(dbook);
  cudaFree(ds);
  cudaFree(dout);
}
