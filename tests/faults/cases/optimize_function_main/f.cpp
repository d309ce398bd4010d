void saxpy(int n, float a, const float* x, float* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
int main() {
  float x[4] = {1, 2, 3, 4}, y[4] = {0};
  saxpy(4, 2.0f, x, y);
  return 0;
}
