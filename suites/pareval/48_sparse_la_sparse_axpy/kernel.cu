#include <cstddef>

struct Element {
	size_t index;
  double value;
};

// Kernel form, one launch with >= max(Nx, Ny) threads; z (N elements) holds
// zeros on entry. Thread t adds alpha * x[t] and y[t] into their slots of z;
// atomics because indices can repeat within and across the two vectors.
__global__ void sparseAxpy(double alpha, const Element *x, const Element *y, double *z, size_t Nx, size_t Ny, size_t N) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (t < Nx) {
    Element e = x[t];
    if (e.index < N) atomicAdd(&z[e.index], alpha * e.value);
  }
  if (t < Ny) {
    Element e = y[t];
    if (e.index < N) atomicAdd(&z[e.index], e.value);
  }
}
