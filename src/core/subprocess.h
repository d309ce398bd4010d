// Running other programs: the compiler, the reference and every candidate.
//
// CommandRunner is the seam between regrapht and processes (ninja's
// CommandRunner): production code uses SubprocessRunner, tests use
// FakeCommandRunner (fake_command_runner.h) or the real one on tiny programs.
//
// SubprocessRunner runs each command in its own session and process group,
// with rlimits (CPU time, address space for non-GPU programs, file size, no
// core dumps), an optional cgroup (process count and memory, where the cgroup
// file system is writable) and optionally under bubblewrap (no network, a
// read-only view of the system, a private /tmp, writable working folder
// only). On a wall-time overrun the whole process group and cgroup are
// killed. What could not be applied is reported in CommandResult::sandbox,
// never silently dropped.
//
// Thread safety: Run() may be called from several threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht {

struct Limits {
  double wall_seconds = 60;      // 0: none
  double cpu_seconds = 0;        // RLIMIT_CPU; 0: none
  int64_t memory_bytes = 0;      // cgroup memory and, for non-GPU programs, RLIMIT_AS; 0: none
  int64_t file_size_bytes = 0;   // RLIMIT_FSIZE; 0: none
  int max_processes = 0;         // cgroup pids.max; 0: none
};

struct CommandSpec {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH
  fs::path cwd;                   // empty: inherit
  // Environment: inherited, plus/overriding `env` (KEY=VALUE). With
  // `clean_env`, only `env` and PATH/HOME/LANG/LD_LIBRARY_PATH/CUDA_* pass.
  std::vector<std::string> env;
  bool clean_env = false;
  std::string stdin_data;
  Limits limits;
  // Untrusted code: run under bubblewrap when the runner allows it.
  bool sandbox = false;
  bool uses_gpu = false;               // keep /dev nodes, skip RLIMIT_AS
  std::vector<fs::path> writable;      // beyond cwd (sandbox only)
  std::vector<fs::path> readable;      // made visible read-only, e.g. under the private /tmp
  size_t max_output_bytes = 256 * 1024;  // per stream; the rest is counted, not kept
  const std::atomic<bool>* cancel = nullptr;  // polled; set to kill the command
};

struct CommandResult {
  int exit_code = -1;      // valid when term_signal == 0
  int term_signal = 0;     // signal that ended it, or 0
  bool timed_out = false;  // wall limit passed; killed
  bool cancelled = false;
  double wall_ms = 0;
  double cpu_ms = 0;       // user + system of the whole tree that was waited for
  std::string stdout_text;
  std::string stderr_text;
  size_t stdout_dropped = 0;
  size_t stderr_dropped = 0;
  std::string sandbox;     // what isolation applied, e.g. "bwrap+cgroup(pids,memory)+rlimits"

  bool ok() const { return !timed_out && !cancelled && term_signal == 0 && exit_code == 0; }
  // "exit 3", "killed by SIGSEGV", "timed out after 10.0 s".
  std::string Describe() const;
};

class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  // Runs `spec` to completion. A program that fails, crashes or times out is
  // an OK Result whose CommandResult says so; a non-OK Status means it could
  // not be started at all (program missing, fork failed).
  virtual Result<CommandResult> Run(const CommandSpec& spec) = 0;
};

enum class SandboxMode { kAuto, kBubblewrap, kNone };

struct SubprocessOptions {
  SandboxMode sandbox = SandboxMode::kAuto;  // kAuto: bubblewrap if it works here
  bool use_cgroups = true;                   // if the cgroup fs is writable
};

std::unique_ptr<CommandRunner> NewSubprocessRunner(const SubprocessOptions& options = {});

// Whether bubblewrap is installed and can create namespaces here (probed once).
bool BubblewrapWorks();
// Whether a pids cgroup can be created here (probed once).
bool CgroupsWork();

}  // namespace regrapht
