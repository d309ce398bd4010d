#include <cuda_runtime.h>
#include <cstddef>

// Correction that constraint (p, q) applies to p, added into (ax, ay, az).
// Seen from q the difference vector is exactly negated and the length is the
// same, so the gather reproduces the scatter's values.
__device__ __forceinline__ void add_correction(float px, float py, float pz, float qx, float qy, float qz,
                                               float rest, float& ax, float& ay, float& az) {
  float dx = qx - px, dy = qy - py, dz = qz - pz;
  float len = sqrtf(dx * dx + dy * dy + dz * dz);
  if (len <= 1e-6f) return;
  float s = 0.5f * (len - rest) / len;
  ax += s * dx;
  ay += s * dy;
  az += s * dz;
}

// Gather form: one thread per particle visits its (up to) four neighbours in
// the same order the serial scatter reaches it (left, right, up, down), sums
// the corrections in registers and writes the new position directly. No
// atomics, no delta buffer, one kernel.
__global__ void cloth_gather(int W, int H, float rest, float stiffness, const float* __restrict__ pos,
                             float* __restrict__ new_pos) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= W || r >= H) return;
  size_t p = (size_t)r * W + c;
  float px = pos[3 * p], py = pos[3 * p + 1], pz = pos[3 * p + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  if (c > 0) {
    size_t q = p - 1;
    add_correction(px, py, pz, pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], rest, ax, ay, az);
  }
  if (c + 1 < W) {
    size_t q = p + 1;
    add_correction(px, py, pz, pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], rest, ax, ay, az);
  }
  if (r > 0) {
    size_t q = p - W;
    add_correction(px, py, pz, pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], rest, ax, ay, az);
  }
  if (r + 1 < H) {
    size_t q = p + W;
    add_correction(px, py, pz, pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], rest, ax, ay, az);
  }
  new_pos[3 * p] = px + stiffness * ax;
  new_pos[3 * p + 1] = py + stiffness * ay;
  new_pos[3 * p + 2] = pz + stiffness * az;
}

void cloth_jacobi_pass(int W, int H, float rest, float stiffness, const float* pos, float* new_pos) {
  if (W <= 0 || H <= 0) return;
  size_t count = (size_t)W * H * 3;
  float *d_pos = nullptr, *d_new = nullptr;
  cudaMalloc(&d_pos, count * sizeof(float));
  cudaMalloc(&d_new, count * sizeof(float));
  cudaMemcpy(d_pos, pos, count * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((unsigned)((W + 31) / 32), (unsigned)((H + 7) / 8));
  cloth_gather<<<grid, block>>>(W, H, rest, stiffness, d_pos, d_new);
  cudaMemcpy(new_pos, d_new, count * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_pos);
  cudaFree(d_new);
}
