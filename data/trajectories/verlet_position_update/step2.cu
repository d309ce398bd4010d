#include <cuda_runtime.h>
#include <cstddef>

// float4 version: the 3n floats are processed as total/4 float4 vectors (the
// cudaMalloc buffers are 16-byte aligned), one vector per thread; the last
// total % 4 floats are done by the first threads one at a time.
__global__ void verlet_vec4(size_t total, float dt, float half_dt2, const float4* __restrict__ p4,
                            const float4* __restrict__ v4, const float4* __restrict__ a4, float4* __restrict__ o4,
                            const float* __restrict__ pos, const float* __restrict__ vel,
                            const float* __restrict__ acc, float* __restrict__ new_pos) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t nvec = total / 4;
  if (t < nvec) {
    float4 p = p4[t], v = v4[t], a = a4[t];
    float4 o;
    o.x = p.x + v.x * dt + a.x * half_dt2;
    o.y = p.y + v.y * dt + a.y * half_dt2;
    o.z = p.z + v.z * dt + a.z * half_dt2;
    o.w = p.w + v.w * dt + a.w * half_dt2;
    o4[t] = o;
  }
  size_t k = nvec * 4 + t;
  if (t < 4 && k < total) new_pos[k] = pos[k] + vel[k] * dt + acc[k] * half_dt2;
}

void verlet_positions(int n, float dt, const float* pos, const float* vel, const float* acc, float* new_pos) {
  if (n <= 0) return;
  size_t total = (size_t)n * 3;
  size_t bytes = total * sizeof(float);
  float half_dt2 = 0.5f * dt * dt;
  float *d_p = nullptr, *d_v = nullptr, *d_a = nullptr, *d_out = nullptr;
  cudaMalloc(&d_p, bytes);
  cudaMalloc(&d_v, bytes);
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_p, pos, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, vel, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_a, acc, bytes, cudaMemcpyHostToDevice);
  size_t nvec = total / 4;
  size_t threads = nvec > 4 ? nvec : 4;
  int block = 256;
  verlet_vec4<<<(unsigned)((threads + block - 1) / block), block>>>(
      total, dt, half_dt2, reinterpret_cast<const float4*>(d_p), reinterpret_cast<const float4*>(d_v),
      reinterpret_cast<const float4*>(d_a), reinterpret_cast<float4*>(d_out), d_p, d_v, d_a, d_out);
  cudaMemcpy(new_pos, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_v);
  cudaFree(d_a);
  cudaFree(d_out);
}
