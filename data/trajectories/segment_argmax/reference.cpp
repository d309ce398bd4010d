// Segmented arg-max: segment s covers x[offsets[s] .. offsets[s + 1]).
// out[s] is the global index of the segment's largest value (the first one
// on ties), or -1 for an empty segment.
void segmentArgmax(int nseg, const int* offsets, const float* x, int* out) {
  for (int s = 0; s < nseg; ++s) {
    int best = -1;
    for (int j = offsets[s]; j < offsets[s + 1]; ++j)
      if (best < 0 || x[j] > x[best]) best = j;
    out[s] = best;
  }
}
