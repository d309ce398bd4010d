// Advances n independent logistic-growth populations dy/dt = r y (1 - y / K)
// by 8 classical Runge-Kutta (RK4) steps of size dt, in place.
void logisticGrowthRK4(int n, const float* rate, const float* capacity, float dt, float* pop) {
  for (int i = 0; i < n; ++i) {
    float y = pop[i], r = rate[i], K = capacity[i];
    for (int s = 0; s < 8; ++s) {
      float k1 = r * y * (1.0f - y / K);
      float y2 = y + 0.5f * dt * k1;
      float k2 = r * y2 * (1.0f - y2 / K);
      float y3 = y + 0.5f * dt * k2;
      float k3 = r * y3 * (1.0f - y3 / K);
      float y4 = y + dt * k3;
      float k4 = r * y4 * (1.0f - y4 / K);
      y = y + dt / 6.0f * (k1 + 2.0f * k2 + 2.0f * k3 + k4);
    }
    pop[i] = y;
  }
}
