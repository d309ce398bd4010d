#include "verify/build/toolchain_folders.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "core/sandbox.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

constexpr int kMaxWrapperDepth = 4;
constexpr size_t kMaxScriptBytes = 64 * 1024;

bool IsAncestorOrSelf(const fs::path& a, const fs::path& b) {
  auto ai = a.begin(), bi = b.begin();
  for (; ai != a.end(); ++ai, ++bi) {
    if (ai->empty()) continue;  // a trailing separator
    if (bi == b.end() || *ai != *bi) return false;
  }
  return true;
}

fs::path Normal(const fs::path& p) {
  fs::path n = p.lexically_normal();
  std::string s = n.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// The first bytes of `p`, at most `max`.
std::string Head(const fs::path& p, size_t max) {
  std::ifstream in(p, std::ios::binary);
  std::string text(max, '\0');
  in.read(text.data(), static_cast<std::streamsize>(max));
  text.resize(static_cast<size_t>(std::max<std::streamsize>(0, in.gcount())));
  return text;
}

bool IsScript(const fs::path& p) { return Head(p, 2) == "#!"; }
bool IsElf(const fs::path& p) { return Head(p, 4) == "\x7f" "ELF"; }

bool IsExecutableFile(const fs::path& p) {
  std::error_code ec;
  auto st = fs::status(p, ec);
  if (ec || !fs::is_regular_file(st)) return false;
  return (st.permissions() & (fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec)) !=
         fs::perms::none;
}

// Runs a trusted toolchain program (unsandboxed) and returns its output, or
// "" when it cannot run.
std::string Ask(CommandRunner* runner, std::vector<std::string> argv) {
  CommandSpec spec;
  spec.argv = std::move(argv);
  spec.limits.wall_seconds = 30;
  auto r = runner->Run(spec);
  if (!r.ok() || !r->ok()) return "";
  return r->stdout_text + r->stderr_text;
}

class Collector {
 public:
  Collector(CommandRunner* runner) : runner_(runner) {}

  void Add(const fs::path& p, const std::string& why) {
    if (p.empty() || !p.is_absolute()) return;
    items_.push_back({p, why});
  }

  // A program: every link on its way and the folders of each; a wrapper
  // script's named programs and folders; the libraries of an ELF program
  // outside the system paths.
  void AddProgram(const fs::path& program, const std::string& why, int depth = 0) {
    if (!program.is_absolute() || !seen_.insert(program.string()).second) return;
    std::vector<fs::path> chain = SymlinkChain(program);
    for (const auto& hop : chain) Add(hop, why);
    const fs::path& real = chain.back();
    if (IsScript(real) && depth < kMaxWrapperDepth) {
      for (const auto& word : ScriptPaths(Head(real, kMaxScriptBytes))) {
        fs::path named(word);
        if (IsExecutableFile(named)) {
          AddProgram(named, "run by wrapper " + real.string(), depth + 1);
        } else {
          Add(named, "named by wrapper " + real.string());
        }
      }
    } else if (IsElf(real) && !UnderSystemPaths(real)) {
      AddLibraries(real);
    }
  }

  // The shared libraries `elf` loads from outside the system paths (ldd).
  void AddLibraries(const fs::path& elf) {
    for (const auto& line : SplitLines(Ask(runner_, {"ldd", elf.string()}))) {
      auto arrow = line.find("=> /");
      if (arrow == std::string::npos) continue;
      std::string rest = line.substr(arrow + 3);
      std::string lib = rest.substr(0, rest.find(' '));
      Add(fs::path(lib), "library of " + elf.filename().string());
    }
  }

  const std::vector<std::pair<fs::path, std::string>>& items() const { return items_; }

 private:
  CommandRunner* runner_;
  std::vector<std::pair<fs::path, std::string>> items_;
  std::set<std::string> seen_;
};

// What the host compiler says about where its parts live.
void AskCompiler(const fs::path& cxx, CommandRunner* runner, Collector* c) {
  const std::string cc = cxx.string();
  for (const auto& d : ParseSearchDirs(Ask(runner, {cc, "-print-search-dirs"}))) {
    c->Add(fs::path(d), "compiler search folder");
  }
  for (const char* prog : {"cc1plus", "cc1", "collect2", "lto-wrapper", "as", "ld"}) {
    std::string name(Trim(Ask(runner, {cc, std::string("-print-prog-name=") + prog})));
    if (name.empty()) continue;
    fs::path p = name.front() == '/' ? fs::path(name) : FindProgram(name);
    if (!p.empty()) c->AddProgram(p, std::string("the compiler's ") + prog);
  }
  std::string sysroot(Trim(Ask(runner, {cc, "-print-sysroot"})));
  if (!sysroot.empty()) c->Add(fs::path(sysroot), "the compiler's sysroot");
  for (const auto& d : ParseIncludeSearch(Ask(runner, {cc, "-E", "-v", "-x", "c++", "/dev/null"}))) {
    c->Add(fs::path(d), "compiler include folder");
  }
}

// The folder of the C++ runtime the compiler links, when outside the system.
std::vector<fs::path> RuntimeFolders(const fs::path& cxx, CommandRunner* runner) {
  std::vector<fs::path> out;
  for (const char* lib : {"libstdc++.so", "libgcc_s.so.1"}) {
    std::string path(Trim(Ask(runner, {cxx.string(), std::string("-print-file-name=") + lib})));
    if (path.empty() || path.front() != '/') continue;
    std::error_code ec;
    fs::path real = fs::canonical(path, ec);
    if (ec || UnderSystemPaths(real)) continue;
    fs::path dir = Normal(real.parent_path());
    if (std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(dir);
  }
  return out;
}

std::vector<fs::path> ProtectedFolders(const std::vector<fs::path>& extra) {
  std::vector<fs::path> protect = {CacheDir(), DataDir()};
  protect.insert(protect.end(), extra.begin(), extra.end());
  if (const char* home = std::getenv("HOME"); home && *home) protect.emplace_back(home);
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (!ec) protect.push_back(cwd);
  if (auto runs = SandboxRunsDir(); runs.ok()) protect.push_back(*runs);
  for (auto& p : protect) p = Normal(fs::weakly_canonical(p, ec));
  return protect;
}

}  // namespace

std::vector<fs::path> SymlinkChain(const fs::path& p) {
  std::vector<fs::path> chain = {p};
  fs::path cur = p;
  for (int hop = 0; hop < 40; ++hop) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(cur, ec))) break;
    fs::path target = fs::read_symlink(cur, ec);
    if (ec) break;
    cur = target.is_absolute() ? target : cur.parent_path() / target;
    cur = Normal(cur);
    chain.push_back(cur);
  }
  std::error_code ec;
  fs::path real = fs::canonical(p, ec);
  if (!ec && Normal(real) != chain.back()) chain.push_back(Normal(real));
  return chain;
}

