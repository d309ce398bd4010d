#include <cstddef>
#include <vector>

// Run-length encoding: splits data into maximal runs of equal consecutive
// values; for each run, in order, appends its value to runValues and its
// length to runLengths. Both outputs are passed in empty. Returns the number
// of runs.
int runLengthEncode(const std::vector<int>& data, std::vector<int>& runValues, std::vector<int>& runLengths) {
  runValues.clear();
  runLengths.clear();
  size_t i = 0;
  while (i < data.size()) {
    size_t j = i + 1;
    while (j < data.size() && data[j] == data[i]) ++j;
    runValues.push_back(data[i]);
    runLengths.push_back(static_cast<int>(j - i));
    i = j;
  }
  return static_cast<int>(runValues.size());
}
