#include <cstdint>
#include <cstdlib>

// Block-matching stereo on a rectified 8-bit pair: for every pixel of the
// left image the disparity d in [0, D) minimising the sum of absolute
// differences over a (2r+1) x (2r+1) window,
//   cost(x, y, d) = sum_{dy, dx in [-r, r]} |L(x+dx, y+dy) - R(x+dx-d, y+dy)|,
// where each image reads its coordinates clamped to itself (replicated
// borders); ties go to the smallest d. Images are w x h, row-major.
// w, h >= 1, 1 <= D <= 256, 0 <= r <= 15.
void stereoSadDisparity(const uint8_t* left, const uint8_t* right, int w, int h, int D, int r, uint8_t* disp) {
  auto cx = [&](int x) { return x < 0 ? 0 : (x >= w ? w - 1 : x); };
  auto cy = [&](int y) { return y < 0 ? 0 : (y >= h ? h - 1 : y); };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int best_cost = -1, best_d = 0;
      for (int d = 0; d < D; ++d) {
        int cost = 0;
        for (int dy = -r; dy <= r; ++dy) {
          const uint8_t* lrow = left + static_cast<long>(cy(y + dy)) * w;
          const uint8_t* rrow = right + static_cast<long>(cy(y + dy)) * w;
          for (int dx = -r; dx <= r; ++dx) {
            cost += std::abs(lrow[cx(x + dx)] - rrow[cx(x + dx - d)]);
          }
        }
        if (best_cost < 0 || cost < best_cost) {
          best_cost = cost;
          best_d = d;
        }
      }
      disp[static_cast<long>(y) * w + x] = static_cast<uint8_t>(best_d);
    }
  }
}
