// Exponential moving average per sensor over a log of readings grouped by
// sensor (sensor ids ascending, each sensor's readings in time order):
// the first reading of a sensor's run starts its average, y = x; every later
// reading updates it, y = a x + (1 - a) y_prev, with the sensor's own
// smoothing factor a = alpha[sensor] in [0, 1]. Written as the single pass
// over the log that a logger would run.
void sensorEma(int n, const int* sensor, const float* x, const float* alpha, float* y) {
  float prev = 0.0f;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || sensor[i] != sensor[i - 1]) {
      prev = x[i];
    } else {
      float a = alpha[sensor[i]];
      prev = a * x[i] + (1.0f - a) * prev;
    }
    y[i] = prev;
  }
}
