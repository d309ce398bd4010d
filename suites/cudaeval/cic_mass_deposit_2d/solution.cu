#include <cuda_runtime.h>
#include <cstddef>

constexpr int kT = 32;            // tile side in cells
constexpr int kThreads = 256;
constexpr int kScanThreads = 1024;
constexpr int kChunk = 1024;      // sorted particles per block
constexpr int kMinSharedRun = 64; // shorter runs use global atomics directly

struct CicPart {
  int cell;  // iy0 * G + ix0
  float dx, dy;
};

__device__ __forceinline__ CicPart cic_locate(float px, float py, int G) {
  float x = px - 0.5f, y = py - 0.5f;
  float fx = floorf(x), fy = floorf(y);
  int ix0 = (((int)fx % G) + G) % G, iy0 = (((int)fy % G) + G) % G;
  return CicPart{iy0 * G + ix0, x - fx, y - fy};
}

__device__ __forceinline__ int cic_tile(int cell, int G, int ntx) {
  return ((cell / G) / kT) * ntx + (cell % G) / kT;
}

// Step 1 (thread_mapping): one thread per particle locates its cell.
// Step 2 (atomic_operations): tile populations are counted with atomicAdd,
// whose return value is the particle's slot within its tile.
__global__ void cic_bin_kernel(int n, const float* __restrict__ px, const float* __restrict__ py, int G, int ntx,
                               int* __restrict__ tile_count, int* __restrict__ tile_of, int* __restrict__ slot) {
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
    CicPart c = cic_locate(px[p], py[p], G);
    int t = cic_tile(c.cell, G, ntx);
    tile_of[p] = t;
    slot[p] = atomicAdd(&tile_count[t], 1);
  }
}

