#include <cuda_runtime.h>
#include <vector>

#define BX 32
#define BY 8

// Loads one z-plane of the block's (8+2) x (32+2) window into a shared slot.
__device__ __forceinline__ void load_plane(float (*plane)[BX + 2], const float* __restrict__ in, int nx, int ny, int z,
                                           int x0, int y0, int tid) {
  for (int t = tid; t < (BY + 2) * (BX + 2); t += BX * BY) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = x0 + tx, gy = y0 + ty;
    bool inside = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
    plane[ty][tx] = inside ? __ldg(&in[((long)z * ny + gy) * nx + gx]) : 0.0f;
  }
}

// 2.5-D blocking: a 32 x 8 block owns a column of the grid and marches through
// all z, producing one output per thread per plane. Three shared planes (z-1, z,
// z+1) rotate, so each input value is loaded from global memory once per column
// block instead of once per 3-D brick with a halo in every direction.
__global__ void st27_march(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                           float c0, float c1, float c2, float c3) {
  __shared__ float planes[3][BY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  int x = x0 + 1 + threadIdx.x, y = y0 + 1 + threadIdx.y;
  int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
  bool active = x < nx && y < ny;
  bool edge_xy = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
  load_plane(planes[0], in, nx, ny, 0, x0, y0, tid);  // plane z lives in slot z % 3
  for (int z = 0; z < nz; ++z) {
    if (z + 1 < nz) load_plane(planes[(z + 1) % 3], in, nx, ny, z + 1, x0, y0, tid);
    __syncthreads();
    if (active) {
      long idx = ((long)z * ny + y) * nx + x;
      if (edge_xy || z == 0 || z == nz - 1) {
        out[idx] = planes[z % 3][sy][sx];
      } else {
        float sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int dz = -1; dz <= 1; ++dz) {
          float (*p)[BX + 2] = planes[(z + dz + 3) % 3];
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              int cls = (dx != 0) + (dy != 0) + (dz != 0);
              sums[cls] += p[sy + dy][sx + dx];
            }
        }
        out[idx] = c0 * sums[0] + c1 * sums[1] + c2 * sums[2] + c3 * sums[3];
      }
    }
    __syncthreads();  // slot of plane z-1 is overwritten next iteration
  }
}

void stencil27_weighted(const std::vector<float>& in, std::vector<float>& out, int nx, int ny, int nz,
                        float c0, float c1, float c2, float c3) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  size_t bytes = (size_t)nx * ny * nz * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  st27_march<<<grid, block>>>(d_in, d_out, nx, ny, nz, c0, c1, c2, c3);
  cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
