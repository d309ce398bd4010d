#include "core/subprocess.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// An owned file descriptor, closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Close(); }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void Reset(int fd) {
    Close();
    fd_ = fd;
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read, write;
};

Status OpenPipe(SubprocessSyscalls& sys, Pipe* p) {
  int fds[2];
  if (sys.Pipe2(fds, O_CLOEXEC) != 0)
    return Status::IoError(std::string("pipe failed: ") + std::strerror(errno));
  p->read.Reset(fds[0]);
  p->write.Reset(fds[1]);
  return Status::Ok();
}

// write(2) to a pipe whose reader may be gone, without the SIGPIPE that would
// end regrapht: the signal is blocked in this thread for the call, and one
// the call raised is taken off the pending set before it is unblocked.
ssize_t WriteNoSigpipe(int fd, const char* data, size_t n) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  sigset_t pending;
  sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE);
  ssize_t r = ::write(fd, data, n);
  int err = errno;
  if (r < 0 && err == EPIPE && !was_pending) {
    struct timespec zero = {0, 0};
    while (::sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return r;
}

void SetLimit(int resource, rlim_t value) {
  struct rlimit rl = {value, value};
  ::setrlimit(resource, &rl);
}

// The pipes of one command: its standard streams, the go signal (the child
// waits for it before exec, so the parent can put it in its cgroup first),
// and the records pipe (CommandSpec::records_fd).
struct CommandPipes {
  Pipe out, err, in, go, rec;
};

// Opens the pipes of `spec`; the stdin write end is non-blocking.
Status OpenCommandPipes(SubprocessSyscalls& sys, const CommandSpec& spec, CommandPipes* p) {
  RG_RETURN_IF_ERROR(OpenPipe(sys, &p->out));
  RG_RETURN_IF_ERROR(OpenPipe(sys, &p->err));
  RG_RETURN_IF_ERROR(OpenPipe(sys, &p->in));
  RG_RETURN_IF_ERROR(OpenPipe(sys, &p->go));
  if (spec.records_fd >= 3) RG_RETURN_IF_ERROR(OpenPipe(sys, &p->rec));
  // Standard input is written in the wait loop, as the child takes it.
  if (::fcntl(p->in.write.get(), F_SETFL, O_NONBLOCK) != 0) {
    return Status::IoError(std::string("fcntl(O_NONBLOCK) failed: ") + std::strerror(errno));
  }
  return Status::Ok();
}

// The forked child: waits for the go byte, wires its pipes, drops root when
// asked, sets its limits and execs. Only async-signal-safe calls (and no
// destructors: it never returns).
[[noreturn]] void ExecChild(const CommandSpec& spec, CommandPipes& p, bool drop_root,
                            const std::string& cwd, char** argv, char** env) {
  ::setsid();
  char go;
  ::close(p.go.write.get());
  while (::read(p.go.read.get(), &go, 1) < 0 && errno == EINTR) {
  }
  ::dup2(p.in.read.get(), 0);
  ::dup2(p.out.write.get(), 1);
  ::dup2(p.err.write.get(), 2);
  if (spec.records_fd >= 3) {
    if (p.rec.write.get() == spec.records_fd)
      ::fcntl(p.rec.write.get(), F_SETFD, 0);
    else
      ::dup2(p.rec.write.get(), spec.records_fd);
  }
  if (drop_root &&
      (::setgroups(0, nullptr) != 0 || ::setgid(kSandboxUid) != 0 || ::setuid(kSandboxUid) != 0)) {
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
  ::execve(argv[0], argv, env);
  _exit(127);
}

// Parent side after fork: closes the child's ends, puts it in `cgroup` and
// lets it continue.
void ReleaseChild(pid_t pid, CommandPipes& p, CommandCgroup& cgroup) {
  p.go.read.Close();
  p.out.write.Close();
  p.err.write.Close();
  p.in.read.Close();
  p.rec.write.Close();
  cgroup.AddProcess(pid);
  // Let the child continue, now inside its cgroup. An explicit byte, not
  // EOF: a child forked meanwhile by another thread holds a copy of this
  // write end until it execs, and waiting for EOF could deadlock two
  // concurrent Run() calls on each other.
  char go = 1;
  while (::write(p.go.write.get(), &go, 1) < 0 && errno == EINTR) {
  }
  p.go.write.Close();
}

// Watches a running child: feeds its stdin and drains its output pipes
// until EOF or the deadline (or cancellation), killing its process group
// when it must stop; collects its wait status and resource usage.
class ChildWatch {
 public:
  ChildWatch(const CommandSpec& spec, const SubprocessOptions& options, pid_t pid,
             Clock::time_point start, CommandPipes& pipes, CommandCgroup& cgroup,
             CommandResult* result)
      : spec_(spec),
        options_(options),
        pid_(pid),
        start_(start),
        pipes_(pipes),
        cgroup_(cgroup),
        result_(result),
        streams_{{&pipes.out.read, &result->stdout_text, &result->stdout_dropped,
                  spec.max_output_bytes, false},
                 {&pipes.err.read, &result->stderr_text, &result->stderr_dropped,
                  spec.max_output_bytes, false},
                 {&pipes.rec.read, &result->records, nullptr, spec.max_records_bytes, true}} {}

  // Runs until the child has exited and its pipes are closed, or it was
  // killed for its deadline or a cancellation.
  void Run();
  int wstatus() const { return wstatus_; }
  const struct rusage& usage() const { return usage_; }

 private:
  struct Stream {
    Fd* fd;
    std::string* text;
    size_t* dropped;
    size_t limit;
    bool records;
  };
  void KillGroup() {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    cgroup_.KillAll();
  }
  // Writes the next part of stdin; closes it when done or refused.
  void FeedStdin();
  // Reads what stream `s` has; closes it at EOF or when records overflow.
  void ReadStream(Stream& s);

  const CommandSpec& spec_;
  const SubprocessOptions& options_;
  const pid_t pid_;
  const Clock::time_point start_;
  CommandPipes& pipes_;
  CommandCgroup& cgroup_;
  CommandResult* result_;
  Stream streams_[3];
  int open_streams_ = 0;
  size_t stdin_done_ = 0;
  int wstatus_ = 0;
  struct rusage usage_ {};
  char buf_[65536];
};

void ChildWatch::FeedStdin() {
  ssize_t w = WriteNoSigpipe(pipes_.in.write.get(), spec_.stdin_data.data() + stdin_done_,
                             std::min(spec_.stdin_data.size() - stdin_done_, sizeof buf_));
  if (w > 0) stdin_done_ += static_cast<size_t>(w);
  // Written, or the child closed its end (EPIPE): no more input.
  if (stdin_done_ == spec_.stdin_data.size() || (w < 0 && errno != EAGAIN && errno != EINTR)) {
    pipes_.in.write.Close();
  }
}

void ChildWatch::ReadStream(Stream& s) {
  ssize_t r = ::read(s.fd->get(), buf_, sizeof buf_);
  if (r <= 0) {
    s.fd->Close();
    --open_streams_;
  } else if (s.records) {
    if (s.text->size() + static_cast<size_t>(r) > s.limit) {
      result_->records_overflow = true;
      KillGroup();
      s.fd->Close();
      --open_streams_;
      return;
    }
    s.text->append(buf_, static_cast<size_t>(r));
    result_->records_arrivals.emplace_back(
        s.text->size(), std::chrono::duration<double, std::milli>(Clock::now() - start_).count());
  } else {
    size_t keep = std::min(static_cast<size_t>(r),
                           s.limit > s.text->size() ? s.limit - s.text->size() : size_t{0});
    s.text->append(buf_, keep);
    *s.dropped += static_cast<size_t>(r) - keep;
  }
}

void ChildWatch::Run() {
  if (spec_.stdin_data.empty()) pipes_.in.write.Close();
  open_streams_ = pipes_.rec.read.valid() ? 3 : 2;
  bool exited = false;
  auto deadline = start_ + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(spec_.limits.wall_seconds));
  while (true) {
    if (!exited) {
      pid_t w = ::wait4(pid_, &wstatus_, WNOHANG, &usage_);
      if (w == pid_) exited = true;
    }
    if (exited && open_streams_ == 0) break;
    if (exited) {
      // The leader exited; whatever it left behind in its group must not
      // keep us waiting on the pipes.
      ::kill(-pid_, SIGKILL);
    }
    auto now = Clock::now();
    bool cancel =
        (spec_.cancel && spec_.cancel->load()) || (options_.cancel && options_.cancel->load());
    if ((spec_.limits.wall_seconds > 0 && now >= deadline) || cancel) {
      if (cancel)
        result_->cancelled = true;
      else
        result_->timed_out = true;
      KillGroup();
      if (!exited) ::wait4(pid_, &wstatus_, 0, &usage_);
      return;
    }
    struct pollfd pfds[4];
    int n = 0;
    for (auto& s : streams_) {
      if (s.fd->valid()) pfds[n++] = {s.fd->get(), POLLIN, 0};
    }
    int in_index = -1;
    if (pipes_.in.write.valid()) {
      in_index = n;
      pfds[n++] = {pipes_.in.write.get(), POLLOUT, 0};
    }
    if (n == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    ::poll(pfds, n, 20);
    if (in_index >= 0 && (pfds[in_index].revents & (POLLOUT | POLLERR | POLLHUP))) FeedStdin();
    for (int i = 0; i < n; ++i) {
      if (i == in_index || !(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      for (auto& s : streams_) {
        if (s.fd->get() == pfds[i].fd) ReadStream(s);
      }
    }
  }
}

class SubprocessRunner final : public CommandRunner {
 public:
  explicit SubprocessRunner(const SubprocessOptions& options) : options_(options) {}

  Result<CommandResult> Run(const CommandSpec& spec) override {
    CommandResult result;
    bool want_bwrap = false, drop_root = false;
    RG_ASSIGN_OR_RETURN(std::vector<std::string> argv,
                        CommandLine(spec, &result, &want_bwrap, &drop_root));
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

    SubprocessSyscalls& sys = options_.syscalls ? *options_.syscalls : real_syscalls_;
    CommandPipes pipes;
    RG_RETURN_IF_ERROR(OpenCommandPipes(sys, spec, &pipes));
    std::string cwd = spec.cwd.string();
    auto start = Clock::now();
    pid_t pid = sys.Fork();
    if (pid < 0) return Status::IoError(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) ExecChild(spec, pipes, drop_root, cwd, argv_c.data(), env_c.data());
    ReleaseChild(pid, pipes, cgroup);
    if (spec.limits.memory_bytes > 0 && !spec.uses_gpu) {
      result.sandbox += "+as-limit";
    }

    ChildWatch watch(spec, options_, pid, start, pipes, cgroup, &result);
    watch.Run();
    cgroup.KillAll();
    result.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const struct rusage& usage = watch.usage();
    result.cpu_ms = usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3 +
                    usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
    const int wstatus = watch.wstatus();
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
  // The command line to exec: the program found (relative to the sandbox's
  // working directory when it runs there), behind bubblewrap's prefix when
  // sandboxed; names the sandbox in result->sandbox.
  Result<std::vector<std::string>> CommandLine(const CommandSpec& spec, CommandResult* result,
                                               bool* want_bwrap, bool* drop_root) {
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

    result->sandbox = "rlimits+pgroup";
    *want_bwrap = spec.sandbox && options_.sandbox != SandboxMode::kNone;
    if (spec.sandbox && !*want_bwrap) {
      result->sandbox = std::string(kUnsandboxedNote) + "+" + result->sandbox;
    }
    if (*want_bwrap) {
      RG_ASSIGN_OR_RETURN(auto prefix, SandboxPrefix(spec, drop_root));
      if (spec.box_cwd && !StartsWith(spec.argv[0], "/")) argv[0] = spec.argv[0];
      argv.insert(argv.begin(), prefix.begin(), prefix.end());
      result->sandbox = std::string("bwrap(allow-list,no-net") + (*drop_root ? ",uid-nobody" : "") +
                        ")+" + result->sandbox;
    }
    return argv;
  }

  SubprocessOptions options_;
  SubprocessSyscalls real_syscalls_;
};

}  // namespace

int SubprocessSyscalls::Pipe2(int fds[2], int flags) { return ::pipe2(fds, flags); }

pid_t SubprocessSyscalls::Fork() { return ::fork(); }

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
