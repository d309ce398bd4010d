#include <cmath>

// Radioactive decay of n samples: sample i is of isotope type isotope[i] (0..15)
// whose half-life is looked up in a 16-entry table; after elapsed[i] time units
// the remaining amount is amount * exp(-lambda t) and the activity lambda * remaining,
// with lambda = ln 2 / half-life.
void isotopeDecay(int n, const int* isotope, const float* amount, const float* elapsed,
                  const float* halfLife, float* remaining, float* activity) {
  const float ln2 = 0.69314718f;
  for (int i = 0; i < n; ++i) {
    float lambda = ln2 / halfLife[isotope[i]];
    float rem = amount[i] * std::exp(-lambda * elapsed[i]);
    remaining[i] = rem;
    activity[i] = lambda * rem;
  }
}
