// GC content of consecutive, non-overlapping windows of a DNA sequence (a
// genome browser's GC track): window k covers seq[k*window ..
// min((k+1)*window, n) - 1]. Its value is the number of G and C bases over
// the number of A, C, G and T bases in it (upper or lower case; other
// characters such as N are not counted at all), as a float, or -1 when the
// window holds no A, C, G or T. window >= 1; n may be 0; gc has
// (n + window - 1) / window entries.
void gcContentWindows(const char* seq, int n, int window, float* gc) {
  int windows = (n + window - 1) / window;
  for (int k = 0; k < windows; ++k) {
    int begin = k * window;
    int end = begin + window < n ? begin + window : n;
    int strong = 0;
    int called = 0;
    for (int i = begin; i < end; ++i) {
      switch (seq[i]) {
        case 'G': case 'g': case 'C': case 'c':
          ++strong;
          ++called;
          break;
        case 'A': case 'a': case 'T': case 't':
          ++called;
          break;
        default:
          break;
      }
    }
    gc[k] = called > 0 ? static_cast<float>(strong) / static_cast<float>(called) : -1.0f;
  }
}
