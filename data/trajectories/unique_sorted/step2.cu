#include <cuda_runtime.h>
#include <vector>

constexpr int kBlock = 256;
constexpr int kTile = 256;
constexpr int kSumBlock = 1024;

// Block-wide exclusive scan of one int per thread from warp shuffles;
// *total receives the block sum. Trailing barrier allows reuse.
__device__ int block_exclusive_scan(int v, int* total) {
  __shared__ int warp_tot[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int nwarps = blockDim.x >> 5;
  int incl = v;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += t;
  }
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int w = (lane < nwarps) ? warp_tot[lane] : 0;
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    warp_tot[lane] = w;
  }
  __syncthreads();
  int excl = incl - v + (warp > 0 ? warp_tot[warp - 1] : 0);
  *total = warp_tot[nwarps - 1];
  __syncthreads();
  return excl;
}

__global__ void scan_counts_kernel(int count, int* counts, int* total) {
  int carry = 0;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    int v = (i < count) ? counts[i] : 0;
    int chunk_total;
    int excl = block_exclusive_scan(v, &chunk_total);
    if (i < count) counts[i] = carry + excl;
    carry += chunk_total;
  }
  if (threadIdx.x == 0) *total = carry;
}

// Every element is loaded twice (as itself and as its right neighbour's left
// neighbour) by two kernels; route these read-only loads through the
// non-coherent read-only cache so the repeats hit on chip.
__device__ __forceinline__ bool is_head(const int* __restrict__ a, int i, int n) {
  return i < n && (i == 0 || __ldg(a + i) != __ldg(a + i - 1));
}

__global__ void count_heads_kernel(int n, const int* __restrict__ a, int* __restrict__ counts) {
  int i = blockIdx.x * kTile + threadIdx.x;
  int c = __syncthreads_count(is_head(a, i, n));
  if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

__global__ void scatter_heads_kernel(int n, const int* __restrict__ a, const int* __restrict__ offsets,
                                     int* __restrict__ out) {
  __shared__ int warp_base[kBlock / 32];
  int i = blockIdx.x * kTile + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  bool head = is_head(a, i, n);
  unsigned int vote = __ballot_sync(0xffffffffu, head);
  int rank = __popc(vote & ((1u << lane) - 1u));
  if (lane == 0) warp_base[warp] = __popc(vote);
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = __ldg(offsets + blockIdx.x);
    for (int w = 0; w < kBlock / 32; ++w) {
      int c = warp_base[w];
      warp_base[w] = run;
      run += c;
    }
  }
  __syncthreads();
  if (head) out[warp_base[warp] + rank] = __ldg(a + i);
}

void dedupSorted(std::vector<int> const& in, std::vector<int>& out) {
  int n = static_cast<int>(in.size());
  out.clear();
  if (n == 0) return;
  int nb = (n + kTile - 1) / kTile;
  int *din = nullptr, *dout = nullptr, *dcounts = nullptr, *dtotal = nullptr;
  cudaMalloc(&din, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dout, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dcounts, static_cast<size_t>(nb) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(din, in.data(), static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  count_heads_kernel<<<nb, kBlock>>>(n, din, dcounts);
  scan_counts_kernel<<<1, kSumBlock>>>(nb, dcounts, dtotal);
  scatter_heads_kernel<<<nb, kBlock>>>(n, din, dcounts, dout);
  int total = 0;
  cudaMemcpy(&total, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  out.resize(total);
  // Only the distinct values travel back.
  cudaMemcpy(out.data(), dout, static_cast<size_t>(total) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dcounts);
  cudaFree(dtotal);
}
