#include <cmath>

// The alignment rule of a 2-D boids flock: every boid steers its velocity a
// fraction `weight` of the way towards the average velocity of its
// neighbours, the other boids strictly closer than `radius` (squared distance
// dx*dx + dy*dy < radius^2, in float, no fused multiply-add). A boid without
// neighbours keeps its velocity. The new speed is then limited to vmax
// (direction kept). Positions and velocities are separate x/y arrays; the
// new velocities go to nvx, nvy.
void boidsAlignment(int n, const float* px, const float* py, const float* vx, const float* vy, float radius,
                    float weight, float vmax, float* nvx, float* nvy) {
  float r2 = radius * radius;
  for (int i = 0; i < n; ++i) {
    float sx = 0.0f, sy = 0.0f;
    int count = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      float dx = px[j] - px[i];
      float dy = py[j] - py[i];
      if (dx * dx + dy * dy < r2) {
        sx += vx[j];
        sy += vy[j];
        ++count;
      }
    }
    float ux = vx[i], uy = vy[i];
    if (count > 0) {
      ux += weight * (sx / count - vx[i]);
      uy += weight * (sy / count - vy[i]);
    }
    float speed = std::sqrt(ux * ux + uy * uy);
    if (speed > vmax) {
      ux *= vmax / speed;
      uy *= vmax / speed;
    }
    nvx[i] = ux;
    nvy[i] = uy;
  }
}