// Step 3 (prefix_scan): tile starts are the exclusive scan of the counts.
__device__ int cic_block_scan(int v, int* total) {
  __shared__ int warp_tot[kScanThreads / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  if (lane == 31) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = warp_tot[lane];
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    warp_tot[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_tot[warp - 1];
  *total = warp_tot[kScanThreads / 32 - 1];
  __syncthreads();
  return v;
}

// One block scans all tile counts in chunks of 1024 (a few thousand tiles).
__global__ void cic_scan_kernel(int ntiles, const int* __restrict__ count, int* __restrict__ start) {
  int carry = 0;
  for (int base = 0; base < ntiles; base += kScanThreads) {
    int i = base + threadIdx.x;
    int v = i < ntiles ? count[i] : 0;
    int total;
    int inc = cic_block_scan(v, &total);
    if (i < ntiles) start[i] = carry + inc - v;
    carry += total;
  }
}

// Step 4 (data_layout_transformation): particles are scattered into tile
// order as one float4 (dx, dy, m, cell bits), so the deposit reads one
// contiguous 16-byte record per particle and never recomputes the weights.
__global__ void cic_scatter_kernel(int n, const float* __restrict__ px, const float* __restrict__ py,
                                   const float* __restrict__ mass, int G, const int* __restrict__ tile_of,
                                   const int* __restrict__ slot, const int* __restrict__ tile_start,
                                   float4* __restrict__ sorted) {
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
    CicPart c = cic_locate(px[p], py[p], G);
    sorted[tile_start[tile_of[p]] + slot[p]] = make_float4(c.dx, c.dy, mass[p], __int_as_float(c.cell));
  }
}

__device__ __forceinline__ void cic_add4(float* grid, int G, float4 q) {
  int cell = __float_as_int(q.w);
  int ix0 = cell % G, iy0 = cell / G;
  int ix1 = ix0 + 1 == G ? 0 : ix0 + 1, iy1 = iy0 + 1 == G ? 0 : iy0 + 1;
  float m = q.z;
  atomicAdd(&grid[iy0 * G + ix0], m * (1.0f - q.x) * (1.0f - q.y));
  atomicAdd(&grid[iy0 * G + ix1], m * q.x * (1.0f - q.y));
  atomicAdd(&grid[iy1 * G + ix0], m * (1.0f - q.x) * q.y);
  atomicAdd(&grid[iy1 * G + ix1], m * q.x * q.y);
}

// Step 6 (load_balancing): block b deposits sorted particles
// [b * kChunk, (b + 1) * kChunk), whatever tiles they belong to, so a crowded
// tile is shared by many blocks. The chunk is walked run by run (a run is the
// chunk's part of one tile, known from the tile starts and counts).
// Step 5 (atomic_aggregation): a long run is accumulated in a 33 x 33
// shared-memory tile (the tile plus the +1 neighbours of its last row and
// column) with shared atomics, then flushed with one global atomic per
// non-zero cell; short runs use global atomics directly.
__global__ void cic_deposit_kernel(int n, int G, int ntx, const float4* __restrict__ sorted,
                                   const int* __restrict__ tile_start, const int* __restrict__ tile_count,
                                   float* __restrict__ rho) {
  __shared__ float acc[(kT + 1) * (kT + 1)];
  int begin = blockIdx.x * kChunk;
  int end = begin + kChunk < n ? begin + kChunk : n;
  int cur = begin;
  while (cur < end) {
    float4 first = sorted[cur];
    int t = cic_tile(__float_as_int(first.w), G, ntx);
    int run_end = tile_start[t] + tile_count[t];
    if (run_end > end) run_end = end;
    int len = run_end - cur;
    if (len < kMinSharedRun) {
      for (int k = cur + threadIdx.x; k < run_end; k += blockDim.x) cic_add4(rho, G, sorted[k]);
    } else {
      int ox = (t % ntx) * kT, oy = (t / ntx) * kT;
      for (int c = threadIdx.x; c < (kT + 1) * (kT + 1); c += blockDim.x) acc[c] = 0.0f;
      __syncthreads();
      for (int k = cur + threadIdx.x; k < run_end; k += blockDim.x) {
        float4 q = sorted[k];
        int cell = __float_as_int(q.w);
        int lx = cell % G - ox, ly = cell / G - oy;
        float m = q.z;
        atomicAdd(&acc[ly * (kT + 1) + lx], m * (1.0f - q.x) * (1.0f - q.y));
        atomicAdd(&acc[ly * (kT + 1) + lx + 1], m * q.x * (1.0f - q.y));
        atomicAdd(&acc[(ly + 1) * (kT + 1) + lx], m * (1.0f - q.x) * q.y);
        atomicAdd(&acc[(ly + 1) * (kT + 1) + lx + 1], m * q.x * q.y);
      }
      __syncthreads();
      for (int c = threadIdx.x; c < (kT + 1) * (kT + 1); c += blockDim.x) {
        float v = acc[c];
        if (v != 0.0f) {
          int gx = (ox + c % (kT + 1)) % G, gy = (oy + c / (kT + 1)) % G;
          atomicAdd(&rho[gy * G + gx], v);
        }
      }
      __syncthreads();
    }
    cur = run_end;
  }
}

void cicDeposit(int n, const float* px, const float* py, const float* mass, int G, float* rho) {
  if (G <= 0) return;
  size_t gb = (size_t)G * G * sizeof(float);
  float* drho = nullptr;
  cudaMalloc(&drho, gb);
  cudaMemset(drho, 0, gb);
  if (n > 0) {
    int ntx = (G + kT - 1) / kT;
    int ntiles = ntx * ntx;
    size_t fb = (size_t)n * sizeof(float), ib = (size_t)n * sizeof(int);
    float *dpx = nullptr, *dpy = nullptr, *dm = nullptr;
    int *dcount = nullptr, *dstart = nullptr, *dtile = nullptr, *dslot = nullptr;
    float4* dsorted = nullptr;
    cudaMalloc(&dpx, fb);
    cudaMalloc(&dpy, fb);
    cudaMalloc(&dm, fb);
    cudaMalloc(&dcount, (size_t)ntiles * sizeof(int));
    cudaMalloc(&dstart, (size_t)ntiles * sizeof(int));
    cudaMalloc(&dtile, ib);
    cudaMalloc(&dslot, ib);
    cudaMalloc(&dsorted, (size_t)n * sizeof(float4));
    cudaMemcpy(dpx, px, fb, cudaMemcpyHostToDevice);
    cudaMemcpy(dpy, py, fb, cudaMemcpyHostToDevice);
    cudaMemcpy(dm, mass, fb, cudaMemcpyHostToDevice);
    cudaMemset(dcount, 0, (size_t)ntiles * sizeof(int));
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    int grid = (n + kThreads - 1) / kThreads;
    if (grid > sms * 8) grid = sms * 8;
    cic_bin_kernel<<<grid, kThreads>>>(n, dpx, dpy, G, ntx, dcount, dtile, dslot);
    cic_scan_kernel<<<1, kScanThreads>>>(ntiles, dcount, dstart);
    cic_scatter_kernel<<<grid, kThreads>>>(n, dpx, dpy, dm, G, dtile, dslot, dstart, dsorted);
    cic_deposit_kernel<<<(n + kChunk - 1) / kChunk, kThreads>>>(n, G, ntx, dsorted, dstart, dcount, drho);
    cudaFree(dpx);
    cudaFree(dpy);
    cudaFree(dm);
    cudaFree(dcount);
    cudaFree(dstart);
    cudaFree(dtile);
    cudaFree(dslot);
    cudaFree(dsorted);
  }
  cudaMemcpy(rho, drho, gb, cudaMemcpyDeviceToHost);
  cudaFree(drho);
}
