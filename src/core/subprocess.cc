#include "core/subprocess.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/sandbox.h"
#include "core/strings.h"

extern char** environ;

namespace regrapht {
namespace {

using Clock = std::chrono::steady_clock;

std::string SignalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGXCPU: return "SIGXCPU (CPU time limit)";
    case SIGXFSZ: return "SIGXFSZ (file size limit)";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal " + std::to_string(sig);
  }
}

// ---- cgroups -------------------------------------------------------------
//
// A per-command cgroup bounds the process count (fork bombs) and memory, and
// lets a timeout kill every process the command created, even ones that left
// its process group. cgroup v1 (a mount per controller) and v2 (one unified
// mount, used only if our cgroup already delegates the controller) are tried.

struct CgroupMount {
  fs::path base;  // the folder under which we create per-command cgroups
  bool v2 = false;
  fs::path mount;  // where the hierarchy is mounted
};

struct CgroupLayout {
  std::optional<CgroupMount> pids;
  std::optional<CgroupMount> memory;
};

std::string OwnCgroupPath(std::string_view controller, bool v2) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    auto parts = Split(line, ':');
    if (parts.size() < 3) continue;
    std::string path = line.substr(parts[0].size() + parts[1].size() + 2);
    if (v2 && parts[0] == "0" && parts[1].empty()) return path;
    if (!v2) {
      for (const auto& c : Split(parts[1], ',')) {
        if (c == controller) return path;
      }
    }
  }
  return {};
}

bool Writable(const fs::path& dir) { return ::access(dir.c_str(), W_OK) == 0; }

CgroupLayout DetectCgroups() {
  CgroupLayout layout;
  std::ifstream in("/proc/self/mounts");
  std::string dev, mnt, type, opts;
  std::string v2_mount;
  while (in >> dev >> mnt >> type >> opts) {
    std::string rest;
    std::getline(in, rest);
    if (type == "cgroup") {
      for (const auto& o : Split(opts, ',')) {
        if (o == "pids" || o == "memory") {
          fs::path base = fs::path(mnt) / fs::path(OwnCgroupPath(o, false)).relative_path();
          if (Writable(base)) {
            if (o == "pids") layout.pids = CgroupMount{base, false, mnt};
            if (o == "memory") layout.memory = CgroupMount{base, false, mnt};
          }
        }
      }
    } else if (type == "cgroup2") {
      v2_mount = mnt;
    }
  }
  if (!v2_mount.empty() && (!layout.pids || !layout.memory)) {
    fs::path base = fs::path(v2_mount) / fs::path(OwnCgroupPath("", true)).relative_path();
    std::ifstream sc(base / "cgroup.subtree_control");
    std::string controllers((std::istreambuf_iterator<char>(sc)), {});
    if (Writable(base)) {
      for (const auto& c : Split(std::string(Trim(controllers)), ' ')) {
        if (c == "pids" && !layout.pids) layout.pids = CgroupMount{base, true, v2_mount};
        if (c == "memory" && !layout.memory) layout.memory = CgroupMount{base, true, v2_mount};
      }
    }
  }
  return layout;
}

fs::path NoTrailingSlash(fs::path p) {
  p = p.lexically_normal();
  return p.has_filename() ? p : p.parent_path();
}

// A stale cgroup beside ours is removed only once this old (seconds), so a
// regrapht in another pid namespace that just made it is never raced.
constexpr double kStaleSiblingCgroupAge = 60;

const CgroupLayout& Cgroups() {
  static const CgroupLayout layout = [] {
    CgroupLayout l = DetectCgroups();
    std::vector<fs::path> bases;
    if (l.pids) bases.push_back(l.pids->base);
    if (l.memory) bases.push_back(l.memory->base);
    CleanStaleCgroups(bases);
    // Sessions (and jobs) with cgroups of their own: what a regrapht killed in
    // another one left beside ours.
    std::vector<fs::path> nested;
    for (const auto& m : {l.pids, l.memory}) {
      if (m && NoTrailingSlash(m->base) != NoTrailingSlash(m->mount)) nested.push_back(NoTrailingSlash(m->base));
    }
    CleanStaleSiblingCgroups(nested, kStaleSiblingCgroupAge);
    return l;
  }();
  return layout;
}

bool WriteSmall(const fs::path& file, const std::string& value) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  ::close(fd);
  return ok;
}

