#include <cuda_runtime.h>

// Thread j writes out[4j .. 4j+3] with one float4 store. Its sources are
// in[n-4-4j .. n-1-4j]: when n % 4 == 0 that group is float4-aligned and is
// read with one load and reversed in registers; otherwise the four sources
// are read individually. The last n % 4 outputs go to the first threads.
__global__ void reverse_kernel_vec4(int n, const float* __restrict__ in, float* __restrict__ out) {
  int n4 = n >> 2;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n4) {
    int src = n - 4 - 4 * j;  // lowest source index of this group
    float4 r;
    if ((n & 3) == 0) {
      float4 v = *reinterpret_cast<const float4*>(in + src);
      r = make_float4(v.w, v.z, v.y, v.x);
    } else {
      r = make_float4(in[src + 3], in[src + 2], in[src + 1], in[src]);
    }
    reinterpret_cast<float4*>(out)[j] = r;
  }
  if (j < (n & 3)) {
    int t = (n4 << 2) + j;
    out[t] = in[n - 1 - t];
  }
}

void reversedCopy(int n, const float* in, float* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  reverse_kernel_vec4<<<grid, block>>>(n, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
