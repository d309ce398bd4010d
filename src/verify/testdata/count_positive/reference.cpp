#include <vector>

// Counts the elements of x that are greater than zero.
int countPositive(std::vector<double> const& x) {
  int count = 0;
  for (double v : x) count += v > 0.0;
  return count;
}
