// Returns before its output is written, by a different road: the device
// result lands in a pinned staging buffer and a host function enqueued on
// the stream copies it into the caller's vector later. Nothing synchronises
// before the return.
#include <cuda_runtime.h>

#include <cstring>

struct Job {
  float* staging;
  float* out;
  int n;
};

static void Deliver(void* p) {
  Job* j = static_cast<Job*>(p);
  std::memcpy(j->out, j->staging, j->n * sizeof(float));
}

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n == 0) return;
  static Job job;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *dx, *dy, *staging;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMallocHost(&staging, n * sizeof(float));
  cudaMemcpyAsync(dx, x, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(dy, y, n * sizeof(float), cudaMemcpyHostToDevice, s);
  k<<<(n + 255) / 256, 256, 0, s>>>(n, a, dx, dy);
  cudaMemcpyAsync(staging, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  job = Job{staging, y, n};
  cudaLaunchHostFunc(s, Deliver, &job);
}
