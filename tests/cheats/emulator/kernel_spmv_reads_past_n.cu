// Kernel form, planted: the entry loop runs to sizeA inclusive.
struct COOElement {
  size_t row, column;
  double value;
};
__global__ void spmv(double alpha, const COOElement *A, size_t sizeA, const double *x, double beta, double *y,
                     size_t M, size_t N) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (size_t r = 0; r < M; ++r) y[r] *= beta;
  for (size_t t = 0; t <= sizeA; ++t) y[A[t].row] += alpha * A[t].value * x[A[t].column];
}
