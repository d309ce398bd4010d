// Writes the elements of in to out in reverse order.
void reversedCopy(int n, const float* in, float* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = in[n - 1 - i];
  }
}
