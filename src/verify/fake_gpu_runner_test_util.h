// A CommandRunner for GPU-path tests on machines without a GPU: every GPU
// run of a candidate is answered by a stand-in program (the reference's own
// executable, which writes correct records for the same plan: a candidate
// "correct on the GPU"), compute-sanitizer's runs by a canned report (or
// the stand-in again when clean), everything else runs for real. It proves
// the plumbing, not the GPU: that a correct GPU verdict still has to pass
// the emulator's or compute-sanitizer's checks.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/subprocess.h"

namespace regrapht::testing_util {

class FakeGpuRunner final : public CommandRunner {
 public:
  FakeGpuRunner(CommandRunner* real, fs::path stand_in) : real_(real), stand_in_(std::move(stand_in)) {}

  // What every compute-sanitizer run reports: its exit status (89: errors
  // found) and output. Default: clean.
  void SetSanitizer(int exit_code, std::string output) {
    std::lock_guard<std::mutex> l(mu_);
    sanitizer_exit_ = exit_code;
    sanitizer_output_ = std::move(output);
  }
  // The tools compute-sanitizer was asked for, in order.
  std::vector<std::string> sanitizer_tools() const {
    std::lock_guard<std::mutex> l(mu_);
    return tools_;
  }
  int gpu_runs() const {
    std::lock_guard<std::mutex> l(mu_);
    return gpu_runs_;
  }

  Result<CommandResult> Run(const CommandSpec& spec) override {
    if (!spec.uses_gpu) return real_->Run(spec);
    CommandSpec s = spec;
    if (s.argv.size() > 3 && s.argv[0].find("compute-sanitizer") != std::string::npos) {
      std::lock_guard<std::mutex> l(mu_);
      tools_.push_back(s.argv[2]);
      if (sanitizer_exit_ != 0) {
        CommandResult r;
        r.exit_code = sanitizer_exit_;
        r.stdout_text = sanitizer_output_;
        return r;
      }
      s.argv.erase(s.argv.begin(), s.argv.end() - 3);  // the candidate's own argv
    }
    {
      std::lock_guard<std::mutex> l(mu_);
      ++gpu_runs_;
    }
    s.argv[0] = stand_in_.string();  // "./candidate" -> the reference's program
    s.sandbox = false;
    s.box_cwd = false;
    s.uses_gpu = false;
    return real_->Run(s);
  }

 private:
  CommandRunner* real_;
  fs::path stand_in_;
  mutable std::mutex mu_;
  int sanitizer_exit_ = 0;
  std::string sanitizer_output_;
  std::vector<std::string> tools_;
  int gpu_runs_ = 0;
};

}  // namespace regrapht::testing_util
