#include <vector>

// Returns the sum of the squares of the elements of x.
double sumOfSquares(std::vector<double> const& x) {
  double sum = 0.0;
  for (double v : x) sum += v * v;
  return sum;
}
