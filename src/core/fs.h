// File-system helpers. All return Status/Result; none throw. The ones a
// program on the library needs (input limits, atomic outputs, the data and
// cache folders) are public: include/regrapht/files.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/files.h"  // ReadInputFile, WriteFileAtomic, CacheDir, DataDir: public
#include "regrapht/status.h"

namespace regrapht {

namespace fs = std::filesystem;

Result<std::string> ReadFile(const fs::path& path);

// "812 bytes", "3.4 KiB", "1.2 GiB".
std::string FormatBytes(uint64_t bytes);

// Writes `data` to `path` (creating parent folders). Non-atomic.
Status WriteFile(const fs::path& path, std::string_view data);

// Creates a fresh folder under `parent` (the system temp dir if empty) whose
// name starts with `prefix`.
Result<fs::path> MakeTempDir(std::string_view prefix, const fs::path& parent = {});

// Removes a file or folder tree; OK if it does not exist.
Status RemoveAll(const fs::path& path);

Status MakeDirs(const fs::path& path);

// Looks `name` up on $PATH; empty if absent.
fs::path FindProgram(std::string_view name);

// An RAII temporary folder, removed on destruction unless Keep() was called.
class TempDir {
 public:
  static Result<TempDir> Create(std::string_view prefix, const fs::path& parent = {});
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)), keep_(other.keep_) {
    other.path_.clear();
  }
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  ~TempDir();
  const fs::path& path() const { return path_; }
  void Keep() { keep_ = true; }

 private:
  explicit TempDir(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
  bool keep_ = false;
};

}  // namespace regrapht
