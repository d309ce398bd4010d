#include <cuda_runtime.h>

#define BX 32
#define BY 8

// Both fields are staged per block in (8+2) x (32+2) shared tiles: each value of u
// and kappa is read from global memory once per block instead of up to five times.
__global__ void diffuse_smem(int nx, int ny, float dt, const float* __restrict__ u, const float* __restrict__ kappa,
                             float* __restrict__ out) {
  __shared__ float su[BY + 2][BX + 2];
  __shared__ float sk[BY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (BY + 2) * (BX + 2); t += BX * BY) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = x0 + tx, gy = y0 + ty;
    bool in = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
    size_t g = (size_t)gy * nx + gx;
    su[ty][tx] = in ? u[g] : 0.0f;
    sk[ty][tx] = in ? kappa[g] : 0.0f;
  }
  __syncthreads();
  int i = blockIdx.x * BX + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
  if (i >= nx || j >= ny) return;
  int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
  float c = su[sy][sx];
  size_t k = (size_t)j * nx + i;
  if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
    out[k] = c;
    return;
  }
  float kc = sk[sy][sx];
  float kE = 0.5f * (kc + sk[sy][sx + 1]);
  float kW = 0.5f * (kc + sk[sy][sx - 1]);
  float kS = 0.5f * (kc + sk[sy + 1][sx]);
  float kN = 0.5f * (kc + sk[sy - 1][sx]);
  float flux = kE * (su[sy][sx + 1] - c) - kW * (c - su[sy][sx - 1]) + kS * (su[sy + 1][sx] - c) - kN * (c - su[sy - 1][sx]);
  out[k] = c + dt * flux;
}

void diffuse_variable_coeff(int nx, int ny, float dt, const float* u, const float* kappa, float* out) {
  if (nx <= 0 || ny <= 0) return;
  size_t bytes = (size_t)nx * ny * sizeof(float);
  float *d_u = nullptr, *d_k = nullptr, *d_out = nullptr;
  cudaMalloc(&d_u, bytes);
  cudaMalloc(&d_k, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_k, kappa, bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  diffuse_smem<<<grid, block>>>(nx, ny, dt, d_u, d_k, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_k);
  cudaFree(d_out);
}
