#include <algorithm>
#include <vector>

struct Point {
  double x, y;
};

// Twice the signed area of triangle (o, a, b): > 0 when o -> a -> b turns left.
static double turn(Point const& o, Point const& a, Point const& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Andrew's monotone chain. Only strict corners are kept: points on the interior of an
// edge and repeated points are dropped, so the result is the set of hull vertices.
void convexHull(std::vector<Point> const& points, std::vector<Point> &hull) {
  std::vector<Point> p(points);
  std::sort(p.begin(), p.end(), [](Point const& a, Point const& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  p.erase(std::unique(p.begin(), p.end(), [](Point const& a, Point const& b) {
            return a.x == b.x && a.y == b.y;
          }),
          p.end());
  hull.clear();
  if (p.size() < 3) {
    hull = p;
    return;
  }
  std::vector<Point> h(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {  // lower chain
    while (k >= 2 && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (size_t i = p.size() - 1, lo = k + 1; i-- > 0;) {  // upper chain
    while (k >= lo && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);  // the last point repeats the first
  hull = h;
}
