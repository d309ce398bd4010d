#include <cuda_runtime.h>
#include <climits>
#include <cstddef>

struct Reading {
  int station;
  int minute;
  float value;
  int quality;
};

constexpr int kThreads = 256;
constexpr int kMaxSharedStations = 1024;

// Floats as integers whose signed order is the floats' order, so integer
// atomicMin/atomicMax apply.
__device__ __forceinline__ int float_key(float v) {
  int b = __float_as_int(v);
  return b >= 0 ? b : b ^ 0x7fffffff;
}
__device__ __forceinline__ float key_float(int k) { return __int_as_float(k >= 0 ? k : k ^ 0x7fffffff); }

__global__ void stats_init_kernel(int ns, int* __restrict__ mn, int* __restrict__ mx) {
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < ns; s += gridDim.x * blockDim.x) {
    mn[s] = INT_MAX;
    mx[s] = INT_MIN;
  }
}

// Step 1 (thread_mapping) and Step 2 (grid_stride_loop): a grid sized for the
// GPU strides over the readings. Step 3 (vectorized_memory_access): a reading
// is one int4 load. Step 4 (kernel_fusion): count, sum, min and max are
// updated in the same pass. Step 5 (atomic_aggregation): updates go to
// per-block shared-memory tables, merged into the global tables with one
// atomic per field per touched station. Step 6 (atomic_operations): shared
// and global tables are updated with atomicAdd (int, double) and
// atomicMin/atomicMax on the order-preserving keys; with too many stations
// for shared memory the global tables are updated directly.
__global__ void stats_kernel(int n, const int4* __restrict__ readings, int ns, bool use_shared,
                             int* __restrict__ g_cnt, double* __restrict__ g_sum, int* __restrict__ g_mn,
                             int* __restrict__ g_mx) {
  extern __shared__ double smem[];
  double* s_sum = smem;
  int* s_cnt = reinterpret_cast<int*>(s_sum + (use_shared ? ns : 0));
  int* s_mn = s_cnt + (use_shared ? ns : 0);
  int* s_mx = s_mn + (use_shared ? ns : 0);
  if (use_shared) {
    for (int s = threadIdx.x; s < ns; s += blockDim.x) {
      s_sum[s] = 0.0;
      s_cnt[s] = 0;
      s_mn[s] = INT_MAX;
      s_mx[s] = INT_MIN;
    }
  }
  __syncthreads();
  int* cnt = use_shared ? s_cnt : g_cnt;
  double* sum = use_shared ? s_sum : g_sum;
  int* mn = use_shared ? s_mn : g_mn;
  int* mx = use_shared ? s_mx : g_mx;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int4 r = readings[i];  // station, minute, value bits, quality
    if (r.w != 0) continue;
    int s = r.x;
    float v = __int_as_float(r.z);
    int key = float_key(v);
    atomicAdd(&cnt[s], 1);
    atomicAdd(&sum[s], (double)v);
    atomicMin(&mn[s], key);
    atomicMax(&mx[s], key);
  }
  if (!use_shared) return;
  __syncthreads();
  for (int s = threadIdx.x; s < ns; s += blockDim.x) {
    int c = s_cnt[s];
    if (c == 0) continue;
    atomicAdd(&g_cnt[s], c);
    atomicAdd(&g_sum[s], s_sum[s]);
    atomicMin(&g_mn[s], s_mn[s]);
    atomicMax(&g_mx[s], s_mx[s]);
  }
}

__global__ void stats_finish_kernel(int ns, const int* __restrict__ g_cnt, const double* __restrict__ g_sum,
                                    const int* __restrict__ g_mn, const int* __restrict__ g_mx,
                                    int* __restrict__ count, float* __restrict__ lo, float* __restrict__ hi,
                                    float* __restrict__ mean) {
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < ns; s += gridDim.x * blockDim.x) {
    int c = g_cnt[s];
    count[s] = c;
    lo[s] = c > 0 ? key_float(g_mn[s]) : 0.0f;
    hi[s] = c > 0 ? key_float(g_mx[s]) : 0.0f;
    mean[s] = c > 0 ? (float)(g_sum[s] / c) : 0.0f;
  }
}

void stationStats(int n, const Reading* readings, int nstations, int* count, float* lo, float* hi, float* mean) {
  if (nstations <= 0) return;
  int ns = nstations;
  int *d_cnt = nullptr, *d_mn = nullptr, *d_mx = nullptr, *o_cnt = nullptr;
  double* d_sum = nullptr;
  float *o_lo = nullptr, *o_hi = nullptr, *o_mean = nullptr;
  Reading* d_r = nullptr;
  cudaMalloc(&d_cnt, (size_t)ns * sizeof(int));
  cudaMalloc(&d_mn, (size_t)ns * sizeof(int));
  cudaMalloc(&d_mx, (size_t)ns * sizeof(int));
  cudaMalloc(&d_sum, (size_t)ns * sizeof(double));
  cudaMalloc(&o_cnt, (size_t)ns * sizeof(int));
  cudaMalloc(&o_lo, (size_t)ns * sizeof(float));
  cudaMalloc(&o_hi, (size_t)ns * sizeof(float));
  cudaMalloc(&o_mean, (size_t)ns * sizeof(float));
  cudaMemset(d_cnt, 0, (size_t)ns * sizeof(int));
  cudaMemset(d_sum, 0, (size_t)ns * sizeof(double));
  int gs = (ns + kThreads - 1) / kThreads;
  stats_init_kernel<<<gs, kThreads>>>(ns, d_mn, d_mx);
  if (n > 0) {
    cudaMalloc(&d_r, (size_t)n * sizeof(Reading));
    cudaMemcpy(d_r, readings, (size_t)n * sizeof(Reading), cudaMemcpyHostToDevice);
    bool use_shared = ns <= kMaxSharedStations;
    size_t smem = use_shared ? (size_t)ns * (sizeof(double) + 3 * sizeof(int)) : 0;
    // Step 7 (launch_configuration): as many blocks as fit on the GPU at once
    // with this shared-memory footprint, so every block's table absorbs a
    // long stretch of readings before it is merged.
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stats_kernel, kThreads, smem);
    if (sms <= 0) sms = 80;
    if (per_sm <= 0) per_sm = 1;
    int needed = (n + kThreads - 1) / kThreads;
    int grid = needed < sms * per_sm ? needed : sms * per_sm;
    stats_kernel<<<grid, kThreads, smem>>>(n, reinterpret_cast<const int4*>(d_r), ns, use_shared, d_cnt, d_sum,
                                           d_mn, d_mx);
  }
  stats_finish_kernel<<<gs, kThreads>>>(ns, d_cnt, d_sum, d_mn, d_mx, o_cnt, o_lo, o_hi, o_mean);
  cudaMemcpy(count, o_cnt, (size_t)ns * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(lo, o_lo, (size_t)ns * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, o_hi, (size_t)ns * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(mean, o_mean, (size_t)ns * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_cnt);
  cudaFree(d_mn);
  cudaFree(d_mx);
  cudaFree(d_sum);
  cudaFree(o_cnt);
  cudaFree(o_lo);
  cudaFree(o_hi);
  cudaFree(o_mean);
  cudaFree(d_r);
}
