// regrapht version / regrapht --version: the version and the toolchain found.
#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/sandbox.h"
#include "core/subprocess.h"
#include "verify/build/toolchain.h"
#include "verify/build/toolchain_folders.h"

namespace regrapht::cli {

namespace {

// What the sandbox shows of the toolchain beyond the system paths
// (verify/toolchain_folders.h), read-only.
std::string BindsText(const verify::ToolchainFolders& f) {
  if (f.build.empty() && f.run.empty()) return "binds      none: the toolchain lives under /usr\n";
  std::string out = "binds      read-only in sandboxed compiles:\n";
  for (size_t i = 0; i < f.build.size(); ++i) out += fmt::format("             {}  ({})\n", f.build[i].string(), f.reasons[i]);
  out += "           read-only in sandboxed runs:";
  if (f.run.empty()) out += " none";
  out += "\n";
  for (const auto& r : f.run) out += "             " + r.string() + "\n";
  return out;
}

}  // namespace

std::string VersionText(bool json) {
  SubprocessOptions so;
  so.sandbox = SandboxMode::kNone;  // our own probes of system tools
  so.use_cgroups = false;
  auto runner = NewSubprocessRunner(so);
  auto tc = verify::DetectToolchain(runner.get());
  const SandboxSupport& sandbox = ProbeSandbox();
  if (json) {
    OrderedJson j = {{"version", REGRAPHT_VERSION}};
    if (tc.ok()) {
      j["nvcc"] = tc->has_nvcc() ? OrderedJson(tc->nvcc.string()) : OrderedJson(nullptr);
      j["nvcc_version"] = tc->has_nvcc() ? OrderedJson(tc->nvcc_version) : OrderedJson(nullptr);
      j["cuda_root"] =
          tc->cuda_root.empty() ? OrderedJson(nullptr) : OrderedJson(tc->cuda_root.string());
      j["cxx"] = tc->cxx.string();
      j["cxx_version"] = tc->cxx_version;
      j["compute_sanitizer"] = tc->sanitizer.empty() ? OrderedJson(nullptr) : OrderedJson(tc->sanitizer.string());
      verify::ToolchainFolders f = verify::FindToolchainFolders(*tc, runner.get());
      OrderedJson binds = OrderedJson::array();
      for (size_t i = 0; i < f.build.size(); ++i) {
        binds.push_back({{"folder", f.build[i].string()}, {"why", f.reasons[i]}});
      }
      j["sandbox_build_binds"] = binds;
      OrderedJson runs = OrderedJson::array();
      for (const auto& r : f.run) runs.push_back(r.string());
      j["sandbox_run_binds"] = runs;
    } else {
      j["toolchain_error"] = tc.status().ToString();
    }
    j["bubblewrap"] = sandbox.bwrap;
    j["data_dir"] = DataDir().string();
    return DumpJson(j);
  }
  std::string out = fmt::format("regrapht {}\n", REGRAPHT_VERSION);
  if (!tc.ok()) {
    out += "toolchain  not detected: " + tc.status().ToString() + "\n";
  } else {
    if (tc->has_nvcc()) {
      out += fmt::format("nvcc       {} ({})\n", tc->nvcc.string(), tc->nvcc_version);
    } else {
      out +=
          "nvcc       not found ($REGRAPHT_NVCC, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): "
          "candidates "
          "cannot be compiled\n";
    }
    if (!tc->cuda_root.empty()) out += "cuda       " + tc->cuda_root.string() + "\n";
    out += fmt::format("host c++   {} ({})\n", tc->cxx.string(), tc->cxx_version);
    out += "sanitizer  " +
           (tc->sanitizer.empty() ? std::string("compute-sanitizer not found: on a GPU, candidates the emulator cannot run "
                                                "are checked by the GPU run alone")
                                  : tc->sanitizer.string()) +
           "\n";
    out += BindsText(verify::FindToolchainFolders(*tc, runner.get()));
  }
  out += std::string("sandbox    ") +
         (sandbox.bwrap ? "bubblewrap works"
                        : "bubblewrap unavailable (verify refuses to run candidates)") +
         "\n";
  out += "data       " + DataDir().string() + " ($REGRAPHT_DATA_DIR, else <prefix>/share/regrapht)\n";
  return out;
}

std::function<int()> VersionCommand(CLI::App* sub) {
  auto json = std::make_shared<bool>(false);
  AddJsonFlag(sub, json.get(), "the version, the toolchain and the data folder");
  return [json] {
    if (*json) {
      EmitJsonText(VersionText(true));
    } else {
      std::fputs(VersionText(false).c_str(), stdout);
    }
    return kExitOk;
  };
}

}  // namespace regrapht::cli
