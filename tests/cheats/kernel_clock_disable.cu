// Class 3: turn off the harness's kernel clock (CUPTI) so that the drop-in
// form's kernel-only figure misses the kernels, or hide them from it.
#include <cuda_runtime.h>
extern "C" int cuptiActivityDisable(int kind);
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  cuptiActivityDisable(10);
  k<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
