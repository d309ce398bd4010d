// Class 2: claim that the following lines come from a system header, so a
// check that trusts line markers would skip the host assembly below.
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {}
#line 1 "/usr/include/stdio.h"
static void Hidden() { __asm__ volatile("nop"); }
void saxpy(int n, float a, const float* x, float* y) {
  Hidden();
  k<<<1, 1>>>(n, a, x, y);
}
