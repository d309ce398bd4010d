#include <utility>
#include <vector>

// Runs `iters` Jacobi sweeps of the 5-point Laplace stencil on a rows x cols
// row-major grid, in place. Each sweep replaces every interior cell by the
// average of its four neighbours from the previous sweep,
//   new[i][j] = 0.25f * (old[i-1][j] + old[i+1][j] + old[i][j-1] + old[i][j+1]),
// while the cells of the outer border stay fixed (Dirichlet boundary).
void jacobiSweeps(std::vector<float>& grid, int rows, int cols, int iters) {
  std::vector<float> next(grid);
  for (int it = 0; it < iters; ++it) {
    for (int i = 1; i < rows - 1; ++i) {
      for (int j = 1; j < cols - 1; ++j) {
        float up = grid[(i - 1) * cols + j];
        float down = grid[(i + 1) * cols + j];
        float left = grid[i * cols + j - 1];
        float right = grid[i * cols + j + 1];
        next[i * cols + j] = 0.25f * (up + down + left + right);
      }
    }
    std::swap(grid, next);
  }
}
