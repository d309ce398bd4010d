void F(int x) {
  const char* s = "no closing quote;
}
