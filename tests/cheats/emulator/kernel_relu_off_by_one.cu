// Kernel form, planted: the last element is never processed (i + 1 < N).
__global__ void relu(double *x, size_t N) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i + 1 < N && x[i] < 0) x[i] = 0;
}
