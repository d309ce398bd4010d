// Compiling into a content-addressed cache.
//
// Every build (driver object, reference object, candidate object, link) is
// keyed by a hash of its command line, its input files' contents and the
// tool versions, and stored under <cache>/build/<k0k1>/<key>/ with the
// artifact, the compiler log and meta.json. Failed builds are cached too:
// the search often sees the same broken code again. A build runs in a fresh
// folder and is renamed into place, so concurrent processes never see a torn
// entry. A failure the machine caused (a timeout, a kill, no memory, a full
// disk, an unwritable TMPDIR) is never cached; one that means the machine
// cannot compile at all is an error, not a verdict on the code.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/subprocess.h"
#include "regrapht/status.h"

namespace regrapht::verify {

struct BuildRequest {
  std::string label;                          // for logs: "candidate", "driver", ...
  std::map<std::string, std::string> files;   // name -> contents, written into the build folder
  std::vector<std::string> argv;              // run in the build folder
  std::string output;                         // artifact file name the command writes
  std::string key_extra;                      // tool versions and anything else that matters
  // Files of other cache entries the command reads (a link's objects): the
  // only cache paths a sandboxed build can see, read-only.
  std::vector<fs::path> inputs;
};

struct BuildOutcome {
  bool ok = false;
  fs::path artifact;     // set when ok
  std::string log;       // compiler stdout + stderr (truncated)
  std::string command;   // the command line, shell-quoted
  std::string failure;   // "exit 1", "timed out after 120.0 s"
  double time_ms = 0;    // time of the original build
  bool cached = false;
  // Failed because of the machine (a timeout, a kill, no memory), not the
  // code: not cached, and not a fault of the sources.
  bool machine = false;
  std::string key;
};

// OK when $TMPDIR is unset or a writable folder; else FailedPrecondition
// naming it (the compilers write their temporary files there).
Status CheckTempDir();

class BuildCache {
 public:
  // `runner` must outlive *this. With `sandbox`, every build runs in the
  // sandbox (core/sandbox.h) seeing its own folder, its inputs and
  // `toolchain_dirs` (read-only, for a toolkit outside /usr) only: a
  // candidate's source cannot #include or .incbin the caches, HOME or the
  // repository.
  BuildCache(CommandRunner* runner, fs::path root, double timeout_s, bool sandbox,
             std::vector<fs::path> toolchain_dirs = {});

  // Returns the cached outcome or builds. A failing compiler is an OK
  // Result with ok == false; a Status means the cache itself failed.
  Result<BuildOutcome> Build(const BuildRequest& request);

  const fs::path& root() const { return root_; }

 private:
  CommandRunner* runner_;
  fs::path root_;
  double timeout_s_;
  bool sandbox_;
  std::vector<fs::path> toolchain_dirs_;
};

}  // namespace regrapht::verify
