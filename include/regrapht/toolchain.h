// What this machine offers the verifier: the compilers it found, what the
// sandbox shows of them, and whether the sandbox starts (`regrapht
// version`). The same detection the Verifier does, for a program to say
// up front what its verifications will be able to do.
//
//   Result<ToolchainInfo> tc = FindToolchain();
//   if (tc.ok() && tc->nvcc.empty()) ...  // candidates cannot be compiled here
//
// Thread safety: both functions may be called from any thread; each call
// runs the tools again (their --version), SandboxWorks probes once per
// process.
#pragma once

#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht {

struct ToolchainInfo {
  std::string nvcc;          // nvcc's path; empty: not found (candidates cannot be compiled)
  std::string nvcc_version;  // "13.0.88"; empty without nvcc
  std::string cuda_root;     // the folder holding include/ and lib64/; empty: not found
  std::string cxx;           // the host C++ compiler ($CXX, g++)
  std::string cxx_version;   // the first line of its --version
  std::string sanitizer;     // compute-sanitizer's path; empty: not found
  // Folders outside the system paths that sandboxed compiles see
  // read-only, each with why ("host compiler wrapper", "cc1plus", ...), and
  // those sandboxed runs see (docs/trust.md, "The toolchain in the sandbox").
  struct Bind {
    std::string folder, why;
  };
  std::vector<Bind> build_binds;
  std::vector<std::string> run_binds;
};

// Detects the toolchain as the Verifier does: nvcc from $REGRAPHT_NVCC,
// PATH, $CUDA_HOME/bin, /usr/local/cuda/bin (a missing nvcc is not an
// error: `nvcc` is empty), the host compiler from $CXX or g++, and the
// folders the sandbox binds for them. The tools run unsandboxed (they are
// the trusted compilers). Error: no host C++ compiler (FailedPrecondition,
// naming $CXX and g++).
Result<ToolchainInfo> FindToolchain();

// Whether bubblewrap starts sandboxes here with regrapht's policy; false
// means candidates are refused unless a program runs them unsandboxed
// (VerifyOptions::Sandbox::kNone).
bool SandboxWorks();

}  // namespace regrapht
