// What repairing a results database did (regrapht/results.h RepairResults;
// the store's own ResultsStore::Repair fills the same struct).
//
// Thread safety: a value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace regrapht {

struct RepairCounts {
  int64_t rows_copied = 0;      // valid rows written to the output
  int64_t rows_invalid = 0;     // readable rows refused by the row checks
  int64_t rows_unreadable = 0;  // row ids SQLite could not read (damaged pages)
  int64_t plan_entries = 0;
  std::vector<std::string> notes;  // one line per refused row or unreadable range
};

}  // namespace regrapht
