// Kernel form: one thread per point, a single launch. Each warp counts its points per quadrant
// with ballots, lane 0 of each warp adds the four counts to shared memory, and one 64-bit atomic
// per non-zero bin per block adds them to the global bins (zero on entry).
struct Point {
   double x, y;
};

static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__global__ void countQuadrants(const Point *points, size_t N, size_t bins[4]) {
  __shared__ unsigned int local[4];
  if (threadIdx.x < 4) local[threadIdx.x] = 0u;
  __syncthreads();
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  int q = -1;
  if (i < N) {
    Point p = points[i];
    q = p.y >= 0 ? (p.x >= 0 ? 0 : 1) : (p.x < 0 ? 2 : 3);
  }
  for (int b = 0; b < 4; ++b) {
    unsigned int votes = __ballot_sync(0xffffffffu, q == b);
    if ((threadIdx.x & 31) == 0 && votes) atomicAdd(&local[b], (unsigned int)__popc(votes));
  }
  __syncthreads();
  if (threadIdx.x < 4 && local[threadIdx.x]) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&bins[threadIdx.x]),
              (unsigned long long)local[threadIdx.x]);
  }
}
