// s[i] = -1, 0 or +1 according to the sign of x[i].
void signOfEach(int n, const int* x, int* s) {
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0) {
      s[i] = 1;
    } else if (x[i] < 0) {
      s[i] = -1;
    } else {
      s[i] = 0;
    }
  }
}
