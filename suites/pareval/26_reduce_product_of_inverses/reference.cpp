#include <cstddef>
#include <vector>

// x[0] * (1/x[1]) * x[2] * (1/x[3]) * ...: elements at even indices multiply, elements at odd
// indices divide. An empty vector gives 1.
double productWithInverses(std::vector<double> const& x) {
  double product = 1.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i % 2 == 0) {
      product *= x[i];
    } else {
      product /= x[i];
    }
  }
  return product;
}
