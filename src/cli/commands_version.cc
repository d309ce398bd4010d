// regrapht version / regrapht --version: the version and the toolchain found.
#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "regrapht/files.h"
#include "regrapht/toolchain.h"

namespace regrapht::cli {

namespace {

// What the sandbox shows of the toolchain beyond the system paths, read-only.
std::string BindsText(const ToolchainInfo& tc) {
  if (tc.build_binds.empty() && tc.run_binds.empty())
    return "binds      none: the toolchain lives under /usr\n";
  std::string out = "binds      read-only in sandboxed compiles:\n";
  for (const auto& b : tc.build_binds)
    out += fmt::format("             {}  ({})\n", b.folder, b.why);
  out += "           read-only in sandboxed runs:";
  if (tc.run_binds.empty()) out += " none";
  out += "\n";
  for (const auto& r : tc.run_binds) out += "             " + r + "\n";
  return out;
}

OrderedJson NullIfEmpty(const std::string& s) {
  return s.empty() ? OrderedJson(nullptr) : OrderedJson(s);
}

}  // namespace

std::string VersionText(bool json) {
  Result<ToolchainInfo> tc = FindToolchain();
  const bool bwrap = SandboxWorks();
  if (json) {
    OrderedJson j = {{"version", REGRAPHT_VERSION}};
    if (tc.ok()) {
      j["nvcc"] = NullIfEmpty(tc->nvcc);
      j["nvcc_version"] = tc->nvcc.empty() ? OrderedJson(nullptr) : OrderedJson(tc->nvcc_version);
      j["cuda_root"] = NullIfEmpty(tc->cuda_root);
      j["cxx"] = tc->cxx;
      j["cxx_version"] = tc->cxx_version;
      j["compute_sanitizer"] = NullIfEmpty(tc->sanitizer);
      OrderedJson binds = OrderedJson::array();
      for (const auto& b : tc->build_binds) binds.push_back({{"folder", b.folder}, {"why", b.why}});
      j["sandbox_build_binds"] = binds;
      OrderedJson runs = OrderedJson::array();
      for (const auto& r : tc->run_binds) runs.push_back(r);
      j["sandbox_run_binds"] = runs;
    } else {
      j["toolchain_error"] = tc.status().ToString();
    }
    j["bubblewrap"] = bwrap;
    j["data_dir"] = DataDir().string();
    return j.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
  }
  std::string out = fmt::format("regrapht {}\n", REGRAPHT_VERSION);
  if (!tc.ok()) {
    out += "toolchain  not detected: " + tc.status().ToString() + "\n";
  } else {
    if (!tc->nvcc.empty()) {
      out += fmt::format("nvcc       {} ({})\n", tc->nvcc, tc->nvcc_version);
    } else {
      out +=
          "nvcc       not found ($REGRAPHT_NVCC, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): "
          "candidates "
          "cannot be compiled\n";
    }
    if (!tc->cuda_root.empty()) out += "cuda       " + tc->cuda_root + "\n";
    out += fmt::format("host c++   {} ({})\n", tc->cxx, tc->cxx_version);
    out += "sanitizer  " +
           (tc->sanitizer.empty()
                ? std::string(
                      "compute-sanitizer not found: on a GPU, candidates the emulator cannot run "
                      "are checked by the GPU run alone")
                : tc->sanitizer) +
           "\n";
    out += BindsText(*tc);
  }
  out +=
      std::string("sandbox    ") +
      (bwrap ? "bubblewrap works" : "bubblewrap unavailable (verify refuses to run candidates)") +
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
