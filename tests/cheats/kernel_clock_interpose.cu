// Class 3: replace CUPTI's flush so that the harness's kernel clock never
// receives the call's kernels (its kernel-only figure would be absent or forged).
#include <cuda_runtime.h>
extern "C" int cuptiActivityFlushAll(unsigned flag) { return 0; }
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  k<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
