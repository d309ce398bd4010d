#include <cuda_runtime.h>
#include <vector>

// Step 1 (thread_mapping): unknowns map to threads of 32 x 8 blocks,
// threadIdx.x along a row (coalesced vectors, neighbours in cache).
// Step 2 (minimize_transfers): x, b, r, p and Ap stay on the device for all
// iterations; the CG scalars (dot products, the stop flag) live in device
// memory too and every kernel derives alpha, beta and the stopping test from
// them, so no iteration waits on a host round trip; x comes back once.
// Step 3 (kernel_fusion): each iteration is three kernels instead of six
// passes: Ap = A p fused with p.Ap; the x and r updates fused with r.r; the
// direction update fused with the convergence bookkeeping.
// Step 4 (warp_shuffle_reduction): each dot product is folded per warp with
// __shfl_down_sync.
// Step 5 (block_tree_reduction): warp partials meet in shared memory and the
// first warp reduces them.
// Step 6 (atomic_operations): one double atomicAdd per block accumulates each
// dot product into a slot of its own iteration (slots zeroed once), so no
// kernel has to reset an accumulator that others still read.
// Step 7 (cuda_graphs): the 1 + 3 * iters launches are captured into a CUDA
// graph and replayed as one.
// Step 8 (register_tiling): each thread handles kCgPer = 4 unknowns of its
// column (rows 8 apart, so every warp access stays a contiguous row
// segment), accumulating its dot-product terms in a register before the one
// block reduction: a quarter of the threads, blocks and reductions.
constexpr int kCgX = 32;
constexpr int kCgY = 8;
constexpr int kCgPer = 4;
constexpr int kCgRows = kCgY * kCgPer;  // rows per block
constexpr int kCgThreads = kCgX * kCgY;
constexpr double kCgTol = 1e-24;

// Device scalars: r0.r0; for iteration it, pap[it] and rrn[it]; stop[it] is
// set when CG stopped before iteration it (written by the direction kernel of
// iteration it - 1 only, so no kernel reads a flag it also writes).
struct CgState {
  double* rr0;
  double* pap;
  double* rrn;
  int* stop;
};

__device__ __forceinline__ void cg_block_add(double v, double* target) {
  __shared__ double warp_part[kCgThreads / 32];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  const int tid = threadIdx.y * kCgX + threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    double s = lane < kCgThreads / 32 ? warp_part[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0 && s != 0.0) atomicAdd(target, s);
  }
}

__device__ __forceinline__ double cg_apply(const double* __restrict__ v, int x, int y, int nx, int ny) {
  const size_t c = (size_t)y * nx + x;
  double s = 4.0 * v[c];
  if (x > 0) s -= v[c - 1];
  if (x < nx - 1) s -= v[c + 1];
  if (y > 0) s -= v[c - nx];
  if (y < ny - 1) s -= v[c + nx];
  return s;
}

// r = b - A x, p = r, rr0 = r.r
__global__ void cg_init_kernel(const double* __restrict__ x, const double* __restrict__ b, double* __restrict__ r,
                               double* __restrict__ p, int nx, int ny, CgState st) {
  const int gx = blockIdx.x * kCgX + threadIdx.x;
  double part = 0.0;
  for (int k = 0; k < kCgPer; ++k) {
    const int gy = blockIdx.y * kCgRows + threadIdx.y + k * kCgY;
    if (gx < nx && gy < ny) {
      const size_t c = (size_t)gy * nx + gx;
      double rc = b[c] - cg_apply(x, gx, gy, nx, ny);
      r[c] = rc;
      p[c] = rc;
      part += rc * rc;
    }
  }
  cg_block_add(part, st.rr0);
}

__device__ __forceinline__ bool cg_active(const CgState& st, int it) { return *st.rr0 != 0.0 && st.stop[it] == 0; }

// Ap = A p, pap[it] += p.Ap
__global__ void cg_matvec_kernel(const double* __restrict__ p, double* __restrict__ ap, int nx, int ny, int it,
                                 CgState st) {
  if (!cg_active(st, it)) return;
  const int gx = blockIdx.x * kCgX + threadIdx.x;
  double part = 0.0;
  for (int k = 0; k < kCgPer; ++k) {
    const int gy = blockIdx.y * kCgRows + threadIdx.y + k * kCgY;
    if (gx < nx && gy < ny) {
      const size_t c = (size_t)gy * nx + gx;
      double a = cg_apply(p, gx, gy, nx, ny);
      ap[c] = a;
      part += p[c] * a;
    }
  }
  cg_block_add(part, st.pap + it);
}

