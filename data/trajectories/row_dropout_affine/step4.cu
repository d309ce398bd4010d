#include <cuda_runtime.h>

#define RPT 4     // rows per thread
#define BX 128    // columns per block

// Thread coarsening over rows: thread (column c, row group g) keeps scale[c]
// and bias[c] in registers and produces RPT rows of column c, skipping the
// loads of dropped rows; consecutive threads take consecutive columns, so
// every row access stays coalesced. Row groups beyond gridDim.y are covered
// by striding.
__global__ void dropout_rows(int b, int d, const float* __restrict__ x, const float* __restrict__ keep,
                             const float* __restrict__ scale, const float* __restrict__ bias,
                             float* __restrict__ out) {
  int c = blockIdx.x * BX + threadIdx.x;
  if (c >= d) return;
  float s = scale[c], bb = bias[c];
  for (int g = blockIdx.y; g * RPT < b; g += gridDim.y) {
#pragma unroll
    for (int k = 0; k < RPT; ++k) {
      int r = g * RPT + k;
      if (r >= b) break;
      size_t i = (size_t)r * d + c;
      float kr = keep[r];
      out[i] = kr == 0.0f ? 0.0f : kr * (x[i] * s + bb);
    }
  }
}

// When d is a multiple of 4, every row starts 16-byte aligned, so a thread
// can own four adjacent columns and move x, scale, bias and out as float4
// (RPT rows per thread as before). Other widths use the scalar kernel.
__global__ void dropout_rows_vec4(int b, int d4, const float4* __restrict__ x, const float* __restrict__ keep,
                                  const float4* __restrict__ scale, const float4* __restrict__ bias,
                                  float4* __restrict__ out) {
  int c4 = blockIdx.x * BX + threadIdx.x;
  if (c4 >= d4) return;
  float4 s = scale[c4], bb = bias[c4];
  for (int g = blockIdx.y; g * RPT < b; g += gridDim.y) {
#pragma unroll
    for (int k = 0; k < RPT; ++k) {
      int r = g * RPT + k;
      if (r >= b) break;
      size_t i = (size_t)r * d4 + c4;
      float kr = keep[r];
      float4 o = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (kr != 0.0f) {
        float4 v = x[i];
        o.x = kr * (v.x * s.x + bb.x);
        o.y = kr * (v.y * s.y + bb.y);
        o.z = kr * (v.z * s.z + bb.z);
        o.w = kr * (v.w * s.w + bb.w);
      }
      out[i] = o;
    }
  }
}

void row_dropout_affine(int b, int d, const float* x, const float* keep, const float* scale, const float* bias,
                        float* out) {
  if (b <= 0 || d <= 0) return;
  long long total = (long long)b * d;
  size_t xb = (size_t)total * sizeof(float);
  float *dx = nullptr, *dk = nullptr, *ds = nullptr, *dbias = nullptr, *dout = nullptr;
  cudaMalloc(&dx, xb);
  cudaMalloc(&dk, (size_t)b * sizeof(float));
  cudaMalloc(&ds, (size_t)d * sizeof(float));
  cudaMalloc(&dbias, (size_t)d * sizeof(float));
  cudaMalloc(&dout, xb);
  cudaMemcpy(dx, x, xb, cudaMemcpyHostToDevice);
  cudaMemcpy(dk, keep, (size_t)b * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, scale, (size_t)d * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dbias, bias, (size_t)d * sizeof(float), cudaMemcpyHostToDevice);
  int groups = (b + RPT - 1) / RPT;
  if (groups > 65535) groups = 65535;
  if ((d & 3) == 0) {
    int d4 = d >> 2;
    dim3 grid((d4 + BX - 1) / BX, groups);
    dropout_rows_vec4<<<grid, BX>>>(b, d4, reinterpret_cast<const float4*>(dx), dk,
                                    reinterpret_cast<const float4*>(ds), reinterpret_cast<const float4*>(dbias),
                                    reinterpret_cast<float4*>(dout));
  } else {
    dim3 grid((d + BX - 1) / BX, groups);
    dropout_rows<<<grid, BX>>>(b, d, dx, dk, ds, dbias, dout);
  }
  cudaMemcpy(out, dout, xb, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dk);
  cudaFree(ds);
  cudaFree(dbias);
  cudaFree(dout);
}
