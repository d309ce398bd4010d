// Evaluates a tabulated pair potential, as molecular-dynamics codes do for
// potentials without a cheap closed form: the table has ntab intervals of
// width dr starting at r0, and interval k holds the cubic
//   V(t) = c0 + c1 t + c2 t^2 + c3 t^3,  c = coef[4k .. 4k+3],  t in [0, 1),
// with s = (r - r0) / dr, k = floor(s), t = s - k. For every pair distance
// r[i]: energy[i] = V and force[i] = -dV/dr = -(c1 + 2 c2 t + 3 c3 t^2) / dr.
// Distances below r0 are clamped to r0 (s = 0); distances at or beyond the
// end of the table (k >= ntab) are past the cutoff: energy and force 0.
void tabulatedPotential(int npairs, const float* r, int ntab, const float* coef, float r0, float dr,
                        float* energy, float* force) {
  for (int i = 0; i < npairs; ++i) {
    float s = (r[i] - r0) / dr;
    if (s < 0.0f) s = 0.0f;
    int k = static_cast<int>(s);
    if (k >= ntab) {
      energy[i] = 0.0f;
      force[i] = 0.0f;
      continue;
    }
    float t = s - static_cast<float>(k);
    const float* c = coef + 4 * k;
    energy[i] = c[0] + t * (c[1] + t * (c[2] + t * c[3]));
    force[i] = -(c[1] + t * (2.0f * c[2] + t * 3.0f * c[3])) / dr;
  }
}
