// Sum of the squares of a vector (ParEval-style signature: the vector knows
// its length).
//   regrapht optimize examples/row_sums.cpp --function sumSquares
#include <vector>

double sumSquares(std::vector<double> const& x) {
  double s = 0.0;
  for (double v : x) s += v * v;
  return s;
}

int main() { return 0; }  // a file may have its own main: regrapht ignores it
