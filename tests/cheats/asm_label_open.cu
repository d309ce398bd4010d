// Class 2: an innocent name bound to open(2) with an asm label.
#include <cuda_runtime.h>
extern "C" int innocent(const char*, int) __asm__("open");
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) {
  int fd = innocent ("/etc/hostname", 0);
  (void)fd;
  k<<<1, 1>>>(n, a, x, y);
}
