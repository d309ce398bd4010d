#include <cuda_runtime.h>
#include <vector>

// Step 1 (thread_mapping): threads update interior cells of the colour
// being relaxed: in row y, thread t takes column 1 + 2t + parity, where the
// parity puts the column on the colour, so no thread sits idle on a cell of
// the other colour; 2-D blocks of 32 x 8 threads cover the half-width rows.
// Step 2 (kernel_fission): red and black are separate launches. Every black
// cell needs the new values of its red neighbours, anywhere in the grid, and
// the launch boundary is the global barrier that guarantees them.
// Step 3 (minimize_transfers): u and f are copied to the device once, all
// iterations run there, and only u is copied back.
// Step 4 (register_tiling): each thread relaxes kSorPer cells of its colour
// in rows 8 apart (so a warp still works on one contiguous row stretch per
// update), a quarter of the threads and blocks per launch.
constexpr int kSorX = 32;
constexpr int kSorY = 8;
constexpr int kSorPer = 4;

__global__ void sor_color_kernel(float* __restrict__ u, const float* __restrict__ f, int nx, int ny, int color,
                                 float omega, float w4, float h2) {
  const int t = blockIdx.x * kSorX + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kSorPer; ++k) {
    const int y = 1 + blockIdx.y * (kSorY * kSorPer) + threadIdx.y + k * kSorY;
    if (y >= ny - 1) return;
    const int x = 1 + 2 * t + (y + 1 + color) % 2;
    if (x >= nx - 1) continue;
    const int c = y * nx + x;
    float sum = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + h2 * f[c];
    u[c] = (1.0f - omega) * u[c] + w4 * sum;
  }
}

void redBlackSor(std::vector<float>& u, const std::vector<float>& f, int nx, int ny, int iters, float omega,
                 float h2) {
  if (nx < 3 || ny < 3 || iters <= 0) return;
  size_t bytes = (size_t)nx * ny * sizeof(float);
  float *du = nullptr, *df = nullptr;
  cudaMalloc(&du, bytes);
  cudaMalloc(&df, bytes);
  cudaMemcpy(du, u.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(df, f.data(), bytes, cudaMemcpyHostToDevice);
  const float w4 = omega * 0.25f;
  int half = (nx - 2 + 1) / 2;  // cells of one colour in a row, at most
  dim3 block(kSorX, kSorY);
  dim3 grid((half + kSorX - 1) / kSorX, (ny - 2 + kSorY * kSorPer - 1) / (kSorY * kSorPer));
  for (int it = 0; it < iters; ++it) {
    sor_color_kernel<<<grid, block>>>(du, df, nx, ny, 0, omega, w4, h2);
    sor_color_kernel<<<grid, block>>>(du, df, nx, ny, 1, omega, w4, h2);
  }
  cudaMemcpy(u.data(), du, bytes, cudaMemcpyDeviceToHost);
  cudaFree(du);
  cudaFree(df);
}
