#include <algorithm>
#include <vector>

struct Result {
   int startTime, duration;
   float value;
};

// Sorts results by startTime, ascending. Stable: records with the same
// startTime keep their input order.
void sortByStartTime(std::vector<Result> &results) {
  std::stable_sort(results.begin(), results.end(),
                   [](Result const& a, Result const& b) { return a.startTime < b.startTime; });
}
