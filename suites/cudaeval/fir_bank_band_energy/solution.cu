#include <cuda_runtime.h>

// Step 1 (thread_mapping): output samples go to threads, filters to
// blockIdx.y; a block covers kFbOut consecutive outputs of one filter.
// Step 2 (kernel_fusion): filtering, squaring and the energy sum run in one
// kernel; the filter outputs stay in registers.
// Step 3 (shared_memory_tiling): a block stages its filter's T taps and the
// input segment its outputs need (kFbOut + T - 1 samples) in shared memory
// (dynamic size).
// Step 4 (register_tiling): each thread computes kFbPer = 4 consecutive
// outputs at once; for each tap it reads one new input sample from shared
// memory and the four outputs share a sliding window of four in registers.
// Step 5 (loop_unrolling): the tap loop is unrolled by 4.
// Step 6 (warp_shuffle_reduction): each thread's squared outputs are summed
// in double, then folded across the warp with __shfl_down_sync.
// Step 7 (atomic_operations): lane 0 of each warp adds its sum to the
// filter's energy with a double-precision atomicAdd (energies zeroed first).
// Each output is sum_j h[j] * x[i-j] accumulated in increasing j, as in the
// reference.
constexpr int kFbBlock = 128;
constexpr int kFbPer = 4;
constexpr int kFbOut = kFbBlock * kFbPer;  // outputs per block

__global__ void fir_bank_kernel(const float* __restrict__ x, int n, const float* __restrict__ h, int T,
                                double* __restrict__ energy) {
  extern __shared__ float fb_smem[];
  float* taps = fb_smem;       // T
  float* seg = fb_smem + T;    // kFbOut + T - 1: x[o0 - (T-1) .. o0 + kFbOut - 1]
  const int b = blockIdx.y;
  const long long o0 = (long long)(T - 1) + (long long)blockIdx.x * kFbOut;  // first output index of the block
  for (int j = threadIdx.x; j < T; j += kFbBlock) taps[j] = h[(long long)b * T + j];
  const int seg_len = kFbOut + T - 1;
  for (int t = threadIdx.x; t < seg_len; t += kFbBlock) {
    long long i = o0 - (T - 1) + t;
    seg[t] = i < n ? x[i] : 0.0f;
  }
  __syncthreads();
  // Thread outputs: o0 + kFbPer*tid + q, q = 0..3; at tap j output q reads
  // seg[base + q - j]. The window w[q] = seg[base + q - j] slides down by one
  // sample per tap: one shared-memory read per tap feeds all four outputs.
  const int base = kFbPer * threadIdx.x + T - 1;
  float y[kFbPer] = {0.0f, 0.0f, 0.0f, 0.0f};
  float w[kFbPer];
#pragma unroll
  for (int q = 0; q < kFbPer; ++q) w[q] = seg[base + q];
#pragma unroll 4
  for (int j = 0; j < T; ++j) {
    const float hj = taps[j];
#pragma unroll
    for (int q = 0; q < kFbPer; ++q) y[q] += hj * w[q];
#pragma unroll
    for (int q = kFbPer - 1; q > 0; --q) w[q] = w[q - 1];
    w[0] = (j + 1 < T) ? seg[base - j - 1] : 0.0f;
  }
  double e = 0.0;
#pragma unroll
  for (int q = 0; q < kFbPer; ++q) {
    if (o0 + kFbPer * threadIdx.x + q < n) e += (double)y[q] * y[q];
  }
  for (int off = 16; off > 0; off >>= 1) e += __shfl_down_sync(0xffffffffu, e, off);
  if ((threadIdx.x & 31) == 0 && e != 0.0) atomicAdd(&energy[b], e);
}

void firBankEnergy(const float* x, int n, const float* h, int B, int T, double* energy) {
  if (B <= 0) return;
  double* de = nullptr;
  cudaMalloc(&de, (size_t)B * sizeof(double));
  cudaMemset(de, 0, (size_t)B * sizeof(double));
  float *dx = nullptr, *dh = nullptr;
  if (T >= 1 && n >= T) {
    cudaMalloc(&dx, (size_t)n * sizeof(float));
    cudaMalloc(&dh, (size_t)B * T * sizeof(float));
    cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dh, h, (size_t)B * T * sizeof(float), cudaMemcpyHostToDevice);
    long long outputs = (long long)n - (T - 1);
    dim3 grid((unsigned)((outputs + kFbOut - 1) / kFbOut), (unsigned)B);
    size_t smem = ((size_t)T + kFbOut + T - 1) * sizeof(float);
    if (smem > 48 * 1024) cudaFuncSetAttribute(fir_bank_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    fir_bank_kernel<<<grid, kFbBlock, smem>>>(dx, n, dh, T, de);
  }
  cudaMemcpy(energy, de, (size_t)B * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dh);
  cudaFree(de);
}
