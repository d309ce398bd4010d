// Sensor calibration: reading i comes from sensor sensor[i] (0..31) and is mapped
// through that sensor's calibration polynomial of the given degree (0..7), whose
// coefficients are coef[s * 8 + k] for x^k; evaluated with Horner's rule.
void calibrateReadings(int n, const int* sensor, const float* raw, const float* coef,
                       int degree, float* out) {
  for (int i = 0; i < n; ++i) {
    const float* c = coef + sensor[i] * 8;
    float x = raw[i];
    float acc = c[degree];
    for (int k = degree - 1; k >= 0; --k) acc = acc * x + c[k];
    out[i] = acc;
  }
}
