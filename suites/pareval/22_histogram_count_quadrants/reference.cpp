#include <array>
#include <cstddef>
#include <vector>

struct Point {
   double x, y;
};

// Quadrant counts, counter-clockwise from the upper right: bins[0] x >= 0, y >= 0;
// bins[1] x < 0, y >= 0; bins[2] x < 0, y < 0; bins[3] x >= 0, y < 0. A zero coordinate counts
// as non-negative, so every point is in exactly one bin.
void countQuadrants(std::vector<Point> const& points, std::array<size_t, 4> &bins) {
  bins.fill(0);
  for (const Point& p : points) {
    std::size_t q;
    if (p.y >= 0) {
      q = p.x >= 0 ? 0 : 1;
    } else {
      q = p.x < 0 ? 2 : 3;
    }
    ++bins[q];
  }
}
