#include <cuda_runtime.h>
#include <cstddef>

constexpr int kThreads = 256;
constexpr int kScanThreads = 1024;

struct GridParams {
  float lo[3], ext[3];
  int nc[3];
};

__device__ __forceinline__ int cl_cell_of(float v, float lo, float extent, int ncell) {
  if (ncell == 1) return 0;
  int c = (int)(__fmul_rn(__fdiv_rn(__fsub_rn(v, lo), extent), (float)ncell));
  return c < 0 ? 0 : (c >= ncell ? ncell - 1 : c);
}

__device__ __forceinline__ int cl_cell_id(const GridParams& g, float x, float y, float z, int* cx, int* cy, int* cz) {
  *cx = cl_cell_of(x, g.lo[0], g.ext[0], g.nc[0]);
  *cy = cl_cell_of(y, g.lo[1], g.ext[1], g.nc[1]);
  *cz = cl_cell_of(z, g.lo[2], g.ext[2], g.nc[2]);
  return (*cz * g.nc[1] + *cy) * g.nc[0] + *cx;
}

// Step 1 (thread_mapping) and Step 2 (warp_shuffle_reduction): the bounding
// box is a min/max reduction; a grid-stride loop, then shuffles within each
// warp and shared memory across the block's warps give one partial per block.
__global__ void bbox_partials_kernel(int n, const float* __restrict__ x, const float* __restrict__ y,
                                     const float* __restrict__ z, float* __restrict__ partial) {
  __shared__ float wmin[3][kThreads / 32], wmax[3][kThreads / 32];
  float mn[3] = {x[0], y[0], z[0]}, mx[3] = {x[0], y[0], z[0]};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v[3] = {x[i], y[i], z[i]};
    for (int d = 0; d < 3; ++d) {
      mn[d] = fminf(mn[d], v[d]);
      mx[d] = fmaxf(mx[d], v[d]);
    }
  }
  for (int d = 0; d < 3; ++d) {
    for (int off = 16; off > 0; off >>= 1) {
      mn[d] = fminf(mn[d], __shfl_down_sync(0xffffffffu, mn[d], off));
      mx[d] = fmaxf(mx[d], __shfl_down_sync(0xffffffffu, mx[d], off));
    }
  }
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    for (int d = 0; d < 3; ++d) {
      wmin[d][warp] = mn[d];
      wmax[d][warp] = mx[d];
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int d = 0; d < 3; ++d) {
      float a = wmin[d][0], b = wmax[d][0];
      for (int w = 1; w < kThreads / 32; ++w) {
        a = fminf(a, wmin[d][w]);
        b = fmaxf(b, wmax[d][w]);
      }
      partial[blockIdx.x * 6 + d] = a;
      partial[blockIdx.x * 6 + 3 + d] = b;
    }
  }
}

// One thread folds the block partials and sizes the cell grid exactly as the
// serial code does (cells a hair wider than rc).
__global__ void grid_params_kernel(int nparts, const float* __restrict__ partial, float rc, GridParams* __restrict__ g,
                                   int* __restrict__ ncells) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  GridParams p;
  for (int d = 0; d < 3; ++d) {
    float a = partial[d], b = partial[3 + d];
    for (int k = 1; k < nparts; ++k) {
      a = fminf(a, partial[k * 6 + d]);
      b = fmaxf(b, partial[k * 6 + 3 + d]);
    }
    p.lo[d] = a;
    p.ext[d] = __fsub_rn(b, a);
    float kc = floorf(__fdiv_rn(p.ext[d], __fmul_rn(1.0001f, rc)));
    p.nc[d] = !(kc >= 1.0f) ? 1 : (kc > 128.0f ? 128 : (int)kc);
  }
  *g = p;
  *ncells = p.nc[0] * p.nc[1] * p.nc[2];
}

// Step 3 (atomic_operations): particles are counted into their cells with
// atomicAdd, whose return value is the particle's slot within its cell.
__global__ void bin_kernel(int n, const float* __restrict__ x, const float* __restrict__ y, const float* __restrict__ z,
                           const GridParams* __restrict__ gp, int* __restrict__ cell_count, int* __restrict__ cell,
                           int* __restrict__ slot) {
  GridParams g = *gp;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int cx, cy, cz;
    int c = cl_cell_id(g, x[i], y[i], z[i], &cx, &cy, &cz);
    cell[i] = c;
    slot[i] = atomicAdd(&cell_count[c], 1);
  }
}

// Step 4 (prefix_scan): cell starts are the exclusive scan of the counts:
// block scans (warp shuffles, then the warp totals), a scan of the block
// totals, and an add pass.
__device__ int cl_block_scan(int v, int* total) {
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

__global__ void scan_blocks_kernel(int ncells, const int* __restrict__ in, int* __restrict__ out,
                                   int* __restrict__ block_tot) {
  int i = blockIdx.x * kScanThreads + threadIdx.x;
  int v = i < ncells ? in[i] : 0;
  int total;
  int inc = cl_block_scan(v, &total);
  if (i < ncells) out[i] = inc - v;
  if (threadIdx.x == 0) block_tot[blockIdx.x] = total;
}

__global__ void scan_totals_kernel(int nblocks, int* __restrict__ block_tot) {
  int carry = 0;
  for (int base = 0; base < nblocks; base += kScanThreads) {
    int i = base + threadIdx.x;
    int v = i < nblocks ? block_tot[i] : 0;
    int total;
    int inc = cl_block_scan(v, &total);
    if (i < nblocks) block_tot[i] = carry + inc - v;
    carry += total;
  }
}

__global__ void scan_add_kernel(int ncells, const int* __restrict__ block_tot, int* __restrict__ out) {
  int i = blockIdx.x * kScanThreads + threadIdx.x;
  if (i < ncells) out[i] += block_tot[blockIdx.x];
}

// Step 5 (data_layout_transformation): particles are scattered into cell
// order as float4 (x, y, z, original index), so a cell's particles are one
// contiguous, 16-byte-aligned run.
__global__ void scatter_kernel(int n, const float* __restrict__ x, const float* __restrict__ y,
                               const float* __restrict__ z, const int* __restrict__ cell, const int* __restrict__ slot,
                               const int* __restrict__ cell_start, float4* __restrict__ sorted) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sorted[cell_start[cell[i]] + slot[i]] = make_float4(x[i], y[i], z[i], __int_as_float(i));
  }
}

