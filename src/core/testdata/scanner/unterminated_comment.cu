void F(int x) {
  /* this comment never ends
  x += 1;
}
