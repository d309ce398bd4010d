// A CommandRunner for tests: records every command and answers from a script.
#pragma once

#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/subprocess.h"

namespace regrapht {

class FakeCommandRunner final : public CommandRunner {
 public:
  // Called for each command; returns the result to report. The default
  // answers exit 0 with empty output.
  using Handler = std::function<Result<CommandResult>(const CommandSpec&)>;

  void SetHandler(Handler h) { handler_ = std::move(h); }

  Result<CommandResult> Run(const CommandSpec& spec) override {
    std::lock_guard<std::mutex> lock(mu_);
    commands_.push_back(spec);
    if (handler_) return handler_(spec);
    CommandResult r;
    r.exit_code = 0;
    return r;
  }

  std::vector<CommandSpec> commands() const {
    std::lock_guard<std::mutex> lock(mu_);
    return commands_;
  }

 private:
  mutable std::mutex mu_;
  Handler handler_;
  std::vector<CommandSpec> commands_;
};

}  // namespace regrapht
