#include <cstddef>
#include <vector>

// One Game of Life step on an N x N row-major board of 0 (dead) / 1 (alive)
// cells. Neighbours are the eight surrounding cells; positions beyond the
// board are dead (no wrap-around). A live cell survives with 2 or 3 live
// neighbours and dies otherwise; a dead cell is born with exactly 3.
void gameOfLife(std::vector<int> const& input, std::vector<int> &output, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j) {
      int live = 0;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          if (di == 0 && dj == 0) continue;
          long long r = (long long)i + di, c = (long long)j + dj;
          if (r < 0 || c < 0 || r >= (long long)N || c >= (long long)N) continue;
          live += input[(size_t)r * N + (size_t)c];
        }
      }
      int alive = input[i * N + j];
      output[i * N + j] = alive ? ((live == 2 || live == 3) ? 1 : 0) : ((live == 3) ? 1 : 0);
    }
  }
}
