#include <cmath>
#include <limits>
#include <vector>

struct Point {
  double x, y;
};

double distance(Point const& p1, Point const& p2) {
  return std::sqrt(std::pow(p2.x - p1.x, 2) + std::pow(p2.y - p1.y, 2));
}

// Every pair once; fewer than 2 points leave the result at DBL_MAX.
double closestPair(std::vector<Point> const& points) {
  const size_t n = points.size();
  double best = std::numeric_limits<double>::max();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      double d = distance(points[i], points[j]);
      if (d < best) best = d;
    }
  return best;
}
