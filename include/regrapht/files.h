// Files and folders as regrapht reads and writes them: the limits on input
// files, outputs that are never torn and never follow a link, and where the
// tool keeps its data and its caches. A program built on the library (the
// CLI is one) uses these so that its inputs and outputs behave like the
// tool's own.
//
//   Result<std::string> text = ReadInputFile("problem/spec.json");
//   if (!text.ok()) return text.status();      // "spec.json: ... exceeds ..."
//   Status s = WriteFileAtomic("report.json", json);
//
// Thread safety: every function is safe to call from any thread; two writers
// of one path race, and the last rename wins.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "regrapht/status.h"

namespace regrapht {

// The largest input file read by name (problem folders, graphs,
// trajectories, sources) unless a caller gives its own limit.
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{256} << 20;

// Reads an input file: a regular file (a device, FIFO, socket or folder is
// refused by name, never opened for reading) of at most `max_bytes`. The
// size is checked before anything is read, and no more than max_bytes + 1
// bytes are ever read (a file that grows meanwhile is refused too). Errors
// name the file: "g.json: 1.2 GiB exceeds the 256 MiB limit on input files".
Result<std::string> ReadInputFile(const std::filesystem::path& path,
                                  uint64_t max_bytes = kMaxInputFileBytes);

// OK when `path` does not exist or is a regular file (not through a link):
// the outputs regrapht writes to a name a user gave. A symbolic link, a
// device (/dev/full, /dev/null), a FIFO, a socket or a folder is refused by
// name, so that writing never replaces or follows what regrapht did not make.
Status CheckOutputPath(const std::filesystem::path& path);

// Writes to a temporary file beside `path` (created with O_EXCL|O_NOFOLLOW),
// fsyncs, then renames over `path`: readers see the old or the new contents,
// never a torn file. `path` must pass CheckOutputPath; on any failure (a
// full disk included) the old file is left as it was and the error says so.
Status WriteFileAtomic(const std::filesystem::path& path, std::string_view data);

// regrapht's cache root: $REGRAPHT_CACHE_DIR, else $XDG_CACHE_HOME/regrapht,
// else ~/.cache/regrapht. Not created.
std::filesystem::path CacheDir();

// regrapht's data folder (taxonomy, prompts, the shipped graph, suites):
// $REGRAPHT_DATA_DIR, else for a packed binary (<checkout>/.devbin/bin/,
// scripts/pack-device.sh) the data/ of that checkout, else
// <exe>/../share/regrapht, else the source tree's data/ found from the
// executable (build/src/cli/regrapht), else the source tree this binary was
// built from.
std::filesystem::path DataDir();

// A path a user typed, with a leading "~/" expanded to $HOME.
std::filesystem::path ExpandUser(std::string_view path);

}  // namespace regrapht
