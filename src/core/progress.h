// A progress line for batch commands (bench, graph build) on stderr:
//
//   [##########..............] 5/12  correct 3  failed 2  elapsed 1m05s  ETA 1m31s
//
// On a terminal the line is redrawn in place; otherwise (logs, CI) one line
// is printed per update, followed by what just finished.
//
// Thread safety: Update() may be called from several threads.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

#include "core/clock.h"

namespace regrapht {

// "1m05s", "2h03m".
std::string FormatDuration(double seconds);

class CountProgress {
 public:
  // `out` null or `enabled` false: silent. `clock` must outlive *this.
  CountProgress(bool enabled, int total, const Clock* clock, std::FILE* out = stderr);

  // `done` of the total are finished; `counts` is shown after the count
  // ("correct 3  failed 2"); `last` names what just finished (non-terminal
  // output only).
  void Update(int done, const std::string& counts, const std::string& last);

 private:
  bool enabled_, tty_;
  int total_;
  const Clock* clock_;
  std::FILE* out_;
  double start_;
  std::mutex mu_;
};

}  // namespace regrapht
