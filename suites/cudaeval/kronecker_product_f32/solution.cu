#include <cuda_runtime.h>

// Step 1 (thread_mapping): every element of K is independent; one thread
// computes one K[r][c] = A[r / mb][c / nb] * B[r % mb][c % nb].
// Step 2 (memory_coalescing): the serial loop order walks K block by block
// (a stride of na*nb floats between consecutive B rows); here the x dimension
// of the grid runs along K's columns, so a warp writes 32 consecutive floats
// of one K row and reads consecutive floats of one B row, while the y
// dimension (grid-strided, since K can have more rows than a grid's y limit)
// walks K's rows.
__global__ void kronecker_kernel(int ma, int na, int mb, int nb, const float* __restrict__ A,
                                 const float* __restrict__ B, float* __restrict__ K) {
  long long rows = (long long)ma * mb;
  long long cols = (long long)na * nb;
  long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  int ja = (int)(c / nb);
  int jb = (int)(c - (long long)ja * nb);
  for (long long r = (long long)blockIdx.y * blockDim.y + threadIdx.y; r < rows;
       r += (long long)gridDim.y * blockDim.y) {
    int ia = (int)(r / mb);
    int ib = (int)(r - (long long)ia * mb);
    K[r * cols + c] = A[ia * na + ja] * B[ib * nb + jb];
  }
}

void kroneckerProduct(int ma, int na, int mb, int nb, const float* A, const float* B, float* K) {
  long long rows = (long long)ma * mb;
  long long cols = (long long)na * nb;
  if (rows <= 0 || cols <= 0) return;
  size_t a_bytes = (size_t)ma * na * sizeof(float);
  size_t b_bytes = (size_t)mb * nb * sizeof(float);
  size_t k_bytes = (size_t)rows * cols * sizeof(float);
  float *d_a = nullptr, *d_b = nullptr, *d_k = nullptr;
  cudaMalloc(&d_a, a_bytes);
  cudaMalloc(&d_b, b_bytes);
  cudaMalloc(&d_k, k_bytes);
  cudaMemcpy(d_a, A, a_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, B, b_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  long long gx = (cols + block.x - 1) / block.x;
  long long gy = (rows + block.y - 1) / block.y;
  if (gy > 65535) gy = 65535;
  dim3 grid((unsigned)gx, (unsigned)gy);
  kronecker_kernel<<<grid, block>>>(ma, na, mb, nb, d_a, d_b, d_k);
  cudaMemcpy(K, d_k, k_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_k);
}
