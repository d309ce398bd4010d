#include "verify/build/static_check.h"

#include <algorithm>
#include <regex>
#include <set>

#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

struct Rule {
  const char* name;
  const char* pattern;  // ECMAScript regex over stripped code
  const char* what;
};

const Rule kRules[] = {
    {"no-threads", R"(\bstd\s*::\s*(thread|jthread|async)\b|\bpthread_\w+\s*\(|#\s*pragma\s+omp\b)",
     "host threads"},
    {"no-process", R"(\b(fork|vfork|system|popen|execl|execlp|execle|execv|execvp|execve|execvpe|posix_spawn|posix_spawnp|kill|raise)\s*\()",
     "process control"},
    {"no-network", R"(\b(socket|socketpair|connect|gethostbyname|getaddrinfo)\s*\(|\bcurl_\w+)",
     "network access"},
    {"no-file-io", R"(\b(fopen|freopen|fdopen|open|openat|creat|unlink|rename|mkdir|rmdir|opendir|mmap|dup|dup2|truncate|ftruncate|chmod|chdir)\s*\(|\bstd\s*::\s*(ifstream|ofstream|fstream|filesystem)\b|\b(ifstream|ofstream|fstream)\b|\b(dlopen|dlsym)\s*\()",
     "file or library loading I/O"},
    {"no-syscall", R"(\bsyscall\s*\(|\b__NR_\w+)", "raw system calls"},
    {"no-env", R"(\b(getenv|setenv|putenv|unsetenv|secure_getenv)\s*\(|\benviron\b)", "environment access"},
    {"no-hooks", R"(\b(signal|sigaction|atexit|at_quick_exit|set_terminate|setjmp|longjmp|prctl|ptrace)\s*\(|__attribute__\s*\(\s*\(\s*(constructor|destructor))",
     "signal, exit or start-up hooks"},
    {"no-device-reset", R"(\bcudaDeviceReset\s*\()", "cudaDeviceReset destroys state the harness owns"},
    {"no-main", R"(\bint\s+main\s*\()", "a main() of its own"},
    {"no-token-pasting", R"(##)", "preprocessor token pasting (it can hide banned names)"},
    {"no-reserved-names", R"(\b(_GLOBAL__\w*|\w*__sti__\w*|_sub_[ID]_\w*)\b)",
     "names the compiler reserves for its own start-up code"},
    {"no-harness-names", R"(\b(regrapht_\w*|__tsan_\w*|__ubsan_\w*|__asan_\w*|__sanitizer_\w*|__msan_\w*)\b)",
     "names of the harness's emulator, driver or sanitizer runtime"},
    {"no-line-directive", R"((^|\n)\s*#\s*(line\b|\d))", "#line directives (they misattribute code to other files)"},
};

struct Library {
  const char* name;
  const char* pattern;  // identifiers that mean "uses this library"
};

const Library kLibraries[] = {
    {"cublas", R"(\bcublas\w*)"},
    {"cusparse", R"(\bcusparse\w*)"},
    {"cufft", R"(\bcufft\w*)"},
    {"curand", R"(\bcurand\w*)"},
    {"thrust", R"(\bthrust\s*::)"},
    {"cub", R"(\bcub\s*::)"},
    {"cudnn", R"(\bcudnn\w*)"},
    {"cusolver", R"(\bcusolver\w*)"},
    {"nccl", R"(\bnccl\w*)"},
    {"npp", R"(\bnpp[A-Z]\w*)"},
    {"nvrtc", R"(\bnvrtc\w*)"},
};

