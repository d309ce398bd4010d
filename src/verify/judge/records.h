// Reading what a driver process wrote (see sandboxed/driver/rg_driver.h for the format
// and docs/trust.md for why the channel is sealed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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

// One repetition of the timing loop as the driver reported it: the byte
// offsets just past its "t0" and "t1" event lines let the harness compare
// the reported time with when the two lines reached it.
struct TimedRep {
  int rep = 0;
  double reported_ms = 0;
  size_t t0_end = 0, t1_end = 0;
};

struct DriverRecords {
  std::vector<std::string> events;
  std::vector<ArrayRecord> arrays;
  std::vector<double> times_ms;
  std::vector<TimedRep> reps;
  // Kernel form: the CUDA-event time of the kernel launch in each timed call
  // ("k1 <rep> <ms>", after that call's "t1").
  std::vector<double> kernel_ms;
  bool began = false;
  bool finished = false;            // saw the end line (sealed, when a key was given)
  std::optional<std::string> nogpu; // "35 cudaErrorInsufficientDriver"
  std::optional<std::string> gpu;   // "name=...|cc=...|driver=..."
  std::optional<std::string> cuda_error;
  std::vector<std::string> mutated; // "case call name"
  // Emulated runs: "case call output[index]" of an output the host wrote
  // with a value no device code produced (docs/emulator.md).
  std::optional<std::string> host_compute;
  // "case call" of a call whose outputs changed after it returned (work it
  // left running on the device).
  std::optional<std::string> late_output;
  // Emulated runs: the source line of device inline assembly the run reached.
  std::optional<std::string> not_emulated;
  std::optional<std::string> last_call;  // "case run" of the last call begun
  double timing_wall_ms = 0;
  // Not in the records: how the verifier timed the run (Timing::how).
  std::string timed_how;

  // O(1): records are indexed as they are added.
  const ArrayRecord* Find(int case_id, int call, const std::string& name) const;
  // Calls recorded for a timing set, in order.
  std::vector<int> CallsOf(int case_id) const;
  // Adds `a`; false if a record for the same case, call and name exists.
  bool Add(ArrayRecord a);

 private:
  // (case, call) -> the last record added for it; chain_[i]: the record
  // added before arrays[i] for the same (case, call), or kNone. A call has
  // a handful of outputs, so a lookup hashes two ints and compares a few
  // names: no allocation.
  static constexpr size_t kNone = static_cast<size_t>(-1);
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<size_t> chain_;
};

// Parses a record stream. With a `key` (the per-run secret the harness gave
// the driver), the stream counts as finished only if it ends with the
// driver's "E end <seal>" line and the seal matches every byte before it;
// a wrong seal, bytes after the end line, a duplicate record, a 'nogpu'
// event after 'begin' or any malformed or oversized field is an error whose
// message says where. Without a key (the harness's own cached reference
// records) "E end" alone finishes. A stream without an end line is not an
// error: the caller decides what an unfinished run means. Never throws and
// never allocates more than the input's size.
Result<DriverRecords> ParseRecords(std::string_view data, std::string_view key = {});

// The (case, call) that a "case call ..." text starts with: `last_call`, a
// `mutated` entry, a host_compute or late_output event. nullopt when it does
// not start with two integers.
std::optional<std::pair<int, int>> CaseCallOf(std::string_view text);

// The records of one run split over processes (SplitPlans in
// verify/build/driver_gen.h: each makes other calls of the same cases) as
// the records of one: the arrays of every part (a (case, call, name) in two
// parts is an InvalidArgument naming it), the events in part order, each
// one-off event (gpu, nogpu, cuda_error, host_compute, late_output,
// not_emulated) from the first part that has it, `mutated` from all in
// call order (case, then call),
// began and finished only when every part's are. Timing records (times,
// repetitions) are refused: a timed run is never split.
Result<DriverRecords> MergeRecords(std::vector<DriverRecords> parts);

// The seal the driver appends: hex SHA-256(key || SHA-256(stream)).
std::string RecordSeal(std::string_view key, std::string_view stream);

// The harness's own copy of finished records (the reference-output cache):
// the events, arrays and times of `r`, then "E end" last, so that
// ParseRecords without a key reads back equal events, arrays and times with
// `finished` set. Timing repetitions (t0/t1/k1) are not kept: a reference's
// timing is its times_ms.
std::string SerializeRecords(const DriverRecords& r);

}  // namespace regrapht::verify
