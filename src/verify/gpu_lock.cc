#include "verify/gpu_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "core/strings.h"

namespace regrapht::verify {
namespace {

std::string SafeName(std::string_view s) {
  std::string out;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.';
    out += ok ? c : '_';
  }
  return out.empty() || out[0] == '.' ? "gpu" + out : out;
}

bool IsUuid(std::string_view s) { return StartsWith(s, "GPU-") || StartsWith(s, "MIG-"); }

}  // namespace

std::string GpuLockKey(const EnvGetter& env, const std::string& nvidia_smi_csv, const std::string& hostname) {
  if (auto id = env("REGRAPHT_GPU_LOCK_ID"); id && !Trim(*id).empty()) return SafeName(Trim(*id));
  std::string first = "0";
  if (auto visible = env("CUDA_VISIBLE_DEVICES"); visible && !Trim(*visible).empty()) {
    first = std::string(Trim(Split(*visible, ',').front()));
  }
  if (IsUuid(first)) return SafeName(first);
  for (const auto& line : SplitLines(nvidia_smi_csv)) {
    auto fields = Split(line, ',');
    if (fields.size() != 2) continue;
    std::string_view index = Trim(fields[0]), uuid = Trim(fields[1]);
    if (index == first && IsUuid(uuid)) return SafeName(uuid);
  }
  return SafeName(hostname + "-cuda" + first);
}

fs::path GpuLockDir(const EnvGetter& env, const fs::path& cache_dir,
                    const std::function<bool(const fs::path&)>& writable) {
  if (auto dir = env("REGRAPHT_GPU_LOCK_DIR"); dir && !dir->empty()) return *dir;
  if (writable("/run/lock")) return "/run/lock/regrapht-gpu";
  return cache_dir / "gpu-locks";
}

fs::path MachineTimingLockPath(const fs::path& dir, const std::string& hostname) {
  return dir / (SafeName(hostname.empty() ? "host" : hostname) + "-timing.lock");
}

Result<std::unique_ptr<GpuLock>> GpuLock::Acquire(const fs::path& path, double timeout_s,
                                                  const std::atomic<bool>* cancel, bool shared) {
  const fs::path dir = path.parent_path();
  std::error_code ec;
  if (fs::create_directories(dir, ec)) ::chmod(dir.c_str(), 01777);  // shared, like /tmp
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // another user's file: flock needs no write access
  if (fd < 0) return Status::IoError(path.string() + ": cannot open the timing lock: " + std::strerror(errno));
  ::fchmod(fd, 0666);  // best effort: only the owner can
  // Polled rather than blocking in flock(), so that a deadline and a cancel
  // can end the wait: a holder that is stopped (Ctrl-Z) never lets go.
  const auto start = std::chrono::steady_clock::now();
  double waited = 0;
  while (::flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      int err = errno;
      ::close(fd);
      return Status::IoError(path.string() + ": cannot lock: " + std::strerror(err));
    }
    if (cancel != nullptr && cancel->load()) {
      ::close(fd);
      return Status::Cancelled(path.string() + ": cancelled while waiting for the timing lock");
    }
    waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timeout_s > 0 && waited >= timeout_s) {
      ::close(fd);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", timeout_s);
      return Status::DeadlineExceeded(
          path.string() + ": another process held the timing lock for " + buf +
          " s (a timed run elsewhere on this GPU or machine, or a stopped or hung regrapht: `fuser " + path.string() +
          "` names it); raise --gpu-lock-timeout or end that process");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return std::unique_ptr<GpuLock>(new GpuLock(fd, waited));
}

GpuLock::~GpuLock() {
  ::flock(fd_, LOCK_UN);
  ::close(fd_);
}

}  // namespace regrapht::verify
