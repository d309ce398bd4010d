#include <cuda_runtime.h>

#define NC 16  // classes

struct Record {
  int label;
  float score;
};

// One thread per record adds its score and a count to its class's global
// totals with atomicAdd (double atomicAdd: sm_60+).
__global__ void class_kernel(int n, const Record* r, double* sums, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Record rec = r[i];
  atomicAdd(sums + rec.label, (double)rec.score);
  atomicAdd(counts + rec.label, 1);
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
    class_kernel<<<(n + block - 1) / block, block>>>(n, dr, dsums, dcounts);
  }
  cudaMemcpy(sums, dsums, NC * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, dcounts, NC * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dr);
  cudaFree(dsums);
  cudaFree(dcounts);
}
