#include <cuda_runtime.h>
#include <cstddef>

// Step 1 (thread_mapping): one thread per equation. The products are written
// with round-to-nearest intrinsics so they are rounded separately, exactly as
// in the serial code (a fused multiply-add would change disc near zero).
__global__ void quadratic_kernel(int n, const float* __restrict__ a, const float* __restrict__ b,
                                 const float* __restrict__ c, float* __restrict__ r1, float* __restrict__ r2,
                                 int* __restrict__ nroots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ai = a[i], bi = b[i], ci = c[i];
  float disc = __fsub_rn(__fmul_rn(bi, bi), __fmul_rn(__fmul_rn(4.0f, ai), ci));
  if (disc < 0.0f) {
    nroots[i] = 0;
    r1[i] = 0.0f;
    r2[i] = 0.0f;
  } else if (disc == 0.0f) {
    float x = -bi / __fmul_rn(2.0f, ai);
    nroots[i] = 1;
    r1[i] = x;
    r2[i] = x;
  } else {
    float s = sqrtf(disc);
    float q = __fmul_rn(-0.5f, __fadd_rn(bi, copysignf(s, bi)));
    float x1 = q / ai;
    float x2 = ci / q;
    nroots[i] = 2;
    r1[i] = x1 < x2 ? x1 : x2;
    r2[i] = x1 < x2 ? x2 : x1;
  }
}

void solveQuadratics(int n, const float* a, const float* b, const float* c, float* r1, float* r2,
                     int* nroots) {
  if (n <= 0) return;
  size_t fb = (size_t)n * sizeof(float), ib = (size_t)n * sizeof(int);
  float *da = nullptr, *db = nullptr, *dc = nullptr, *d1 = nullptr, *d2 = nullptr;
  int* dn = nullptr;
  cudaMalloc(&da, fb);
  cudaMalloc(&db, fb);
  cudaMalloc(&dc, fb);
  cudaMalloc(&d1, fb);
  cudaMalloc(&d2, fb);
  cudaMalloc(&dn, ib);
  cudaMemcpy(da, a, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c, fb, cudaMemcpyHostToDevice);
  const int block = 256;
  int grid = (n + block - 1) / block;
  quadratic_kernel<<<grid, block>>>(n, da, db, dc, d1, d2, dn);
  cudaMemcpy(r1, d1, fb, cudaMemcpyDeviceToHost);
  cudaMemcpy(r2, d2, fb, cudaMemcpyDeviceToHost);
  cudaMemcpy(nroots, dn, ib, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(d1);
  cudaFree(d2);
  cudaFree(dn);
}
