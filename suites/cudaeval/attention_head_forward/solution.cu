#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): each query is owned by L adjacent lanes, L the
// power of two >= ceil(d / 32) (1, 2 or 4); a block of kThreads threads
// serves kThreads / L queries.
// Step 2 (kernel_fusion): scores, softmax and the weighted sum of V are one
// kernel; the nq x nk score matrix is never written.
// Step 3 (algorithmic_restructuring): online softmax: each query keeps a
// running max m, running sum l and output accumulator; a new score s with
// s > m rescales l and the accumulator by exp(m - s).
// Step 4 (shared_memory_tiling): K and V are streamed in tiles of 32 keys
// through shared memory, each tile read by every query of the block.
// Step 5 (register_tiling): each lane keeps its 32-wide slice of q and of the
// output accumulator in registers (L lanes cover d <= 32 L).
// Step 6 (warp_shuffle_reduction): the L lanes' partial dot products are
// summed with __shfl_xor_sync (the L lanes of a query are adjacent).
// Step 7 (bank_conflict_avoidance): staged rows are stored as L slices of 33
// floats, so lanes reading the same position of different slices hit
// different banks (with 32-float slices they would all hit one bank).
// Step 8 (fast_math_intrinsics): the exponentials use __expf.
constexpr int kThreads = 128;
constexpr int kTileK = 32;
constexpr int kSlice = 33;

template <int L>
__global__ void attention_kernel(int nq, int nk, int d, const float* __restrict__ Q,
                                 const float* __restrict__ K, const float* __restrict__ V,
                                 float scale, float* __restrict__ O) {
  __shared__ float ks[kTileK][L * kSlice];
  __shared__ float vs[kTileK][L * kSlice];
  constexpr int kQueries = kThreads / L;
  int sub = threadIdx.x % L;
  int qi = blockIdx.x * kQueries + threadIdx.x / L;
  bool active = qi < nq;
  float q[32], acc[32];
#pragma unroll
  for (int t = 0; t < 32; ++t) {
    int dim = sub * 32 + t;
    q[t] = (active && dim < d) ? __ldg(&Q[(long long)qi * d + dim]) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < nk; j0 += kTileK) {
    int nt = min(kTileK, nk - j0);
    __syncthreads();  // previous tile fully consumed
    for (int e = threadIdx.x; e < kTileK * L * 32; e += kThreads) {
      int j = e / (L * 32), dim = e - j * (L * 32);
      int col = (dim >> 5) * kSlice + (dim & 31);
      bool ok = j < nt && dim < d;
      ks[j][col] = ok ? __ldg(&K[(long long)(j0 + j) * d + dim]) : 0.0f;
      vs[j][col] = ok ? __ldg(&V[(long long)(j0 + j) * d + dim]) : 0.0f;
    }
    __syncthreads();
    for (int j = 0; j < nt; ++j) {
      const float* kr = &ks[j][sub * kSlice];
      float dot = 0.0f;
#pragma unroll
      for (int t = 0; t < 32; ++t) dot += q[t] * kr[t];
#pragma unroll
      for (int off = 1; off < L; off <<= 1) dot += __shfl_xor_sync(0xffffffffu, dot, off);
      float s = scale * dot;
      float corr = 1.0f, p;
      if (s > m) {
        corr = __expf(m - s);  // 0 when m is -inf
        m = s;
        p = 1.0f;
      } else {
        p = __expf(s - m);
      }
      l = l * corr + p;
      const float* vr = &vs[j][sub * kSlice];
#pragma unroll
      for (int t = 0; t < 32; ++t) acc[t] = acc[t] * corr + p * vr[t];
    }
  }
  if (!active) return;
  float inv = l > 0.0f ? 1.0f / l : 0.0f;  // nk = 0: a zero row, as the reference
#pragma unroll
  for (int t = 0; t < 32; ++t) {
    int dim = sub * 32 + t;
    if (dim < d) O[(long long)qi * d + dim] = acc[t] * inv;
  }
}

// Heads wider than 128: one thread per (query, 32-wide output slice), the
// dot products read from global memory; same online softmax.
__global__ void attention_wide_kernel(int nq, int nk, int d, const float* __restrict__ Q,
                                      const float* __restrict__ K, const float* __restrict__ V,
                                      float scale, float* __restrict__ O) {
  int slices = (d + 31) / 32;
  long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= (long long)nq * slices) return;
  int qi = (int)(tid / slices), sub = (int)(tid % slices);
  const float* q = Q + (long long)qi * d;
  float acc[32];
#pragma unroll
  for (int t = 0; t < 32; ++t) acc[t] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < nk; ++j) {
    const float* k = K + (long long)j * d;
    float dot = 0.0f;
    for (int t = 0; t < d; ++t) dot += __ldg(&q[t]) * __ldg(&k[t]);
    float s = scale * dot, corr = 1.0f, p;
    if (s > m) {
      corr = __expf(m - s);
      m = s;
      p = 1.0f;
    } else {
      p = __expf(s - m);
    }
    l = l * corr + p;
    const float* v = V + (long long)j * d + sub * 32;
#pragma unroll
    for (int t = 0; t < 32; ++t)
      acc[t] = acc[t] * corr + p * (sub * 32 + t < d ? __ldg(&v[t]) : 0.0f);
  }
  float inv = l > 0.0f ? 1.0f / l : 0.0f;
  for (int t = 0; t < 32 && sub * 32 + t < d; ++t)
    O[(long long)qi * d + sub * 32 + t] = acc[t] * inv;
}

void attentionHeadForward(int nq, int nk, int d, const float* Q, const float* K, const float* V,
                          float scale, float* O) {
  if (nq <= 0 || d <= 0) return;
  if (nk < 0) nk = 0;
  size_t qb = (size_t)nq * d * sizeof(float), kb = (size_t)nk * d * sizeof(float);
  float *d_q = nullptr, *d_k = nullptr, *d_v = nullptr, *d_o = nullptr;
  cudaMalloc(&d_q, qb);
  cudaMalloc(&d_k, kb > 0 ? kb : sizeof(float));
  cudaMalloc(&d_v, kb > 0 ? kb : sizeof(float));
  cudaMalloc(&d_o, qb);
  cudaMemcpy(d_q, Q, qb, cudaMemcpyHostToDevice);
  if (kb > 0) {
    cudaMemcpy(d_k, K, kb, cudaMemcpyHostToDevice);
    cudaMemcpy(d_v, V, kb, cudaMemcpyHostToDevice);
  }
  int L = (d + 31) / 32;
  if (L <= 4) {
    if (L == 3) L = 4;  // lanes per query must divide the warp
    int per_block = kThreads / L;
    int grid = (nq + per_block - 1) / per_block;
    if (L == 1) attention_kernel<1><<<grid, kThreads>>>(nq, nk, d, d_q, d_k, d_v, scale, d_o);
    if (L == 2) attention_kernel<2><<<grid, kThreads>>>(nq, nk, d, d_q, d_k, d_v, scale, d_o);
    if (L == 4) attention_kernel<4><<<grid, kThreads>>>(nq, nk, d, d_q, d_k, d_v, scale, d_o);
  } else {
    long long threads = (long long)nq * L;
    attention_wide_kernel<<<(unsigned)((threads + 127) / 128), 128>>>(nq, nk, d, d_q, d_k, d_v,
                                                                      scale, d_o);
  }
  cudaMemcpy(O, d_o, qb, cudaMemcpyDeviceToHost);
  cudaFree(d_q);
  cudaFree(d_k);
  cudaFree(d_v);
  cudaFree(d_o);
}
