#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

// The 256-entry table is built on the host exactly as the reference builds it
// (same libm, same expression), so its bytes are identical; the device gathers.
static void build_gamma_lut(float gamma, uint8_t lut[256]) {
  for (int v = 0; v < 256; ++v) {
    float f = std::pow(v / 255.0f, gamma);
    int q = (int)(f * 255.0f + 0.5f);
    lut[v] = (uint8_t)(q > 255 ? 255 : q);
  }
}

// Grid-stride version of the 16-pixels-per-thread kernel: the grid is sized to
// the device (SM count x resident blocks) instead of to the data, so each block
// stages the table once and then streams many 16-byte groups; with 100M pixels
// this replaces ~24K table copies by a few hundred.
__global__ void gamma_lookup_stride(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, int n,
                                    const uint8_t* __restrict__ lut) {
  __shared__ uint8_t s_lut[256];
  for (int t = threadIdx.x; t < 256; t += blockDim.x) s_lut[t] = lut[t];
  __syncthreads();
  long groups = (long)n / 16;
  long stride = (long)gridDim.x * blockDim.x;
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    uint4 v = reinterpret_cast<const uint4*>(in)[g];
    unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      unsigned x = w[q];
      w[q] = (unsigned)s_lut[x & 255u] | ((unsigned)s_lut[(x >> 8) & 255u] << 8) |
             ((unsigned)s_lut[(x >> 16) & 255u] << 16) | ((unsigned)s_lut[x >> 24] << 24);
    }
    reinterpret_cast<uint4*>(out)[g] = make_uint4(w[0], w[1], w[2], w[3]);
  }
  // tail: the last n % 16 pixels, one per thread of block 0
  long tail = groups * 16;
  if (blockIdx.x == 0 && tail + threadIdx.x < n) out[tail + threadIdx.x] = s_lut[in[tail + threadIdx.x]];
}

void gamma_correct_u8(const uint8_t* in, uint8_t* out, int n, float gamma) {
  if (n <= 0) return;
  uint8_t lut[256];
  build_gamma_lut(gamma, lut);
  uint8_t *d_in = nullptr, *d_out = nullptr, *d_lut = nullptr;
  cudaMalloc(&d_in, (size_t)n);
  cudaMalloc(&d_out, (size_t)n);
  cudaMalloc(&d_lut, 256);
  cudaMemcpy(d_in, in, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_lut, lut, 256, cudaMemcpyHostToDevice);
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gamma_lookup_stride, 256, 0);
  long groups = (long)n / 16;
  long want = (long)sms * (per_sm > 0 ? per_sm : 1);
  long needed = (groups + 255) / 256;
  int grid = (int)(needed < want ? (needed > 0 ? needed : 1) : want);
  gamma_lookup_stride<<<grid, 256>>>(d_in, d_out, n, d_lut);
  cudaMemcpy(out, d_out, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_lut);
}
