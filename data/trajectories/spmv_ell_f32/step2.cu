#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// Thread per row; the random gathers of x go through a texture object bound
// to the linear x buffer (tex1Dfetch), whose cache is built for scattered,
// read-only accesses and does not pollute L1 with the streamed slot arrays.
__global__ void ell_spmv_tex(int n, int width, const int* __restrict__ ell_col, const float* __restrict__ ell_val,
                             cudaTextureObject_t xtex, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < width; ++k) {
    size_t e = (size_t)k * n + i;
    s += ell_val[e] * tex1Dfetch<float>(xtex, ell_col[e]);
  }
  y[i] = s;
}

void ell_spmv(int n, int width, const int* ell_col, const float* ell_val, const float* x, float* y) {
  if (n <= 0) return;
  size_t slots = (size_t)n * (size_t)(width > 0 ? width : 0);
  int* d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_col, (slots > 0 ? slots : 1) * sizeof(int));
  cudaMalloc(&d_val, (slots > 0 ? slots : 1) * sizeof(float));
  // Texture objects over linear memory need the base aligned to the device's
  // texture alignment (512 bytes on current GPUs, more than cudaMalloc's
  // guaranteed 256), so x is placed at an aligned offset of a padded buffer.
  int dev = 0, tex_align = 512;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&tex_align, cudaDevAttrTextureAlignment, dev);
  if (tex_align < 256) tex_align = 256;
  char* x_raw = nullptr;
  cudaMalloc(&x_raw, (size_t)n * sizeof(float) + (size_t)tex_align);
  size_t misalign = (size_t)((uintptr_t)x_raw % (uintptr_t)tex_align);
  d_x = reinterpret_cast<float*>(x_raw + (misalign ? (size_t)tex_align - misalign : 0));
  cudaMalloc(&d_y, (size_t)n * sizeof(float));
  if (slots > 0) {
    cudaMemcpy(d_col, ell_col, slots * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, ell_val, slots * sizeof(float), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_x;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = (size_t)n * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t xtex = 0;
  cudaCreateTextureObject(&xtex, &res, &td, nullptr);

  int block = 256;
  ell_spmv_tex<<<(n + block - 1) / block, block>>>(n, width, d_col, d_val, xtex, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDestroyTextureObject(xtex);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(x_raw);
  cudaFree(d_y);
}
