// Exclusive prefix sum: y[i] = x[0] + ... + x[i-1] (y[0] = 0). The running
// total is kept in double and rounded to float for each output.
void exclusivePrefixSumF32(int n, const float* x, float* y) {
  double acc = 0.0;
  for (int i = 0; i < n; ++i) {
    y[i] = static_cast<float>(acc);
    acc += x[i];
  }
}
