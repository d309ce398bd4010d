// d[i] = a[i] * b[i] + c[i] over three float arrays.
void multiplyAddArrays(int n, const float* a, const float* b, const float* c, float* d) {
  for (int i = 0; i < n; ++i) {
    d[i] = a[i] * b[i] + c[i];
  }
}
