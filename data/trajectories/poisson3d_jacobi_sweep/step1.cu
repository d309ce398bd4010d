#include <cuda_runtime.h>
#include <cstddef>

// One thread per grid point, with the grid axes taken in the order of the
// serial loops: blockIdx/threadIdx .x -> i, .y -> j, .z -> k.
__global__ void jacobi3d_naive(int nx, int ny, int nz, float h, const float* u, const float* f,
                               float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= nx || j >= ny || k >= nz) return;
  if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1) {
    out[((size_t)i * ny + j) * nz + k] = u[((size_t)i * ny + j) * nz + k];
    return;
  }
  float s = u[((size_t)(i - 1) * ny + j) * nz + k] + u[((size_t)(i + 1) * ny + j) * nz + k] +
            u[((size_t)i * ny + (j - 1)) * nz + k] + u[((size_t)i * ny + (j + 1)) * nz + k] +
            u[((size_t)i * ny + j) * nz + (k - 1)] + u[((size_t)i * ny + j) * nz + (k + 1)] +
            h * h * f[((size_t)i * ny + j) * nz + k];
  out[((size_t)i * ny + j) * nz + k] = s / 6.0f;
}

void poisson_jacobi3d(int nx, int ny, int nz, float h, const float* u, const float* f,
                      float* out) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  size_t bytes = (size_t)nx * ny * nz * sizeof(float);
  float *d_u, *d_f, *d_out;
  cudaMalloc(&d_u, bytes);
  cudaMalloc(&d_f, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, f, bytes, cudaMemcpyHostToDevice);
  dim3 block(16, 8, 2);
  dim3 grid((nx + 15) / 16, (ny + 7) / 8, (nz + 1) / 2);
  jacobi3d_naive<<<grid, block>>>(nx, ny, nz, h, d_u, d_f, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_f);
  cudaFree(d_out);
}
