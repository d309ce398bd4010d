#include <cstddef>
#include <vector>

// 9-point weighted stencil on a rows x cols row-major grid:
//   out[i][j] = sum over di, dj in {-1, 0, 1} of weights[(di+1)*3 + (dj+1)] * grid[i+di][j+dj]
// Neighbours outside the grid count as zero.
void stencil2d9(const std::vector<float>& grid, std::vector<float>& out, const std::vector<float>& weights,
                size_t rows, size_t cols) {
  for (size_t i = 0; i < rows; ++i) {
    for (size_t j = 0; j < cols; ++j) {
      float sum = 0.0f;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          long long ii = (long long)i + di, jj = (long long)j + dj;
          if (ii < 0 || jj < 0 || ii >= (long long)rows || jj >= (long long)cols) continue;
          sum += weights[(di + 1) * 3 + (dj + 1)] * grid[(size_t)ii * cols + (size_t)jj];
        }
      }
      out[i * cols + j] = sum;
    }
  }
}
