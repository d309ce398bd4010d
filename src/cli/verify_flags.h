// Command-line flags shared by every command that verifies candidates.
#pragma once

#include <cstdint>
#include <string>

#include "cli/command.h"
#include "core/json_util.h"
#include "regrapht/verify.h"

namespace regrapht::cli {

struct VerifyFlags {
  std::string arch = "sm_90";
  std::string sandbox = "auto";
  bool unsafe_no_sandbox = false;
  std::string cache_dir;
  bool no_timing = false;
  double max_timing_seconds = 2.0;  // timed-loop budget of the candidate and of the reference
  bool cpu_candidate = false;
  bool emulate = false;
  bool emulate_tests_only = false;
  int64_t emulate_max_mib = 128;  // the timing input runs scaled down above this (0: never)
  int64_t emulate_max_work_m = 4000;  // millions of checked accesses (VerifyOptions::emulate_max_work)
  std::string form = "dropin";  // dropin | kernel
  bool keep_work = false;
  std::string nvcc_flags = "-O3";
  std::string reference_flags = "-O3";
  double compile_timeout_s = 180;
  double gpu_lock_timeout_s = 3600;
  bool no_emulator_check = false;  // GPU verdicts without the emulator's checks
  std::string sanitizer = "auto";  // auto (where the emulator cannot run it) | always | off

  // Registers the flags on `sub`.
  void Add(CLI::App* sub, const std::string& default_arch = "sm_90");
  // Builds VerifyOptions; fails on a bad --arch or --sandbox.
  Result<VerifyOptions> ToOptions() const;
};

// Human-readable report of one result (several lines).
std::string FormatResult(const VerifyResult& r);

// Exit status for a verdict: 0 correct, 3 compiled_only, 4 otherwise.
int ExitFor(Verdict v);

// Fails, before any model time or compile is spent, when candidates would
// have to run but the sandbox cannot start here (and --unsafe-no-sandbox
// was not given). docs/trust.md.
Status RequireSandbox(const VerifyOptions& o);

// `problem check` over folders; prints a line per folder, in the order of
// `dirs`; returns how many failed. With `json`, also appends {"dir", "ok",
// "note" | "error"} per folder to it (an array). Folders are checked `jobs`
// at a time (0: one per core) when the check times nothing, else one at a
// time.
int CheckProblemDirs(const std::vector<std::string>& dirs, bool no_build, const VerifyFlags& flags,
                     bool device_only = false, OrderedJson* json = nullptr, int jobs = 0);

// Registers --jobs (the `jobs` of CheckProblemDirs) on a check command.
void AddCheckJobsOption(CLI::App* sub, int* jobs);

}  // namespace regrapht::cli
