#include <array>
#include <cstddef>
#include <vector>

// bins[v] = number of pixels of the grayscale image (values 0-255) equal to v.
void pixelCounts(std::vector<int> const& image, std::array<size_t, 256> &bins) {
  bins.fill(0);
  for (int v : image) ++bins[static_cast<std::size_t>(v)];
}