class CommandCgroup {
 public:
  // Creates cgroups for the limits that apply; `note` lists what was applied.
  void Create(const Limits& limits, std::string* note) {
    static std::atomic<uint64_t> counter{0};
    std::string name = "regrapht-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const auto& layout = Cgroups();
    std::vector<std::string> applied;
    if (layout.pids) {
      fs::path dir = layout.pids->base / name;
      if (::mkdir(dir.c_str(), 0755) == 0) {
        dirs_.push_back(dir);
        if (limits.max_processes > 0) {
          WriteSmall(dir / "pids.max", std::to_string(limits.max_processes));
          applied.push_back("pids");
        }
      }
    }
    if (layout.memory && limits.memory_bytes > 0) {
      fs::path dir = layout.memory->base / name;
      if (dir != (dirs_.empty() ? fs::path() : dirs_.front()) && ::mkdir(dir.c_str(), 0755) == 0) {
        dirs_.push_back(dir);
      }
      const char* file = layout.memory->v2 ? "memory.max" : "memory.limit_in_bytes";
      if (WriteSmall(dir / file, std::to_string(limits.memory_bytes))) applied.push_back("memory");
    }
    if (!dirs_.empty()) *note += "+cgroup(" + Join(applied, ",") + ")";
  }

  void AddProcess(pid_t pid) {
    for (const auto& d : dirs_) WriteSmall(d / "cgroup.procs", std::to_string(pid));
  }

