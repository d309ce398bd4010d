#include <cuda_runtime.h>
#include <cstddef>

#define TD 32

// Mirrored 32 x 32 tile staged through shared memory for coalesced reads. The
// transposed read T[tx][ty] walks a column of the tile: with 32-float rows all
// 32 threads of a warp hit the same bank. One padding column (33 floats per
// row) spreads them over 32 distinct banks.
__global__ void sym_staged_padded(int n, const float* __restrict__ A, float* __restrict__ S) {
  __shared__ float T[TD][TD + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i0 = blockIdx.y * TD, j0 = blockIdx.x * TD;
  // Mirrored tile: rows j0.., columns i0.. of A, read row-wise (coalesced).
  int r = j0 + ty, c = i0 + tx;
  if (r < n && c < n) T[ty][tx] = A[(size_t)r * n + c];
  __syncthreads();
  int i = i0 + ty, j = j0 + tx;
  // A[j][i] = T[j - j0][i - i0] = T[tx][ty].
  if (i < n && j < n) S[(size_t)i * n + j] = 0.5f * (A[(size_t)i * n + j] + T[tx][ty]);
}

void symmetric_part(int n, const float* A, float* S) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *d_A, *d_S;
  cudaMalloc(&d_A, bytes);
  cudaMalloc(&d_S, bytes);
  cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice);
  dim3 block(TD, TD);
  dim3 grid((n + TD - 1) / TD, (n + TD - 1) / TD);
  sym_staged_padded<<<grid, block>>>(n, d_A, d_S);
  cudaMemcpy(S, d_S, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_S);
}
