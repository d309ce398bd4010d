// Mean-centres a batch of b independent segments of length l stored back to
// back: y[s*l + j] = x[s*l + j] - mean(x[s*l .. s*l + l)).
void batched_mean_center(int b, int l, const float* x, float* y) {
  for (int s = 0; s < b; ++s) {
    const float* xs = x + static_cast<long long>(s) * l;
    float* ys = y + static_cast<long long>(s) * l;
    float sum = 0.0f;
    for (int j = 0; j < l; ++j) sum += xs[j];
    float mean = sum / static_cast<float>(l);
    for (int j = 0; j < l; ++j) ys[j] = xs[j] - mean;
  }
}
