#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one warp per sample row.
// Step 2 (warp_shuffle_reduction): each row's max and sum of exponentials are
// combined across lanes with __shfl_xor_sync, leaving them in every lane.
// Step 3 (algorithmic_restructuring): the serial max pass and exp-sum pass
// become one online pass: each lane keeps a running max m and a sum s of
// exp(z - m), rescaling s by exp(m_old - m_new) when the max grows; two
// (m, s) pairs merge the same way.
// Step 4 (kernel_fusion): loss and gradient come from the same kernel: after
// the reduction a second sweep of the row writes the gradient, and lane 0
// contributes the row's loss term.
// Step 5 (atomic_operations): row losses are summed in a double accumulator
// with atomicAdd; a one-thread kernel divides by batch on the device.
constexpr int kWarpsPerBlock = 4;

__global__ void xent_kernel(int batch, int classes, const float* __restrict__ logits,
                            const int* __restrict__ labels, float* __restrict__ grad,
                            double* __restrict__ loss_sum) {
  int b = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (b >= batch) return;
  const float* z = logits + (long long)b * classes;
  float* g = grad + (long long)b * classes;
  float m = -INFINITY, s = 0.0f;
  for (int c = lane; c < classes; c += 32) {
    float v = __ldg(&z[c]);
    if (v > m) {
      s = s * expf(m - v) + 1.0f;
      m = v;
    } else {
      s += expf(v - m);
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    float mo = __shfl_xor_sync(0xffffffffu, m, off);
    float so = __shfl_xor_sync(0xffffffffu, s, off);
    float mn = fmaxf(m, mo);
    float sa = m == -INFINITY ? 0.0f : s * expf(m - mn);
    float sb = mo == -INFINITY ? 0.0f : so * expf(mo - mn);
    m = mn;
    s = sa + sb;
  }
  int label = __ldg(&labels[b]);
  float inv_sum = 1.0f / s;
  float inv_batch = 1.0f / (float)batch;
  for (int c = lane; c < classes; c += 32) {
    float p = expf(__ldg(&z[c]) - m) * inv_sum;
    g[c] = (p - (c == label ? 1.0f : 0.0f)) * inv_batch;
  }
  if (lane == 0) {
    float row_loss = logf(s) - (__ldg(&z[label]) - m);
    atomicAdd(loss_sum, (double)row_loss);
  }
}

__global__ void zero_loss_kernel(double* loss_sum) { *loss_sum = 0.0; }

__global__ void finish_loss_kernel(int batch, const double* __restrict__ loss_sum,
                                   float* __restrict__ loss) {
  *loss = batch > 0 ? (float)(*loss_sum / batch) : 0.0f;
}

void softmaxXentLossGrad(int batch, int classes, const float* logits, const int* labels,
                         float* grad, float& loss) {
  int nb = batch > 0 ? batch : 0;
  size_t elems = (size_t)nb * (classes > 0 ? classes : 0);
  float *d_logits = nullptr, *d_grad = nullptr, *d_loss = nullptr;
  int* d_labels = nullptr;
  double* d_sum = nullptr;
  cudaMalloc(&d_logits, (elems > 0 ? elems : 1) * sizeof(float));
  cudaMalloc(&d_grad, (elems > 0 ? elems : 1) * sizeof(float));
  cudaMalloc(&d_labels, (size_t)(nb > 0 ? nb : 1) * sizeof(int));
  cudaMalloc(&d_sum, sizeof(double));
  cudaMalloc(&d_loss, sizeof(float));
  if (elems > 0) {
    cudaMemcpy(d_logits, logits, elems * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_labels, labels, (size_t)nb * sizeof(int), cudaMemcpyHostToDevice);
  }
  zero_loss_kernel<<<1, 1>>>(d_sum);
  if (elems > 0) {
    int grid = (nb + kWarpsPerBlock - 1) / kWarpsPerBlock;
    xent_kernel<<<grid, kWarpsPerBlock * 32>>>(nb, classes, d_logits, d_labels, d_grad, d_sum);
  }
  finish_loss_kernel<<<1, 1>>>(nb, d_sum, d_loss);
  if (elems > 0) cudaMemcpy(grad, d_grad, elems * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_logits);
  cudaFree(d_grad);
  cudaFree(d_labels);
  cudaFree(d_sum);
  cudaFree(d_loss);
}
