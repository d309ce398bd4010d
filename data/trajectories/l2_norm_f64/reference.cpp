#include <cmath>
#include <vector>

// Euclidean (L2) norm of a double vector: sqrt of the sum of squares.
double euclideanNorm(std::vector<double> const& v) {
  double sum = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    sum += v[i] * v[i];
  }
  return std::sqrt(sum);
}
