// A 1-D convolution layer with "same" zero padding and stride 1, followed by
// ReLU (as in temporal CNNs for audio and sensor data). x is batch x cin x len,
// w is cout x cin x ksize (ksize odd, 1..255), bias has cout entries, and
//   y[n][co][t] = max(0, bias[co] + sum_ci sum_k w[co][ci][k] * x[n][ci][t + k - ksize/2])
// with x taken as 0 outside [0, len). The sum starts from the bias and runs
// over ci, then k, in increasing order, in float.
void conv1dSameRelu(int batch, int cin, int cout, int len, int ksize, const float* x,
                    const float* w, const float* bias, float* y) {
  const int pad = ksize / 2;
  for (int n = 0; n < batch; ++n) {
    for (int co = 0; co < cout; ++co) {
      float* yr = y + (static_cast<long long>(n) * cout + co) * len;
      for (int t = 0; t < len; ++t) {
        float acc = bias[co];
        for (int ci = 0; ci < cin; ++ci) {
          const float* xr = x + (static_cast<long long>(n) * cin + ci) * len;
          const float* wr = w + (static_cast<long long>(co) * cin + ci) * ksize;
          for (int k = 0; k < ksize; ++k) {
            const int s = t + k - pad;
            if (s >= 0 && s < len) acc += wr[k] * xr[s];
          }
        }
        yr[t] = acc > 0.0f ? acc : 0.0f;
      }
    }
  }
}
