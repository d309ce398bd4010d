#include <cmath>

// Frame-wise RMS envelope of an audio signal, the loudness curve that meters,
// compressors and onset detectors start from: frame f covers samples
// [f * hop, f * hop + frame) and its value is sqrt(sum x^2 / frame), with the
// sum in double. Frames that would run past the end are not produced, so
// there are (n - frame) / hop + 1 frames. n >= frame >= 1, hop >= 1.
void rmsEnvelope(const float* x, int n, int frame, int hop, float* rms) {
  int frames = (n - frame) / hop + 1;
  for (int f = 0; f < frames; ++f) {
    const float* p = x + static_cast<long>(f) * hop;
    double sum = 0.0;
    for (int i = 0; i < frame; ++i) sum += static_cast<double>(p[i]) * p[i];
    rms[f] = static_cast<float>(std::sqrt(sum / frame));
  }
}
