void F(int x) {
  if (x > 0) {
    x = (x + 1;
  }
