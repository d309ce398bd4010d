#include <cuda_runtime.h>
#include <vector>

#define BX 32
#define BY 4
#define BZ 2

// Each 32 x 4 x 2 block stages its (2+2) x (4+2) x (32+2) input brick in shared
// memory, so every input value is fetched from global memory about once per block.
__global__ void st27_smem(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                          float c0, float c1, float c2, float c3) {
  __shared__ float tile[BZ + 2][BY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1, z0 = blockIdx.z * BZ - 1;
  int tid = (threadIdx.z * BY + threadIdx.y) * BX + threadIdx.x;
  const int n_tile = (BZ + 2) * (BY + 2) * (BX + 2);
  for (int t = tid; t < n_tile; t += BX * BY * BZ) {
    int tx = t % (BX + 2);
    int ty = (t / (BX + 2)) % (BY + 2);
    int tz = t / ((BX + 2) * (BY + 2));
    int gx = x0 + tx, gy = y0 + ty, gz = z0 + tz;
    bool inside = gx >= 0 && gx < nx && gy >= 0 && gy < ny && gz >= 0 && gz < nz;
    tile[tz][ty][tx] = inside ? __ldg(&in[((long)gz * ny + gy) * nx + gx]) : 0.0f;
  }
  __syncthreads();
  int x = x0 + 1 + threadIdx.x, y = y0 + 1 + threadIdx.y, z = z0 + 1 + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  long idx = ((long)z * ny + y) * nx + x;
  int sx = threadIdx.x + 1, sy = threadIdx.y + 1, sz = threadIdx.z + 1;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[idx] = tile[sz][sy][sx];
    return;
  }
  float sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int cls = (dx != 0) + (dy != 0) + (dz != 0);
        sums[cls] += tile[sz + dz][sy + dy][sx + dx];
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
  dim3 block(BX, BY, BZ);
  dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz + BZ - 1) / BZ);
  st27_smem<<<grid, block>>>(d_in, d_out, nx, ny, nz, c0, c1, c2, c3);
  cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
