// Evaluates p(x) = c0 + c1 x + c2 x^2 + c3 x^3 + c4 x^4 + c5 x^5 at every x[i]
// with Horner's rule and stores the result in y[i].
void hornerPoly5(int n, float c0, float c1, float c2, float c3, float c4, float c5, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    float p = c5;
    p = p * v + c4;
    p = p * v + c3;
    p = p * v + c2;
    p = p * v + c1;
    p = p * v + c0;
    y[i] = p;
  }
}
