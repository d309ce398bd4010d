// The folders of the toolchain that sandboxed compiles and runs must see
// (docs/trust.md, "The toolchain in the sandbox").
//
// The sandbox shows /usr and the loader's files, nothing else. Compilers
// outside /usr are the normal case on clusters (environment modules, Spack,
// /opt, /apps, conda): a wrapper script that execs the real driver with -B
// and -isystem flags, a driver reached through a chain of symlinks, its own
// cc1plus, assembler, linker, headers and runtime libraries. FindToolchain-
// Folders asks the toolchain where those live (the trusted compiler, run
// unsandboxed: -print-search-dirs, -print-prog-name, -print-sysroot, the
// include search list, ldd) and reads the wrapper scripts it meets, and
// returns the folders to bind read-only: nothing under the system paths the
// sandbox already shows, never "/", a top-level folder, HOME, or a folder
// holding regrapht's caches, data or the working folder.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "core/subprocess.h"
#include "regrapht/status.h"
#include "verify/build/toolchain.h"

namespace regrapht::verify {

struct ToolchainFolders {
  // Read-only in sandboxed compiles: the CUDA root, the host compiler's
  // folders, the programs and folders its wrapper names, its search folders.
  std::vector<fs::path> build;
  // Read-only in sandboxed runs: the CUDA root and the folder of the C++
  // runtime the compiler links (when outside the system paths).
  std::vector<fs::path> run;
  // Linker flags that let a program built by this compiler find its C++
  // runtime outside the system paths (-Wl,-rpath,DIR); empty otherwise.
  std::vector<std::string> rpath_flags;
  // Why each folder is bound ("host compiler wrapper", "cc1plus", ...), one
  // line per folder of `build`, for `regrapht version`.
  std::vector<std::string> reasons;
};

// Asks the toolchain where its parts live (see above). `protect`: more
// folders that must stay invisible (the verifier's own cache).
ToolchainFolders FindToolchainFolders(const Toolchain& tc, CommandRunner* runner,
                                      const std::vector<fs::path>& protect = {});

// ---- pure helpers (exposed for tests) --------------------------------------------

// `p` and every link it passes through to the file it names, as absolute
// paths in order (at most 40 hops); `p` alone when it is not a link.
std::vector<fs::path> SymlinkChain(const fs::path& p);

// The absolute paths a shell script names: words (and the parts of words
// after "=", ":" or a leading option such as -B, -I, -isystem) that start
// with "/". Quotes are removed; variables are not expanded.
std::vector<std::string> ScriptPaths(std::string_view script);

// The folders of `gcc -print-search-dirs`: install, programs and libraries.
std::vector<std::string> ParseSearchDirs(std::string_view text);

// The folders between "#include <...> search starts here:" and "End of
// search list." in `g++ -E -v` output.
std::vector<std::string> ParseIncludeSearch(std::string_view text);

// Where a folder may not be bound (see the file comment). `protect`: the
// folders whose ancestors (and themselves) are refused: HOME, the caches,
// the data folder, the working folder.
bool RefusedFolder(const fs::path& folder, const std::vector<fs::path>& protect);

// Whether `p` lies under a system path the sandbox shows anyway.
bool UnderSystemPaths(const fs::path& p);

// Normalised, existing, allowed folders of `candidates` (files give their
// folder), without duplicates or folders inside another of the list.
std::vector<fs::path> SelectFolders(const std::vector<fs::path>& candidates,
                                    const std::vector<fs::path>& protect);

}  // namespace regrapht::verify
