#include <cmath>

// Converts audio sample amplitudes to decibels relative to a reference level,
// as a level meter or spectrogram display does:
//   db[i] = max(20 log10(max(|amp[i]|, 1e-10) / ref), floor_db).
// The 1e-10 guard keeps silence finite; floor_db (negative) clips the display
// range from below. ref > 0.
void amplitudeToDb(int n, const float* amp, float ref, float floor_db, float* db) {
  for (int i = 0; i < n; ++i) {
    float a = std::fabs(amp[i]);
    if (a < 1e-10f) a = 1e-10f;
    float v = 20.0f * std::log10(a / ref);
    db[i] = v < floor_db ? floor_db : v;
  }
}
