// FindToolchain and SandboxWorks (regrapht/toolchain.h): the toolchain
// detection and the folders the sandbox binds (toolchain.h,
// toolchain_folders.h), as the public summary `regrapht version` prints.
#include <memory>

#include "core/sandbox.h"
#include "core/subprocess.h"
#include "regrapht/toolchain.h"
#include "verify/build/toolchain.h"
#include "verify/build/toolchain_folders.h"

namespace regrapht {

Result<ToolchainInfo> FindToolchain() {
  SubprocessOptions so;
  so.sandbox = SandboxMode::kNone;  // our own probes of system tools
  so.use_cgroups = false;
  std::unique_ptr<CommandRunner> runner = NewSubprocessRunner(so);
  RG_ASSIGN_OR_RETURN(verify::Toolchain tc, verify::DetectToolchain(runner.get()));
  ToolchainInfo info;
  if (tc.has_nvcc()) {
    info.nvcc = tc.nvcc.string();
    info.nvcc_version = tc.nvcc_version;
  }
  info.cuda_root = tc.cuda_root.string();
  info.cxx = tc.cxx.string();
  info.cxx_version = tc.cxx_version;
  info.sanitizer = tc.sanitizer.string();
  verify::ToolchainFolders f = verify::FindToolchainFolders(tc, runner.get());
  for (size_t i = 0; i < f.build.size(); ++i) {
    info.build_binds.push_back(
        {f.build[i].string(), i < f.reasons.size() ? f.reasons[i] : std::string()});
  }
  for (const auto& r : f.run) info.run_binds.push_back(r.string());
  return info;
}

bool SandboxWorks() { return ProbeSandbox().bwrap; }

}  // namespace regrapht