std::vector<std::string> ScriptPaths(std::string_view script) {
  std::vector<std::string> out;
  auto take = [&](std::string piece) {
    while (!piece.empty() && std::string_view(";&|)\"'").find(piece.back()) != std::string_view::npos) {
      piece.pop_back();
    }
    if (piece.size() > 1 && piece.front() == '/' && piece.find('$') == std::string::npos &&
        std::find(out.begin(), out.end(), piece) == out.end()) {
      out.push_back(piece);
    }
  };
  for (const auto& line : SplitLines(std::string(script))) {
    std::string_view l = Trim(line);
    if (l.empty() || l.front() == '#') continue;  // the #! line: the interpreter is a system program
    std::string word;
    auto flush = [&] {
      if (word.empty()) return;
      // An option glued to its folder (-B/opt/x, -I/opt/x, -L/opt/x).
      size_t slash = word.find('/');
      if (word.front() == '-' && slash != std::string::npos &&
          std::all_of(word.begin(), word.begin() + slash,
                      [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '-'; })) {
        take(word.substr(slash));
      }
      for (const auto& piece : Split(word, '=')) {
        for (const auto& part : Split(piece, ',')) {
          for (const auto& item : Split(part, ':')) take(item);
        }
      }
      word.clear();
    };
    for (char ch : l) {
      if (ch == '"' || ch == '\'') continue;
      if (std::isspace(static_cast<unsigned char>(ch))) {
        flush();
      } else {
        word.push_back(ch);
      }
    }
    flush();
  }
  return out;
}

std::vector<std::string> ParseSearchDirs(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& line : SplitLines(std::string(text))) {
    for (const char* key : {"install: ", "programs: =", "libraries: ="}) {
      if (!StartsWith(line, key)) continue;
      for (const auto& d : Split(line.substr(std::string_view(key).size()), ':')) {
        if (!d.empty() && d.front() == '/') out.push_back(d);
      }
    }
  }
  return out;
}

