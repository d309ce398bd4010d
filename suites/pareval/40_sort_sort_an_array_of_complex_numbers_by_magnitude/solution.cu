#include <cuda_runtime.h>
#include <complex>
#include <cstddef>
#include <vector>

// Sort key: magnitude, then original position (makes the order total, so the
// result equals a stable sort). Padding keys are +inf with the largest index.
struct MagKey {
  double mag;
  unsigned idx;
};

__device__ __forceinline__ bool keyLess(const MagKey& a, const MagKey& b) {
  return a.mag < b.mag || (a.mag == b.mag && a.idx < b.idx);
}

constexpr unsigned kTile = 2048;  // keys per shared-memory tile (1024 threads x 2)

__global__ void makeKeys(const double2* __restrict__ x, MagKey* __restrict__ keys, size_t n, size_t p) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < p; i += (size_t)gridDim.x * blockDim.x) {
    MagKey k;
    if (i < n) {
      double2 z = x[i];
      k.mag = hypot(z.x, z.y);
      k.idx = (unsigned)i;
    } else {
      k.mag = __longlong_as_double(0x7ff0000000000000LL);
      k.idx = 0xffffffffu;
    }
    keys[i] = k;
  }
}

// Bitonic stages inside one tile held in shared memory: stage k from step j0 down
// to 1, then every later stage up to kEnd.
__global__ void bitonicShared(MagKey* keys, unsigned tile, size_t k0, size_t j0, size_t kEnd) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  MagKey* s = reinterpret_cast<MagKey*>(smem_raw);
  size_t base = (size_t)blockIdx.x * tile;
  for (unsigned t = threadIdx.x; t < tile; t += blockDim.x) s[t] = keys[base + t];
  __syncthreads();
  for (size_t k = k0; k <= kEnd; k <<= 1) {
    for (size_t j = (k == k0 ? j0 : k >> 1); j > 0; j >>= 1) {
      for (unsigned t = threadIdx.x; t < tile / 2; t += blockDim.x) {
        unsigned i = (unsigned)(2 * j * (t / j) + (t % j));
        bool up = ((base + i) & k) == 0;
        MagKey a = s[i], b = s[i + j];
        if (up ? keyLess(b, a) : keyLess(a, b)) { s[i] = b; s[i + j] = a; }
      }
      __syncthreads();
    }
  }
  for (unsigned t = threadIdx.x; t < tile; t += blockDim.x) keys[base + t] = s[t];
}

// One bitonic step with a stride too large for a tile.
__global__ void bitonicGlobal(MagKey* keys, size_t half, size_t j, size_t k) {
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < half; t += (size_t)gridDim.x * blockDim.x) {
    size_t i = 2 * j * (t / j) + (t % j);
    bool up = (i & k) == 0;
    MagKey a = keys[i], b = keys[i + j];
    if (up ? keyLess(b, a) : keyLess(a, b)) { keys[i] = b; keys[i + j] = a; }
  }
}

__global__ void gatherSorted(const double2* __restrict__ in, const MagKey* __restrict__ keys, double2* __restrict__ out,
                             size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    out[i] = in[keys[i].idx];
  }
}

static unsigned gridFor(size_t work, unsigned block) {
  size_t g = (work + block - 1) / block;
  if (g < 1) g = 1;
  return (unsigned)(g < 65535 ? g : 65535);
}

void sortComplexByMagnitude(std::vector<std::complex<double>> &x) {
  size_t n = x.size();
  if (n == 0) return;
  size_t p = 2;
  while (p < n) p <<= 1;
  double2 *dIn = nullptr, *dOut = nullptr;
  MagKey* dKeys = nullptr;
  cudaMalloc(&dIn, n * sizeof(double2));
  cudaMalloc(&dOut, n * sizeof(double2));
  cudaMalloc(&dKeys, p * sizeof(MagKey));
  cudaMemcpy(dIn, x.data(), n * sizeof(double2), cudaMemcpyHostToDevice);

  makeKeys<<<gridFor(p, 256), 256>>>(dIn, dKeys, n, p);
  unsigned tile = (unsigned)(p < kTile ? p : kTile);
  unsigned blocks = (unsigned)(p / tile);
  size_t smem = tile * sizeof(MagKey);
  bitonicShared<<<blocks, tile / 2, smem>>>(dKeys, tile, 2, 1, tile);
  for (size_t k = (size_t)tile * 2; k <= p; k <<= 1) {
    size_t j = k >> 1;
    for (; j > tile / 2; j >>= 1) bitonicGlobal<<<gridFor(p / 2, 256), 256>>>(dKeys, p / 2, j, k);
    bitonicShared<<<blocks, tile / 2, smem>>>(dKeys, tile, k, j, k);
  }
  gatherSorted<<<gridFor(n, 256), 256>>>(dIn, dKeys, dOut, n);

  cudaMemcpy(x.data(), dOut, n * sizeof(double2), cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dKeys);
}
