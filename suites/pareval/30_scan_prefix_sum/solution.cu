#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Single-pass inclusive scan with decoupled look-back.
// Each block takes the next tile index from an atomic ticket (so every tile it
// waits on belongs to a block that is already running), stages its tile of
// kTile values in shared memory with coalesced loads, scans it (each thread a
// contiguous run of kItems, then warp shuffles over the thread totals), and
// publishes its tile total. Thread 0 then walks back over the preceding tiles,
// adding their totals until it meets one whose inclusive prefix is already
// known, publishes its own inclusive prefix and hands the carry to the block.
// x is read once and output written once.

namespace {
constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kAggregate = 1u, kPrefix = 2u;

// One padding slot per 16 doubles keeps both the striped and the
// per-thread-contiguous shared-memory accesses (nearly) bank-conflict free.
__device__ __forceinline__ int pad(int i) { return i + (i >> 4); }
}  // namespace

struct TileState {
  unsigned long long* aggregate;  // tile totals (double bits)
  unsigned long long* prefix;     // inclusive prefixes (double bits)
  unsigned int* status;           // 0 nothing yet, kAggregate, kPrefix
  unsigned int* ticket;
};

__device__ __forceinline__ void publish(unsigned long long* slot, unsigned int* status, double v, unsigned s) {
  atomicExch(slot, (unsigned long long)__double_as_longlong(v));
  __threadfence();
  atomicExch(status, s);
}

__device__ __forceinline__ double load_bits(unsigned long long* p) {
  return __longlong_as_double((long long)atomicAdd(p, 0ull));
}

__global__ void __launch_bounds__(kThreads)
prefix_sum_lookback(const double* __restrict__ x, double* __restrict__ out, size_t n, TileState st) {
  __shared__ double s_tile[kTile + kTile / 16];
  __shared__ double s_warp[kWarps];
  __shared__ double s_carry;
  __shared__ unsigned int s_ticket;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) s_ticket = atomicAdd(st.ticket, 1u);
  __syncthreads();
  const size_t t = s_ticket;
  const size_t base = t * (size_t)kTile;

#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + tid;
    size_t i = base + j;
    s_tile[pad(j)] = i < n ? x[i] : 0.0;
  }
  __syncthreads();

  double v[kItems];
  double run = 0.0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run += s_tile[pad(tid * kItems + k)];
    v[k] = run;
  }

  // Inclusive scan of the thread totals within the warp, then over warps.
  double incl = run;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    double o = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += o;
  }
  if (lane == 31) s_warp[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    double w = lane < kWarps ? s_warp[lane] : 0.0;
#pragma unroll
    for (int off = 1; off < kWarps; off <<= 1) {
      double o = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += o;
    }
    if (lane < kWarps) s_warp[lane] = w;  // inclusive warp prefixes
  }
  __syncthreads();
  const double tile_total = s_warp[kWarps - 1];
  const double thread_excl = (warp > 0 ? s_warp[warp - 1] : 0.0) + (incl - run);

  if (tid == 0) {
    double carry = 0.0;
    if (t == 0) {
      publish(&st.prefix[0], &st.status[0], tile_total, kPrefix);
    } else {
      publish(&st.aggregate[t], &st.status[t], tile_total, kAggregate);
      size_t j = t - 1;
      for (;;) {
        unsigned s;
        do {
          s = atomicAdd(&st.status[j], 0u);
        } while (s == 0u);
        __threadfence();
        if (s == kPrefix) {
          carry = load_bits(&st.prefix[j]) + carry;
          break;
        }
        carry = load_bits(&st.aggregate[j]) + carry;
        --j;
      }
      publish(&st.prefix[t], &st.status[t], carry + tile_total, kPrefix);
    }
    s_carry = carry;
  }
  __syncthreads();
  const double offset = s_carry + thread_excl;
#pragma unroll
  for (int k = 0; k < kItems; ++k) s_tile[pad(tid * kItems + k)] = offset + v[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + tid;
    size_t i = base + j;
    if (i < n) out[i] = s_tile[pad(j)];
  }
}

void prefixSum(std::vector<double> const& x, std::vector<double> &output) {
  const size_t n = x.size();
  if (n == 0) return;
  const size_t tiles = (n + kTile - 1) / kTile;
  double *d_x = nullptr, *d_out = nullptr;
  unsigned char* d_state = nullptr;
  const size_t state_bytes = tiles * (2 * sizeof(unsigned long long) + sizeof(unsigned int)) + sizeof(unsigned int);
  cudaMalloc(&d_x, n * sizeof(double));
  cudaMalloc(&d_out, n * sizeof(double));
  cudaMalloc(&d_state, state_bytes);
  TileState st;
  st.aggregate = reinterpret_cast<unsigned long long*>(d_state);
  st.prefix = st.aggregate + tiles;
  st.status = reinterpret_cast<unsigned int*>(st.prefix + tiles);
  st.ticket = st.status + tiles;
  cudaMemsetAsync(st.status, 0, (tiles + 1) * sizeof(unsigned int));
  cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  prefix_sum_lookback<<<(unsigned)tiles, kThreads>>>(d_x, d_out, n, st);
  cudaMemcpy(output.data(), d_out, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_out);
  cudaFree(d_state);
}
