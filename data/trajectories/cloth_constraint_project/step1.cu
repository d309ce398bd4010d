#include <cuda_runtime.h>
#include <cstddef>

// Scatter form, as in the serial code: one thread per constraint computes its
// correction and adds it to both endpoints' accumulators with float atomics
// (a particle belongs to up to four constraints); a second kernel applies
// new = pos + stiffness * delta.
__global__ void cloth_constraints_atomic(int W, int H, float rest, const float* pos, float* delta) {
  long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long nh = (long long)H * (W - 1);  // horizontal constraints come first
  long long nv = (long long)(H - 1) * W;
  if (e >= nh + nv) return;
  int p, q;
  if (e < nh) {
    int r = (int)(e / (W - 1));
    int c = (int)(e % (W - 1));
    p = r * W + c;
    q = p + 1;
  } else {
    p = (int)(e - nh);
    q = p + W;
  }
  float dx = pos[3 * q] - pos[3 * p];
  float dy = pos[3 * q + 1] - pos[3 * p + 1];
  float dz = pos[3 * q + 2] - pos[3 * p + 2];
  float len = sqrtf(dx * dx + dy * dy + dz * dz);
  if (len <= 1e-6f) return;
  float s = 0.5f * (len - rest) / len;
  atomicAdd(&delta[3 * p], s * dx);
  atomicAdd(&delta[3 * p + 1], s * dy);
  atomicAdd(&delta[3 * p + 2], s * dz);
  atomicAdd(&delta[3 * q], -(s * dx));
  atomicAdd(&delta[3 * q + 1], -(s * dy));
  atomicAdd(&delta[3 * q + 2], -(s * dz));
}

__global__ void cloth_apply(size_t count, float stiffness, const float* pos, const float* delta, float* new_pos) {
  size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  new_pos[k] = pos[k] + stiffness * delta[k];
}

void cloth_jacobi_pass(int W, int H, float rest, float stiffness, const float* pos, float* new_pos) {
  if (W <= 0 || H <= 0) return;
  size_t count = (size_t)W * H * 3;
  float *d_pos = nullptr, *d_delta = nullptr, *d_new = nullptr;
  cudaMalloc(&d_pos, count * sizeof(float));
  cudaMalloc(&d_delta, count * sizeof(float));
  cudaMalloc(&d_new, count * sizeof(float));
  cudaMemcpy(d_pos, pos, count * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_delta, 0, count * sizeof(float));
  int block = 256;
  long long ncons = (long long)H * (W - 1) + (long long)(H - 1) * W;
  if (ncons > 0) {
    cloth_constraints_atomic<<<(unsigned)((ncons + block - 1) / block), block>>>(W, H, rest, d_pos, d_delta);
  }
  cloth_apply<<<(unsigned)((count + block - 1) / block), block>>>(count, stiffness, d_pos, d_delta, d_new);
  cudaMemcpy(new_pos, d_new, count * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_pos);
  cudaFree(d_delta);
  cudaFree(d_new);
}
