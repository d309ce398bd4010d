__global__ void scale_kernel(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

void scale(float* a, int n) {
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, a, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_kernel<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(a, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
