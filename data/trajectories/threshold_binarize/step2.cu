#include <cuda_runtime.h>
#include <cstdint>

// Each thread converts four pixels: one 16-byte float4 load and one 4-byte uchar4
// store (cudaMalloc buffers are 256-byte aligned, so group i starts aligned).
// The last n % 4 pixels are handled by the thread that owns the partial group.
__global__ void binarize_vec4(int n, const float* __restrict__ in, float threshold, uint8_t* __restrict__ out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int i = 4 * g;
  if (i >= n) return;
  if (i + 3 < n) {
    float4 v = reinterpret_cast<const float4*>(in)[g];
    uchar4 o;
    o.x = v.x > threshold ? 255 : 0;
    o.y = v.y > threshold ? 255 : 0;
    o.z = v.z > threshold ? 255 : 0;
    o.w = v.w > threshold ? 255 : 0;
    reinterpret_cast<uchar4*>(out)[g] = o;
  } else {
    for (int k = i; k < n; ++k) out[k] = in[k] > threshold ? 255 : 0;
  }
}

void binarize_threshold(int n, const float* in, float threshold, uint8_t* out) {
  if (n <= 0) return;
  float* d_in = nullptr;
  uint8_t* d_out = nullptr;
  cudaMalloc(&d_in, (size_t)n * sizeof(float));
  cudaMalloc(&d_out, (size_t)n);
  cudaMemcpy(d_in, in, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  int groups = (n + 3) / 4;
  binarize_vec4<<<(groups + 255) / 256, 256>>>(n, d_in, threshold, d_out);
  cudaMemcpy(out, d_out, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
