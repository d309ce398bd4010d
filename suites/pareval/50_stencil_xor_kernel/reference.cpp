#include <cstddef>
#include <vector>

// For each cell of an N x N row-major grid of 0/1 values, count how many of
// its (up to) eight surrounding cells hold a 1; the cell itself is not
// counted and positions outside the grid contribute nothing. The output cell
// is 1 exactly when that count is one, and 0 otherwise.
void cellsXOR(std::vector<int> const& input, std::vector<int> &output, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j) {
      int count = 0;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          if (di == 0 && dj == 0) continue;
          long long r = (long long)i + di, c = (long long)j + dj;
          if (r < 0 || c < 0 || r >= (long long)N || c >= (long long)N) continue;
          if (input[(size_t)r * N + (size_t)c] == 1) ++count;
        }
      }
      output[i * N + j] = (count == 1) ? 1 : 0;
    }
  }
}
