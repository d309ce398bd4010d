#include <cstddef>
#include <vector>

struct Element {
	size_t index;
  double value;
};

// z = alpha * x + y, where x and y are sparse vectors of (index, value)
// entries in any order (repeated indices add up) and z is dense: every entry
// of z is overwritten, zero where neither vector has a value.
void sparseAxpy(double alpha, std::vector<Element> const& x, std::vector<Element> const& y, std::vector<double> &z) {
  for (double& v : z) v = 0.0;
  for (Element const& e : x) z[e.index] += alpha * e.value;
  for (Element const& e : y) z[e.index] += e.value;
}
