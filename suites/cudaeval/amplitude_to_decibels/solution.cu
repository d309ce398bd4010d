#include <cuda_runtime.h>
#include <cstddef>

__device__ __forceinline__ float to_db(float amp, float ref, float floor_db) {
  float a = fabsf(amp);
  if (a < 1e-10f) a = 1e-10f;
  float v = 20.0f * log10f(a / ref);
  return v < floor_db ? floor_db : v;
}

// Step 1 (thread_mapping): every sample converts independently.
// Step 2 (vectorized_memory_access): each thread moves four samples with one
// 16-byte load and one 16-byte store (cudaMalloc returns 256-byte aligned
// memory); threads 0..n%4-1 of the grid also convert the scalar tail.
__global__ void db_kernel(int n, const float* __restrict__ amp, float ref, float floor_db, float* __restrict__ db) {
  int n4 = n / 4;
  const float4* a4 = reinterpret_cast<const float4*>(amp);
  float4* d4 = reinterpret_cast<float4*>(db);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  for (int i = tid; i < n4; i += stride) {
    float4 v = a4[i];
    float4 r;
    r.x = to_db(v.x, ref, floor_db);
    r.y = to_db(v.y, ref, floor_db);
    r.z = to_db(v.z, ref, floor_db);
    r.w = to_db(v.w, ref, floor_db);
    d4[i] = r;
  }
  int tail = n - n4 * 4;
  if (tid < tail) db[n4 * 4 + tid] = to_db(amp[n4 * 4 + tid], ref, floor_db);
}

void amplitudeToDb(int n, const float* amp, float ref, float floor_db, float* db) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *da = nullptr, *dd = nullptr;
  cudaMalloc(&da, bytes);
  cudaMalloc(&dd, bytes);
  cudaMemcpy(da, amp, bytes, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  int work = n / 4 > 0 ? n / 4 : 1;
  int needed = (work + block - 1) / block;
  int cap = sms * 8;
  int grid = needed < cap ? needed : cap;
  db_kernel<<<grid, block>>>(n, da, ref, floor_db, dd);
  cudaMemcpy(db, dd, bytes, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(dd);
}
