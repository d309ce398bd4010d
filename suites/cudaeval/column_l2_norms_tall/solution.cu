#include <cuda_runtime.h>
#include <cstddef>

constexpr int kColsPerBlock = 32;
constexpr int kRowStreams = 8;

// Step 1 (thread_mapping): a 2-D grid. threadIdx.x and blockIdx.x pick the
// column, threadIdx.y and blockIdx.y pick an interleaved row stream, so every
// (column, row range) pair has its own thread.
// Step 2 (memory_coalescing): the 32 threads of a warp share threadIdx.y and
// read 32 consecutive columns of the same row: one 128-byte segment per load.
// Step 3 (block_tree_reduction): the eight row-stream sums of each column are
// added in shared memory by a halving tree.
// Step 4 (atomic_operations): each block adds its 32 column sums to the
// global double sums with atomicAdd (the sums are zeroed with cudaMemset).
__global__ void column_sumsq_kernel(int rows, int cols, const float* __restrict__ a, double* __restrict__ sums) {
  __shared__ double part[kRowStreams][kColsPerBlock];
  int c = blockIdx.x * kColsPerBlock + threadIdx.x;
  double acc = 0.0;
  if (c < cols) {
    int stride = gridDim.y * kRowStreams;
    for (int r = blockIdx.y * kRowStreams + threadIdx.y; r < rows; r += stride) {
      double v = a[(size_t)r * cols + c];
      acc += v * v;
    }
  }
  part[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  for (int h = kRowStreams / 2; h > 0; h >>= 1) {
    if (threadIdx.y < h) part[threadIdx.y][threadIdx.x] += part[threadIdx.y + h][threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.y == 0 && c < cols) atomicAdd(&sums[c], part[0][threadIdx.x]);
}

__global__ void sqrt_kernel(int cols, const double* __restrict__ sums, float* __restrict__ norms) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) norms[c] = (float)sqrt(sums[c]);
}

void columnL2Norms(int rows, int cols, const float* a, float* norms) {
  if (cols <= 0) return;
  if (rows < 0) rows = 0;
  size_t count = (size_t)rows * cols;
  float* da = nullptr;
  double* dsums = nullptr;
  float* dn = nullptr;
  cudaMalloc(&da, (count > 0 ? count : 1) * sizeof(float));
  cudaMalloc(&dsums, (size_t)cols * sizeof(double));
  cudaMalloc(&dn, (size_t)cols * sizeof(float));
  if (count > 0) cudaMemcpy(da, a, count * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dsums, 0, (size_t)cols * sizeof(double));
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int gx = (cols + kColsPerBlock - 1) / kColsPerBlock;
  // Enough row slices that the whole grid holds about 8 blocks per SM, but
  // never more slices than row groups of kRowStreams rows.
  int gy = (sms * 8 + gx - 1) / gx;
  int row_groups = (rows + kRowStreams - 1) / kRowStreams;
  if (gy > row_groups) gy = row_groups;
  if (gy < 1) gy = 1;
  if (gy > 65535) gy = 65535;
  dim3 block(kColsPerBlock, kRowStreams);
  dim3 grid(gx, gy);
  column_sumsq_kernel<<<grid, block>>>(rows, cols, da, dsums);
  sqrt_kernel<<<(cols + 255) / 256, 256>>>(cols, dsums, dn);
  cudaMemcpy(norms, dn, (size_t)cols * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(dsums);
  cudaFree(dn);
}
