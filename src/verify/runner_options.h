// How the verifier's commands are run for a VerifyOptions: the subprocess
// runner's settings and the sandbox requirement (docs/trust.md).
#pragma once

#include "core/sandbox.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"

namespace regrapht {

// The subprocess runner settings matching VerifyOptions::sandbox.
// SubprocessOptions::cancel is left to the caller.
inline SubprocessOptions SandboxRunnerOptions(const VerifyOptions& o) {
  SubprocessOptions so;
  switch (o.sandbox) {
    case VerifyOptions::Sandbox::kAuto: so.sandbox = SandboxMode::kAuto; break;
    case VerifyOptions::Sandbox::kBubblewrap: so.sandbox = SandboxMode::kBubblewrap; break;
    case VerifyOptions::Sandbox::kNone: so.sandbox = SandboxMode::kNone; break;
  }
  return so;
}

// CheckSandboxAvailable(const VerifyOptions&): regrapht/verify.h.

}  // namespace regrapht
