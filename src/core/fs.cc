#include "core/fs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

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

std::string FormatBytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (v == static_cast<double>(static_cast<uint64_t>(v))) {
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  }
  return buf;
}

namespace {

const char* FileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

Result<std::string> ReadInputFile(const fs::path& path, uint64_t max_bytes) {
  std::string name = path.string();
  std::string limit = "the " + FormatBytes(max_bytes) + " limit on input files";
  // Look before opening: opening a FIFO blocks, opening some devices acts.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::NotFound(name + ": no such file");
    return Status::IoError(name + ": cannot open: " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode))
    return Status::InvalidArgument(name + ": " + FileKind(st.st_mode) + ", not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Status::InvalidArgument(name + ": " + FormatBytes(static_cast<uint64_t>(st.st_size)) +
                                   " exceeds " + limit);
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return Status::IoError(name + ": cannot open: " + std::strerror(errno));
  std::string out;
  Status status = Status::Ok();
  // What was opened may not be what was looked at (a rename in between).
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    status = Status::InvalidArgument(name + ": " + FileKind(st.st_mode) + ", not a regular file");
  } else {
    out.resize(std::min<uint64_t>(static_cast<uint64_t>(st.st_size), max_bytes) + 1);
    size_t got = 0;
    while (true) {
      if (got == out.size()) {
        if (got > max_bytes) {
          status = Status::InvalidArgument(name + ": grew past " + limit + " while being read");
          break;
        }
        out.resize(std::min<uint64_t>(max_bytes + 1, out.size() * 2));
      }
      ssize_t n = ::read(fd, out.data() + got, out.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        status = Status::IoError(name + ": read failed: " + std::strerror(errno));
        break;
      }
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    out.resize(got);
  }
  ::close(fd);
  if (!status.ok()) return status;
  return out;
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

Status CheckOutputPath(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::Ok();
    return Status::IoError(path.string() + ": cannot inspect the output path: " + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    return Status::InvalidArgument(path.string() +
                                   ": is a symbolic link; regrapht writes its outputs as regular files and neither "
                                   "follows nor replaces a link it did not create (remove the link or name "
                                   "another file)");
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(path.string() + ": is " + FileKind(st.st_mode) +
                                   ", not a regular file; regrapht writes its outputs only as regular files "
                                   "and never replaces " + FileKind(st.st_mode) + " (name a file)");
  }
  return Status::Ok();
}

Status WriteFileAtomic(const fs::path& path, std::string_view data) {
  RG_RETURN_IF_ERROR(CheckOutputPath(path));
  RG_RETURN_IF_ERROR(MakeDirs(path.parent_path()));
  // A name no other writer uses: processes differ by pid, threads of one
  // process (bench --max-in-flight writes one cache entry from several) by
  // a counter. O_EXCL makes a leftover of a killed writer an error, not a
  // shared file.
  static std::atomic<uint64_t> counter{0};
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Status::IoError(tmp.string() + ": cannot create: " + std::strerror(errno));
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Status::IoError(path.string() + ": write failed (" + std::strerror(err) + "); " +
                             (err == ENOSPC || err == EDQUOT ? "the disk is full; " : "") + "the file is unchanged");
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::IoError(path.string() + ": write failed at fsync/close (" + std::strerror(err) +
                           "); the file is unchanged");
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
    std::vector<fs::path> candidates = {dir / ".." / "share" / "regrapht", dir / ".." / ".." / ".." / "data",
                                        dir / ".." / "data"};
    // A binary packed by scripts/pack-device.sh (<checkout>/.devbin/bin/):
    // the data of the checkout it runs in, never the build machine's.
    if (dir.parent_path().filename() == ".devbin") candidates.insert(candidates.begin(), dir / ".." / ".." / "data");
    for (const fs::path& c : candidates) {
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
