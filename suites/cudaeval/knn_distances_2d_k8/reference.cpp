#include <cmath>

// k-nearest-neighbour distances in the plane for k = 8, the inner step of
// point-cloud denoising, density estimation and k-NN classifiers: for each
// query q, the 8 smallest squared Euclidean distances (dx * dx + dy * dy in
// float, dx = px - qx) from q to the np reference points, ascending, in
// out[8q .. 8q+7]. A point at distance 0 counts. np >= 8, nq >= 0.
void knnDistances8(const float* qx, const float* qy, int nq, const float* px, const float* py, int np, float* out) {
  for (int q = 0; q < nq; ++q) {
    float best[8];
    for (int k = 0; k < 8; ++k) best[k] = INFINITY;
    for (int p = 0; p < np; ++p) {
      float dx = px[p] - qx[q];
      float dy = py[p] - qy[q];
      float d = dx * dx + dy * dy;
      if (d < best[7]) {
        int k = 7;
        while (k > 0 && best[k - 1] > d) {
          best[k] = best[k - 1];
          --k;
        }
        best[k] = d;
      }
    }
    for (int k = 0; k < 8; ++k) out[8 * q + k] = best[k];
  }
}
