#include <cuda_runtime.h>
#include <vector>

__device__ __forceinline__ float pix(const float* img, int width, int height, int x, int y) {
  x = min(max(x, 0), width - 1);
  y = min(max(y, 0), height - 1);
  return img[y * width + x];
}

// Pass 1: one thread per pixel computes the Sobel gradients and writes the three
// structure-tensor products to separate device images.
__global__ void harris_products(const float* img, int width, int height, float* ixx, float* iyy, float* ixy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float gx = (pix(img, width, height, x + 1, y - 1) + 2.0f * pix(img, width, height, x + 1, y) +
              pix(img, width, height, x + 1, y + 1)) -
             (pix(img, width, height, x - 1, y - 1) + 2.0f * pix(img, width, height, x - 1, y) +
              pix(img, width, height, x - 1, y + 1));
  float gy = (pix(img, width, height, x - 1, y + 1) + 2.0f * pix(img, width, height, x, y + 1) +
              pix(img, width, height, x + 1, y + 1)) -
             (pix(img, width, height, x - 1, y - 1) + 2.0f * pix(img, width, height, x, y - 1) +
              pix(img, width, height, x + 1, y - 1));
  int i = y * width + x;
  ixx[i] = gx * gx;
  iyy[i] = gy * gy;
  ixy[i] = gx * gy;
}

#define BX 32
#define BY 8

// Pass 2 with shared-memory tiles: the block loads the (8+2) x (32+2) window of
// each product image once (clamped coordinates replicate the border exactly as
// the reference's clamped window does), then sums from shared memory, so each
// product value is read from global memory about once instead of nine times.
__global__ void harris_window_smem(const float* __restrict__ ixx, const float* __restrict__ iyy,
                                   const float* __restrict__ ixy, int width, int height, float k, float* __restrict__ R) {
  __shared__ float sxx_t[BY + 2][BX + 2];
  __shared__ float syy_t[BY + 2][BX + 2];
  __shared__ float sxy_t[BY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (BY + 2) * (BX + 2); t += BX * BY) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = min(max(x0 + tx, 0), width - 1);
    int gy = min(max(y0 + ty, 0), height - 1);
    size_t q = (size_t)gy * width + gx;
    sxx_t[ty][tx] = ixx[q];
    syy_t[ty][tx] = iyy[q];
    sxy_t[ty][tx] = ixy[q];
  }
  __syncthreads();
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  if (x >= width || y >= height) return;
  float sxx = 0.0f, syy = 0.0f, sxy = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) {
      sxx += sxx_t[threadIdx.y + dy][threadIdx.x + dx];
      syy += syy_t[threadIdx.y + dy][threadIdx.x + dx];
      sxy += sxy_t[threadIdx.y + dy][threadIdx.x + dx];
    }
  float det = sxx * syy - sxy * sxy;
  float tr = sxx + syy;
  R[(size_t)y * width + x] = det - k * tr * tr;
}

void harris_corner_response(const std::vector<float>& img, std::vector<float>& R, int width, int height, float k) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_img, *d_ixx, *d_iyy, *d_ixy, *d_R;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_ixx, bytes);
  cudaMalloc(&d_iyy, bytes);
  cudaMalloc(&d_ixy, bytes);
  cudaMalloc(&d_R, bytes);
  cudaMemcpy(d_img, img.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
  harris_products<<<grid, block>>>(d_img, width, height, d_ixx, d_iyy, d_ixy);
  harris_window_smem<<<grid, block>>>(d_ixx, d_iyy, d_ixy, width, height, k, d_R);
  cudaMemcpy(R.data(), d_R, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_ixx);
  cudaFree(d_iyy);
  cudaFree(d_ixy);
  cudaFree(d_R);
}