// Headers every candidate may include, plus prefixes per allowed library.
bool HeaderAllowed(const std::string& h, const std::vector<std::string>& libs) {
  static const std::set<std::string> kStd = {
      "algorithm", "array", "atomic", "bitset", "cassert", "cfloat", "chrono", "climits", "cmath",
      "complex", "cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "functional", "iomanip",
      "iostream", "iterator", "limits", "map", "memory", "numeric", "optional", "ostream",
      "queue", "set", "sstream", "stack", "string", "tuple", "type_traits", "unordered_map",
      "unordered_set", "utility", "vector", "deque", "list", "random", "stdexcept", "cinttypes",
      "math.h", "stdio.h", "stdlib.h", "string.h", "stdint.h", "float.h", "limits.h", "assert.h",
      "stddef.h", "inttypes.h", "span", "bit", "numbers", "initializer_list", "new", "exception",
      "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h",
      "cooperative_groups.h", "cuda_fp16.h", "cuda_bf16.h", "mma.h", "cuda_pipeline.h",
      "math_constants.h", "vector_types.h", "vector_functions.h", "device_functions.h",
      "sm_60_atomic_functions.h", "sm_61_intrinsics.h", "cuda_awbarrier.h", "cuda_fp8.h",
      "cuda_occupancy.h", "texture_types.h", "surface_types.h", "driver_types.h", "cuComplex.h"};
  if (kStd.count(h)) return true;
  if (StartsWith(h, "cooperative_groups/") || StartsWith(h, "cuda/")) return true;
  auto allowed = [&](const char* lib) {
    return std::find(libs.begin(), libs.end(), lib) != libs.end();
  };
  if (StartsWith(h, "cublas") && allowed("cublas")) return true;
  if (StartsWith(h, "cusparse") && allowed("cusparse")) return true;
  if (StartsWith(h, "cufft") && allowed("cufft")) return true;
  if (StartsWith(h, "curand") && allowed("curand")) return true;
  if (StartsWith(h, "thrust/") && allowed("thrust")) return true;
  if (StartsWith(h, "cub/") && allowed("cub")) return true;
  return false;
}

int LineAt(const std::string& s, size_t offset) { return LineOfOffset(s, offset); }

std::string Snippet(const std::string& code, size_t offset, size_t len) {
  std::string s = code.substr(offset, std::min<size_t>(len, 60));
  return std::string(Trim(s));
}

}  // namespace

std::string StaticFinding::ToString() const {
  std::string s = "rule " + rule;
  if (line > 0) s += " (line " + std::to_string(line) + ")";
  return s + ": " + detail;
}

