#include "verify/spec/heldout.h"

#include <string_view>

#include "core/hash.h"

namespace regrapht {
namespace {

uint64_t HeldOutSeed(uint64_t seed, uint64_t salt) {
  std::string_view bytes(reinterpret_cast<const char*>(&seed), sizeof seed);
  uint64_t s = Hash64(bytes, salt);
  return s == seed ? s ^ 0x9e3779b97f4a7c15ULL : s;
}

}  // namespace

uint64_t HeldOutSalt(uint64_t run_seed) {
  std::string_view bytes(reinterpret_cast<const char*>(&run_seed), sizeof run_seed);
  return Hash64(bytes, Hash64("regrapht-heldout-v1"));
}

Problem HeldOutProblem(const Problem& problem, uint64_t salt) {
  Problem held = problem;
  for (auto& t : held.spec.tests) t.seed = HeldOutSeed(t.seed, salt);
  held.spec.timing.seed = HeldOutSeed(held.spec.timing.seed, salt);
  return held;
}

bool NeedsHeldOutRun(const VerifyResult& search_result) { return search_result.verdict == Verdict::kCorrect; }

Result<VerifyResult> VerifyHeldOut(Verifier* verifier, const Problem& problem, const std::string& source,
                                   uint64_t salt) {
  return verifier->Verify(HeldOutProblem(problem, salt), source);
}

}  // namespace regrapht
