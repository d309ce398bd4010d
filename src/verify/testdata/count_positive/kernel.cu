// One thread per element; a block-wide count then one atomicAdd per block.
__global__ void countPositive(const double* x, size_t N, int* count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  int mine = (i < N && x[i] > 0.0) ? 1 : 0;
  int block = __syncthreads_count(mine);
  if (threadIdx.x == 0 && block > 0) atomicAdd(count, block);
}
