#include <cmath>

struct Vec3f {
  float x, y, z;
};

// Surface area of every triangle of an indexed triangle mesh: triangle t has
// the vertices verts[tris[3t]], verts[tris[3t+1]], verts[tris[3t+2]] and area
// |(b - a) x (c - a)| / 2. Every index is in [0, nverts). ntris may be 0.
void triangleAreas(const Vec3f* verts, int nverts, const int* tris, int ntris, float* areas) {
  (void)nverts;
  for (int t = 0; t < ntris; ++t) {
    const Vec3f& a = verts[tris[3 * t]];
    const Vec3f& b = verts[tris[3 * t + 1]];
    const Vec3f& c = verts[tris[3 * t + 2]];
    float ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
    float vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
    float cx = uy * vz - uz * vy;
    float cy = uz * vx - ux * vz;
    float cz = ux * vy - uy * vx;
    areas[t] = 0.5f * std::sqrt(cx * cx + cy * cy + cz * cz);
  }
}
