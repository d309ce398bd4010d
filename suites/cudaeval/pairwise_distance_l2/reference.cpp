#include <cmath>
#include <vector>

struct Point3 {
  float x, y, z;
};

// Euclidean distance between matching points: dist[i] = |a[i] - b[i]|.
// a, b and dist all have the same length.
void matchedPointDistances(std::vector<Point3> const& a, std::vector<Point3> const& b,
                           std::vector<float>& dist) {
  for (size_t i = 0; i < a.size(); ++i) {
    float dx = a[i].x - b[i].x;
    float dy = a[i].y - b[i].y;
    float dz = a[i].z - b[i].z;
    dist[i] = std::sqrt(dx * dx + dy * dy + dz * dz);
  }
}