// One thread per sorted slot (neighbouring threads share cells, so their
// candidate lists overlap in cache).
// Step 6 (read_only_cache): the sorted particles and the cell tables are
// read with __ldg.
// Step 7 (register_caching): the particle's own position, index, rc^2 and
// running count stay in registers across the 27-cell walk. The distance is
// rounded exactly like the serial code.
__global__ void count_kernel(int n, const float4* __restrict__ sorted, const int* __restrict__ cell_start,
                             const int* __restrict__ cell_count, const GridParams* __restrict__ gp, float rc2,
                             int* __restrict__ count) {
  GridParams g = *gp;
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < n; s += gridDim.x * blockDim.x) {
    float4 p = __ldg(&sorted[s]);
    int me = __float_as_int(p.w);
    int cx, cy, cz;
    cl_cell_id(g, p.x, p.y, p.z, &cx, &cy, &cz);
    int c = 0;
    for (int a = max(cz - 1, 0); a <= min(cz + 1, g.nc[2] - 1); ++a)
      for (int b = max(cy - 1, 0); b <= min(cy + 1, g.nc[1] - 1); ++b)
        for (int e = max(cx - 1, 0); e <= min(cx + 1, g.nc[0] - 1); ++e) {
          int cid = (a * g.nc[1] + b) * g.nc[0] + e;
          int start = __ldg(&cell_start[cid]), end = start + __ldg(&cell_count[cid]);
          for (int k = start; k < end; ++k) {
            float4 q = __ldg(&sorted[k]);
            if (__float_as_int(q.w) == me) continue;
            float dx = __fsub_rn(q.x, p.x), dy = __fsub_rn(q.y, p.y), dz = __fsub_rn(q.z, p.z);
            float d2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
            if (d2 < rc2) ++c;
          }
        }
    count[me] = c;
  }
}

void neighborCounts(int n, const float* x, const float* y, const float* z, float rc, int* count) {
  if (n <= 0) return;
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int grid = (n + kThreads - 1) / kThreads;
  if (grid > sms * 8) grid = sms * 8;
  size_t fb = (size_t)n * sizeof(float), ib = (size_t)n * sizeof(int);
  float *dx = nullptr, *dy = nullptr, *dz = nullptr, *dpart = nullptr;
  int *dcell = nullptr, *dslot = nullptr, *dcount = nullptr, *dcc = nullptr, *dcs = nullptr, *dbt = nullptr,
      *dncells = nullptr;
  GridParams* dg = nullptr;
  float4* dsorted = nullptr;
  cudaMalloc(&dx, fb);
  cudaMalloc(&dy, fb);
  cudaMalloc(&dz, fb);
  cudaMalloc(&dpart, (size_t)grid * 6 * sizeof(float));
  cudaMalloc(&dcell, ib);
  cudaMalloc(&dslot, ib);
  cudaMalloc(&dcount, ib);
  cudaMalloc(&dsorted, (size_t)n * sizeof(float4));
  cudaMalloc(&dncells, sizeof(int));
  cudaMalloc(&dg, sizeof(GridParams));
  cudaMemcpy(dx, x, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(dz, z, fb, cudaMemcpyHostToDevice);
  bbox_partials_kernel<<<grid, kThreads>>>(n, dx, dy, dz, dpart);
  grid_params_kernel<<<1, 32>>>(grid, dpart, rc, dg, dncells);
  // The number of cells (at most 128^3) sizes the cell tables and the scan.
  int ncells = 0;
  cudaMemcpy(&ncells, dncells, sizeof(int), cudaMemcpyDeviceToHost);
  int scan_blocks = (ncells + kScanThreads - 1) / kScanThreads;
  cudaMalloc(&dcc, (size_t)ncells * sizeof(int));
  cudaMalloc(&dcs, (size_t)ncells * sizeof(int));
  cudaMalloc(&dbt, (size_t)scan_blocks * sizeof(int));
  cudaMemset(dcc, 0, (size_t)ncells * sizeof(int));
  bin_kernel<<<grid, kThreads>>>(n, dx, dy, dz, dg, dcc, dcell, dslot);
  scan_blocks_kernel<<<scan_blocks, kScanThreads>>>(ncells, dcc, dcs, dbt);
  scan_totals_kernel<<<1, kScanThreads>>>(scan_blocks, dbt);
  scan_add_kernel<<<scan_blocks, kScanThreads>>>(ncells, dbt, dcs);
  scatter_kernel<<<grid, kThreads>>>(n, dx, dy, dz, dcell, dslot, dcs, dsorted);
  count_kernel<<<(n + kThreads - 1) / kThreads, kThreads>>>(n, dsorted, dcs, dcc, dg, rc * rc, dcount);
  cudaMemcpy(count, dcount, ib, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
  cudaFree(dpart);
  cudaFree(dcell);
  cudaFree(dslot);
  cudaFree(dcount);
  cudaFree(dsorted);
  cudaFree(dcc);
  cudaFree(dcs);
  cudaFree(dbt);
  cudaFree(dncells);
  cudaFree(dg);
}
