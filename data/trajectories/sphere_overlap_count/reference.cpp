struct Sphere {
  float x, y, z, radius;
  float vx, vy, vz, mass;
};

// Broad-phase contact counting: for every sphere, the number of other spheres
// it overlaps (centre distance squared strictly below the squared sum of the
// radii). Spheres are 32-byte records that also carry velocity and mass.
void sphere_overlap_count(int n, const Sphere* spheres, int* overlaps) {
  for (int i = 0; i < n; ++i) {
    const Sphere& a = spheres[i];
    int count = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const Sphere& b = spheres[j];
      float dx = a.x - b.x;
      float dy = a.y - b.y;
      float dz = a.z - b.z;
      float rs = a.radius + b.radius;
      if (dx * dx + dy * dy + dz * dz < rs * rs) ++count;
    }
    overlaps[i] = count;
  }
}
