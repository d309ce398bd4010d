// Inclusive prefix sum: out[i] = in[0] + in[1] + ... + in[i].
void inclusiveScanI32(const int* in, int* out, int n) {
  int running = 0;
  for (int i = 0; i < n; ++i) {
    running += in[i];
    out[i] = running;
  }
}
