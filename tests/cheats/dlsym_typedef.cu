// Class 2: fetch system through dlsym declared by hand, called as (dlsym).
#include <cuda_runtime.h>
typedef void* DlsymFn(void*, const char*);
extern "C" DlsymFn dlsym;
typedef int (*Fn)(const char*);
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) {
  Fn f = (Fn)(dlsym)((void*)0, "system");
  if (f) f("true");
  k<<<1, 1>>>(n, a, x, y);
}