// alpha = rr / pap[it]; x += alpha p; r -= alpha Ap; rrn[it] += r.r
__global__ void cg_update_kernel(double* __restrict__ x, double* __restrict__ r, const double* __restrict__ p,
                                 const double* __restrict__ ap, int nx, int ny, int it, CgState st) {
  if (!cg_active(st, it)) return;
  const double rr = it == 0 ? *st.rr0 : st.rrn[it - 1];
  const double alpha = rr / st.pap[it];
  const int gx = blockIdx.x * kCgX + threadIdx.x;
  double part = 0.0;
  for (int k = 0; k < kCgPer; ++k) {
    const int gy = blockIdx.y * kCgRows + threadIdx.y + k * kCgY;
    if (gx < nx && gy < ny) {
      const size_t c = (size_t)gy * nx + gx;
      x[c] += alpha * p[c];
      double rc = r[c] - alpha * ap[c];
      r[c] = rc;
      part += rc * rc;
    }
  }
  cg_block_add(part, st.rrn + it);
}

// Stop test on rrn[it]; otherwise p = r + beta p.
__global__ void cg_direction_kernel(const double* __restrict__ r, double* __restrict__ p, int nx, int ny, int it,
                                    CgState st) {
  const double rr0 = *st.rr0, rr_new = st.rrn[it];
  // Stopped earlier (rrn[it] then stayed 0), no residual at all, or converged.
  const bool stopped = !cg_active(st, it) || rr_new <= kCgTol * rr0;
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) st.stop[it + 1] = stopped ? 1 : 0;
  if (stopped) return;
  const double beta = rr_new / (it == 0 ? rr0 : st.rrn[it - 1]);
  const int gx = blockIdx.x * kCgX + threadIdx.x;
  for (int k = 0; k < kCgPer; ++k) {
    const int gy = blockIdx.y * kCgRows + threadIdx.y + k * kCgY;
    if (gx < nx && gy < ny) {
      const size_t c = (size_t)gy * nx + gx;
      p[c] = r[c] + beta * p[c];
    }
  }
}

void cgPoisson2d(std::vector<double>& x, const std::vector<double>& b, int nx, int ny, int iters) {
  if (nx <= 0 || ny <= 0 || iters <= 0) return;
  const size_t n = (size_t)nx * ny, bytes = n * sizeof(double);
  double *dx = nullptr, *db = nullptr, *dr = nullptr, *dp = nullptr, *dap = nullptr, *scal = nullptr;
  int* dstop = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dr, bytes);
  cudaMalloc(&dp, bytes);
  cudaMalloc(&dap, bytes);
  cudaMalloc(&scal, (1 + 2 * (size_t)iters) * sizeof(double));
  cudaMalloc(&dstop, (1 + (size_t)iters) * sizeof(int));
  cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(scal, 0, (1 + 2 * (size_t)iters) * sizeof(double));
  cudaMemset(dstop, 0, (1 + (size_t)iters) * sizeof(int));
  CgState st{scal, scal + 1, scal + 1 + iters, dstop};
  dim3 block(kCgX, kCgY), grid((nx + kCgX - 1) / kCgX, (ny + kCgRows - 1) / kCgRows);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  cg_init_kernel<<<grid, block, 0, stream>>>(dx, db, dr, dp, nx, ny, st);
  for (int it = 0; it < iters; ++it) {
    cg_matvec_kernel<<<grid, block, 0, stream>>>(dp, dap, nx, ny, it, st);
    cg_update_kernel<<<grid, block, 0, stream>>>(dx, dr, dp, dap, nx, ny, it, st);
    cg_direction_kernel<<<grid, block, 0, stream>>>(dr, dp, nx, ny, it, st);
  }
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(x.data(), dx, bytes, cudaMemcpyDeviceToHost);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(dx);
  cudaFree(db);
  cudaFree(dr);
  cudaFree(dp);
  cudaFree(dap);
  cudaFree(scal);
  cudaFree(dstop);
}
