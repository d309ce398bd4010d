#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// PageRank on the GPU, everything resident on the device:
//  * Setup (once per call): the push-style CSR graph is transposed on the
//    device into in-link lists (pull style, no atomics in the iterations):
//    in-degrees by atomicAdd, offsets by a parallel exclusive scan (block
//    scans with warp shuffles + a scan of the block totals + an add pass),
//    then a scatter of the sources.
//  * Each iteration is ONE kernel: eight lanes per vertex gather the
//    contributions rank[u] / outdeg(u) of its in-neighbours (sub-warp shuffle
//    reduction), form the new rank, and already produce the vertex's
//    contribution for the next iteration plus its share of the next dangling
//    sum (warp-reduced, one double atomicAdd per warp).
// Only the final ranks are copied back.
#define FULL 0xffffffffu
#define SCAN_THREADS 256
#define SCAN_ITEMS 4
#define SCAN_TILE (SCAN_THREADS * SCAN_ITEMS)
#define LANES_PER_VERTEX 8

// Exclusive scan of one int per thread over a 256-thread block; *total gets the block sum.
__device__ int block_exclusive_scan(int v, int* total) {
  __shared__ int warp_sums[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const int nwarps = blockDim.x >> 5;
  int x = v;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int y = __shfl_up_sync(FULL, x, off);
    if (lane >= off) x += y;
  }
  if (lane == 31) warp_sums[wid] = x;
  __syncthreads();
  if (wid == 0) {
    int s = lane < nwarps ? warp_sums[lane] : 0;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      int y = __shfl_up_sync(FULL, s, off);
      if (lane >= off) s += y;
    }
    warp_sums[lane] = s;  // inclusive scan of the warp totals
  }
  __syncthreads();
  int prefix = wid > 0 ? warp_sums[wid - 1] : 0;
  *total = warp_sums[nwarps - 1];
  __syncthreads();  // warp_sums may be reused by the caller's next call
  return prefix + x - v;
}

__global__ void degree_kernel(int n, const int* __restrict__ rp, const int* __restrict__ col, int* __restrict__ out_deg,
                              int* __restrict__ in_cnt) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n) return;
  int s = rp[u], e = rp[u + 1];
  out_deg[u] = e - s;
  for (int k = s; k < e; ++k) atomicAdd(&in_cnt[col[k]], 1);
}

__global__ void scan_tiles_kernel(int n, const int* __restrict__ in, int* __restrict__ out, int* __restrict__ tile_sums) {
  int base = blockIdx.x * SCAN_TILE + threadIdx.x * SCAN_ITEMS;
  int v[SCAN_ITEMS];
  int s = 0;
#pragma unroll
  for (int q = 0; q < SCAN_ITEMS; ++q) {
    v[q] = (base + q < n) ? in[base + q] : 0;
    s += v[q];
  }
  int total;
  int ex = block_exclusive_scan(s, &total);
#pragma unroll
  for (int q = 0; q < SCAN_ITEMS; ++q) {
    if (base + q < n) out[base + q] = ex;
    ex += v[q];
  }
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = total;
}

// One block scans the tile totals in place (exclusive), 1024 at a time with a carry.
__global__ void scan_tile_sums_kernel(int count, int* sums) {
  int carry = 0;
  for (int start = 0; start < count; start += SCAN_TILE) {
    int base = start + threadIdx.x * SCAN_ITEMS;
    int v[SCAN_ITEMS];
    int s = 0;
#pragma unroll
    for (int q = 0; q < SCAN_ITEMS; ++q) {
      v[q] = (base + q < count) ? sums[base + q] : 0;
      s += v[q];
    }
    int total;
    int ex = block_exclusive_scan(s, &total) + carry;
#pragma unroll
    for (int q = 0; q < SCAN_ITEMS; ++q) {
      if (base + q < count) sums[base + q] = ex;
      ex += v[q];
    }
    carry += total;
  }
}

__global__ void add_tile_offsets_kernel(int n, int* __restrict__ out, const int* __restrict__ tile_sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += tile_sums[i / SCAN_TILE];
}

__global__ void fill_in_links_kernel(int n, const int* __restrict__ rp, const int* __restrict__ col,
                                     const int* __restrict__ in_ptr, int* __restrict__ fill, int* __restrict__ in_src) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n) return;
  for (int k = rp[u]; k < rp[u + 1]; ++k) {
    int v = col[k];
    int pos = atomicAdd(&fill[v], 1);
    in_src[in_ptr[v] + pos] = u;
  }
}

__device__ __forceinline__ void warp_add_atomic(double x, double* target) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(FULL, x, off);
  if ((threadIdx.x & 31) == 0 && x != 0.0) atomicAdd(target, x);
}

__global__ void init_kernel(int n, const int* __restrict__ out_deg, double* __restrict__ rank,
                            double* __restrict__ contrib, double* __restrict__ dangling0) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  double dang = 0.0;
  if (v < n) {
    double r = 1.0 / n;
    rank[v] = r;
    int deg = out_deg[v];
    if (deg > 0) {
      contrib[v] = r / deg;
    } else {
      contrib[v] = 0.0;
      dang = r;
    }
  }
  warp_add_atomic(dang, dangling0);
}

