#include <cuda_runtime.h>
#include <cstdint>

// Four samples per thread: one 8-byte short4 load and one 16-byte float4
// store; the first n % 4 threads also convert one of the trailing samples.
__global__ void pcm_convert_vec4(int n, const int16_t* __restrict__ pcm, float scale, float* __restrict__ out) {
  int quads = n >> 2;
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < quads) {
    short4 s = reinterpret_cast<const short4*>(pcm)[q];
    float4 v;
    v.x = fminf(fmaxf(scale * s.x, -1.0f), 1.0f);
    v.y = fminf(fmaxf(scale * s.y, -1.0f), 1.0f);
    v.z = fminf(fmaxf(scale * s.z, -1.0f), 1.0f);
    v.w = fminf(fmaxf(scale * s.w, -1.0f), 1.0f);
    reinterpret_cast<float4*>(out)[q] = v;
  }
  if (q < (n & 3)) {
    int t = (quads << 2) + q;
    out[t] = fminf(fmaxf(scale * pcm[t], -1.0f), 1.0f);
  }
}

// The buffer is cut into chunks of 2^20 samples (multiples of 4, so every chunk
// stays aligned for the vector accesses). Each chunk's upload, kernel and
// download are queued on one of four streams in turn, so the download of one
// chunk and the upload of the next run while a kernel converts a third.
void pcm16_to_float(int n, const int16_t* pcm, float gain, float* out) {
  if (n <= 0) return;
  int16_t* d_pcm = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_pcm, (size_t)n * sizeof(int16_t));
  cudaMalloc(&d_out, (size_t)n * sizeof(float));
  const int kStreams = 4;
  const int kChunk = 1 << 20;
  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s) cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
  float scale = gain / 32768.0f;
  int chunk = 0;
  for (int off = 0; off < n; off += kChunk, ++chunk) {
    int len = n - off < kChunk ? n - off : kChunk;
    cudaStream_t st = streams[chunk % kStreams];
    cudaMemcpyAsync(d_pcm + off, pcm + off, (size_t)len * sizeof(int16_t), cudaMemcpyHostToDevice, st);
    int work = (len >> 2) > 3 ? (len >> 2) : 3;
    pcm_convert_vec4<<<(work + 255) / 256, 256, 0, st>>>(len, d_pcm + off, scale, d_out + off);
    cudaMemcpyAsync(out + off, d_out + off, (size_t)len * sizeof(float), cudaMemcpyDeviceToHost, st);
  }
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamSynchronize(streams[s]);
    cudaStreamDestroy(streams[s]);
  }
  cudaFree(d_pcm);
  cudaFree(d_out);
}
