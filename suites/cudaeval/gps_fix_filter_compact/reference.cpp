#include <cmath>
#include <vector>

struct GpsFix {
  int device;
  int flags;
  float lat;
  float lon;
  float speed_knots;
  float alt_ft;
  float hdop;
  int sats;
};

struct TrackPoint {
  int device;
  float lat;
  float lon;
  float speed_ms;
  float alt_m;
};

// Cleans a raw GPS log into track points: a fix is kept when its receiver
// marked it valid (flags bit 0), it used at least 4 satellites, its
// horizontal dilution of precision is at most max_hdop, and its coordinates
// are on the globe (|lat| <= 90, |lon| <= 180). Kept fixes are appended to
// out (passed in empty) in log order, with speed converted from knots to m/s
// and altitude from feet to metres. Returns the number kept.
int filterGpsFixes(const std::vector<GpsFix>& fixes, float max_hdop, std::vector<TrackPoint>& out) {
  out.clear();
  for (const GpsFix& f : fixes) {
    bool ok = (f.flags & 1) != 0 && f.sats >= 4 && f.hdop <= max_hdop && std::fabs(f.lat) <= 90.0f &&
              std::fabs(f.lon) <= 180.0f;
    if (!ok) continue;
    out.push_back(TrackPoint{f.device, f.lat, f.lon, f.speed_knots * 0.514444f, f.alt_ft * 0.3048f});
  }
  return static_cast<int>(out.size());
}
