#include <vector>

struct Reading {
  int station;
  int minute;
  float value;
  int quality;
};

// Per-station summary of a batch of sensor readings (e.g. a day of weather
// station temperatures), skipping readings whose quality flag is non-zero
// (failed QC): for every station s in [0, nstations), count[s] good
// readings, their minimum lo[s], maximum hi[s] and mean[s] (summed in double,
// rounded to float). A station without good readings gets count 0 and
// lo = hi = mean = 0.
void stationStats(int n, const Reading* readings, int nstations, int* count, float* lo, float* hi, float* mean) {
  std::vector<double> sum(nstations, 0.0);
  for (int s = 0; s < nstations; ++s) {
    count[s] = 0;
    lo[s] = 0.0f;
    hi[s] = 0.0f;
  }
  for (int i = 0; i < n; ++i) {
    const Reading& r = readings[i];
    if (r.quality != 0) continue;
    int s = r.station;
    if (count[s] == 0 || r.value < lo[s]) lo[s] = r.value;
    if (count[s] == 0 || r.value > hi[s]) hi[s] = r.value;
    sum[s] += r.value;
    ++count[s];
  }
  for (int s = 0; s < nstations; ++s) mean[s] = count[s] > 0 ? static_cast<float>(sum[s] / count[s]) : 0.0f;
}
