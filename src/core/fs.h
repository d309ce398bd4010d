// File-system helpers. All return Status/Result; none throw.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/status.h"

namespace regrapht {

namespace fs = std::filesystem;

Result<std::string> ReadFile(const fs::path& path);

// Limits on input files read by name (problem folders, graphs, trajectories).
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{256} << 20;  // JSON and source inputs

// Reads an input file: a regular file (a device, FIFO, socket or folder is
// refused by name, never opened for reading) of at most `max_bytes`. The
// size is checked before anything is read, and no more than max_bytes + 1
// bytes are ever read (a file that grows meanwhile is refused too). Errors
// name the file: "g.json: 1.2 GiB exceeds the 256 MiB limit on input files".
Result<std::string> ReadInputFile(const fs::path& path, uint64_t max_bytes = kMaxInputFileBytes);

// "812 bytes", "3.4 KiB", "1.2 GiB".
std::string FormatBytes(uint64_t bytes);

// Writes `data` to `path` (creating parent folders). Non-atomic.
Status WriteFile(const fs::path& path, std::string_view data);

// OK when `path` does not exist or is a regular file (not through a link):
// the outputs regrapht writes to a name a user gave. A symbolic link, a
// device (/dev/full, /dev/null), a FIFO, a socket or a folder is refused by
// name, so that writing never replaces or follows what regrapht did not make.
Status CheckOutputPath(const fs::path& path);

// Writes to a temporary file beside `path` (created with O_EXCL|O_NOFOLLOW),
// fsyncs, then renames over `path`: readers see the old or the new contents,
// never a torn file. `path` must pass CheckOutputPath; on any failure (a
// full disk included) the old file is left as it was and the error says so.
Status WriteFileAtomic(const fs::path& path, std::string_view data);

// Creates a fresh folder under `parent` (the system temp dir if empty) whose
// name starts with `prefix`.
Result<fs::path> MakeTempDir(std::string_view prefix, const fs::path& parent = {});

// Removes a file or folder tree; OK if it does not exist.
Status RemoveAll(const fs::path& path);

Status MakeDirs(const fs::path& path);

// regrapht's cache root: $REGRAPHT_CACHE_DIR, else $XDG_CACHE_HOME/regrapht,
// else ~/.cache/regrapht. Not created.
fs::path CacheDir();

// regrapht's data folder (taxonomy, prompts, the shipped graph):
// $REGRAPHT_DATA_DIR, else for a packed binary (<checkout>/.devbin/bin/,
// scripts/pack-device.sh) the data/ of that checkout, else
// <exe>/../share/regrapht, else the source tree's data/ found from the
// executable (build/src/cli/regrapht), else the source tree this binary was
// built from.
fs::path DataDir();

// Expands a leading "~/".
fs::path ExpandUser(std::string_view path);

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
