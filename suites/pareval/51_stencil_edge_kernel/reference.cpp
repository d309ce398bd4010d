#include <cstddef>
#include <vector>

const int edgeKernel[3][3] = {{-1, -1, -1}, {-1, 8, -1}, {-1, -1, -1}};

// Edge-detection filter on an N x N row-major grayscale image: each output
// pixel is the sum over the 3 x 3 window centred on it of pixel * weight
// (8 for the centre, -1 for the eight around it), with pixels beyond the
// image treated as 0; the sum is then clamped to the range [0, 255].
void convolveKernel(std::vector<int> const& imageIn, std::vector<int> &imageOut, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j) {
      int sum = 0;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          long long r = (long long)i + di, c = (long long)j + dj;
          if (r < 0 || c < 0 || r >= (long long)N || c >= (long long)N) continue;
          sum += edgeKernel[di + 1][dj + 1] * imageIn[(size_t)r * N + (size_t)c];
        }
      }
      if (sum < 0) sum = 0;
      if (sum > 255) sum = 255;
      imageOut[i * N + j] = sum;
    }
  }
}
