#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Each thread of a grid-stride loop reads four ints as one 16-byte int4 and
// writes their four flags as one 4-byte uchar4 (cudaMalloc memory is
// 256-byte aligned); the up-to-three trailing elements are handled by the
// first threads. std::vector<bool> is bit-packed with an implementation-
// defined layout, so the device writes one byte per flag and the host only
// unpacks the copied-back bytes into the vector.
constexpr int kBlock = 256;

__device__ __forceinline__ unsigned char pow2(int v) { return (v > 0 && (v & (v - 1)) == 0) ? 1 : 0; }

__global__ void map_pow2_kernel(const int* __restrict__ x, unsigned char* __restrict__ mask, size_t n) {
  const size_t quads = n / 4;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  uchar4* m4 = reinterpret_cast<uchar4*>(mask);
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t q = tid; q < quads; q += stride) {
    const int4 v = x4[q];
    m4[q] = make_uchar4(pow2(v.x), pow2(v.y), pow2(v.z), pow2(v.w));
  }
  const size_t tail = quads * 4 + tid;
  if (tail < n) mask[tail] = pow2(x[tail]);
}

void mapPowersOfTwo(std::vector<int> const& x, std::vector<bool> &mask) {
  const size_t n = x.size();
  if (n == 0) return;
  int* dx = nullptr;
  unsigned char* dm = nullptr;
  cudaMalloc(&dx, n * sizeof(int));
  cudaMalloc(&dm, n);
  cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  size_t want = (n / 4 + kBlock - 1) / kBlock;
  size_t cap = (size_t)(sms > 0 ? sms : 80) * 8;
  unsigned grid = (unsigned)(want < 1 ? 1 : (want < cap ? want : cap));
  map_pow2_kernel<<<grid, kBlock>>>(dx, dm, n);
  std::vector<unsigned char> flags(n);
  cudaMemcpy(flags.data(), dm, n, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < n; ++i) mask[i] = flags[i] != 0;
  cudaFree(dx);
  cudaFree(dm);
}
