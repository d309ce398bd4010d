#include <cuda_runtime.h>
#include <cstddef>

// Step 1 (thread_mapping): one thread per spring computes its force; one
// thread per particle integrates.
// Step 2 (atomic_operations): springs meeting at a particle add into its
// force with atomicAdd (force buffer zeroed with cudaMemset first).
// Step 3 (vectorized_memory_access): positions, forces and velocities are
// interleaved xy, read and written as float2 (one 8-byte access).
// Step 4 (read_only_cache): the spring endpoints, rest lengths, masses and
// (in the force pass) positions are never written by the kernel that reads
// them and are loaded with __ldg.
__global__ void spring_force_kernel(int m, const int* __restrict__ ei, const int* __restrict__ ej,
                                    const float* __restrict__ rest, float k, const float2* __restrict__ pos,
                                    float* __restrict__ force) {
  int stride = gridDim.x * blockDim.x;
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < m; s += stride) {
    int a = __ldg(&ei[s]), b = __ldg(&ej[s]);
    float2 pa = __ldg(&pos[a]);
    float2 pb = __ldg(&pos[b]);
    float dx = pb.x - pa.x;
    float dy = pb.y - pa.y;
    float len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-6f) continue;
    float f = k * (len - __ldg(&rest[s])) / len;
    float fx = f * dx, fy = f * dy;
    atomicAdd(&force[2 * a], fx);
    atomicAdd(&force[2 * a + 1], fy);
    atomicAdd(&force[2 * b], -fx);
    atomicAdd(&force[2 * b + 1], -fy);
  }
}

__global__ void integrate_kernel(int n, float damping, float dt, const float* __restrict__ mass,
                                 const float2* __restrict__ force, float2* __restrict__ pos, float2* __restrict__ vel) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float inv_m = 1.0f / __ldg(&mass[i]);
    float2 f = force[i];
    float2 v = vel[i];
    float2 p = pos[i];
    v.x += dt * (f.x - damping * v.x) * inv_m;
    v.y += dt * (f.y - damping * v.y) * inv_m;
    p.x += dt * v.x;
    p.y += dt * v.y;
    vel[i] = v;
    pos[i] = p;
  }
}

void springNetworkStep(int n, int m, const int* ei, const int* ej, const float* rest, float k,
                       float damping, float dt, const float* mass, float* pos, float* vel) {
  if (n <= 0) return;
  size_t pb = (size_t)n * 2 * sizeof(float);
  size_t sb = (size_t)(m > 0 ? m : 1);
  int *dei = nullptr, *dej = nullptr;
  float *drest = nullptr, *dmass = nullptr, *dpos = nullptr, *dvel = nullptr, *dforce = nullptr;
  cudaMalloc(&dei, sb * sizeof(int));
  cudaMalloc(&dej, sb * sizeof(int));
  cudaMalloc(&drest, sb * sizeof(float));
  cudaMalloc(&dmass, (size_t)n * sizeof(float));
  cudaMalloc(&dpos, pb);
  cudaMalloc(&dvel, pb);
  cudaMalloc(&dforce, pb);
  if (m > 0) {
    cudaMemcpy(dei, ei, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dej, ej, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(drest, rest, (size_t)m * sizeof(float), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(dmass, mass, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dpos, pos, pb, cudaMemcpyHostToDevice);
  cudaMemcpy(dvel, vel, pb, cudaMemcpyHostToDevice);
  cudaMemset(dforce, 0, pb);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  int cap = sms * 8;
  if (m > 0) {
    int g = (m + block - 1) / block;
    spring_force_kernel<<<g < cap ? g : cap, block>>>(m, dei, dej, drest, k, reinterpret_cast<const float2*>(dpos),
                                                     dforce);
  }
  int g = (n + block - 1) / block;
  integrate_kernel<<<g < cap ? g : cap, block>>>(n, damping, dt, dmass, reinterpret_cast<const float2*>(dforce),
                                                reinterpret_cast<float2*>(dpos), reinterpret_cast<float2*>(dvel));
  cudaMemcpy(pos, dpos, pb, cudaMemcpyDeviceToHost);
  cudaMemcpy(vel, dvel, pb, cudaMemcpyDeviceToHost);
  cudaFree(dei);
  cudaFree(dej);
  cudaFree(drest);
  cudaFree(dmass);
  cudaFree(dpos);
  cudaFree(dvel);
  cudaFree(dforce);
}
