#include "construct/step_verifier.h"

#include <fmt/format.h>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "graph/graph_json.h"

namespace regrapht::construct {

StepVerification HarnessStepVerifier::ToRecord(const VerifyResult& r, const VerifyOptions& o,
                                               const std::string& source_hash) {
  StepVerification v;
  v.compiled = r.verdict != Verdict::kCompileError && r.verdict != Verdict::kStaticReject &&
               !(r.verdict == Verdict::kTimeout && r.detail.rfind("compilation", 0) == 0);
  v.archs = o.archs;
  switch (r.verdict) {
    case Verdict::kCorrect:
      v.correctness = Correctness::kCorrect;
      break;
    case Verdict::kCompiledOnly:
    case Verdict::kNotEmulated:
      v.correctness = Correctness::kUnknown;
      break;
    default:
      v.correctness = v.compiled ? Correctness::kWrong : Correctness::kUnknown;
  }
  v.gpu = r.env.gpu_name;
  if (r.verdict == Verdict::kCorrect && r.speedup > 0) v.speedup = r.speedup;  // 0: not measured
  v.source_hash = source_hash;
  v.verifier = "regrapht " + r.env.regrapht_version + " verify " +
               (r.emulated ? "--emulate " : "") + Join(o.archs, ",");
  return v;
}

Result<const Problem*> HarnessStepVerifier::ProblemOf(const Trajectory& t) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = problems_.find(t.dir.string());
  if (it == problems_.end()) {
    RG_ASSIGN_OR_RETURN(Problem p, LoadProblem(t.dir));
    it = problems_.emplace(t.dir.string(), std::move(p)).first;
  }
  return &it->second;  // std::map nodes stay put
}

std::pair<StepVerification, std::string> HarnessStepVerifier::Describe(
    const Trajectory& t, size_t index, const VerifyResult& r) const {
  const TrajectoryStep& step = t.steps[index];
  StepVerification v = ToRecord(r, verifier_->options(), HashHex(step.code));
  std::string line = fmt::format("{} step {} ({}): {}", t.kernel_id, index + 1,
                                 step.technique_id.empty() ? step.method : step.technique_id,
                                 VerdictName(r.verdict));
  if (r.verdict == Verdict::kCorrect && r.speedup > 0)
    line += fmt::format(", {:.2f}x", r.speedup);
  else if (r.verdict == Verdict::kCorrect)
    line += r.emulated ? " (CPU emulator, untimed)" : " (untimed)";
  else if (!Unverified(r.verdict))
    line += ": " + r.detail;
  return {v, line};
}

Result<std::pair<StepVerification, std::string>> HarnessStepVerifier::Check(const Trajectory& t,
                                                                            size_t index) {
  RG_ASSIGN_OR_RETURN(const Problem* problem, ProblemOf(t));
  const TrajectoryStep& step = t.steps[index];
  Result<VerifyResult> r = mode_ == StepCheck::kFull
                               ? verifier_->Verify(*problem, step.code)
                               : verifier_->CompileOnly(*problem, step.code, true);
  if (!r.ok()) return r.status().WithContext(t.kernel_id + " step " + std::to_string(index + 1));
  return Describe(t, index, *r);
}

Status HarnessStepVerifier::Precompute(const Trajectory& t, size_t index) {
  RG_ASSIGN_OR_RETURN(auto checked, Check(t, index));
  std::lock_guard<std::mutex> lock(mu_);
  precomputed_[t.dir.string() + "#" + std::to_string(index)] = std::move(checked);
  return Status::Ok();
}

Status HarnessStepVerifier::PrecomputeMany(
    const std::vector<std::pair<const Trajectory*, size_t>>& steps) {
  if (mode_ != StepCheck::kCompile) {
    for (const auto& [t, index] : steps) RG_RETURN_IF_ERROR(Precompute(*t, index));
    return Status::Ok();
  }
  std::vector<std::pair<const Problem*, std::string>> items;
  for (const auto& [t, index] : steps) {
    RG_ASSIGN_OR_RETURN(const Problem* problem, ProblemOf(*t));
    items.emplace_back(problem, t->steps[index].code);
  }
  RG_ASSIGN_OR_RETURN(std::vector<VerifyResult> results, verifier_->CompileOnlyMany(items));
  for (size_t i = 0; i < steps.size(); ++i) {
    auto checked = Describe(*steps[i].first, steps[i].second, results[i]);
    std::lock_guard<std::mutex> lock(mu_);
    precomputed_[steps[i].first->dir.string() + "#" + std::to_string(steps[i].second)] =
        std::move(checked);
  }
  return Status::Ok();
}

Result<StepVerification> HarnessStepVerifier::Verify(const Trajectory& t, size_t index) {
  std::pair<StepVerification, std::string> checked;
  bool have = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = precomputed_.find(t.dir.string() + "#" + std::to_string(index));
    if (it != precomputed_.end() && it->second.first.source_hash == HashHex(t.steps[index].code)) {
      checked = it->second;
      have = true;
    }
  }
  if (!have) {
    RG_ASSIGN_OR_RETURN(checked, Check(t, index));
  }
  std::lock_guard<std::mutex> lock(mu_);
  log_.push_back(checked.second);
  auto& recs = records_[t.dir.string()];
  if (recs.size() <= index) recs.resize(index + 1);
  recs[index] = checked.first;
  return checked.first;
}

std::map<std::string, std::vector<StepVerification>> HarnessStepVerifier::records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return records_;
}

std::vector<std::string> HarnessStepVerifier::log() const {
  std::lock_guard<std::mutex> lock(mu_);
  return log_;
}

Status WriteStepRecords(const fs::path& dir, const std::vector<StepVerification>& records) {
  fs::path file = dir / "trajectory.json";
  RG_ASSIGN_OR_RETURN(std::string text, ReadFile(file));
  OrderedJson j;
  try {
    j = OrderedJson::parse(text);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(file.string() + ": " + e.what());
  }
  if (!j.contains("steps") || !j["steps"].is_array()) {
    return Status::InvalidArgument(file.string() + ": steps: expected an array");
  }
  for (size_t i = 0; i < records.size() && i < j["steps"].size(); ++i) {
    j["steps"][i]["verification"] = VerificationToJson(records[i]);
  }
  return WriteFileAtomic(file, DumpJson(j));
}

}  // namespace regrapht::construct
