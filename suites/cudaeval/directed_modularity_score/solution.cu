#include <cuda_runtime.h>
#include <cstddef>

constexpr int kThreads = 256;
constexpr int kMaxSharedComm = 2048;
constexpr int kEdgesPerThread = 8;

// Step 2 (load_balancing): work is split by edges, not vertices: every thread
// takes kEdgesPerThread consecutive edges whatever the degree distribution,
// finds the source vertex of the first (the last u with row_ptr[u] <= k) by
// binary search, and walks forward across row boundaries.
__device__ __forceinline__ int edge_source(int n, const int* __restrict__ row_ptr, int k) {
  int lo = 0, hi = n;  // answer in [0, n)
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (__ldg(&row_ptr[mid]) <= k) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Step 1 (thread_mapping): threads own segments of kEdgesPerThread edges
// (grid-stride).
// Step 3 (kernel_fusion): the four sums are accumulated in one edge pass.
// Step 4 (atomic_aggregation): per-community weights go to shared-memory
// tables and each block flushes its non-zero entries once (global atomics
// directly when the tables do not fit).
// Step 5 (warp_shuffle_reduction): total and inside weight are reduced per
// warp with shuffles and added with one atomic per warp.
// Step 6 (read_only_cache): labels and the CSR arrays are read with __ldg.
__global__ void modularity_edges_kernel(int n, int nnz, const int* __restrict__ row_ptr, const int* __restrict__ col,
                                        const float* __restrict__ weight, const int* __restrict__ label, int ncomm,
                                        double* __restrict__ out_w, double* __restrict__ in_w,
                                        double* __restrict__ scalars) {
  __shared__ double s_out[kMaxSharedComm], s_in[kMaxSharedComm];
  bool use_shared = ncomm <= kMaxSharedComm;
  if (use_shared) {
    for (int c = threadIdx.x; c < ncomm; c += blockDim.x) {
      s_out[c] = 0.0;
      s_in[c] = 0.0;
    }
  }
  __syncthreads();
  double* t_out = use_shared ? s_out : out_w;
  double* t_in = use_shared ? s_in : in_w;
  double m = 0.0, inside = 0.0;
  long long nseg = ((long long)nnz + kEdgesPerThread - 1) / kEdgesPerThread;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long sg = (long long)blockIdx.x * blockDim.x + threadIdx.x; sg < nseg; sg += stride) {
    int k = (int)(sg * kEdgesPerThread);
    int kend = k + kEdgesPerThread < nnz ? k + kEdgesPerThread : nnz;
    int u = edge_source(n, row_ptr, k);
    int next = __ldg(&row_ptr[u + 1]);
    int cu = __ldg(&label[u]);
    for (; k < kend; ++k) {
      while (k >= next) {  // the segment crossed into the next non-empty row
        ++u;
        next = __ldg(&row_ptr[u + 1]);
        cu = __ldg(&label[u]);
      }
      int cv = __ldg(&label[__ldg(&col[k])]);
      double w = __ldg(&weight[k]);
      m += w;
      if (cu == cv) inside += w;
      atomicAdd(&t_out[cu], w);
      atomicAdd(&t_in[cv], w);
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    m += __shfl_down_sync(0xffffffffu, m, off);
    inside += __shfl_down_sync(0xffffffffu, inside, off);
  }
  if (threadIdx.x % 32 == 0) {
    if (m != 0.0) atomicAdd(&scalars[0], m);
    if (inside != 0.0) atomicAdd(&scalars[1], inside);
  }
  if (!use_shared) return;
  __syncthreads();
  for (int c = threadIdx.x; c < ncomm; c += blockDim.x) {
    if (s_out[c] != 0.0) atomicAdd(&out_w[c], s_out[c]);
    if (s_in[c] != 0.0) atomicAdd(&in_w[c], s_in[c]);
  }
}

// Step 7 (block_tree_reduction): one block sums out_c * inc_c over the
// communities with a shared-memory tree and forms Q.
__global__ void modularity_finish_kernel(int ncomm, const double* __restrict__ out_w,
                                         const double* __restrict__ in_w, const double* __restrict__ scalars,
                                         double* __restrict__ q) {
  __shared__ double part[kThreads];
  double s = 0.0;
  for (int c = threadIdx.x; c < ncomm; c += blockDim.x) s += out_w[c] * in_w[c];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int h = kThreads / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) part[threadIdx.x] += part[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    double m = scalars[0];
    *q = m == 0.0 ? 0.0 : scalars[1] / m - part[0] / (m * m);
  }
}

double directedModularity(int n, const int* row_ptr, const int* col_idx, const float* weight, const int* label,
                          int ncomm) {
  if (n <= 0 || ncomm <= 0) return 0.0;
  int nnz = row_ptr[n];
  size_t eb = (size_t)(nnz > 0 ? nnz : 1);
  int *drp = nullptr, *dcol = nullptr, *dlabel = nullptr;
  float* dw = nullptr;
  double *dout = nullptr, *din = nullptr, *dscal = nullptr, *dq = nullptr;
  cudaMalloc(&drp, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&dcol, eb * sizeof(int));
  cudaMalloc(&dw, eb * sizeof(float));
  cudaMalloc(&dlabel, (size_t)n * sizeof(int));
  cudaMalloc(&dout, (size_t)ncomm * sizeof(double));
  cudaMalloc(&din, (size_t)ncomm * sizeof(double));
  cudaMalloc(&dscal, 2 * sizeof(double));
  cudaMalloc(&dq, sizeof(double));
  cudaMemcpy(drp, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) {
    cudaMemcpy(dcol, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dw, weight, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(dlabel, label, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, (size_t)ncomm * sizeof(double));
  cudaMemset(din, 0, (size_t)ncomm * sizeof(double));
  cudaMemset(dscal, 0, 2 * sizeof(double));
  if (nnz > 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    int grid = (nnz / kEdgesPerThread + kThreads) / kThreads;
    if (grid > sms * 4) grid = sms * 4;
    modularity_edges_kernel<<<grid, kThreads>>>(n, nnz, drp, dcol, dw, dlabel, ncomm, dout, din, dscal);
  }
  modularity_finish_kernel<<<1, kThreads>>>(ncomm, dout, din, dscal, dq);
  double q = 0.0;
  cudaMemcpy(&q, dq, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(drp);
  cudaFree(dcol);
  cudaFree(dw);
  cudaFree(dlabel);
  cudaFree(dout);
  cudaFree(din);
  cudaFree(dscal);
  cudaFree(dq);
  return q;
}
