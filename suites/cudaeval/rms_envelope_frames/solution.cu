#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): frames are independent reductions; each warp owns
// one frame (a block of 8 warps takes 8 consecutive frames; a grid-stride
// over frame groups bounds the grid).
// Step 2 (memory_coalescing): the 32 lanes of a warp walk their frame side by
// side, so each load instruction of the warp reads one contiguous segment.
// Step 3 (vectorized_memory_access): when a frame starts on a 16-byte
// boundary (hop a multiple of 4 keeps every frame aligned) the lanes read
// float4, four samples per load; the frame's tail and unaligned frames use
// scalar loads.
// Step 4 (warp_shuffle_reduction): the lanes' sums of squares are combined
// with __shfl_xor_sync; the warp needs no shared memory and no barrier, and
// lane 0 stores the frame's root.
constexpr int kRmsWarps = 8;

__global__ void rms_envelope_kernel(const float* __restrict__ x, int frame, int hop, int frames,
                                    float* __restrict__ rms) {
  const int lane = threadIdx.x & 31;
  const int first = blockIdx.x * kRmsWarps + (threadIdx.x >> 5);
  for (int f = first; f < frames; f += gridDim.x * kRmsWarps) {
    const float* p = x + (size_t)f * hop;
    float s = 0.0f;
    int done = 0;
    if ((reinterpret_cast<uintptr_t>(p) & 15u) == 0) {
      const float4* p4 = reinterpret_cast<const float4*>(p);
      const int quads = frame / 4;
      for (int q = lane; q < quads; q += 32) {
        float4 v = p4[q];
        s += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
      }
      done = quads * 4;
    }
    for (int i = done + lane; i < frame; i += 32) s += p[i] * p[i];
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) rms[f] = (float)sqrt((double)s / frame);
  }
}

void rmsEnvelope(const float* x, int n, int frame, int hop, float* rms) {
  if (frame <= 0 || hop <= 0 || n < frame) return;
  int frames = (n - frame) / hop + 1;
  float *dx = nullptr, *drms = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&drms, (size_t)frames * sizeof(float));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  int groups = (frames + kRmsWarps - 1) / kRmsWarps;
  int grid = groups < 65535 ? groups : 65535;
  rms_envelope_kernel<<<grid, 32 * kRmsWarps>>>(dx, frame, hop, frames, drms);
  cudaMemcpy(rms, drms, (size_t)frames * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(drms);
}
