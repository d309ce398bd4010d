// Linear dequantisation: out[i] = float(q[i]) * scale + bias.
void dequantizeLinear(int n, const int* q, float scale, float bias, float* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = static_cast<float>(q[i]) * scale + bias;
  }
}
