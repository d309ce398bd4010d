#include <algorithm>

// Sorts every row of a rows x 32 row-major float matrix independently, in
// ascending order, writing the result to out.
void sortEachRow32(int rows, const float* in, float* out) {
  for (int r = 0; r < rows; ++r) {
    std::copy(in + r * 32, in + r * 32 + 32, out + r * 32);
    std::sort(out + r * 32, out + r * 32 + 32);
  }
}
