// 4096-bin histogram of floats over [lo, hi): bin b covers
// [lo + b*w, lo + (b+1)*w) with w = (hi - lo) / 4096. The bin index is
// computed as (int)((v - lo) * scale) with scale = 4096.0f / (hi - lo), all in
// float, and clamped to 4095 in case rounding lands exactly on 4096. Values
// outside [lo, hi) are ignored. bins has 4096 entries and is overwritten.
void histogramWide4096(const float* values, int n, float lo, float hi, int* bins) {
  for (int b = 0; b < 4096; ++b) bins[b] = 0;
  float scale = 4096.0f / (hi - lo);
  for (int i = 0; i < n; ++i) {
    float v = values[i];
    if (v >= lo && v < hi) {
      int b = static_cast<int>((v - lo) * scale);
      if (b > 4095) b = 4095;
      bins[b]++;
    }
  }
}
