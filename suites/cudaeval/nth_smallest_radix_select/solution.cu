#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

constexpr int kThreads = 256;

struct SelectState {
  uint32_t prefix;  // selected high bits so far
  uint32_t mask;    // which bits of the prefix are fixed
  uint32_t k;       // rank still sought among keys matching the prefix
};

__device__ __forceinline__ void rs_bin(uint32_t key, const SelectState& s, int shift, unsigned int* hist) {
  if ((key & s.mask) == s.prefix) atomicAdd(&hist[(key >> shift) & 0xffu], 1u);
}

// One pass over byte `shift`.
// Step 1 (thread_mapping) and Step 2 (grid_stride_loop): a bounded grid
// strides over the keys. Step 3 (vectorized_memory_access): keys are read as
// uint4 (16 bytes per load); a scalar tail covers n % 4.
// Step 4 (atomic_aggregation): each block histograms into shared memory and
// adds only its non-zero bins to the global histogram.
// Step 6 (kernel_fusion): the last block to finish (threadfence, then an
// atomic ticket) selects the bin holding rank k and writes the next pass's
// state, so no separate selection kernel runs. Each pass has its own state
// slot, ticket and histogram (zeroed once), so nothing a pass reads is
// rewritten during it.
__global__ void radix_pass_kernel(int n, const uint32_t* __restrict__ keys, int shift,
                                  const SelectState* __restrict__ state_in, SelectState* __restrict__ state_out,
                                  unsigned int* ticket, unsigned int* ghist) {
  __shared__ unsigned int hist[256];
  __shared__ bool is_last;
  SelectState s = *state_in;
  for (int b = threadIdx.x; b < 256; b += blockDim.x) hist[b] = 0u;
  __syncthreads();
  int n4 = n / 4;
  const uint4* k4 = reinterpret_cast<const uint4*>(keys);
  int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  for (int i = tid; i < n4; i += stride) {
    uint4 v = k4[i];
    rs_bin(v.x, s, shift, hist);
    rs_bin(v.y, s, shift, hist);
    rs_bin(v.z, s, shift, hist);
    rs_bin(v.w, s, shift, hist);
  }
  if (tid < n - n4 * 4) rs_bin(keys[n4 * 4 + tid], s, shift, hist);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned int c = hist[b];
    if (c != 0u) atomicAdd(&ghist[b], c);
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last) return;
  // Step 5 (prefix_scan): the first warp scans the 256 counts (8 per lane,
  // then a shuffle scan of the lane totals) to find the bin where the running
  // count passes k.
  if (threadIdx.x < 32) {
    int lane = threadIdx.x;
    unsigned int c[8];
    unsigned int mine = 0;
    for (int j = 0; j < 8; ++j) {
      c[j] = atomicAdd(&ghist[lane * 8 + j], 0u);  // read the merged counts
      mine += c[j];
    }
    unsigned int incl = mine;
    for (int off = 1; off < 32; off <<= 1) {
      unsigned int t = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += t;
    }
    unsigned int before = incl - mine;  // keys in bins of lower lanes
    if (s.k >= before && s.k < incl) {   // exactly one lane holds rank k
      unsigned int run = before;
      for (int j = 0; j < 8; ++j) {
        if (s.k < run + c[j]) {
          SelectState t;
          t.prefix = s.prefix | ((uint32_t)(lane * 8 + j) << shift);
          t.mask = s.mask | (0xffu << shift);
          t.k = s.k - run;
          *state_out = t;
          break;
        }
        run += c[j];
      }
    }
  }
}

uint32_t nthSmallest(const std::vector<uint32_t>& keys, int k) {
  int n = (int)keys.size();
  if (n <= 0) return 0u;
  uint32_t* dkeys = nullptr;
  SelectState* dstate = nullptr;  // 5 slots: the input of each pass, and the result
  unsigned int *dticket = nullptr, *dhist = nullptr;
  cudaMalloc(&dkeys, (size_t)n * sizeof(uint32_t));
  cudaMalloc(&dstate, 5 * sizeof(SelectState));
  cudaMalloc(&dticket, 4 * sizeof(unsigned int));
  cudaMalloc(&dhist, 4 * 256 * sizeof(unsigned int));
  cudaMemcpy(dkeys, keys.data(), (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice);
  SelectState init{0u, 0u, (uint32_t)k};
  cudaMemcpy(dstate, &init, sizeof(init), cudaMemcpyHostToDevice);
  cudaMemset(dticket, 0, 4 * sizeof(unsigned int));
  cudaMemset(dhist, 0, 4 * 256 * sizeof(unsigned int));
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int work = n / 4 > 0 ? n / 4 : 1;
  int grid = (work + kThreads - 1) / kThreads;
  if (grid > sms * 4) grid = sms * 4;
  // Step 7 (minimize_transfers): the four passes chain on the device through
  // the state slots; only the answer comes back.
  for (int pass = 0; pass < 4; ++pass) {
    int shift = 24 - 8 * pass;
    radix_pass_kernel<<<grid, kThreads>>>(n, dkeys, shift, dstate + pass, dstate + pass + 1, dticket + pass,
                                          dhist + 256 * pass);
  }
  SelectState fin;
  cudaMemcpy(&fin, dstate + 4, sizeof(fin), cudaMemcpyDeviceToHost);
  cudaFree(dkeys);
  cudaFree(dstate);
  cudaFree(dticket);
  cudaFree(dhist);
  return fin.prefix;
}
