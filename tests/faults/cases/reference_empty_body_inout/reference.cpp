// y = a * x + y over n floats (not really).
void saxpy(int n, float a, const float* x, float* y) {
  (void)n; (void)a; (void)x; (void)y;
}
