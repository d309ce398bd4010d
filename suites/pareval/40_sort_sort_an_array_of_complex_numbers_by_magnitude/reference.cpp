#include <algorithm>
#include <complex>
#include <vector>

// Orders x by |x[i]|, smallest first. Stable: elements of equal magnitude
// keep their input order.
void sortComplexByMagnitude(std::vector<std::complex<double>> &x) {
  std::stable_sort(x.begin(), x.end(), [](std::complex<double> const& a, std::complex<double> const& b) {
    return std::abs(a) < std::abs(b);
  });
}
