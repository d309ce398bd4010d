#include <cstddef>
#include <vector>

// Returns the sum of the elements of x. The running total is kept in double
// so that the serial result is accurate even for tens of millions of
// elements; it is rounded to float once at the end.
float sumFloatArray(const std::vector<float>& x) {
  double sum = 0.0;
  for (size_t i = 0; i < x.size(); ++i) sum += x[i];
  return static_cast<float>(sum);
}
