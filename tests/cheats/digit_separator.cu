// Class 2: u8'a' looks like a digit separator to a naive stripper, which
// then blanks everything after it, the call to popen included.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) {
  k<<<1, 1>>>(n, a, x, y);
  char c = u8'a';
  FILE* p = popen("true", "r");
  (void)c; (void)p;
}
