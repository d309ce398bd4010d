// Evaluates a degree-(6,6) rational approximation R(x) = P(x) / Q(x), the form
// of Pade and minimax approximations that math libraries use for special
// functions, at every sample: P(x) = p[0] + p[1] x + ... + p[6] x^6 and
// Q(x) = q[0] + ... + q[6] x^6, both by Horner's rule. The caller guarantees
// x >= 0 and positive q, so Q never vanishes.
void rationalEval(int n, const float* x, const float* p, const float* q, float* y) {
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    float num = p[6];
    float den = q[6];
    for (int k = 5; k >= 0; --k) {
      num = num * v + p[k];
      den = den * v + q[k];
    }
    y[i] = num / den;
  }
}
