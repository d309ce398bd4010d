#include <cmath>
#include <cstddef>

// One explicit Perona-Malik (edge-preserving) diffusion step on a 3-D volume
// stored with x fastest: index (z*ny + y)*nx + x. For an interior voxel with
// value c, each of the six face neighbours (x-1, x+1, y-1, y+1, z-1, z+1, in
// that order) contributes g(d) * d with d = neighbour - c and the conductance
// g(d) = exp(-d^2 / kappa^2); out = c + dt * sum. Boundary voxels are copied.
void anisotropic_diffuse3d(int nx, int ny, int nz, float dt, float kappa, const float* u,
                           float* out) {
  const float inv_k2 = 1.0f / (kappa * kappa);
  const size_t sx = 1, sy = (size_t)nx, sz = (size_t)nx * ny;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        size_t i = (size_t)z * sz + (size_t)y * sy + x;
        float c = u[i];
        if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
          out[i] = c;
          continue;
        }
        const float nb[6] = {u[i - sx], u[i + sx], u[i - sy], u[i + sy], u[i - sz], u[i + sz]};
        float flux = 0.0f;
        for (int k = 0; k < 6; ++k) {
          float d = nb[k] - c;
          flux += std::exp(-(d * d) * inv_k2) * d;
        }
        out[i] = c + dt * flux;
      }
}
