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

// Fails, before any model time or compile is spent, when candidates would
// have to run sandboxed but the sandbox cannot start here (and the sandbox
// is not kNone: --unsafe-no-sandbox). The error says why and what to do.
inline Status CheckSandboxAvailable(const VerifyOptions& o) {
  if (o.sandbox == VerifyOptions::Sandbox::kNone) return Status::Ok();
  const SandboxSupport& s = ProbeSandbox();
  return s.bwrap ? Status::Ok() : SandboxRefusal(s);
}

}  // namespace regrapht
