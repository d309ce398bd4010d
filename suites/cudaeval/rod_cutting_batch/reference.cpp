#include <vector>

// Rod cutting for a batch of independent price lists: rod r has length len
// and may be cut into pieces of integer lengths; a piece of length k + 1
// sells for prices[r * len + k]. best[r] is the largest total price over all
// ways to cut rod r (keeping it whole is one of them). The classic unbounded
// dynamic programme: dp[j] = max over the first piece k <= j of
// price(k) + dp[j - k], dp[0] = 0.
void rodCuttingBatch(int nrods, int len, const int* prices, int* best) {
  std::vector<int> dp(len + 1);
  for (int r = 0; r < nrods; ++r) {
    const int* p = prices + static_cast<long long>(r) * len;
    dp[0] = 0;
    for (int j = 1; j <= len; ++j) {
      int m = p[j - 1];
      for (int k = 1; k < j; ++k) {
        int v = p[k - 1] + dp[j - k];
        if (v > m) m = v;
      }
      dp[j] = m;
    }
    best[r] = dp[len];
  }
}
