#include <cuda_runtime.h>

// Step 1 (thread_mapping): one thread per window counts its strong (G/C)
// and called (A/C/G/T) bases and divides once, as the reference does.
// Step 2 (read_only_cache): each thread walks a contiguous stretch of the
// read-only sequence; loading it with __ldg keeps the lines in the
// read-only data cache while the thread consumes them byte by byte.
__global__ void gc_windows_kernel(const char* __restrict__ seq, int n, int window, int windows,
                                  float* __restrict__ gc) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= windows) return;
  int begin = k * window;
  int end = min(begin + window, n);
  int strong = 0, called = 0;
  for (int i = begin; i < end; ++i) {
    int c = __ldg(reinterpret_cast<const unsigned char*>(seq) + i) | 0x20;  // to lower case
    int is_strong = (c == 'g') | (c == 'c');
    int is_weak = (c == 'a') | (c == 't');
    strong += is_strong;
    called += is_strong | is_weak;
  }
  gc[k] = called > 0 ? (float)strong / (float)called : -1.0f;
}

void gcContentWindows(const char* seq, int n, int window, float* gc) {
  if (n <= 0 || window <= 0) return;
  int windows = (n + window - 1) / window;
  char* dseq = nullptr;
  float* dgc = nullptr;
  cudaMalloc(&dseq, (size_t)n);
  cudaMalloc(&dgc, (size_t)windows * sizeof(float));
  cudaMemcpy(dseq, seq, (size_t)n, cudaMemcpyHostToDevice);
  const int block = 128;
  gc_windows_kernel<<<(windows + block - 1) / block, block>>>(dseq, n, window, windows, dgc);
  cudaMemcpy(gc, dgc, (size_t)windows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dseq);
  cudaFree(dgc);
}
