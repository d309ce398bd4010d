#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

constexpr int kTile = 256;
constexpr int kMaxSharedBins = 4096;

// Step 4 (load_balancing): block b -> tile pair (ti, tj), ti <= tj, row-major
// over the upper triangle of a T x T tile grid; the lower triangle holds no
// pair i < j and is never launched.
__device__ void rdf_decode_tile(long long b, int T, int* ti, int* tj) {
  int r = 0;
  long long row_len = T;
  while (b >= row_len) {
    b -= row_len;
    ++r;
    --row_len;
  }
  *ti = r;
  *tj = r + (int)b;
}

// The bin of one pair, rounded exactly like the serial float code.
__device__ __forceinline__ int rdf_bin(float4 a, float4 b, float box, float rmax2, float dr, int nbins) {
  float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
  dx = __fsub_rn(dx, __fmul_rn(box, rintf(__fdiv_rn(dx, box))));
  dy = __fsub_rn(dy, __fmul_rn(box, rintf(__fdiv_rn(dy, box))));
  dz = __fsub_rn(dz, __fmul_rn(box, rintf(__fdiv_rn(dz, box))));
  float r2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
  if (r2 >= rmax2) return -1;
  int bin = (int)__fdiv_rn(sqrtf(r2), dr);
  return bin > nbins - 1 ? nbins - 1 : bin;
}

// Step 2 (data_layout_transformation): the three coordinate arrays are packed
// into one float4 per particle, so a particle is one 16-byte load.
__global__ void pack_kernel(int n, const float* __restrict__ x, const float* __restrict__ y,
                            const float* __restrict__ z, float4* __restrict__ p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = make_float4(x[i], y[i], z[i], 0.0f);
}

// Step 1 (thread_mapping): thread t owns particle ti * 256 + t and pairs it
// with the j of tile tj (j > i).
// Step 3 (shared_memory_tiling): the column tile's 256 particles are loaded
// once into shared memory and read by every thread.
// Step 5 (atomic_aggregation): increments go to a per-block shared-memory
// histogram (64-bit shared atomics); its non-zero bins are added to the global
// histogram with one atomicAdd each at the end.
// Step 6 (register_caching): the thread's particle, box, rmax^2 and dr stay in
// registers. Step 7 (loop_unrolling): the full-tile loop is unrolled by 4.
__global__ void rdf_kernel(int n, int T, const float4* __restrict__ p, float box, float rmax2, float dr, int nbins,
                           unsigned long long* __restrict__ hist) {
  __shared__ float4 col[kTile];
  __shared__ unsigned long long local[kMaxSharedBins];
  bool shared_hist = nbins <= kMaxSharedBins;
  if (shared_hist)
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0ull;
  int ti, tj;
  rdf_decode_tile(blockIdx.x, T, &ti, &tj);
  int j0 = tj * kTile;
  if (j0 + (int)threadIdx.x < n) col[threadIdx.x] = p[j0 + threadIdx.x];
  __syncthreads();
  unsigned long long* h = shared_hist ? local : hist;
  int i = ti * kTile + threadIdx.x;
  if (i < n) {
    float4 a = p[i];
    int len = n - j0 < kTile ? n - j0 : kTile;
    int start = i + 1 - j0;
    if (start < 0) start = 0;
    if (start == 0 && len == kTile) {
#pragma unroll 4
      for (int t = 0; t < kTile; ++t) {
        int b = rdf_bin(a, col[t], box, rmax2, dr, nbins);
        if (b >= 0) atomicAdd(&h[b], 1ull);
      }
    } else {
      for (int t = start; t < len; ++t) {
        int b = rdf_bin(a, col[t], box, rmax2, dr, nbins);
        if (b >= 0) atomicAdd(&h[b], 1ull);
      }
    }
  }
  if (!shared_hist) return;
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    unsigned long long c = local[b];
    if (c != 0) atomicAdd(&hist[b], c);
  }
}

void pairDistanceHistogram(int n, const float* x, const float* y, const float* z, float box, int nbins,
                           int64_t* hist) {
  if (nbins <= 0) return;
  unsigned long long* dh = nullptr;
  cudaMalloc(&dh, (size_t)nbins * sizeof(unsigned long long));
  cudaMemset(dh, 0, (size_t)nbins * sizeof(unsigned long long));
  if (n > 1) {
    size_t fb = (size_t)n * sizeof(float);
    float *dx = nullptr, *dy = nullptr, *dz = nullptr;
    float4* dp = nullptr;
    cudaMalloc(&dx, fb);
    cudaMalloc(&dy, fb);
    cudaMalloc(&dz, fb);
    cudaMalloc(&dp, (size_t)n * sizeof(float4));
    cudaMemcpy(dx, x, fb, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, fb, cudaMemcpyHostToDevice);
    cudaMemcpy(dz, z, fb, cudaMemcpyHostToDevice);
    pack_kernel<<<(n + 255) / 256, 256>>>(n, dx, dy, dz, dp);
    float rmax = 0.5f * box;
    float rmax2 = rmax * rmax;
    float dr = rmax / (float)nbins;
    int T = (n + kTile - 1) / kTile;
    long long tiles = (long long)T * (T + 1) / 2;
    rdf_kernel<<<(unsigned)tiles, kTile>>>(n, T, dp, box, rmax2, dr, nbins, dh);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dz);
    cudaFree(dp);
  }
  cudaMemcpy(hist, dh, (size_t)nbins * sizeof(int64_t), cudaMemcpyDeviceToHost);
  cudaFree(dh);
}
