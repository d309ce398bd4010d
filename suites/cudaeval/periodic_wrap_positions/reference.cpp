#include <cmath>

// Wraps particle coordinates back into the periodic simulation box [0, box)^3,
// as a molecular-dynamics code does after each integration step. Coordinates
// are stored as three separate arrays (x, y, z). For every coordinate c of
// particle i along axis d the image shift s = floor(c / box) is stored in
// image[3*i + d] (how many box lengths the particle has crossed since it was
// last wrapped, negative for the low side) and c becomes c - s*box.
// Rounding can leave the wrapped value just outside [0, box) (a tiny negative
// c gives c - (-1)*box == box in float); such a value is moved back inside and
// the shift adjusted, so that every result lies in [0, box). All arithmetic is
// plain float (no fused multiply-add); box > 0.
void wrapPeriodicBox(int n, float box, float* x, float* y, float* z, int* image) {
  float* coords[3] = {x, y, z};
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) {
      float c = coords[d][i];
      float s = std::floor(c / box);
      float w = c - s * box;
      int shift = static_cast<int>(s);
      if (w < 0.0f) {
        w += box;
        --shift;
      }
      if (w >= box) {
        w = 0.0f;
        ++shift;
      }
      coords[d][i] = w;
      image[3 * i + d] = shift;
    }
  }
}
