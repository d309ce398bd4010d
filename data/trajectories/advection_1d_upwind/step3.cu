#include <cuda_runtime.h>

#define B 256   // output cells per block (= threads per block)
#define TB 32   // time steps advanced per launch (= width of the left halo)

__device__ __forceinline__ float upwind_update(float c, float left, float courant) {
  return __fsub_rn(c, __fmul_rn(courant, __fsub_rn(c, left)));
}

// Temporal blocking: the upwind update only looks left, so after s steps a cell
// depends on the s cells to its left. A block loads its B cells plus a TB-cell
// left halo (periodic indices) into shared memory and advances up to TB steps
// there, ping-ponging between two buffers; after step s the cells t >= s are
// exact, so the B output cells (t >= TB) are exact after TB steps.
__global__ void upwind_multi_step(int n, int nsteps, float courant, const float* __restrict__ cur,
                                  float* __restrict__ nxt) {
  __shared__ float buf[2][B + TB];
  long base = (long)blockIdx.x * B;
  for (int t = threadIdx.x; t < B + TB; t += B) {
    long g = (base - TB + t) % n;
    if (g < 0) g += n;
    buf[0][t] = cur[g];
  }
  __syncthreads();
  int src = 0;
  for (int s = 1; s <= nsteps; ++s) {
    for (int t = threadIdx.x; t < B + TB; t += B)
      if (t >= s) buf[src ^ 1][t] = upwind_update(buf[src][t], buf[src][t - 1], courant);
    __syncthreads();
    src ^= 1;
  }
  long g = base + threadIdx.x;
  if (g < n) nxt[g] = buf[src][TB + threadIdx.x];
}

// ceil(steps / 32) launches instead of `steps`, still captured into one graph.
void advect_upwind_periodic(int n, int steps, float courant, const float* u0, float* u) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMemcpy(d_a, u0, bytes, cudaMemcpyHostToDevice);
  if (steps > 0) {
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    int blocks = (n + B - 1) / B;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    for (int done = 0; done < steps; done += TB) {
      int k = steps - done < TB ? steps - done : TB;
      upwind_multi_step<<<blocks, B, 0, stream>>>(n, k, courant, d_a, d_b);
      float* t = d_a;
      d_a = d_b;
      d_b = t;
    }
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, stream);
    cudaStreamSynchronize(stream);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
  }
  cudaMemcpy(u, d_a, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
}