  // Kills every process still in the cgroup(s).
  void KillAll() {
    for (int round = 0; round < 50; ++round) {
      bool any = false;
      for (const auto& d : dirs_) {
        std::ifstream in(d / "cgroup.procs");
        pid_t p;
        while (in >> p) {
          any = true;
          ::kill(p, SIGKILL);
        }
      }
      if (!any) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  ~CommandCgroup() {
    KillAll();
    for (const auto& d : dirs_) {
      for (int i = 0; i < 100 && ::rmdir(d.c_str()) != 0 && errno == EBUSY; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
  }

 private:
  std::vector<fs::path> dirs_;
};

// The bubblewrap prefix for a sandboxed `spec` (core/sandbox.h); sets
// *drop_root when the child must become the sandbox user before exec.
Result<std::vector<std::string>> SandboxPrefix(const CommandSpec& spec, bool* drop_root) {
  const SandboxSupport& support = ProbeSandbox();
  if (!support.bwrap) return SandboxRefusal(support);
  SandboxRequest req;
  req.gpu = spec.uses_gpu;
  req.readable = spec.readable;
  req.writable = spec.writable;
  if (spec.box_cwd) {
    req.box = spec.cwd;
    *drop_root = ::geteuid() == 0 && support.unprivileged;
    if (*drop_root) RG_RETURN_IF_ERROR(GiveToSandboxUser(spec.cwd));
  } else if (!spec.cwd.empty()) {
    req.writable.insert(req.writable.begin(), spec.cwd);
  }
  auto prefix = BwrapArgs(BwrapProgram(), req);
  if (!spec.box_cwd && !spec.cwd.empty()) {
    std::error_code ec;
    prefix.insert(prefix.end() - 1, {"--chdir", fs::absolute(spec.cwd, ec).string()});
  }
  return prefix;
}

std::vector<std::string> BuildEnv(const CommandSpec& spec) {
  std::vector<std::string> env;
  auto passes = [&](std::string_view kv) {
    if (!spec.clean_env) return true;
    for (std::string_view p : {"PATH=", "HOME=", "LANG=", "LC_ALL=", "LD_LIBRARY_PATH=", "CUDA_",
                               "NVIDIA_", "TMPDIR="}) {
      if (StartsWith(kv, p)) return true;
    }
    return false;
  };
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    if (!passes(kv)) continue;
    std::string key = kv.substr(0, kv.find('='));
    bool overridden = false;
    for (const auto& o : spec.env) overridden = overridden || StartsWith(o, key + "=");
    if (!overridden) env.push_back(kv);
  }
  env.insert(env.end(), spec.env.begin(), spec.env.end());
  return env;
}

void SetLimit(int resource, rlim_t value) {
  struct rlimit rl = {value, value};
  ::setrlimit(resource, &rl);
}

class SubprocessRunner final : public CommandRunner {
 public:
  explicit SubprocessRunner(const SubprocessOptions& options) : options_(options) {}

  Result<CommandResult> Run(const CommandSpec& spec) override {
    if (spec.argv.empty()) return Status::InvalidArgument("empty command line");
    fs::path program = spec.sandbox && spec.box_cwd && !StartsWith(spec.argv[0], "/")
                           ? spec.cwd / spec.argv[0]
                           : FindProgram(spec.argv[0]);
    std::error_code exists_ec;
    if (program.empty() || !fs::exists(program, exists_ec)) {
      return Status::FailedPrecondition("program not found: " + spec.argv[0]);
    }
    std::vector<std::string> argv = spec.argv;
    argv[0] = program.string();

    CommandResult result;
    result.sandbox = "rlimits+pgroup";
    bool want_bwrap = spec.sandbox && options_.sandbox != SandboxMode::kNone;
    bool drop_root = false;
    if (spec.sandbox && !want_bwrap) result.sandbox = std::string(kUnsandboxedNote) + "+" + result.sandbox;
    if (want_bwrap) {
      RG_ASSIGN_OR_RETURN(auto prefix, SandboxPrefix(spec, &drop_root));
      if (spec.box_cwd && !StartsWith(spec.argv[0], "/")) argv[0] = spec.argv[0];
      argv.insert(argv.begin(), prefix.begin(), prefix.end());
      result.sandbox = std::string("bwrap(allow-list,no-net") + (drop_root ? ",uid-nobody" : "") + ")+" +
                       result.sandbox;
    }
    CommandCgroup cgroup;
    if (options_.use_cgroups && (spec.limits.max_processes > 0 || spec.limits.memory_bytes > 0)) {
      cgroup.Create(spec.limits, &result.sandbox);
    }

    std::vector<std::string> env = BuildEnv(spec);
    std::vector<char*> argv_c, env_c;
    for (auto& a : argv) argv_c.push_back(a.data());
    argv_c.push_back(nullptr);
    for (auto& e : env) env_c.push_back(e.data());
    env_c.push_back(nullptr);

    int out_pipe[2], err_pipe[2], in_pipe[2], go_pipe[2], rec_pipe[2] = {-1, -1};
    if (::pipe2(out_pipe, O_CLOEXEC) || ::pipe2(err_pipe, O_CLOEXEC) ||
        ::pipe2(in_pipe, O_CLOEXEC) || ::pipe2(go_pipe, O_CLOEXEC) ||
        (spec.records_fd >= 3 && ::pipe2(rec_pipe, O_CLOEXEC))) {
      return Status::IoError(std::string("pipe failed: ") + std::strerror(errno));
    }
    std::string cwd = spec.cwd.string();
    auto start = Clock::now();
    pid_t pid = ::fork();
    if (pid < 0) return Status::IoError(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
      // Child: only async-signal-safe calls until exec.
      ::setsid();
      char go;
      ::close(go_pipe[1]);
      while (::read(go_pipe[0], &go, 1) < 0 && errno == EINTR) {
      }
      ::dup2(in_pipe[0], 0);
      ::dup2(out_pipe[1], 1);
      ::dup2(err_pipe[1], 2);
      if (spec.records_fd >= 3) {
        if (rec_pipe[1] == spec.records_fd) ::fcntl(rec_pipe[1], F_SETFD, 0);
        else ::dup2(rec_pipe[1], spec.records_fd);
      }
      if (drop_root && (::setgroups(0, nullptr) != 0 || ::setgid(kSandboxUid) != 0 ||
                        ::setuid(kSandboxUid) != 0)) {
        _exit(125);
      }
      SetLimit(RLIMIT_CORE, 0);
      if (spec.limits.cpu_seconds > 0) {
        SetLimit(RLIMIT_CPU, static_cast<rlim_t>(spec.limits.cpu_seconds + 0.999));
      }
      if (spec.limits.file_size_bytes > 0) {
        SetLimit(RLIMIT_FSIZE, static_cast<rlim_t>(spec.limits.file_size_bytes));
      }
      // CUDA reserves terabytes of virtual address space, so RLIMIT_AS only
      // bounds programs that do not touch the GPU; the cgroup bounds the rest.
      if (spec.limits.memory_bytes > 0 && !spec.uses_gpu) {
        SetLimit(RLIMIT_AS, static_cast<rlim_t>(spec.limits.memory_bytes));
      }
      if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) _exit(126);
      ::execve(argv_c[0], argv_c.data(), env_c.data());
      _exit(127);
    }
    ::close(go_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    ::close(in_pipe[0]);
    if (rec_pipe[1] >= 0) ::close(rec_pipe[1]);
    cgroup.AddProcess(pid);
    // Let the child continue, now inside its cgroup. An explicit byte, not
    // EOF: a child forked meanwhile by another thread holds a copy of this
    // write end until it execs, and waiting for EOF could deadlock two
    // concurrent Run() calls on each other.
    char go = 1;
    while (::write(go_pipe[1], &go, 1) < 0 && errno == EINTR) {
    }
    ::close(go_pipe[1]);
    if (spec.limits.memory_bytes > 0 && !spec.uses_gpu) {
      result.sandbox += "+as-limit";
    }

    // Feed stdin (small) and drain both pipes until EOF or timeout.
    if (!spec.stdin_data.empty()) {
      size_t done = 0;
      while (done < spec.stdin_data.size()) {
        ssize_t n = ::write(in_pipe[1], spec.stdin_data.data() + done, spec.stdin_data.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
      }
    }
    ::close(in_pipe[1]);

    struct Stream {
      int fd;
      std::string* text;
      size_t* dropped;
      size_t limit;
      bool records;
    } streams[3] = {{out_pipe[0], &result.stdout_text, &result.stdout_dropped, spec.max_output_bytes, false},
                    {err_pipe[0], &result.stderr_text, &result.stderr_dropped, spec.max_output_bytes, false},
                    {rec_pipe[0], &result.records, nullptr, spec.max_records_bytes, true}};
    int open_streams = rec_pipe[0] >= 0 ? 3 : 2;
    bool exited = false;
    int wstatus = 0;
    struct rusage usage {};
    auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(spec.limits.wall_seconds));
    char buf[65536];
    while (true) {
      if (!exited) {
        pid_t w = ::wait4(pid, &wstatus, WNOHANG, &usage);
        if (w == pid) exited = true;
      }
      if (exited && open_streams == 0) break;
      if (exited) {
        // The leader exited; whatever it left behind in its group must not
        // keep us waiting on the pipes.
        ::kill(-pid, SIGKILL);
      }
      auto now = Clock::now();
      bool cancel = (spec.cancel && spec.cancel->load()) || (options_.cancel && options_.cancel->load());
      if ((spec.limits.wall_seconds > 0 && now >= deadline) || cancel) {
        if (cancel) result.cancelled = true;
        else result.timed_out = true;
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
        cgroup.KillAll();
        if (!exited) {
          ::wait4(pid, &wstatus, 0, &usage);
          exited = true;
        }
        for (auto& s : streams) {
          if (s.fd >= 0) {
            ::close(s.fd);
            s.fd = -1;
          }
        }
        break;
      }
      struct pollfd pfds[3];
      int n = 0;
      for (auto& s : streams) {
        if (s.fd >= 0) pfds[n++] = {s.fd, POLLIN, 0};
      }
      if (n == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      ::poll(pfds, n, 20);
      for (int i = 0; i < n; ++i) {
        if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        for (auto& s : streams) {
          if (s.fd != pfds[i].fd) continue;
          ssize_t r = ::read(s.fd, buf, sizeof buf);
          if (r <= 0) {
            ::close(s.fd);
            s.fd = -1;
            --open_streams;
          } else if (s.records) {
            if (s.text->size() + static_cast<size_t>(r) > s.limit) {
              result.records_overflow = true;
              ::kill(-pid, SIGKILL);
              ::kill(pid, SIGKILL);
              cgroup.KillAll();
              ::close(s.fd);
              s.fd = -1;
              --open_streams;
              continue;
            }
            s.text->append(buf, static_cast<size_t>(r));
            result.records_arrivals.emplace_back(
                s.text->size(), std::chrono::duration<double, std::milli>(Clock::now() - start).count());
          } else {
            size_t keep = std::min(static_cast<size_t>(r), s.limit > s.text->size() ? s.limit - s.text->size()
                                                                                    : size_t{0});
            s.text->append(buf, keep);
            *s.dropped += static_cast<size_t>(r) - keep;
          }
        }
      }
    }
    cgroup.KillAll();
    result.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    result.cpu_ms = usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3 +
                    usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
    if (WIFSIGNALED(wstatus)) {
      result.term_signal = WTERMSIG(wstatus);
    } else if (WIFEXITED(wstatus)) {
      result.exit_code = WEXITSTATUS(wstatus);
      if (result.exit_code == 127 && result.stderr_text.empty() && !want_bwrap) {
        return Status::IoError("cannot execute " + argv[0]);
      }
    }
    // bubblewrap reports the child's signal as exit 128+N.
    if (want_bwrap && result.sandbox.starts_with("bwrap") && result.term_signal == 0 &&
        result.exit_code > 128 && result.exit_code < 128 + 32) {
      result.term_signal = result.exit_code - 128;
    }
    return result;
  }

 private:
  SubprocessOptions options_;
};

}  // namespace

std::string CommandResult::Describe() const {
  char buf[64];
  if (timed_out) {
    std::snprintf(buf, sizeof buf, "timed out after %.1f s", wall_ms / 1000);
    return buf;
  }
  if (cancelled) return "cancelled";
  if (term_signal) return "killed by " + SignalName(term_signal);
  return "exit " + std::to_string(exit_code);
}

bool BubblewrapWorks() { return ProbeSandbox().bwrap; }

bool CgroupsWork() { return Cgroups().pids.has_value(); }

std::vector<fs::path> CgroupBases() {
  std::vector<fs::path> bases;
  if (Cgroups().pids) bases.push_back(Cgroups().pids->base);
  if (Cgroups().memory && (!Cgroups().pids || Cgroups().memory->base != Cgroups().pids->base)) {
    bases.push_back(Cgroups().memory->base);
  }
  return bases;
}

std::unique_ptr<CommandRunner> NewSubprocessRunner(const SubprocessOptions& options) {
  return std::make_unique<SubprocessRunner>(options);
}

}  // namespace regrapht
