// NewVerifier and the small public functions of regrapht/verify.h around
// it: the sandbox requirement, the candidate's signature, results as JSON.
#include <memory>

#include "core/json_util.h"
#include "core/sandbox.h"
#include "regrapht/verify.h"
#include "verify/build/kernel_form.h"
#include "verify/result_json.h"

namespace regrapht {

std::unique_ptr<Verifier> NewVerifier(const VerifyOptions& options) {
  return std::make_unique<Verifier>(options);
}

Status CheckSandboxAvailable(const VerifyOptions& o) {
  if (o.sandbox == VerifyOptions::Sandbox::kNone) return Status::Ok();
  const SandboxSupport& s = ProbeSandbox();
  return s.bwrap ? Status::Ok() : SandboxRefusal(s);
}

std::string CandidateSignature(const ProblemSpec& spec, bool kernel_form) {
  return kernel_form && spec.kernel ? verify::KernelSignature(spec) : spec.Signature();
}

std::string VerifyResultJson(const VerifyResult& result, bool with_samples) {
  return JsonLine(VerifyResultToJson(result, with_samples), 2);
}

std::string TimingJson(const Timing& timing, bool with_samples) {
  return JsonLine(TimingToJson(timing, with_samples), 2);
}

}  // namespace regrapht
