#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// Entries are unsorted and may repeat, so each one is added into its row with
// an atomic after y has been scaled by beta.

__global__ void scaleY(double* __restrict__ y, double beta, size_t m) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < m; i += (size_t)gridDim.x * blockDim.x) {
    y[i] *= beta;
  }
}

__global__ void addEntries(double alpha, const COOElement* __restrict__ a, size_t nnz, const double* __restrict__ x,
                           double* __restrict__ y) {
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < nnz; t += (size_t)gridDim.x * blockDim.x) {
    COOElement e = a[t];
    atomicAdd(&y[e.row], alpha * e.value * __ldg(&x[e.column]));
  }
}

static unsigned gridFor(size_t work, unsigned block) {
  size_t g = (work + block - 1) / block;
  if (g < 1) g = 1;
  return (unsigned)(g < 65535 ? g : 65535);
}

void spmv(double alpha, std::vector<COOElement> const& A, std::vector<double> const& x, double beta, std::vector<double> &y, size_t M, size_t N) {
  size_t nnz = A.size();
  COOElement* dA = nullptr;
  double *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dA, (nnz ? nnz : 1) * sizeof(COOElement));
  cudaMalloc(&dx, (N ? N : 1) * sizeof(double));
  cudaMalloc(&dy, (M ? M : 1) * sizeof(double));
  if (nnz) cudaMemcpy(dA, A.data(), nnz * sizeof(COOElement), cudaMemcpyHostToDevice);
  if (N) cudaMemcpy(dx, x.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  if (M) cudaMemcpy(dy, y.data(), M * sizeof(double), cudaMemcpyHostToDevice);
  if (M) scaleY<<<gridFor(M, 256), 256>>>(dy, beta, M);
  if (nnz) addEntries<<<gridFor(nnz, 256), 256>>>(alpha, dA, nnz, dx, dy);
  if (M) cudaMemcpy(y.data(), dy, M * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dx);
  cudaFree(dy);
}
