#include "core/sandbox.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>

#include "core/strings.h"

namespace regrapht {
namespace {

bool IsSymlink(const fs::path& p) {
  std::error_code ec;
  return fs::is_symlink(fs::symlink_status(p, ec));
}

bool Exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// Runs bwrap /bin/true with the policy, as the sandbox user when `drop`.
bool TryBwrap(const fs::path& bwrap, const fs::path& box, bool drop) {
  SandboxRequest req;
  req.box = box;
  std::vector<std::string> args = BwrapArgs(bwrap, req);
  args.push_back("/bin/true");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    int devnull = ::open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
    }
    if (drop && (::setgroups(0, nullptr) != 0 || ::setgid(kSandboxUid) != 0 || ::setuid(kSandboxUid) != 0)) {
      _exit(125);
    }
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

fs::path BwrapProgram() {
  if (const char* e = std::getenv("REGRAPHT_BWRAP")) {
    std::error_code ec;
    return fs::exists(e, ec) ? fs::path(e) : fs::path();
  }
  return FindProgram("bwrap");
}

std::vector<std::string> SystemPaths() {
  std::vector<std::string> paths = {"/usr", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                    "/etc/alternatives"};
  return paths;
}

std::vector<std::string> BwrapArgs(const fs::path& bwrap, const SandboxRequest& r) {
  std::vector<std::string> a = {bwrap.string(), "--die-with-parent", "--unshare-all", "--new-session"};
  for (const auto& p : SystemPaths()) {
    if (Exists(p)) a.insert(a.end(), {"--ro-bind", p, p});
  }
  // Merged-/usr systems link these into /usr; others have real folders.
  for (const char* p : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (IsSymlink(p)) {
      std::error_code ec;
      a.insert(a.end(), {"--symlink", fs::read_symlink(p, ec).string(), p});
    } else if (Exists(p)) {
      a.insert(a.end(), {"--ro-bind", p, p});
    }
  }
  a.insert(a.end(), {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm", "--tmpfs", "/tmp"});
  if (r.gpu) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/dev", ec)) {
      std::string name = e.path().filename().string();
      if (StartsWith(name, "nvidia")) a.insert(a.end(), {"--dev-bind", e.path().string(), e.path().string()});
    }
    for (const char* p : {"/sys", "/run/nvidia-persistenced/socket"}) {
      if (Exists(p)) a.insert(a.end(), {"--ro-bind", p, p});
    }
    // A driver installed outside /usr (containers put libcuda on
    // LD_LIBRARY_PATH): its library folders, read-only, never HOME.
    if (const char* llp = std::getenv("LD_LIBRARY_PATH")) {
      const char* home = std::getenv("HOME");
      for (const auto& d : Split(llp, ':')) {
        if (d.empty() || d[0] != '/' || StartsWith(d, "/usr/") || !Exists(d)) continue;
        if (home && *home && StartsWith(d, home)) continue;
        a.insert(a.end(), {"--ro-bind", d, d});
      }
    }
  }
  for (const auto& p : r.readable) {
    std::error_code ec;
    std::string abs = fs::absolute(p, ec).string();
    a.insert(a.end(), {"--ro-bind", abs, abs});
  }
  for (const auto& p : r.writable) {
    std::error_code ec;
    std::string abs = fs::absolute(p, ec).string();
    a.insert(a.end(), {"--bind", abs, abs});
  }
  if (!r.box.empty()) {
    std::error_code ec;
    a.insert(a.end(), {"--bind", fs::absolute(r.box, ec).string(), kBoxPath, "--chdir", kBoxPath});
  }
  a.push_back("--");
  return a;
}

const SandboxSupport& ProbeSandbox() {
  static const SandboxSupport support = [] {
    SandboxSupport s;
    fs::path bwrap = BwrapProgram();
    if (bwrap.empty()) {
      s.why_not = "bubblewrap (bwrap) is not installed";
      return s;
    }
    auto runs = SandboxRunsDir();
    if (!runs.ok()) {
      s.why_not = runs.status().message();
      return s;
    }
    auto box = TempDir::Create("probe-", *runs);
    if (!box.ok()) {
      s.why_not = box.status().message();
      return s;
    }
    bool root = ::geteuid() == 0;
    if (root && GiveToSandboxUser(box->path()).ok() && TryBwrap(bwrap, box->path(), true)) {
      s.bwrap = s.unprivileged = true;
      return s;
    }
    if (TryBwrap(bwrap, box->path(), false)) {
      s.bwrap = true;
      s.unprivileged = !root;
      return s;
    }
    s.why_not = "bubblewrap is installed but cannot create its namespaces here (user namespaces disabled?)";
    return s;
  }();
  return support;
}

Status SandboxRefusal(const SandboxSupport& support) {
  return Status::FailedPrecondition(
      "sandbox: " + support.why_not +
      "; untrusted code is never run unsandboxed (install bubblewrap: scripts/install-deps.sh, or pass "
      "--unsafe-no-sandbox to accept the risk)");
}

Result<fs::path> SandboxRunsDir() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  fs::path dir = base / ("regrapht-sandbox-" + std::to_string(::geteuid()));
  if (::mkdir(dir.c_str(), 0711) != 0 && errno != EEXIST) {
    return Status::IoError("cannot create " + dir.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
    return Status::IoError(dir.string() + " exists but is not a folder owned by this user");
  }
  ::chmod(dir.c_str(), 0711);
  return dir;
}

Status GiveToSandboxUser(const fs::path& dir) {
  if (::geteuid() != 0) return Status::Ok();
  if (::chown(dir.c_str(), kSandboxUid, kSandboxUid) != 0 || ::chmod(dir.c_str(), 0700) != 0) {
    return Status::IoError("cannot hand " + dir.string() + " to the sandbox user: " + std::strerror(errno));
  }
  return Status::Ok();
}

namespace {

// The pid of a per-command cgroup's name (regrapht-<pid>-<n>) when that
// process is gone; nullopt for other names and live pids.
std::optional<long> DeadOwner(const std::string& name) {
  if (!StartsWith(name, "regrapht-")) return std::nullopt;
  auto parts = Split(name, '-');
  if (parts.size() != 3 || !ParseInt(parts[2])) return std::nullopt;
  auto pid = ParseInt(parts[1]);
  if (!pid || *pid <= 0 || ::kill(static_cast<pid_t>(*pid), 0) == 0 || errno == EPERM) return std::nullopt;
  return *pid;
}

}  // namespace

void CleanStaleSiblingCgroups(const std::vector<fs::path>& bases, double min_age_s) {
  const time_t now = ::time(nullptr);
  for (const auto& base : bases) {
    std::error_code ec;
    fs::path self = base.lexically_normal();
    if (!self.has_filename()) self = self.parent_path();
    fs::path parent = self.parent_path();
    if (parent.empty() || parent == self) continue;
    for (const auto& sib : fs::directory_iterator(parent, ec)) {
      std::error_code sec;
      if (!sib.is_directory(sec) || sib.path() == self) continue;
      for (const auto& e : fs::directory_iterator(sib.path(), sec)) {
        if (!DeadOwner(e.path().filename().string())) continue;
        struct stat st {};
        if (::stat(e.path().c_str(), &st) != 0 || difftime(now, st.st_mtime) < min_age_s) continue;
        ::rmdir(e.path().c_str());  // fails (EBUSY) while processes remain: left alone
      }
    }
  }
}

void CleanStaleCgroups(const std::vector<fs::path>& bases) {
  for (const auto& base : bases) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      if (!DeadOwner(e.path().filename().string())) continue;
      for (int round = 0; round < 20; ++round) {
        std::ifstream in(e.path() / "cgroup.procs");
        pid_t p;
        bool any = false;
        while (in >> p) {
          any = true;
          ::kill(p, SIGKILL);
        }
        if (!any) break;
        ::usleep(5000);
      }
      // The killed tasks leave the cgroup a moment after they die.
      for (int i = 0; i < 100 && ::rmdir(e.path().c_str()) != 0 && errno == EBUSY; ++i) ::usleep(5000);
    }
  }
}

}  // namespace regrapht
