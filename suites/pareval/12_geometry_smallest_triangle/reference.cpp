#include <cmath>
#include <limits>
#include <vector>

struct Point {
  double x, y;
};

double triangleArea(Point const& A, Point const& B, Point const& C) {
  return 0.5 * std::abs(A.x * (B.y - C.y) + B.x * (C.y - A.y) + C.x * (A.y - B.y));
}

// Every triple once; fewer than 3 points leave the result at DBL_MAX.
double smallestArea(std::vector<Point> const& points) {
  const size_t n = points.size();
  double best = std::numeric_limits<double>::max();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      for (size_t k = j + 1; k < n; ++k) {
        double a = triangleArea(points[i], points[j], points[k]);
        if (a < best) best = a;
      }
  return best;
}
