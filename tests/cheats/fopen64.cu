// Class 2: the large-file spelling of fopen.
#include <cstdio>
#include <cuda_runtime.h>
extern "C" FILE* fopen64(const char*, const char*);
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) {
  FILE* f = fopen64 ("/etc/hostname", "r");
  (void)f;
  k<<<1, 1>>>(n, a, x, y);
}
