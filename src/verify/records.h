// Reading what a driver process wrote (see driver/rg_driver.h for the format).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::verify {

// Case ids of the two timing input sets in records.
inline constexpr int kTimingCaseA = 1000000;
inline constexpr int kTimingCaseB = 1000001;

struct ArrayRecord {
  int case_id = 0;
  int call = 0;
  std::string name;       // argument name, or "return"
  size_t elem_size = 0;
  size_t count = 0;
  std::string bytes;      // elem_size * count raw bytes
};

struct DriverRecords {
  std::vector<std::string> events;
  std::vector<ArrayRecord> arrays;
  std::vector<double> times_ms;
  bool began = false;
  bool finished = false;            // saw "end"
  std::optional<std::string> nogpu; // "35 cudaErrorInsufficientDriver"
  std::optional<std::string> gpu;   // "name=...|cc=...|driver=..."
  std::optional<std::string> cuda_error;
  std::vector<std::string> mutated; // "case call name"
  std::optional<std::string> last_call;  // "case run" of the last call begun
  double timing_wall_ms = 0;

  const ArrayRecord* Find(int case_id, int call, const std::string& name) const;
  // Calls recorded for a timing set, in order.
  std::vector<int> CallsOf(int case_id) const;
};

// Parses a record file. Corrupt data (truncated arrays, junk) is an error
// whose message says where it stopped; a missing "end" is not (the caller
// decides what an unfinished run means).
Result<DriverRecords> ParseRecords(const std::string& data);

}  // namespace regrapht::verify
