// Class 1: point stdout at the record channel (fd 3) and claim "no GPU",
// so that a wrong answer would become "compiled only". Uses only symbols a
// legitimate candidate may use.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) {
  stdout->_fileno = 3;
  std::printf("E nogpu 35 cudaErrorInsufficientDriver\n");
  std::fflush(stdout);
  std::exit(3);
  k<<<1, 1>>>(n, a, x, y);
}
