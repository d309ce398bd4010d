#include <cuda_runtime.h>

#define NC 16  // classes

struct Record {
  int label;
  float score;
};

// Grid-stride loop: a fixed, GPU-sized grid whose threads walk the table with
// stride gridDim.x*blockDim.x, so each block zeroes and flushes its private
// histogram once for many records instead of once per 256.
__global__ void class_kernel(int n, const Record* __restrict__ r, double* sums, int* counts) {
  __shared__ double bs[NC];
  __shared__ int bc[NC];
  if (threadIdx.x < NC) {
    bs[threadIdx.x] = 0.0;
    bc[threadIdx.x] = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    Record rec = r[i];
    atomicAdd(bs + rec.label, (double)rec.score);
    atomicAdd(bc + rec.label, 1);
  }
  __syncthreads();
  if (threadIdx.x < NC && bc[threadIdx.x] > 0) {
    atomicAdd(sums + threadIdx.x, bs[threadIdx.x]);
    atomicAdd(counts + threadIdx.x, bc[threadIdx.x]);
  }
}

void class_score_sums(int n, const Record* records, double* sums, int* counts) {
  Record* dr = nullptr;
  double* dsums = nullptr;
  int* dcounts = nullptr;
  cudaMalloc(&dr, (size_t)(n > 0 ? n : 1) * sizeof(Record));
  cudaMalloc(&dsums, NC * sizeof(double));
  cudaMalloc(&dcounts, NC * sizeof(int));
  cudaMemset(dsums, 0, NC * sizeof(double));
  cudaMemset(dcounts, 0, NC * sizeof(int));
  if (n > 0) {
    cudaMemcpy(dr, records, (size_t)n * sizeof(Record), cudaMemcpyHostToDevice);
    int block = 256;
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms < 1) sms = 1;
    int grid = sms * 8;
    int needed = (n + block - 1) / block;
    if (grid > needed) grid = needed;
    class_kernel<<<grid, block>>>(n, dr, dsums, dcounts);
  }
  cudaMemcpy(sums, dsums, NC * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, dcounts, NC * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dr);
  cudaFree(dsums);
  cudaFree(dcounts);
}
