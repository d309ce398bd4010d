#include <vector>

// The arithmetic mean of x (the sum divided by the element count). x is never empty.
double average(std::vector<double> const& x) {
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}
