#include <cuda_runtime.h>

// Step 1 (thread_mapping): one thread per pair of points.
// Step 2 (strength_reduction): the reference converts every angle to
// radians and then halves it; here each argument is kept in degrees and fed
// to sinpi/cospi (which take multiples of pi), so sin(d / 2 * pi / 180) is
// sinpi(d / 360) and cos(lat * pi / 180) is cospi(lat / 180): the
// conversions fold into one multiplication by a precomputed reciprocal and
// the pi-scaled functions skip their own argument reduction by pi.
__global__ void haversine_kernel(const double* __restrict__ lat1, const double* __restrict__ lon1,
                                 const double* __restrict__ lat2, const double* __restrict__ lon2, int n,
                                 double* __restrict__ km) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double kInv180 = 1.0 / 180.0;
  const double kInv360 = 1.0 / 360.0;
  const double kTwoRadius = 2.0 * 6371.0088;
  double a1 = lat1[i], a2 = lat2[i];
  double s1 = sinpi((a2 - a1) * kInv360);
  double s2 = sinpi((lon2[i] - lon1[i]) * kInv360);
  double a = s1 * s1 + cospi(a1 * kInv180) * cospi(a2 * kInv180) * s2 * s2;
  km[i] = kTwoRadius * asin(fmin(1.0, sqrt(a)));
}

void haversineDistances(const double* lat1, const double* lon1, const double* lat2, const double* lon2, int n,
                        double* km) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(double);
  double *d_lat1 = nullptr, *d_lon1 = nullptr, *d_lat2 = nullptr, *d_lon2 = nullptr, *d_km = nullptr;
  cudaMalloc(&d_lat1, bytes);
  cudaMalloc(&d_lon1, bytes);
  cudaMalloc(&d_lat2, bytes);
  cudaMalloc(&d_lon2, bytes);
  cudaMalloc(&d_km, bytes);
  cudaMemcpy(d_lat1, lat1, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_lon1, lon1, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_lat2, lat2, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_lon2, lon2, bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  haversine_kernel<<<(n + block - 1) / block, block>>>(d_lat1, d_lon1, d_lat2, d_lon2, n, d_km);
  cudaMemcpy(km, d_km, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_lat1);
  cudaFree(d_lon1);
  cudaFree(d_lat2);
  cudaFree(d_lon2);
  cudaFree(d_km);
}
