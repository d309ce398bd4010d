#include <array>
#include <cstddef>
#include <string>
#include <vector>

// bins[c - 'a'] = number of strings of s (lower case) whose first character is c. An empty
// string has no first letter and is not counted.
void firstLetterCounts(std::vector<std::string> const& s, std::array<size_t, 26> &bins) {
  bins.fill(0);
  for (const std::string& str : s) {
    if (!str.empty() && str[0] >= 'a' && str[0] <= 'z') ++bins[static_cast<std::size_t>(str[0] - 'a')];
  }
}
