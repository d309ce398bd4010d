#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct Element {
	size_t index;
  double value;
};

// z is cleared on the device, then every entry of x and y is added into its
// slot with an atomic (indices may repeat).
__global__ void scatterAdd(double alpha, const Element* __restrict__ x, size_t nx, const Element* __restrict__ y,
                           size_t ny, double* __restrict__ z) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < nx + ny; t += stride) {
    Element e = t < nx ? x[t] : y[t - nx];
    atomicAdd(&z[e.index], t < nx ? alpha * e.value : e.value);
  }
}

void sparseAxpy(double alpha, std::vector<Element> const& x, std::vector<Element> const& y, std::vector<double> &z) {
  size_t nx = x.size(), ny = y.size(), n = z.size();
  if (n == 0) return;
  Element *dx = nullptr, *dy = nullptr;
  double* dz = nullptr;
  cudaMalloc(&dx, (nx ? nx : 1) * sizeof(Element));
  cudaMalloc(&dy, (ny ? ny : 1) * sizeof(Element));
  cudaMalloc(&dz, n * sizeof(double));
  if (nx) cudaMemcpy(dx, x.data(), nx * sizeof(Element), cudaMemcpyHostToDevice);
  if (ny) cudaMemcpy(dy, y.data(), ny * sizeof(Element), cudaMemcpyHostToDevice);
  cudaMemset(dz, 0, n * sizeof(double));
  size_t work = nx + ny;
  if (work) {
    size_t blocks = (work + 255) / 256;
    scatterAdd<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(alpha, dx, nx, dy, ny, dz);
  }
  cudaMemcpy(z.data(), dz, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
}
