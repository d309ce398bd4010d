#include <cuda_runtime.h>
#include <cstddef>

#define TD 32

// The column-wise operand is staged through shared memory: the block loads the
// mirrored 32 x 32 tile of A (rows j0.., columns i0..) with row-contiguous,
// coalesced reads, and each thread picks its A[j][i] from the tile. Both
// global reads and the store now walk rows. Entries outside the matrix are
// never loaded and never read (r, c < n exactly when j, i < n).
__global__ void sym_staged(int n, const float* __restrict__ A, float* __restrict__ S) {
  __shared__ float T[TD][TD];
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
  sym_staged<<<grid, block>>>(n, d_A, d_S);
  cudaMemcpy(S, d_S, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_S);
}
