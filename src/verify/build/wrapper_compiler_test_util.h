// A host compiler laid out the way clusters and GPU images ship them, for
// tests of the sandbox's toolchain folders (verify/toolchain_folders.h):
//
//   ROOT/prefix/bin/g++        a shell wrapper: exec ROOT/prefix/bin/g++-real
//                              -B ROOT/prefix/bin/ -isystem ROOT/prefix/include
//                              -isystem <the system's C++ headers> "$@"
//   ROOT/prefix/bin/g++-real -> ../../alt/g++-link -> ../real/bin/g++-copy
//   ROOT/real/bin/g++-copy     a copy of the system's g++ driver binary
//   ROOT/real/lib/gcc/<triple>/<version>/
//                              the compiler's own folder (cc1plus, crt files,
//                              its headers), mirrored as links to the system's
//   ROOT/prefix/include/rg_wrapper_defs.h
//                              forced into every compile by the wrapper
//
// Nothing of it is under /usr: a sandbox that shows only the system paths
// cannot run it (bwrap: execvp ...: No such file or directory).
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

#include "core/fs.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "verify/build/toolchain_folders.h"

namespace regrapht::testing_util {

// Mirrors the tree `from` at `to`: folders made, files linked.
inline Status MirrorTree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (const auto& e : fs::recursive_directory_iterator(from, ec)) {
    fs::path rel = e.path().lexically_relative(from);
    auto st = fs::symlink_status(e.path(), ec);
    if (fs::is_directory(st)) {
      fs::create_directories(to / rel, ec);
    } else {
      fs::create_symlink(e.path(), to / rel, ec);
    }
    if (ec) return Status::IoError("mirroring " + e.path().string() + ": " + ec.message());
  }
  return ec ? Status::IoError("mirroring " + from.string() + ": " + ec.message()) : Status::Ok();
}

// Lays the wrapper compiler out under `root` (see above) from the system's
// g++ and returns the wrapper's path.
inline Result<fs::path> MakeWrapperCompiler(const fs::path& root) {
  fs::path gxx = FindProgram("g++");
  if (gxx.empty()) return Status::NotFound("no g++ on PATH");
  auto runner = NewSubprocessRunner();
  auto ask = [&](std::vector<std::string> argv) -> std::string {
    CommandSpec spec;
    spec.argv = std::move(argv);
    auto r = runner->Run(spec);
    return r.ok() ? r->stdout_text + r->stderr_text : "";
  };
  std::string install;
  for (const auto& line : SplitLines(ask({gxx.string(), "-print-search-dirs"}))) {
    if (StartsWith(line, "install: ")) install = std::string(Trim(line.substr(9)));
  }
  fs::path install_dir = fs::weakly_canonical(install);
  // <prefix>/lib/gcc/<triple>/<version>: mirrored at ROOT/real/lib/gcc/...
  fs::path rel = install_dir.lexically_relative(install_dir.parent_path().parent_path().parent_path().parent_path());
  std::error_code ec;
  for (const char* d : {"prefix/bin", "prefix/include", "alt", "real/bin"}) fs::create_directories(root / d, ec);
  RG_RETURN_IF_ERROR(MirrorTree(install_dir, root / "real" / rel));
  fs::copy_file(fs::canonical(gxx), root / "real/bin/g++-copy", fs::copy_options::overwrite_existing, ec);
  if (ec) return Status::IoError("copying g++: " + ec.message());
  fs::create_symlink("../real/bin/g++-copy", root / "alt/g++-link", ec);
  fs::create_symlink("../../alt/g++-link", root / "prefix/bin/g++-real", ec);
  RG_RETURN_IF_ERROR(WriteFile(root / "prefix/include/rg_wrapper_defs.h", "#define RG_WRAPPER_SEEN 1\n"));
  std::string isystem;
  for (const auto& d : verify::ParseIncludeSearch(ask({gxx.string(), "-E", "-v", "-x", "c++", "/dev/null"}))) {
    if (d.find("c++") != std::string::npos) isystem += " -isystem " + d;
  }
  fs::path wrapper = root / "prefix/bin/g++";
  std::string p = root.string();
  RG_RETURN_IF_ERROR(WriteFile(wrapper, "#!/bin/sh\n# a site wrapper, as module systems install them\nexec " + p +
                                            "/prefix/bin/g++-real -B" + p + "/prefix/bin/ -isystem " + p +
                                            "/prefix/include -include rg_wrapper_defs.h" + isystem +
                                            " \"$@\"\n"));
  ::chmod(wrapper.c_str(), 0755);
  return wrapper;
}

}  // namespace regrapht::testing_util
