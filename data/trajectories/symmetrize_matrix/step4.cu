#include <cuda_runtime.h>
#include <cstddef>

#define TD 32
#define RB 8   // block rows; each thread covers TD / RB = 4 rows of the tile

// 32 x 8 threads per 32 x 32 tile: each thread loads and produces four rows
// (ty, ty+8, ty+16, ty+24), so the per-thread index setup, the barrier and the
// block scheduling are amortised over four elements and four independent
// loads are in flight per thread. Padded tile as before.
__global__ void sym_staged_rows4(int n, const float* __restrict__ A, float* __restrict__ S) {
  __shared__ float T[TD][TD + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i0 = blockIdx.y * TD, j0 = blockIdx.x * TD;
  int c = i0 + tx;
  for (int rr = ty; rr < TD; rr += RB) {
    int r = j0 + rr;
    if (r < n && c < n) T[rr][tx] = A[(size_t)r * n + c];
  }
  __syncthreads();
  int j = j0 + tx;
  for (int rr = ty; rr < TD; rr += RB) {
    int i = i0 + rr;
    if (i < n && j < n) S[(size_t)i * n + j] = 0.5f * (A[(size_t)i * n + j] + T[tx][rr]);
  }
}

void symmetric_part(int n, const float* A, float* S) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *d_A, *d_S;
  cudaMalloc(&d_A, bytes);
  cudaMalloc(&d_S, bytes);
  cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice);
  dim3 block(TD, RB);
  dim3 grid((n + TD - 1) / TD, (n + TD - 1) / TD);
  sym_staged_rows4<<<grid, block>>>(n, d_A, d_S);
  cudaMemcpy(S, d_S, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_S);
}
