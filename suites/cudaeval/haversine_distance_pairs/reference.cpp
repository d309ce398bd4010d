#include <cmath>

// Great-circle distance in kilometres between n pairs of points on a sphere
// of radius 6371.0088 km (the mean Earth radius), by the haversine formula.
// Latitudes and longitudes are in degrees: pair i runs from (lat1[i],
// lon1[i]) to (lat2[i], lon2[i]).
//   a = sin^2(dlat / 2) + cos(lat1) cos(lat2) sin^2(dlon / 2)
//   d = 2 R asin(min(1, sqrt(a)))
void haversineDistances(const double* lat1, const double* lon1, const double* lat2, const double* lon2, int n,
                        double* km) {
  const double kPi = 3.14159265358979323846;
  const double kRadius = 6371.0088;
  for (int i = 0; i < n; ++i) {
    double p1 = lat1[i] * kPi / 180.0;
    double p2 = lat2[i] * kPi / 180.0;
    double dlat = (lat2[i] - lat1[i]) * kPi / 180.0;
    double dlon = (lon2[i] - lon1[i]) * kPi / 180.0;
    double s1 = std::sin(dlat / 2.0);
    double s2 = std::sin(dlon / 2.0);
    double a = s1 * s1 + std::cos(p1) * std::cos(p2) * s2 * s2;
    km[i] = 2.0 * kRadius * std::asin(std::fmin(1.0, std::sqrt(a)));
  }
}
