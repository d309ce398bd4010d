#include "core/fs.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "core/strings.h"

namespace regrapht {

Result<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return Status::NotFound(path.string() + ": no such file");
    return Status::IoError(path.string() + ": cannot open: " + std::strerror(errno));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::IoError(path.string() + ": read failed");
  return ss.str();
}

Status MakeDirs(const fs::path& path) {
  if (path.empty()) return Status::Ok();
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::IoError(path.string() + ": cannot create folder: " + ec.message());
  return Status::Ok();
}

Status WriteFile(const fs::path& path, std::string_view data) {
  RG_RETURN_IF_ERROR(MakeDirs(path.parent_path()));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::IoError(path.string() + ": cannot open for writing: " + std::strerror(errno));
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out) return Status::IoError(path.string() + ": write failed");
  return Status::Ok();
}

Status WriteFileAtomic(const fs::path& path, std::string_view data) {
  RG_RETURN_IF_ERROR(MakeDirs(path.parent_path()));
  // A name no other writer uses: processes differ by pid, threads of one
  // process (bench --max-in-flight writes one cache entry from several) by
  // a counter. O_EXCL makes a leftover of a killed writer an error, not a
  // shared file.
  static std::atomic<uint64_t> counter{0};
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IoError(tmp.string() + ": cannot create: " + std::strerror(errno));
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Status::IoError(tmp.string() + ": write failed: " + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return Status::IoError(tmp.string() + ": fsync/close failed");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::IoError(path.string() + ": rename failed: " + std::strerror(err));
  }
  return Status::Ok();
}

Result<fs::path> MakeTempDir(std::string_view prefix, const fs::path& parent) {
  std::error_code ec;
  fs::path base = parent.empty() ? fs::temp_directory_path(ec) : parent;
  if (ec) base = "/tmp";
  RG_RETURN_IF_ERROR(MakeDirs(base));
  std::string templ = (base / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) {
    return Status::IoError(templ + ": mkdtemp failed: " + std::strerror(errno));
  }
  return fs::path(templ);
}

Status RemoveAll(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return Status::IoError(path.string() + ": cannot remove: " + ec.message());
  return Status::Ok();
}

fs::path DataDir() {
  if (const char* d = std::getenv("REGRAPHT_DATA_DIR"); d && *d) return fs::path(d);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    for (const fs::path& c : {dir / ".." / "share" / "regrapht", dir / ".." / ".." / ".." / "data",
                              dir / ".." / "data"}) {
      if (fs::exists(c / "taxonomy.json", ec)) return fs::weakly_canonical(c, ec);
    }
  }
#ifdef REGRAPHT_SOURCE_DIR_DEFAULT
  return fs::path(REGRAPHT_SOURCE_DIR_DEFAULT) / "data";
#else
  return fs::path("data");
#endif
}

fs::path ExpandUser(std::string_view path) {
  if (StartsWith(path, "~/")) {
    const char* home = std::getenv("HOME");
    if (home) return fs::path(home) / path.substr(2);
  }
  return fs::path(path);
}

fs::path CacheDir() {
  if (const char* d = std::getenv("REGRAPHT_CACHE_DIR"); d && *d) return fs::path(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "regrapht";
  if (const char* home = std::getenv("HOME"); home && *home) {
    return fs::path(home) / ".cache" / "regrapht";
  }
  return fs::path("/tmp/regrapht-cache");
}

fs::path FindProgram(std::string_view name) {
  if (name.find('/') != std::string_view::npos) {
    return ::access(std::string(name).c_str(), X_OK) == 0 ? fs::path(name) : fs::path();
  }
  const char* path = std::getenv("PATH");
  if (!path) return {};
  for (const auto& dir : Split(path, ':')) {
    if (dir.empty()) continue;
    fs::path candidate = fs::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

Result<TempDir> TempDir::Create(std::string_view prefix, const fs::path& parent) {
  RG_ASSIGN_OR_RETURN(fs::path p, MakeTempDir(prefix, parent));
  return TempDir(std::move(p));
}

TempDir::~TempDir() {
  if (!path_.empty() && !keep_) {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
}

}  // namespace regrapht
