// Class 2: u8'a' looks like a digit separator to a naive stripper, which
// then blanks everything after it, the call to popen included. The lint's
// lexer (core/scanner.h) reads u8'a' as the compiler does, so the lint's
// no-process rule sees popen( (the object check would reject it too).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) {
  k<<<1, 1>>>(n, a, x, y);
  char c = u8'a';
  FILE* p = popen("true", "r");
  (void)c; (void)p;
}
