// Checking trajectory steps with the harness, and keeping the results.
//
// HarnessStepVerifier is the graph's StepVerifier backed by regrapht's
// Verifier: each step's code is verified against the trajectory folder's
// problem.json. Modes:
//   kCompile  static checks + device-code compile for every --arch (CI's gate)
//   kFull     the whole harness: on a GPU, correctness and speedup; without
//             one the record says compiled, correctness unknown
// Records say what produced them ("regrapht 0.1.0 verify sm_80,sm_90") and
// the hash of the code they are about.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "graph/trajectory.h"
#include "regrapht/verify.h"

namespace regrapht::construct {

enum class StepCheck { kCompile, kFull };

class HarnessStepVerifier final : public StepVerifier {
 public:
  // `verifier` must outlive *this.
  HarnessStepVerifier(Verifier* verifier, StepCheck mode) : verifier_(verifier), mode_(mode) {}

  Result<StepVerification> Verify(const Trajectory& trajectory, size_t index) override;

  // Verifies a step ahead of the import (from several threads at once) and
  // keeps the record; Verify() then returns it without running anything.
  Status Precompute(const Trajectory& trajectory, size_t index);
  // Precompute for many steps; in kCompile mode their compiles share nvcc
  // invocations (Verifier::CompileOnlyMany). Each Trajectory must outlive
  // the call.
  Status PrecomputeMany(const std::vector<std::pair<const Trajectory*, size_t>>& steps);

  // One line per step verified so far: "kernel step 2 (shared_memory_tiling): correct, 3.1x".
  std::vector<std::string> log() const;
  // The records made so far, by trajectory folder, in step order.
  std::map<std::string, std::vector<StepVerification>> records() const;

  // Turns a harness result into the graph's record.
  static StepVerification ToRecord(const VerifyResult& r, const VerifyOptions& o,
                                   const std::string& source_hash);

 private:
  Result<std::pair<StepVerification, std::string>> Check(const Trajectory& trajectory,
                                                         size_t index);
  // The trajectory folder's problem, loaded once.
  Result<const Problem*> ProblemOf(const Trajectory& trajectory);
  // The record and log line of step `index`'s result.
  std::pair<StepVerification, std::string> Describe(const Trajectory& trajectory, size_t index,
                                                    const VerifyResult& r) const;

  Verifier* verifier_;
  StepCheck mode_;
  std::map<std::string, Problem> problems_;  // by folder
  mutable std::mutex mu_;
  std::vector<std::string> log_;
  std::map<std::string, std::vector<StepVerification>> records_;
  std::map<std::string, std::pair<StepVerification, std::string>>
      precomputed_;  // dir#index -> record, log line
};

// Writes `records` (one per step, in order; may be shorter than the steps)
// into <dir>/trajectory.json as each step's "verification", keeping every
// other byte of meaning (the file is re-serialised with 2-space indentation).
Status WriteStepRecords(const fs::path& dir, const std::vector<StepVerification>& records);

}  // namespace regrapht::construct
