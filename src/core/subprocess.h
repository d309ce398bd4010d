// Running other programs: the compiler, the reference and every candidate.
//
// CommandRunner is the seam between regrapht and processes (ninja's
// CommandRunner): production code uses SubprocessRunner, tests use
// FakeCommandRunner (fake_command_runner.h) or the real one on tiny programs.
//
// SubprocessRunner runs each command in its own session and process group,
// with rlimits (CPU time, address space for non-GPU programs, file size, no
// core dumps), an optional cgroup (process count and memory, where the cgroup
// file system is writable) and, for CommandSpec::sandbox, under bubblewrap
// with the policy of core/sandbox.h (an allow-list of system paths, no
// network, the working folder only). Sandboxing fails closed: a sandboxed
// command that cannot get its sandbox is a FailedPrecondition, unless the
// runner was made with SandboxMode::kNone (the user's explicit
// --unsafe-no-sandbox), which CommandResult::sandbox then says in capitals.
// On a wall-time overrun the whole process group and cgroup are killed.
// Standard input is written inside the same wait loop as the output is read,
// so the wall limit holds for a child that never reads its input; a child
// that closes it early just stops the writing (no SIGPIPE reaches regrapht).
// Every descriptor the runner opens is closed on every path, including a
// pipe or fork that fails halfway (SubprocessSyscalls injects such failures
// in tests).
//
// Thread safety: Run() may be called from several threads at once.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
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
  // Untrusted code: run under bubblewrap (core/sandbox.h).
  bool sandbox = false;
  // Sandbox only: bind `cwd` at kBoxPath ("/box") and start there (argv
  // should then name files relative to it), and drop root to the sandbox
  // user first where that works. Otherwise cwd is bound at its own path.
  bool box_cwd = false;
  bool uses_gpu = false;               // keep /dev/nvidia* nodes, skip RLIMIT_AS
  std::vector<fs::path> writable;      // beyond cwd (sandbox only)
  std::vector<fs::path> readable;      // made visible read-only (sandbox only)
  // When >= 3: the child gets the write end of a pipe as this descriptor and
  // everything written to it is kept in CommandResult::records (at most
  // max_records_bytes; past that the command is killed), with arrival times.
  int records_fd = -1;
  size_t max_records_bytes = size_t{1} << 30;
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
  // CommandSpec::records_fd: the bytes, and (end offset, ms since start) of
  // every chunk as it was read, for checking times the program reports.
  std::string records;
  std::vector<std::pair<size_t, double>> records_arrivals;
  bool records_overflow = false;

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

// kAuto and kBubblewrap both require bubblewrap for sandboxed commands;
// kNone runs them unsandboxed (only for an explicit --unsafe-no-sandbox).
enum class SandboxMode { kAuto, kBubblewrap, kNone };

// The system calls that start a command, as a seam: the default ones are the
// real ones; a test overrides them to fail at a chosen point.
class SubprocessSyscalls {
 public:
  virtual ~SubprocessSyscalls() = default;
  virtual int Pipe2(int fds[2], int flags);  // ::pipe2
  virtual pid_t Fork();                      // ::fork
};

struct SubprocessOptions {
  SandboxMode sandbox = SandboxMode::kAuto;
  bool use_cgroups = true;                   // if the cgroup fs is writable
  // Not owned; null: the real system calls. Must outlive the runner.
  SubprocessSyscalls* syscalls = nullptr;
  // Polled like CommandSpec::cancel for every command this runner runs (the
  // CLI's Ctrl-C flag): set, whatever is running is killed and reported
  // cancelled. Not owned; may be null.
  const std::atomic<bool>* cancel = nullptr;
};

// What CommandResult::sandbox says for an unsandboxed run of untrusted code.
inline constexpr const char* kUnsandboxedNote = "UNSANDBOXED(--unsafe-no-sandbox)";

std::unique_ptr<CommandRunner> NewSubprocessRunner(const SubprocessOptions& options = {});

// Whether bubblewrap can run the sandbox policy here (probed once).
bool BubblewrapWorks();
// Whether a pids cgroup can be created here (probed once). The first probe
// (or command with limits) of a process also removes the cgroups a killed
// regrapht left behind (CleanStaleCgroups, CleanStaleSiblingCgroups).
bool CgroupsWork();
// The folders per-command cgroups are made in (pids, memory); empty without cgroups.
std::vector<fs::path> CgroupBases();

}  // namespace regrapht
