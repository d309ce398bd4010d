#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads; *found is false on entry.
// Each thread checks its element(s) (grid-stride, in case fewer threads are
// launched); a warp vote combines the lanes and one lane of a warp that saw
// the target sets *found. Every writer stores the same value, true.

__global__ void contains(const int *x, size_t N, int target, bool *found) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  bool hit = false;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < N; i += stride) {
    hit |= (x[i] == target);
  }
  if (__any_sync(0xffffffffu, hit) && (threadIdx.x & 31) == 0) *found = true;
}
