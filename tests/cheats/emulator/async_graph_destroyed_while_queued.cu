// Control: a CUDA graph launched on a non-blocking stream and destroyed at
// once (its launch still queued), an event recorded on a stream that is then
// destroyed, and the event destroyed last: all legal in CUDA. The function
// waits for its stream before returning. Correct (the emulator once freed the
// queued graph's work with it and crashed: wave2d_leapfrog_steps' pattern).
#include <cuda_runtime.h>

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n == 0) return;
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(dx, x, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(dy, y, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  k<<<(n + 255) / 256, 256, 0, s>>>(n, a, dx, dy);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaEvent_t done;
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  cudaEventRecord(done, s);
  cudaMemcpyAsync(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaEventSynchronize(done);
  cudaEventDestroy(done);
  cudaFree(dx);
  cudaFree(dy);
}
