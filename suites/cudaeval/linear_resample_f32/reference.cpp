// Resamples a sampled signal to a new length by linear interpolation, keeping
// the first and last samples aligned (sample-rate conversion of a clip, or
// stretching a curve to a fixed number of points). Output k sits at input
// position k * step with step = (n_in - 1) / (n_out - 1) computed in double;
// with i = floor(position) and f = position - i it is
// in[i] + f * (in[i + 1] - in[i]) in float, and in[n_in - 1] where i reaches
// the last sample. n_in >= 1; n_out >= 0 (n_out == 1 gives in[0]).
void resampleLinear(const float* in, int n_in, float* out, int n_out) {
  const double step = n_out > 1 ? static_cast<double>(n_in - 1) / (n_out - 1) : 0.0;
  for (int k = 0; k < n_out; ++k) {
    double pos = k * step;
    int i = static_cast<int>(pos);
    if (i >= n_in - 1) {
      out[k] = in[n_in - 1];
    } else {
      float f = static_cast<float>(pos - i);
      out[k] = in[i] + f * (in[i + 1] - in[i]);
    }
  }
}
