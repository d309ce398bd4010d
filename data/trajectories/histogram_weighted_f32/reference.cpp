#include <vector>

// Weighted histogram: hist[b] = sum of weight[i] over all i with bin_of[i] == b
// (bin_of values are in 0..nbins-1). Sums are accumulated in double.
void weightedBinSums(int n, const int* bin_of, const float* weight, int nbins, float* hist) {
  std::vector<double> acc(nbins, 0.0);
  for (int i = 0; i < n; ++i) {
    acc[bin_of[i]] += weight[i];
  }
  for (int b = 0; b < nbins; ++b) hist[b] = static_cast<float>(acc[b]);
}
