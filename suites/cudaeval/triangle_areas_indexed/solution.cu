#include <cuda_runtime.h>

struct Vec3f {
  float x, y, z;
};

// Step 1 (thread_mapping): one thread per triangle.
// Step 2 (read_only_cache): vertices are gathered through the index list and
// reused by the triangles around them, so their coordinates are loaded with
// __ldg through the read-only data cache.
__device__ __forceinline__ float3 tri_load_vertex(const Vec3f* __restrict__ verts, int i) {
  const float* p = reinterpret_cast<const float*>(verts + i);
  return make_float3(__ldg(p), __ldg(p + 1), __ldg(p + 2));
}

__global__ void triangle_areas_kernel(const Vec3f* __restrict__ verts, const int* __restrict__ tris, int ntris,
                                      float* __restrict__ areas) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ntris) return;
  float3 a = tri_load_vertex(verts, tris[3 * t]);
  float3 b = tri_load_vertex(verts, tris[3 * t + 1]);
  float3 c = tri_load_vertex(verts, tris[3 * t + 2]);
  float ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
  float vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
  float cx = uy * vz - uz * vy;
  float cy = uz * vx - ux * vz;
  float cz = ux * vy - uy * vx;
  areas[t] = 0.5f * sqrtf(cx * cx + cy * cy + cz * cz);
}

void triangleAreas(const Vec3f* verts, int nverts, const int* tris, int ntris, float* areas) {
  if (ntris <= 0) return;
  Vec3f* dverts = nullptr;
  int* dtris = nullptr;
  float* dareas = nullptr;
  cudaMalloc(&dverts, (size_t)nverts * sizeof(Vec3f));
  cudaMalloc(&dtris, (size_t)ntris * 3 * sizeof(int));
  cudaMalloc(&dareas, (size_t)ntris * sizeof(float));
  cudaMemcpy(dverts, verts, (size_t)nverts * sizeof(Vec3f), cudaMemcpyHostToDevice);
  cudaMemcpy(dtris, tris, (size_t)ntris * 3 * sizeof(int), cudaMemcpyHostToDevice);
  const int block = 256;
  triangle_areas_kernel<<<(ntris + block - 1) / block, block>>>(dverts, dtris, ntris, dareas);
  cudaMemcpy(areas, dareas, (size_t)ntris * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dverts);
  cudaFree(dtris);
  cudaFree(dareas);
}
