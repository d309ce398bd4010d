#include <cuda_runtime.h>

#define BX 32
#define BYT 8             // thread rows per block
#define RPT 4             // rows per thread
#define TY (BYT * RPT)    // 32 rows per block

// Column-marching kernel with cheaper arithmetic. (1) The factor 1/2 of every face
// coefficient is folded into the time step: scaling by 2 is exact in binary
// floating point, so sum-of-kappa coefficients with half_dt = dt / 2 give the
// same values with four fewer multiplies per cell. (2) The south face sum of
// row r is the north face sum of row r + 1, so it is carried in a register
// instead of being recomputed.
__global__ void diffuse_rows4_folded(int nx, int ny, float half_dt, const float* __restrict__ u, const float* __restrict__ kappa,
                             float* __restrict__ out) {
  __shared__ float su[TY + 2][BX + 2];
  __shared__ float sk[TY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * TY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (TY + 2) * (BX + 2); t += BX * BYT) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = x0 + tx, gy = y0 + ty;
    bool in = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
    size_t g = (size_t)gy * nx + gx;
    su[ty][tx] = in ? u[g] : 0.0f;
    sk[ty][tx] = in ? kappa[g] : 0.0f;
  }
  __syncthreads();
  int i = blockIdx.x * BX + threadIdx.x;
  if (i >= nx) return;
  int sx = threadIdx.x + 1, r0 = threadIdx.y * RPT;
  float uu = su[r0][sx], um = su[r0 + 1][sx];
  float km = sk[r0 + 1][sx];
  float sN = km + sk[r0][sx];  // face sum towards the row above (kc + kup)
#pragma unroll
  for (int r = 0; r < RPT; ++r) {
    int sy = r0 + r + 1;
    float ud = su[sy + 1][sx], kd = sk[sy + 1][sx];
    float sS = km + kd;  // becomes the next row's north face sum (addition is commutative)
    int j = blockIdx.y * TY + r0 + r;
    if (j < ny) {
      size_t k = (size_t)j * nx + i;
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        out[k] = um;
      } else {
        float sE = km + sk[sy][sx + 1];
        float sW = km + sk[sy][sx - 1];
        float flux2 = sE * (su[sy][sx + 1] - um) - sW * (um - su[sy][sx - 1]) + sS * (ud - um) - sN * (um - uu);
        out[k] = um + half_dt * flux2;
      }
    }
    uu = um;
    um = ud;
    km = kd;
    sN = sS;
  }
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
  dim3 block(BX, BYT);
  dim3 grid((nx + BX - 1) / BX, (ny + TY - 1) / TY);
  diffuse_rows4_folded<<<grid, block>>>(nx, ny, 0.5f * dt, d_u, d_k, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_k);
  cudaFree(d_out);
}
