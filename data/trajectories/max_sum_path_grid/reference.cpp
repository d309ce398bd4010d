#include <cstddef>
#include <cstdint>
#include <vector>

// Maximum sum of the cells on a monotone path through a rows x cols integer
// grid (row-major) from the top-left to the bottom-right cell, moving only
// right or down. dp[i][j] = grid[i][j] + max(dp[i-1][j], dp[i][j-1]).
int64_t max_path_sum(const std::vector<int>& grid, int rows, int cols) {
  std::vector<int64_t> dp(cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      int64_t g = grid[(size_t)i * cols + j];
      if (i == 0 && j == 0) dp[j] = g;
      else if (i == 0) dp[j] = dp[j - 1] + g;
      else if (j == 0) dp[j] = dp[j] + g;
      else dp[j] = g + (dp[j] > dp[j - 1] ? dp[j] : dp[j - 1]);
    }
  }
  return dp[cols - 1];
}