__global__ void pull_iteration_kernel(int n, const int* __restrict__ in_ptr, const int* __restrict__ in_src,
                                      const int* __restrict__ out_deg, const double* __restrict__ contrib_cur,
                                      const double* __restrict__ dangling_cur, double damping,
                                      double* __restrict__ rank, double* __restrict__ contrib_next,
                                      double* __restrict__ dangling_next) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = gid / LANES_PER_VERTEX;
  const int sub = threadIdx.x % LANES_PER_VERTEX;
  const bool valid = v < n;
  double sum = 0.0;
  if (valid) {
    int e = __ldg(&in_ptr[v + 1]);
    for (int k = __ldg(&in_ptr[v]) + sub; k < e; k += LANES_PER_VERTEX) sum += __ldg(&contrib_cur[__ldg(&in_src[k])]);
  }
#pragma unroll
  for (int off = LANES_PER_VERTEX / 2; off > 0; off >>= 1) sum += __shfl_down_sync(FULL, sum, off, LANES_PER_VERTEX);
  double dang = 0.0;
  if (valid && sub == 0) {
    double base = (1.0 - damping) / n + damping * (*dangling_cur) / n;
    double r = base + damping * sum;
    rank[v] = r;
    int deg = out_deg[v];
    if (deg > 0) {
      contrib_next[v] = r / deg;
    } else {
      contrib_next[v] = 0.0;
      dang = r;
    }
  }
  warp_add_atomic(dang, dangling_next);
}

void pageRankPowerIterations(std::vector<int> const& row_ptr, std::vector<int> const& col_idx, int iterations,
                             std::vector<double>& rank) {
  const int n = (int)row_ptr.size() - 1;
  if (n <= 0) return;
  const int nnz = row_ptr[n];
  const int iters = iterations > 0 ? iterations : 0;
  const double damping = 0.85;
  const int ntiles = (n + SCAN_TILE - 1) / SCAN_TILE;

  int *d_rp, *d_col, *d_outdeg, *d_incnt, *d_inptr, *d_tiles, *d_fill, *d_insrc;
  double *d_rank, *d_contrib, *d_dang;
  cudaMalloc(&d_rp, ((size_t)n + 1) * sizeof(int));
  cudaMalloc(&d_col, (nnz > 0 ? (size_t)nnz : 1) * sizeof(int));
  cudaMalloc(&d_outdeg, (size_t)n * sizeof(int));
  cudaMalloc(&d_incnt, (size_t)n * sizeof(int));
  cudaMalloc(&d_inptr, ((size_t)n + 1) * sizeof(int));
  cudaMalloc(&d_tiles, (size_t)ntiles * sizeof(int));
  cudaMalloc(&d_fill, (size_t)n * sizeof(int));
  cudaMalloc(&d_insrc, (nnz > 0 ? (size_t)nnz : 1) * sizeof(int));
  cudaMalloc(&d_rank, (size_t)n * sizeof(double));
  cudaMalloc(&d_contrib, 2 * (size_t)n * sizeof(double));
  cudaMalloc(&d_dang, ((size_t)iters + 1) * sizeof(double));

  cudaMemcpy(d_rp, row_ptr.data(), ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx.data(), (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_incnt, 0, (size_t)n * sizeof(int));
  cudaMemset(d_fill, 0, (size_t)n * sizeof(int));
  cudaMemset(d_dang, 0, ((size_t)iters + 1) * sizeof(double));

  const int tb = 256;
  const int vgrid = (n + tb - 1) / tb;
  degree_kernel<<<vgrid, tb>>>(n, d_rp, d_col, d_outdeg, d_incnt);
  scan_tiles_kernel<<<ntiles, SCAN_THREADS>>>(n, d_incnt, d_inptr, d_tiles);
  scan_tile_sums_kernel<<<1, SCAN_THREADS>>>(ntiles, d_tiles);
  add_tile_offsets_kernel<<<vgrid, tb>>>(n, d_inptr, d_tiles);
  cudaMemcpy(d_inptr + n, &nnz, sizeof(int), cudaMemcpyHostToDevice);
  fill_in_links_kernel<<<vgrid, tb>>>(n, d_rp, d_col, d_inptr, d_fill, d_insrc);

  init_kernel<<<vgrid, tb>>>(n, d_outdeg, d_rank, d_contrib, d_dang);
  const long long pull_threads = (long long)n * LANES_PER_VERTEX;
  const int pgrid = (int)((pull_threads + tb - 1) / tb);
  for (int it = 0; it < iters; ++it) {
    const double* cur = d_contrib + (size_t)(it & 1) * n;
    double* nxt = d_contrib + (size_t)((it + 1) & 1) * n;
    pull_iteration_kernel<<<pgrid, tb>>>(n, d_inptr, d_insrc, d_outdeg, cur, d_dang + it, damping, d_rank, nxt,
                                         d_dang + it + 1);
  }
  cudaMemcpy(rank.data(), d_rank, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);

  cudaFree(d_rp);
  cudaFree(d_col);
  cudaFree(d_outdeg);
  cudaFree(d_incnt);
  cudaFree(d_inptr);
  cudaFree(d_tiles);
  cudaFree(d_fill);
  cudaFree(d_insrc);
  cudaFree(d_rank);
  cudaFree(d_contrib);
  cudaFree(d_dang);
}
