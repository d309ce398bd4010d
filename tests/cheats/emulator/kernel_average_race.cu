// Kernel form, planted: every thread adds into the result without an atomic
// (lost updates: a race).
__global__ void average(const double *x, size_t N, double *average) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < N) *average += x[i] / N;
}
