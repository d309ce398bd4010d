#include <cmath>
#include <vector>

// Dynamic time warping distance between one query series and each of many
// candidate series of the same length len (candidates row-major, ncand x len),
// as in nearest-neighbour search over time series: with cost |q[i] - c[j]|,
//   D[i][j] = cost(i, j) + min(D[i-1][j], D[i][j-1], D[i-1][j-1]),
// D[0][0] = cost(0, 0), and cells outside the table left out of the min.
// dist[p] = D[len-1][len-1] for candidate p. No warping window; kept in two
// rows of memory. len >= 1.
void dtwDistances(int ncand, int len, const float* query, const float* cands, float* dist) {
  std::vector<float> prev(len), cur(len);
  for (int p = 0; p < ncand; ++p) {
    const float* c = cands + static_cast<long long>(p) * len;
    for (int i = 0; i < len; ++i) {
      for (int j = 0; j < len; ++j) {
        float cost = std::fabs(query[i] - c[j]);
        float best;
        if (i == 0 && j == 0) {
          best = 0.0f;
        } else if (i == 0) {
          best = cur[j - 1];
        } else if (j == 0) {
          best = prev[j];
        } else {
          best = std::fmin(std::fmin(prev[j], cur[j - 1]), prev[j - 1]);
        }
        cur[j] = cost + best;
      }
      prev.swap(cur);
    }
    dist[p] = prev[len - 1];
  }
}
