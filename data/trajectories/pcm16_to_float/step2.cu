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

void pcm16_to_float(int n, const int16_t* pcm, float gain, float* out) {
  if (n <= 0) return;
  int16_t* d_pcm = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_pcm, (size_t)n * sizeof(int16_t));
  cudaMalloc(&d_out, (size_t)n * sizeof(float));
  cudaMemcpy(d_pcm, pcm, (size_t)n * sizeof(int16_t), cudaMemcpyHostToDevice);
  int work = (n >> 2) > 3 ? (n >> 2) : 3;  // at least 3 threads for the tail
  pcm_convert_vec4<<<(work + 255) / 256, 256>>>(n, d_pcm, gain / 32768.0f, d_out);
  cudaMemcpy(out, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_pcm);
  cudaFree(d_out);
}
