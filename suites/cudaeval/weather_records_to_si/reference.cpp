#include <cmath>

struct WeatherObs {
  int station;
  float temp_f;
  float dewpoint_f;
  float wind_mph;
  float pressure_inhg;
  float precip_in;
};

struct SiObs {
  float temp_c;
  float dewpoint_c;
  float rel_humidity;
  float wind_ms;
  float pressure_hpa;
  float precip_mm;
};

// Converts raw US-unit weather observations to SI units for an archive:
// degrees Fahrenheit to Celsius, mph to m/s, inches of mercury to hPa, inches
// of precipitation to mm, and derives the relative humidity (percent, capped
// at 100) from temperature and dew point with the Magnus formula
//   RH = 100 exp(a Td / (b + Td) - a T / (b + T)),  a = 17.625, b = 243.04 C.
// A field holding the missing-value sentinel -9999 stays -9999 in the output;
// the humidity is -9999 when either temperature is missing.
void weatherToSi(int n, const WeatherObs* obs, SiObs* out) {
  const float kMissing = -9999.0f;
  const float a = 17.625f, b = 243.04f;
  for (int i = 0; i < n; ++i) {
    const WeatherObs& o = obs[i];
    SiObs s;
    s.temp_c = o.temp_f == kMissing ? kMissing : (o.temp_f - 32.0f) * (5.0f / 9.0f);
    s.dewpoint_c = o.dewpoint_f == kMissing ? kMissing : (o.dewpoint_f - 32.0f) * (5.0f / 9.0f);
    if (o.temp_f == kMissing || o.dewpoint_f == kMissing) {
      s.rel_humidity = kMissing;
    } else {
      float g = a * s.dewpoint_c / (b + s.dewpoint_c) - a * s.temp_c / (b + s.temp_c);
      float rh = 100.0f * std::exp(g);
      s.rel_humidity = rh > 100.0f ? 100.0f : rh;
    }
    s.wind_ms = o.wind_mph == kMissing ? kMissing : o.wind_mph * 0.44704f;
    s.pressure_hpa = o.pressure_inhg == kMissing ? kMissing : o.pressure_inhg * 33.8639f;
    s.precip_mm = o.precip_in == kMissing ? kMissing : o.precip_in * 25.4f;
    out[i] = s;
  }
}
