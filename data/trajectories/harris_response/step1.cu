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

// Pass 2: one thread per pixel sums the products over the clamped 3x3 window.
__global__ void harris_window(const float* ixx, const float* iyy, const float* ixy, int width, int height, float k,
                              float* R) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sxx = 0.0f, syy = 0.0f, sxy = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), width - 1);
      int q = yy * width + xx;
      sxx += ixx[q];
      syy += iyy[q];
      sxy += ixy[q];
    }
  }
  float det = sxx * syy - sxy * sxy;
  float tr = sxx + syy;
  R[y * width + x] = det - k * tr * tr;
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
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  harris_products<<<grid, block>>>(d_img, width, height, d_ixx, d_iyy, d_ixy);
  harris_window<<<grid, block>>>(d_ixx, d_iyy, d_ixy, width, height, k, d_R);
  cudaMemcpy(R.data(), d_R, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_ixx);
  cudaFree(d_iyy);
  cudaFree(d_ixy);
  cudaFree(d_R);
}
