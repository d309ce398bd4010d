#include <cuda_runtime.h>

// Step 1 (thread_mapping): each frame is an independent reduction; frame f
// goes to block f (a grid-stride over frames keeps the grid bounded).
// Step 2 (memory_coalescing): the threads of a block stride through the
// frame together, so a warp reads 32 consecutive samples per load.
// Step 3 (warp_shuffle_reduction): per-thread sums of squares are folded
// within each warp with __shfl_down_sync.
// Step 4 (block_tree_reduction): warp totals meet in shared memory and the
// first warp combines them; thread 0 takes the root.
constexpr int kRmsBlock = 256;

__device__ __forceinline__ float rms_warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__global__ void rms_envelope_kernel(const float* __restrict__ x, int frame, int hop, int frames,
                                    float* __restrict__ rms) {
  __shared__ float warp_sums[kRmsBlock / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int f = blockIdx.x; f < frames; f += gridDim.x) {
    const float* p = x + (size_t)f * hop;
    float s = 0.0f;
    for (int i = threadIdx.x; i < frame; i += kRmsBlock) {
      float v = p[i];
      s += v * v;
    }
    s = rms_warp_sum(s);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
      float t = lane < kRmsBlock / 32 ? warp_sums[lane] : 0.0f;
      t = rms_warp_sum(t);
      if (lane == 0) rms[f] = (float)sqrt((double)t / frame);
    }
    __syncthreads();  // warp_sums is reused by the next frame
  }
}

void rmsEnvelope(const float* x, int n, int frame, int hop, float* rms) {
  if (frame <= 0 || hop <= 0 || n < frame) return;
  int frames = (n - frame) / hop + 1;
  float *dx = nullptr, *drms = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&drms, (size_t)frames * sizeof(float));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  int grid = frames < 65535 ? frames : 65535;
  rms_envelope_kernel<<<grid, kRmsBlock>>>(dx, frame, hop, frames, drms);
  cudaMemcpy(rms, drms, (size_t)frames * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(drms);
}
