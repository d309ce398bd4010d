#include <cuda_runtime.h>
#include <cstddef>
#include <string>
#include <vector>

struct Book {
   std::string title;
   int pages;
};

// The answer is usually near the end, so the search runs back to front in
// growing chunks and stops at the first chunk that holds a short book. For a
// chunk, only the page counts travel to the device (gathered into a compact
// int array: 4 bytes per book instead of the whole struct); a grid-stride
// kernel takes the largest qualifying index per thread, reduces it with warp
// shuffles and shared memory, and one atomicMax per block folds it into the
// result (-1 from the memset = none yet). If no chunk has a short book, a
// one-thread kernel stores books.size().

namespace {
constexpr int kThreads = 256;
constexpr size_t kFirstChunk = size_t(1) << 16;
constexpr size_t kMaxChunk = size_t(1) << 22;
}  // namespace

__global__ void __launch_bounds__(kThreads)
last_short_kernel(const int* __restrict__ pages, size_t count, size_t offset, long long* __restrict__ result) {
  __shared__ long long s_warp[kThreads / 32];
  long long best = -1;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += stride) {
    if (pages[i] < 100) best = (long long)(offset + i);  // i increases: the last hit is the largest
  }
  for (int off = 16; off > 0; off >>= 1) {
    long long o = __shfl_down_sync(0xffffffffu, best, off);
    best = o > best ? o : best;
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) s_warp[warp] = best;
  __syncthreads();
  if (warp == 0) {
    best = lane < kThreads / 32 ? s_warp[lane] : -1;
    for (int off = 16; off > 0; off >>= 1) {
      long long o = __shfl_down_sync(0xffffffffu, best, off);
      best = o > best ? o : best;
    }
    if (lane == 0 && best >= 0) atomicMax(result, best);
  }
}

__global__ void not_found_kernel(long long* result, size_t n) {
  if (*result < 0) *result = (long long)n;
}

size_t findLastShortBook(std::vector<Book> const& books) {
  const size_t n = books.size();
  if (n == 0) return 0;
  const size_t cap = n < kMaxChunk ? n : kMaxChunk;
  std::vector<int> staging(cap);
  int* d_pages = nullptr;
  long long* d_result = nullptr;
  cudaMalloc(&d_pages, cap * sizeof(int));
  cudaMalloc(&d_result, sizeof(long long));
  cudaMemsetAsync(d_result, 0xff, sizeof(long long));
  long long result = -1;
  size_t hi = n, chunk = kFirstChunk < cap ? kFirstChunk : cap;
  while (hi > 0) {
    const size_t lo = hi > chunk ? hi - chunk : 0;
    const size_t count = hi - lo;
    for (size_t i = 0; i < count; ++i) staging[i] = books[lo + i].pages;
    cudaMemcpy(d_pages, staging.data(), count * sizeof(int), cudaMemcpyHostToDevice);
    size_t want = (count + kThreads - 1) / kThreads;
    int blocks = (int)(want > 1024 ? 1024 : want);
    last_short_kernel<<<blocks, kThreads>>>(d_pages, count, lo, d_result);
    cudaMemcpy(&result, d_result, sizeof(long long), cudaMemcpyDeviceToHost);
    if (result >= 0) break;
    hi = lo;
    chunk = chunk * 4 < cap ? chunk * 4 : cap;
  }
  if (result < 0) {
    not_found_kernel<<<1, 1>>>(d_result, n);
    cudaMemcpy(&result, d_result, sizeof(long long), cudaMemcpyDeviceToHost);
  }
  cudaFree(d_pages);
  cudaFree(d_result);
  return (size_t)result;
}
