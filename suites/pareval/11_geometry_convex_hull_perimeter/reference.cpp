#include <algorithm>
#include <cmath>
#include <vector>

struct Point {
  double x, y;
};

double distance(Point const& p1, Point const& p2) {
  return std::sqrt(std::pow(p2.x - p1.x, 2) + std::pow(p2.y - p1.y, 2));
}

static double turn(Point const& o, Point const& a, Point const& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Monotone chain hull (strict corners), then the length of the closed polygon through them.
double convexHullPerimeter(std::vector<Point> const& points) {
  std::vector<Point> p(points);
  std::sort(p.begin(), p.end(), [](Point const& a, Point const& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  p.erase(std::unique(p.begin(), p.end(), [](Point const& a, Point const& b) {
            return a.x == b.x && a.y == b.y;
          }),
          p.end());
  std::vector<Point> h;
  if (p.size() < 3) {
    h = p;
  } else {
    h.resize(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i) {
      while (k >= 2 && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
      h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, lo = k + 1; i-- > 0;) {
      while (k >= lo && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
      h[k++] = p[i];
    }
    h.resize(k - 1);
  }
  double perimeter = 0.0;
  for (size_t i = 0; i < h.size(); ++i) perimeter += distance(h[i], h[(i + 1) % h.size()]);
  return perimeter;
}
