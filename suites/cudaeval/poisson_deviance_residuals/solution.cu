#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): every observation's residual is independent and
// computed by one thread, with the reference's formula and branches.
// Step 2 (grid_stride_loop): the grid is capped at a few blocks per SM and
// threads stride over the array, so any n is covered by one launch and every
// thread amortises its setup over several elements.
__global__ void deviance_kernel(int n, const int* __restrict__ y, const double* __restrict__ mu,
                                double* __restrict__ res) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double yi = (double)y[i];
    double m = mu[i];
    double term = yi > 0.0 ? yi * log(yi / m) : 0.0;
    double d = 2.0 * (term - (yi - m));
    if (d < 0.0) d = 0.0;
    double s = sqrt(d);
    res[i] = yi > m ? s : (yi < m ? -s : 0.0);
  }
}

void poissonDevianceResiduals(int n, const int* y, const double* mu, double* res) {
  if (n <= 0) return;
  int* d_y = nullptr;
  double *d_mu = nullptr, *d_res = nullptr;
  cudaMalloc(&d_y, (size_t)n * sizeof(int));
  cudaMalloc(&d_mu, (size_t)n * sizeof(double));
  cudaMalloc(&d_res, (size_t)n * sizeof(double));
  cudaMemcpy(d_y, y, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_mu, mu, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  int needed = (n + block - 1) / block;
  int grid = needed < sms * 8 ? needed : sms * 8;
  deviance_kernel<<<grid, block>>>(n, d_y, d_mu, d_res);
  cudaMemcpy(res, d_res, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_y);
  cudaFree(d_mu);
  cudaFree(d_res);
}
