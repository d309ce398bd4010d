// Class 2: a function pointer to system.
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {}
static int (*run_it)(const char*) = &system;
void saxpy(int n, float a, const float* x, float* y) {
  run_it ("true");
  k<<<1, 1>>>(n, a, x, y);
}
