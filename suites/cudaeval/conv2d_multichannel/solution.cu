#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Direct convolution, one block per (32 x 8 pixel tile, group of COB output
// channels). Each thread owns one pixel and COB = 8 output channels, so every
// input value it reads feeds eight accumulators. Input channels are processed
// CI_CHUNK = 4 at a time: the block stages 4 input tiles with their zero halo
// (4 x 10 x 34) and the matching 8 x 4 x 9 weights in shared memory, with one
// pair of barriers per chunk. A warp is one 32-pixel row, so its shared reads
// hit 32 consecutive words (no bank conflicts) and the weight reads are
// broadcasts. The 3x3 window of a channel is held in registers and reused for
// all eight output channels. Per output the terms are added in the serial
// order (bias, then ci, ky, kx); padded positions add an exact 0.
#define TX 32
#define TY 8
#define COB 8
#define CI_CHUNK 4
#define HALO_W (TX + 2)
#define HALO_H (TY + 2)

__global__ void conv_layer_kernel(const float* __restrict__ in, const float* __restrict__ w,
                                  const float* __restrict__ bias, float* __restrict__ out, int c_in, int c_out,
                                  int height, int width) {
  __shared__ float s_in[CI_CHUNK][HALO_H][HALO_W];
  __shared__ float s_w[COB][CI_CHUNK][9];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * TX + tx;
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const int co0 = blockIdx.z * COB;
  const int x = x0 + tx, y = y0 + ty;

  float acc[COB];
#pragma unroll
  for (int o = 0; o < COB; ++o) acc[o] = (co0 + o < c_out) ? bias[co0 + o] : 0.0f;

  for (int ci0 = 0; ci0 < c_in; ci0 += CI_CHUNK) {
    for (int idx = tid; idx < CI_CHUNK * HALO_H * HALO_W; idx += TX * TY) {
      int c = idx / (HALO_H * HALO_W);
      int rem = idx % (HALO_H * HALO_W);
      int r = rem / HALO_W, col = rem % HALO_W;
      int ci = ci0 + c, gy = y0 - 1 + r, gx = x0 - 1 + col;
      float v = 0.0f;
      if (ci < c_in && gy >= 0 && gy < height && gx >= 0 && gx < width)
        v = in[((size_t)ci * height + gy) * width + gx];
      s_in[c][r][col] = v;
    }
    for (int idx = tid; idx < COB * CI_CHUNK * 9; idx += TX * TY) {
      int o = idx / (CI_CHUNK * 9);
      int rem = idx % (CI_CHUNK * 9);
      int c = rem / 9, k = rem % 9;
      int co = co0 + o, ci = ci0 + c;
      s_w[o][c][k] = (co < c_out && ci < c_in) ? w[((size_t)co * c_in + ci) * 9 + k] : 0.0f;
    }
    __syncthreads();

    int chunk = c_in - ci0 < CI_CHUNK ? c_in - ci0 : CI_CHUNK;  // uniform across the block
    for (int c = 0; c < chunk; ++c) {
      float v[9];
#pragma unroll
      for (int ky = 0; ky < 3; ++ky)
#pragma unroll
        for (int kx = 0; kx < 3; ++kx) v[ky * 3 + kx] = s_in[c][ty + ky][tx + kx];
#pragma unroll
      for (int o = 0; o < COB; ++o) {
#pragma unroll
        for (int k = 0; k < 9; ++k) acc[o] += s_w[o][c][k] * v[k];
      }
    }
    __syncthreads();
  }

  if (x < width && y < height) {
#pragma unroll
    for (int o = 0; o < COB; ++o) {
      int co = co0 + o;
      if (co < c_out) out[((size_t)co * height + y) * width + x] = acc[o];
    }
  }
}

void convLayer3x3(std::vector<float> const& input, std::vector<float> const& weights, std::vector<float> const& bias,
                  std::vector<float>& output, int c_in, int c_out, int height, int width) {
  if (c_out <= 0 || height <= 0 || width <= 0) return;
  int cin = c_in > 0 ? c_in : 0;
  size_t inElems = (size_t)cin * height * width;
  size_t wElems = (size_t)c_out * cin * 9;
  size_t outElems = (size_t)c_out * height * width;
  float *din = nullptr, *dw = nullptr, *db = nullptr, *dout = nullptr;
  cudaMalloc(&din, (inElems > 0 ? inElems : 1) * sizeof(float));
  cudaMalloc(&dw, (wElems > 0 ? wElems : 1) * sizeof(float));
  cudaMalloc(&db, (size_t)c_out * sizeof(float));
  cudaMalloc(&dout, outElems * sizeof(float));
  if (inElems > 0) cudaMemcpy(din, input.data(), inElems * sizeof(float), cudaMemcpyHostToDevice);
  if (wElems > 0) cudaMemcpy(dw, weights.data(), wElems * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, bias.data(), (size_t)c_out * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TX, TY);
  dim3 grid((unsigned)((width + TX - 1) / TX), (unsigned)((height + TY - 1) / TY), (unsigned)((c_out + COB - 1) / COB));
  conv_layer_kernel<<<grid, block>>>(din, dw, db, dout, cin, c_out, height, width);
  cudaMemcpy(output.data(), dout, outElems * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dw);
  cudaFree(db);
  cudaFree(dout);
}
