#include <vector>

// Forward pass of a 3x3 convolution layer (stride 1, zero padding 1, one
// image): input is c_in x height x width, weights are c_out x c_in x 3 x 3,
// bias has c_out entries and output is c_out x height x width, all row-major.
//   out[co][y][x] = bias[co] + sum over ci, ky, kx of
//                   w[co][ci][ky][kx] * in[ci][y + ky - 1][x + kx - 1]
// (cross-correlation, as in deep-learning frameworks).
void convLayer3x3(std::vector<float> const& input, std::vector<float> const& weights, std::vector<float> const& bias,
                  std::vector<float>& output, int c_in, int c_out, int height, int width) {
  for (int co = 0; co < c_out; ++co) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        float acc = bias[co];
        for (int ci = 0; ci < c_in; ++ci) {
          for (int ky = 0; ky < 3; ++ky) {
            int iy = y + ky - 1;
            if (iy < 0 || iy >= height) continue;
            for (int kx = 0; kx < 3; ++kx) {
              int ix = x + kx - 1;
              if (ix < 0 || ix >= width) continue;
              acc += weights[((co * c_in + ci) * 3 + ky) * 3 + kx] * input[(ci * height + iy) * width + ix];
            }
          }
        }
        output[(co * height + y) * width + x] = acc;
      }
    }
  }
}
