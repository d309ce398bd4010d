// A sequential function to optimize: y = a * x + y.
//   regrapht optimize examples/saxpy.cpp --function saxpy -o saxpy.cu
void saxpy(int n, float a, const float* x, float* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
