#include <cuda_runtime.h>
#include <vector>

// One thread per grid point on a 3-D grid of 32 x 4 x 2 blocks.
__global__ void st27_naive(const float* in, float* out, int nx, int ny, int nz, float c0, float c1, float c2, float c3) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  long idx = ((long)z * ny + y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[idx] = in[idx];
    return;
  }
  float sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int cls = (dx != 0) + (dy != 0) + (dz != 0);
        sums[cls] += in[idx + ((long)dz * ny + dy) * nx + dx];
      }
  out[idx] = c0 * sums[0] + c1 * sums[1] + c2 * sums[2] + c3 * sums[3];
}

void stencil27_weighted(const std::vector<float>& in, std::vector<float>& out, int nx, int ny, int nz,
                        float c0, float c1, float c2, float c3) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  size_t bytes = (size_t)nx * ny * nz * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 4, 2);
  dim3 grid((nx + 31) / 32, (ny + 3) / 4, (nz + 1) / 2);
  st27_naive<<<grid, block>>>(d_in, d_out, nx, ny, nz, c0, c1, c2, c3);
  cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
