// Class 2: a host thread through an alias (auto f = pthread_create),
// declared by hand so that no banned header is included.
#include <cuda_runtime.h>
typedef int CreateFn(unsigned long*, const void*, void* (*)(void*), void*);
extern "C" CreateFn pthread_create;
__global__ void k(int n, float a, const float* x, float* y) {}
static void* Work(void*) { return nullptr; }
void saxpy(int n, float a, const float* x, float* y) {
  auto f = pthread_create;
  unsigned long t;
  f (&t, nullptr, Work, nullptr);
  k<<<1, 1>>>(n, a, x, y);
}
