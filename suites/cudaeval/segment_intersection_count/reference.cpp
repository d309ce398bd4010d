#include <cstdint>

struct Segment {
  int x1, y1, x2, y2;
};

// Counts the pairs of closed line segments that intersect (cross, touch at a
// point, or overlap when collinear), as a map-validation or PCB design-rule
// check does for a batch of wires: all pairs i < j, exact integer geometry
// with 64-bit orientation tests. Coordinates lie in [-2^30, 2^30]; a
// segment may be a single point. n >= 0.
static int Orientation(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy) {
  int64_t v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return (v > 0) - (v < 0);
}

// With a, b, c collinear: does c lie within the bounding box of a and b?
static bool WithinBox(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy) {
  return cx >= (ax < bx ? ax : bx) && cx <= (ax > bx ? ax : bx) && cy >= (ay < by ? ay : by) &&
         cy <= (ay > by ? ay : by);
}

static bool Intersect(const Segment& s, const Segment& t) {
  int o1 = Orientation(s.x1, s.y1, s.x2, s.y2, t.x1, t.y1);
  int o2 = Orientation(s.x1, s.y1, s.x2, s.y2, t.x2, t.y2);
  int o3 = Orientation(t.x1, t.y1, t.x2, t.y2, s.x1, s.y1);
  int o4 = Orientation(t.x1, t.y1, t.x2, t.y2, s.x2, s.y2);
  if (o1 != o2 && o3 != o4) return true;
  if (o1 == 0 && WithinBox(s.x1, s.y1, s.x2, s.y2, t.x1, t.y1)) return true;
  if (o2 == 0 && WithinBox(s.x1, s.y1, s.x2, s.y2, t.x2, t.y2)) return true;
  if (o3 == 0 && WithinBox(t.x1, t.y1, t.x2, t.y2, s.x1, s.y1)) return true;
  if (o4 == 0 && WithinBox(t.x1, t.y1, t.x2, t.y2, s.x2, s.y2)) return true;
  return false;
}

int64_t countSegmentIntersections(const Segment* segs, int n) {
  int64_t count = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (Intersect(segs[i], segs[j])) ++count;
    }
  }
  return count;
}
