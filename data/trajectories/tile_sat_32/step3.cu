#include <cuda_runtime.h>

#define T 32

// In the row pass lane tx reads tile[tx][k]: with a 32-float pitch all 32
// addresses fall in one bank and every access is replayed 32 times. One float
// of padding per row puts row r's element k in bank (r + k) % 32, so the 32
// lanes hit 32 different banks; the column pass stays conflict-free.
__global__ void sat_tile_padded(int width, int height, const float* img, float* out) {
  __shared__ float tile[T][T + 1];
  int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  bool inside = x0 + tx < width && y0 + ty < height;
  tile[ty][tx] = inside ? img[(size_t)(y0 + ty) * width + x0 + tx] : 0.0f;  // zeros past the edges
  __syncthreads();
  if (ty == 0) {  // warp 0: thread tx scans tile row tx
    float run = 0.0f;
    for (int k = 0; k < T; ++k) {
      run += tile[tx][k];
      tile[tx][k] = run;
    }
  }
  __syncthreads();
  if (ty == 0) {  // then thread tx scans tile column tx
    float run = 0.0f;
    for (int k = 0; k < T; ++k) {
      run += tile[k][tx];
      tile[k][tx] = run;
    }
  }
  __syncthreads();
  if (inside) out[(size_t)(y0 + ty) * width + x0 + tx] = tile[ty][tx];
}

void tile_sat32(int width, int height, const float* img, float* out) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  int tiles_x = (width + 31) / 32, tiles_y = (height + 31) / 32;
  sat_tile_padded<<<dim3(tiles_x, tiles_y), dim3(T, T)>>>(width, height, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
