#include <cstddef>
#include <cstdint>
#include <vector>

// 256-bin histogram of a byte array: counts[v] is the number of elements of
// data equal to v. counts has exactly 256 entries and is fully overwritten.
void histogramU8(const std::vector<uint8_t>& data, std::vector<int>& counts) {
  for (int b = 0; b < 256; ++b) counts[b] = 0;
  for (size_t i = 0; i < data.size(); ++i) counts[data[i]]++;
}