namespace {

std::vector<std::string> KernelNames(const scan::ScannedSource& source, bool definitions_only) {
  std::vector<std::string> names;
  for (const scan::FunctionDef& f : source.Functions()) {
    if (f.has_qualifier("__global__") && (f.is_definition() || !definitions_only)) names.push_back(f.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// Includes: angle brackets only, from the allowed set. Checked on the raw
// source's lines since the stripper blanks "quoted" names.
void CheckIncludes(const std::string& source, const std::string& code, const StaticCheckOptions& options,
                   std::vector<StaticFinding>* findings) {
  auto lines = Split(source, '\n');
  auto code_lines = Split(code, '\n');
  std::regex inc(R"(^\s*#\s*include\s*([<"])([^>"]*)[>"])");
  std::regex other_inc(R"(^\s*#\s*(include_next|import|embed)\b|^\s*#\s*include\s*[^<"\s])");
  for (size_t i = 0; i < lines.size() && i < code_lines.size(); ++i) {
    std::smatch m;
    if (std::regex_search(code_lines[i], m, other_inc)) {
      findings->push_back({"includes", static_cast<int>(i + 1),
                           "computed or non-standard include ('" +
                               std::string(Trim(code_lines[i])) +
                               "'): only #include <header> from the allowed set"});
      continue;
    }
    if (std::regex_search(lines[i], m, inc) && code_lines[i].find('#') != std::string::npos) {
      std::string header = m[2].str();
      if (m[1].str() == "\"") {
        findings->push_back(
            {"includes", static_cast<int>(i + 1),
             "quoted include \"" + header + "\": only <system> headers are allowed"});
      } else if (!HeaderAllowed(header, options.libraries)) {
        findings->push_back({"includes", static_cast<int>(i + 1),
                             "header <" + header + "> is not allowed for this problem"});
      }
    }
  }
}

// The forbidden constructs (kRules) and the libraries the problem does not
// allow: the first match of each, on the blanked code.
void CheckPatterns(const std::string& code, const StaticCheckOptions& options, std::vector<StaticFinding>* findings) {
  for (const auto& rule : kRules) {
    std::regex re(rule.pattern);
    std::smatch m;
    if (std::regex_search(code, m, re)) {
      size_t pos = m.position(0);
      findings->push_back({rule.name, LineAt(code, pos),
                           std::string(rule.what) + ": '" + Snippet(code, pos, m.length(0)) + "'"});
    }
  }

  for (const auto& lib : kLibraries) {
    bool allowed = std::find(options.libraries.begin(), options.libraries.end(), lib.name) !=
                   options.libraries.end();
    if (allowed) continue;
    std::regex re(lib.pattern);
    std::smatch m;
    if (std::regex_search(code, m, re)) {
      size_t pos = m.position(0);
      findings->push_back({"no-library", LineAt(code, pos),
                           std::string(lib.name) + " is not allowed for this problem: '" +
                               Snippet(code, pos, m.length(0)) + "'"});
    }
  }
}

// The entry points: the kernel form's __global__ kernel is defined; else
// the function is defined and (with require_kernel) a kernel is launched,
// unless a library does the GPU work.
void CheckEntryPoints(const scan::ScannedSource& scanned, const std::string& code, const StaticCheckOptions& options,
                      std::vector<StaticFinding>* findings) {
  if (options.kernel_only) {
    auto kernels = KernelNames(scanned, /*definitions_only=*/true);
    if (std::find(kernels.begin(), kernels.end(), options.function) == kernels.end()) {
      findings->push_back({"defines-kernel", 0,
                           "no definition of the __global__ kernel '" + options.function +
                               "' (same name and parameter types as the kernel form's signature)"});
    }
    return;
  }
  bool defined = false;
  for (const scan::FunctionDef& f : scanned.Functions()) defined = defined || (f.is_definition() && f.name == options.function);
  if (!defined) {
    findings->push_back({"defines-function", 0,
                         "no definition of the function '" + options.function +
                             "' (same name and signature as the reference)"});
  }
  if (options.require_kernel) {
    auto kernels = KernelNames(scanned, /*definitions_only=*/false);
    bool library_path = !options.libraries.empty();
    if (kernels.empty() && !library_path) {
      findings->push_back({"has-kernel", 0, "no __global__ kernel: the function must run on the GPU"});
    } else if (!kernels.empty()) {
      bool launched = code.find("cudaLaunchKernel") != std::string::npos ||
                      code.find("cudaLaunchCooperativeKernel") != std::string::npos;
      for (const auto& k : kernels) {
        std::regex launch("\\b" + k + "\\s*(<\\s*[^;()]*>\\s*)?<<<");
        launched = launched || std::regex_search(code, launch);
      }
      if (!launched) {
        findings->push_back({"launches-kernel", 0,
                             "none of the kernels (" + Join(kernels, ", ") + ") is launched"});
      }
    }
  }
}

}  // namespace

std::vector<std::string> KernelNames(const std::string& source) {
  return KernelNames(scan::ScannedSource(source), false);
}

std::vector<StaticFinding> StaticCheck(const std::string& source, const StaticCheckOptions& options) {
  std::vector<StaticFinding> findings;
  const scan::ScannedSource scanned(source);
  const std::string code = scanned.Blanked();

  // The rules below read the source as the compiler lexes it; a source the
  // lexer cannot read (an unterminated comment or literal, unbalanced
  // brackets) might hide code from them, so it is refused.
  if (!scanned.problems().empty()) {
    const scan::ScanProblem& p = scanned.problems().front();
    findings.push_back({"well-formed", p.line, p.what});
  }

  CheckIncludes(source, code, options, &findings);
  CheckPatterns(code, options, &findings);
  CheckEntryPoints(scanned, code, options, &findings);
  return findings;
}

}  // namespace regrapht::verify
