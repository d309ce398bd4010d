// Class 2/6: include a file named by a macro (the reference, or a cached
// record file) so that "#include <" never appears with the path.
#include <cuda_runtime.h>
#define REF "/work/main/problems/saxpy/reference.cpp"
#include REF
__global__ void k(int n, float a, const float* x, float* y) {}
void saxpy(int n, float a, const float* x, float* y) { k<<<1, 1>>>(n, a, x, y); }
