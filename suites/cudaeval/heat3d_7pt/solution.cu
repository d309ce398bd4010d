#include <cuda_runtime.h>

// Trajectory:
// 1 thread_mapping: one grid point per thread.
// 2 memory_coalescing: threadIdx.x walks x, the contiguous dimension, with
//   32-wide blocks, so every warp touches whole 256-byte row segments.
// 3 register_caching: instead of a 3-D grid of threads, each thread owns an
//   (x, y) column and marches along z through a chunk of planes, keeping the
//   values below, at and above the current plane in registers: each u value is
//   loaded once per thread for its three z-uses.
// 4 shared_memory_tiling: the current plane of the block's 32 x 8 column tile,
//   plus a one-cell halo in x and y, is staged in shared memory, so the four
//   in-plane neighbours come from shared memory instead of global memory.
constexpr int kBx = 32;
constexpr int kBy = 8;
constexpr int kZChunk = 16;

__global__ void heat3d_kernel(const double* __restrict__ u, double* __restrict__ unew, int nx, int ny, int nz,
                              double alpha) {
  __shared__ double plane_tile[kBy + 2][kBx + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * kBx + tx;
  const int y = blockIdx.y * kBy + ty;
  const int z0 = blockIdx.z * kZChunk;
  const int z1 = min(z0 + kZChunk, nz);
  const bool active = (x < nx) && (y < ny);
  const long long plane = (long long)nx * ny;
  const long long col = (long long)y * nx + x;

  double below = 0.0, cur = 0.0, above = 0.0;
  if (active) {
    if (z0 > 0) below = u[(z0 - 1) * plane + col];
    cur = u[z0 * plane + col];
  }
  for (int z = z0; z < z1; ++z) {
    const long long i = z * plane + col;
    if (active && z + 1 < nz) above = u[i + plane];
    // Stage the current plane (own value plus the halo cells that exist).
    if (active) {
      plane_tile[ty + 1][tx + 1] = cur;
      if (tx == 0 && x > 0) plane_tile[ty + 1][0] = u[i - 1];
      if (tx == kBx - 1 && x + 1 < nx) plane_tile[ty + 1][kBx + 1] = u[i + 1];
      if (ty == 0 && y > 0) plane_tile[0][tx + 1] = u[i - nx];
      if (ty == kBy - 1 && y + 1 < ny) plane_tile[kBy + 1][tx + 1] = u[i + nx];
    }
    __syncthreads();
    if (active) {
      if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        unew[i] = cur;
      } else {
        // Interior: all six neighbours exist and were staged/loaded above.
        double lap = plane_tile[ty + 1][tx] + plane_tile[ty + 1][tx + 2] + plane_tile[ty][tx + 1] +
                     plane_tile[ty + 2][tx + 1] + below + above - 6.0 * cur;
        unew[i] = cur + alpha * lap;
      }
    }
    __syncthreads();  // the tile is overwritten in the next iteration
    below = cur;
    cur = above;
  }
}

void heatStep3d(const double* u, double* unew, int nx, int ny, int nz, double alpha) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  size_t bytes = (size_t)nx * ny * nz * sizeof(double);
  double *du = nullptr, *dnew = nullptr;
  cudaMalloc(&du, bytes);
  cudaMalloc(&dnew, bytes);
  cudaMemcpy(du, u, bytes, cudaMemcpyHostToDevice);
  dim3 block(kBx, kBy);
  dim3 grid((nx + kBx - 1) / kBx, (ny + kBy - 1) / kBy, (nz + kZChunk - 1) / kZChunk);
  heat3d_kernel<<<grid, block>>>(du, dnew, nx, ny, nz, alpha);
  cudaMemcpy(unew, dnew, bytes, cudaMemcpyDeviceToHost);
  cudaFree(du);
  cudaFree(dnew);
}
