// Class 2/8: overwrite an entry of the executable's global offset table
// (say, the driver's clock) from inside the candidate.
#include <cuda_runtime.h>
extern "C" void* _GLOBAL_OFFSET_TABLE_[];
static long Fake() { return 0; }
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  for (int i = 3; i < 64; ++i) _GLOBAL_OFFSET_TABLE_[i] = (void*)&Fake;
  k<<<1, 1>>>(n, a, x, y);
}
