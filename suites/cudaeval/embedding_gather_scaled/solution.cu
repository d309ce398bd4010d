#include <cuda_runtime.h>

// Step 1 (thread_mapping): a 2-D grid, blockIdx.y (strided) over tokens and
// x over the columns of the token's row; each thread writes one element (or
// one float4) of the output row, a warp covering a contiguous slice of it.
// Step 2 (vectorized_memory_access): when dim is a multiple of 4 every row
// starts on a 16-byte boundary, so rows are read and written as float4.
template <int kVec>
__global__ void embedding_gather_kernel(int n, const int* __restrict__ ids, int dim,
                                        const float* __restrict__ table, float scale,
                                        float* __restrict__ out) {
  int units = dim / kVec;
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= units) return;
  for (int t = blockIdx.y; t < n; t += gridDim.y) {
    int id = __ldg(&ids[t]);
    long long dst = (long long)t * dim + (long long)u * kVec;
    if (kVec == 4) {
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (id >= 0) {
        v = __ldg(reinterpret_cast<const float4*>(table + (long long)id * dim) + u);
        v.x *= scale;
        v.y *= scale;
        v.z *= scale;
        v.w *= scale;
      }
      *reinterpret_cast<float4*>(out + dst) = v;
    } else {
      out[dst] = id >= 0 ? __ldg(&table[(long long)id * dim + u]) * scale : 0.0f;
    }
  }
}

void embeddingGatherScaled(int n, const int* ids, int vocab, int dim, const float* table,
                           float scale, float* out) {
  if (n <= 0 || dim <= 0) return;
  size_t table_elems = (size_t)vocab * dim;
  size_t out_bytes = (size_t)n * dim * sizeof(float);
  int* d_ids = nullptr;
  float *d_table = nullptr, *d_out = nullptr;
  cudaMalloc(&d_ids, (size_t)n * sizeof(int));
  cudaMalloc(&d_table, (table_elems > 0 ? table_elems : 1) * sizeof(float));
  cudaMalloc(&d_out, out_bytes);
  cudaMemcpy(d_ids, ids, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  if (table_elems > 0)
    cudaMemcpy(d_table, table, table_elems * sizeof(float), cudaMemcpyHostToDevice);
  const int block = 128;
  unsigned gy = (unsigned)(n < 65535 ? n : 65535);
  if (dim % 4 == 0) {
    dim3 grid((unsigned)((dim / 4 + block - 1) / block), gy);
    embedding_gather_kernel<4><<<grid, block>>>(n, d_ids, dim, d_table, scale, d_out);
  } else {
    dim3 grid((unsigned)((dim + block - 1) / block), gy);
    embedding_gather_kernel<1><<<grid, block>>>(n, d_ids, dim, d_table, scale, d_out);
  }
  cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_ids);
  cudaFree(d_table);
  cudaFree(d_out);
}
