#include "verify/timing_cpus.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include "core/fs.h"
#include "core/strings.h"

namespace regrapht::verify {

namespace {

thread_local int timed_depth = 0;

std::string CpuListText(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

std::vector<int> SysfsSiblings(int cpu) {
  auto text = ReadFile("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/thread_siblings_list");
  if (!text.ok()) return {cpu};
  auto list = ParseCpuList(std::string(Trim(*text)));
  return list && !list->empty() ? *list : std::vector<int>{cpu};
}

// Sets the calling thread's affinity to `cpus`; false if the kernel refused.
bool SetThreadCpus(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  return ::sched_setaffinity(0, sizeof set, &set) == 0;
}

class PinningRunner : public CommandRunner {
 public:
  PinningRunner(CommandRunner* inner, TimingCpus cpus) : inner_(inner), cpus_(std::move(cpus)) {}

  Result<CommandResult> Run(const CommandSpec& spec) override {
    cpu_set_t before;
    if (::sched_getaffinity(0, sizeof before, &before) != 0) return inner_->Run(spec);
    const bool pinned = SetThreadCpus(InTimedScope() ? std::vector<int>{cpus_.timed} : cpus_.busy);
    if (!pinned && !warned_.exchange(true)) {
      spdlog::warn("cannot pin commands to CPUs ({}): timed phases share their core", cpus_.Describe());
    }
    Result<CommandResult> r = inner_->Run(spec);
    if (pinned) ::sched_setaffinity(0, sizeof before, &before);
    return r;
  }

 private:
  CommandRunner* inner_;
  TimingCpus cpus_;
  std::atomic<bool> warned_{false};
};

}  // namespace

std::string TimingCpus::Describe() const {
  return "CPU " + std::to_string(timed) + " (others on CPUs " + CpuListText(busy) + ")";
}

std::optional<std::vector<int>> ParseCpuList(const std::string& text) {
  std::vector<int> out;
  if (Trim(text).empty()) return out;
  for (const std::string& part : Split(Trim(text), ',')) {
    const size_t dash = part.find('-');
    auto lo = ParseInt(Trim(part.substr(0, dash)));
    auto hi = dash == std::string::npos ? lo : ParseInt(Trim(part.substr(dash + 1)));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi >= CPU_SETSIZE) return std::nullopt;
    for (int64_t c = *lo; c <= *hi; ++c) out.push_back(static_cast<int>(c));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<std::optional<TimingCpus>> PlanTimingCpus(const std::vector<int>& allowed,
                                                 const std::function<std::vector<int>(int)>& siblings,
                                                 const std::optional<std::string>& setting) {
  const std::string value = setting ? std::string(Trim(*setting)) : "";
  if (value == "off") return std::optional<TimingCpus>();
  if (allowed.empty()) return std::optional<TimingCpus>();
  TimingCpus cpus;
  cpus.timed = allowed.back();
  if (!value.empty() && value != "auto") {
    auto n = ParseInt(value);
    if (!n || std::find(allowed.begin(), allowed.end(), *n) == allowed.end()) {
      return Status::InvalidArgument("REGRAPHT_TIMING_CPU=" + value + ": not \"auto\", \"off\" or one of this " +
                                     "process's CPUs (" + CpuListText(allowed) + ")");
    }
    cpus.timed = static_cast<int>(*n);
  }
  const std::vector<int> core = siblings(cpus.timed);
  for (int c : allowed) {
    if (c != cpus.timed && std::find(core.begin(), core.end(), c) == core.end()) cpus.busy.push_back(c);
  }
  if (cpus.busy.empty()) return std::optional<TimingCpus>();
  return std::optional<TimingCpus>(std::move(cpus));
}

Result<std::optional<TimingCpus>> PlanTimingCpusHere() {
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return std::optional<TimingCpus>();
  std::vector<int> allowed;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) allowed.push_back(c);
  }
  const char* env = std::getenv("REGRAPHT_TIMING_CPU");
  return PlanTimingCpus(allowed, SysfsSiblings, env ? std::optional<std::string>(env) : std::nullopt);
}

TimedScope::TimedScope() { ++timed_depth; }
TimedScope::~TimedScope() { --timed_depth; }
bool InTimedScope() { return timed_depth > 0; }

std::unique_ptr<CommandRunner> NewPinningRunner(CommandRunner* inner, TimingCpus cpus) {
  return std::make_unique<PinningRunner>(inner, std::move(cpus));
}

}  // namespace regrapht::verify