std::vector<std::string> ParseIncludeSearch(std::string_view text) {
  std::vector<std::string> out;
  bool in = false;
  for (const auto& line : SplitLines(std::string(text))) {
    if (line.find("search starts here:") != std::string::npos) {
      in = true;
      continue;
    }
    if (StartsWith(line, "End of search list.")) break;
    if (!in) continue;
    std::string d(Trim(line));
    if (auto f = d.find(" (framework directory)"); f != std::string::npos) d.resize(f);
    if (!d.empty() && d.front() == '/') out.push_back(d);
  }
  return out;
}

bool UnderSystemPaths(const fs::path& p) {
  fs::path n = Normal(p);
  for (const auto& s : SystemPaths()) {
    if (IsAncestorOrSelf(fs::path(s), n)) return true;
  }
  for (const char* s : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (IsAncestorOrSelf(fs::path(s), n)) return true;
  }
  return false;
}

bool RefusedFolder(const fs::path& folder, const std::vector<fs::path>& protect) {
  if (!folder.is_absolute()) return true;
  fs::path n = Normal(folder);
  int depth = 0;
  for (const auto& part : n.relative_path()) {
    if (!part.empty()) ++depth;
  }
  if (depth < 2) return true;  // "/", "/opt", "/home", "/tmp"
  for (const char* never : {"/proc", "/sys", "/dev", "/run", "/etc", "/var/run", "/boot"}) {
    if (IsAncestorOrSelf(fs::path(never), n)) return true;
  }
  for (const auto& p : protect) {
    if (!p.empty() && IsAncestorOrSelf(n, Normal(p))) return true;
  }
  return false;
}

std::vector<fs::path> SelectFolders(const std::vector<fs::path>& candidates, const std::vector<fs::path>& protect) {
  std::vector<fs::path> folders;
  for (const auto& c : candidates) {
    std::error_code ec;
    if (!fs::exists(c, ec)) continue;
    fs::path dir = fs::is_directory(c, ec) ? c : c.parent_path();
    for (const fs::path& d : {Normal(dir), Normal(fs::weakly_canonical(dir, ec))}) {
      if (d.empty() || UnderSystemPaths(d) || RefusedFolder(d, protect)) continue;
      if (std::find(folders.begin(), folders.end(), d) == folders.end()) folders.push_back(d);
    }
  }
  std::sort(folders.begin(), folders.end());
  std::vector<fs::path> out;
  for (const auto& f : folders) {
    if (!out.empty() && IsAncestorOrSelf(out.back(), f)) continue;  // inside the previous one
    out.push_back(f);
  }
  return out;
}

ToolchainFolders FindToolchainFolders(const Toolchain& tc, CommandRunner* runner,
                                      const std::vector<fs::path>& protect_extra) {
  Collector c(runner);
  if (tc.has_nvcc()) c.AddProgram(tc.nvcc, "nvcc");
  if (!tc.cxx.empty()) {
    c.AddProgram(tc.cxx, "host compiler");
    AskCompiler(tc.cxx, runner, &c);
  }
  const std::vector<fs::path> protect = ProtectedFolders(protect_extra);
  ToolchainFolders out;
  std::vector<fs::path> all;
  for (const auto& [p, why] : c.items()) all.push_back(p);
  out.build = SelectFolders(all, protect);
  if (!tc.cuda_root.empty() && !UnderSystemPaths(tc.cuda_root)) {
    std::error_code ec;
    fs::path root = Normal(fs::weakly_canonical(tc.cuda_root, ec));
    if (!RefusedFolder(root, protect)) {
      out.build = SelectFolders([&] {
        auto v = out.build;
        v.push_back(root);
        return v;
      }(), protect);
      out.run.push_back(root);
    }
  }
  for (const auto& dir : RuntimeFolders(tc.cxx, runner)) {
    if (RefusedFolder(dir, protect)) continue;
    out.run.push_back(dir);
    out.rpath_flags.push_back("-Wl,-rpath," + dir.string());
  }
  for (const auto& f : out.build) {
    std::string why = "toolchain folder";
    for (const auto& [p, reason] : c.items()) {
      std::error_code ec;
      fs::path d = fs::is_directory(p, ec) ? p : p.parent_path();
      if (IsAncestorOrSelf(f, Normal(d)) || IsAncestorOrSelf(f, Normal(fs::weakly_canonical(d, ec)))) {
        why = reason;
        break;
      }
    }
    out.reasons.push_back(why);
  }
  return out;
}

}  // namespace regrapht::verify
