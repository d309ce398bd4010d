#include <vector>

// Moving average with a window of radius `radius` (2*radius + 1 samples):
// out[i] is the mean of in[j] for j in [i - radius, i + radius] clipped to the
// array, i.e. near the ends only the samples that exist are averaged.
void boxFilter1d(const std::vector<float>& in, std::vector<float>& out, int radius) {
  int n = static_cast<int>(in.size());
  for (int i = 0; i < n; ++i) {
    int lo = i - radius < 0 ? 0 : i - radius;
    int hi = i + radius > n - 1 ? n - 1 : i + radius;
    float sum = 0.0f;
    for (int j = lo; j <= hi; ++j) sum += in[j];
    out[i] = sum / static_cast<float>(hi - lo + 1);
  }
}
