#include <algorithm>
#include <cstdint>

// Gradient histograms of histogram-based gradient boosting (LightGBM, XGBoost
// "hist"): every sample i has pre-binned feature values bins[i * nfeat + f]
// (row-major, each < nbins <= 256) and a gradient grad[i] and hessian hess[i].
// For each feature f and bin b,
//   hist_g[f * nbins + b] = sum of grad[i] over samples with bins[i][f] == b
//   hist_h[f * nbins + b] = sum of hess[i] over the same samples,
// accumulated in double. Both histograms are overwritten.
void gbdtGradHistogram(int n, int nfeat, int nbins, const uint8_t* bins, const float* grad,
                       const float* hess, double* hist_g, double* hist_h) {
  std::fill(hist_g, hist_g + nfeat * nbins, 0.0);
  std::fill(hist_h, hist_h + nfeat * nbins, 0.0);
  for (int i = 0; i < n; ++i) {
    const double g = grad[i], h = hess[i];
    const uint8_t* sample = bins + static_cast<long long>(i) * nfeat;
    double* feature_g = hist_g;
    double* feature_h = hist_h;
    for (int f = 0; f < nfeat; ++f, feature_g += nbins, feature_h += nbins) {
      feature_g[sample[f]] += g;
      feature_h[sample[f]] += h;
    }
  }
}
