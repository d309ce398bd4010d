// Kernel form, planted: one thread per row with no `i < N` guard; the launch
// has more threads than rows, so threads past N read past the matrix.
__global__ void maxDegree(const int *A, size_t N, int *maxDegree) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  int d = 0;
  for (size_t j = 0; j < N; ++j) d += A[i * N + j];
  atomicMax(maxDegree, d);
}
