// Sample kurtosis (fourth standardized moment, population form):
// mean, then m2 = mean((x - mean)^2) and m4 = mean((x - mean)^4); returns
// m4 / m2^2, or 0 when all samples are equal.
double sampleKurtosis(int n, const double* x) {
  if (n <= 0) return 0.0;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += x[i];
  double mean = sum / n;
  double s2 = 0.0, s4 = 0.0;
  for (int i = 0; i < n; ++i) {
    double d = x[i] - mean;
    double d2 = d * d;
    s2 += d2;
    s4 += d2 * d2;
  }
  double m2 = s2 / n;
  double m4 = s4 / n;
  if (m2 <= 0.0) return 0.0;
  return m4 / (m2 * m2);
}
