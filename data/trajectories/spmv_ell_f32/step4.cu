#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// Two rows per thread with 8-byte accesses: for even n every slot starts on an
// 8-byte boundary, so the indices and values of rows (2t, 2t+1) come in one
// int2 and one float2 load and the results leave as one float2 store. Odd n
// keeps the one-row kernel. x is still read through the texture object.
__global__ void ell_spmv_tex_pair(int n, int width, const int2* __restrict__ col2, const float2* __restrict__ val2,
                                  cudaTextureObject_t xtex, float2* __restrict__ y2) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int half = n / 2;
  if (t >= half) return;
  float s0 = 0.0f, s1 = 0.0f;
#pragma unroll 4
  for (int k = 0; k < width; ++k) {
    size_t e = (size_t)k * half + t;
    int2 c = col2[e];
    float2 v = val2[e];
    float x0 = tex1Dfetch<float>(xtex, c.x);
    float x1 = tex1Dfetch<float>(xtex, c.y);
    s0 += v.x * x0;
    s1 += v.y * x1;
  }
  y2[t] = make_float2(s0, s1);
}

// Thread per row with x read through a texture object; the slot loop is
// unrolled by hand so each thread has four independent gathers in flight.
__global__ void ell_spmv_tex(int n, int width, const int* __restrict__ ell_col, const float* __restrict__ ell_val,
                             cudaTextureObject_t xtex, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  int k = 0;
  // Unrolled by 4: the four index loads, then the four gathers, are issued
  // back to back; the sum keeps the serial slot order.
  for (; k + 3 < width; k += 4) {
    size_t e = (size_t)k * n + i;
    int c0 = ell_col[e];
    int c1 = ell_col[e + (size_t)n];
    int c2 = ell_col[e + 2 * (size_t)n];
    int c3 = ell_col[e + 3 * (size_t)n];
    float v0 = ell_val[e];
    float v1 = ell_val[e + (size_t)n];
    float v2 = ell_val[e + 2 * (size_t)n];
    float v3 = ell_val[e + 3 * (size_t)n];
    float x0 = tex1Dfetch<float>(xtex, c0);
    float x1 = tex1Dfetch<float>(xtex, c1);
    float x2 = tex1Dfetch<float>(xtex, c2);
    float x3 = tex1Dfetch<float>(xtex, c3);
    s += v0 * x0;
    s += v1 * x1;
    s += v2 * x2;
    s += v3 * x3;
  }
  for (; k < width; ++k) {
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
  if (n % 2 == 0) {
    int half = n / 2;
    ell_spmv_tex_pair<<<(half + block - 1) / block, block>>>(n, width, reinterpret_cast<const int2*>(d_col),
                                                             reinterpret_cast<const float2*>(d_val), xtex,
                                                             reinterpret_cast<float2*>(d_y));
  } else {
    ell_spmv_tex<<<(n + block - 1) / block, block>>>(n, width, d_col, d_val, xtex, d_y);
  }
  cudaMemcpy(y, d_y, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDestroyTextureObject(xtex);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(x_raw);
  cudaFree(d_y);
}
