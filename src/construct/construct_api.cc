// ImportGraph and BuildGraphWithModel (regrapht/construct.h): `graph import`
// and `graph build` as a program runs them, over graph/trajectory_import.h,
// construct/prebuild.h, construct/step_verifier.h, construct/build_relabeler.h
// and construct/graph_build.h.
#include <memory>
#include <utility>

#include "construct/build_relabeler.h"
#include "construct/graph_build.h"
#include "construct/prebuild.h"
#include "construct/step_verifier.h"
#include "core/clock.h"
#include "core/fs.h"
#include "core/progress.h"
#include "core/strings.h"
#include "graph/relabel.h"
#include "graph/taxonomy.h"
#include "graph/trajectory_import.h"
#include "regrapht/construct.h"

namespace regrapht {
namespace {

Result<Taxonomy> TaxonomyOf(const GraphRelabelOptions& relabel) {
  if (relabel.taxonomy.empty()) return Taxonomy::Builtin();
  return Taxonomy::Load(relabel.taxonomy);
}

UnknownLabelPolicy UnknownPolicyOf(const GraphRelabelOptions& relabel) {
  return relabel.reject_unknown ? UnknownLabelPolicy::kReject : UnknownLabelPolicy::kFlagNew;
}

construct::StepCheck StepCheckOf(StepCheckLevel level) {
  return level == StepCheckLevel::kFull ? construct::StepCheck::kFull
                                        : construct::StepCheck::kCompile;
}

const char* StepCheckName(StepCheckLevel level) {
  switch (level) {
    case StepCheckLevel::kNone:
      return "none";
    case StepCheckLevel::kCompile:
      return "compile";
    case StepCheckLevel::kFull:
      return "full";
  }
  return "?";
}

// How every label that was not given verbatim got its technique, one note each.
void AddLabelNotes(const std::string& kernel_id, const std::vector<LabelDecision>& labels,
                   std::vector<std::string>* notes) {
  for (size_t i = 0; i < labels.size(); ++i) {
    const LabelDecision& d = labels[i];
    if (d.rule == LabelRule::kTechniqueId || d.rule == LabelRule::kSynonym) continue;
    notes->push_back(kernel_id + ": steps[" + std::to_string(i) + "] \"" + d.method +
                     "\": " + d.Describe());
  }
}

// What the import did with each trajectory (errors, cuts, labels) and what
// it skipped, into the report's notes and counts.
void AddImportItems(const ImportReport& report, GraphImportReport* out) {
  for (const auto& item : report.items) {
    if (!item.status.ok()) {
      out->notes.push_back("error: " + item.status.message());
      continue;
    }
    out->examples_added += item.merge.examples_added;
    out->examples_already_present += item.merge.examples_duplicate;
    if (item.cut_at != std::string::npos) {
      ++out->cut;
      out->notes.push_back(item.kernel_id + ": cut before step " + std::to_string(item.cut_at + 1) +
                           " (" + item.cut_reason + ")");
    }
    AddLabelNotes(item.kernel_id, item.labels, &out->notes);
  }
  for (const auto& dir : report.skipped)
    out->notes.push_back("skipped " + dir.string() + " (no trajectory.json)");
  out->trajectories = report.items.size();
  out->imported = report.merged();
  out->failed = report.failed();
}

// A failed build's error, pointing at the checkpoint this run wrote (the
// state checks themselves fail with FailedPrecondition before any work).
Status WithCheckpoint(const Status& error, const fs::path& state_path) {
  std::error_code ec;
  if (error.code() == Status::Code::kFailedPrecondition || !fs::exists(state_path, ec))
    return error;
  return error.WithContext("graph build (the last checkpoint is in " + state_path.string() +
                           "; rerun with --resume)");
}

}  // namespace

Result<GraphImportReport> ImportGraph(const GraphImportOptions& a) {
  RG_ASSIGN_OR_RETURN(Taxonomy tax, TaxonomyOf(a.relabel));
  DeterministicRelabelerOptions ro;
  ro.threshold = a.relabel.threshold;
  ro.unknown = UnknownPolicyOf(a.relabel);
  DeterministicRelabeler relabeler(&tax, ro);
  ImportOptions options;
  options.taxonomy = &tax;
  options.relabeler = &relabeler;
  std::unique_ptr<Verifier> verifier = NewVerifier(a.verify);
  construct::HarnessStepVerifier step_verifier(verifier.get(), StepCheckOf(a.check));
  if (a.check != StepCheckLevel::kNone) options.verifier = &step_verifier;

  GraphImportReport out;
  if (!a.into.empty()) {
    RG_ASSIGN_OR_RETURN(out.graph, LoadGraph(a.into, GraphFormat::kAuto, &out.notes));
  }
  if (a.check != StepCheckLevel::kNone) {
    // Build every step in parallel first; the import then verifies one step
    // at a time from the build cache, so no compile disturbs a timing.
    construct::PrebuildOptions po;
    po.compile_only = a.check == StepCheckLevel::kCompile;
    po.timing = a.verify.timing;
    po.jobs = a.jobs;
    RG_ASSIGN_OR_RETURN(construct::PrebuildReport pre,
                        construct::PrebuildSteps(a.dirs, po, &step_verifier, verifier.get()));
    out.notes.push_back(std::string(pre.precomputed ? "verified" : "built") + " " +
                        std::to_string(pre.steps) + " steps with " + std::to_string(pre.jobs) +
                        " jobs");
  }
  RG_ASSIGN_OR_RETURN(ImportReport report, ImportTrajectories(a.dirs, options, &out.graph));
  AddImportItems(report, &out);
  out.verify_log = step_verifier.log();
  if (a.write_records) {
    const auto records = step_verifier.records();
    for (const auto& [dir, steps] : records)
      RG_RETURN_IF_ERROR(construct::WriteStepRecords(dir, steps));
    out.records_written = records.size();
  }
  return out;
}

Result<GraphBuildResult> BuildGraphWithModel(const GraphBuildRequest& r) {
  if (r.llm == nullptr) return Status::InvalidArgument("graph build: no model given");
  RG_ASSIGN_OR_RETURN(Taxonomy tax, TaxonomyOf(r.relabel));
  RG_ASSIGN_OR_RETURN(std::vector<construct::KernelEntry> kernels,
                      construct::ReadKernelList(r.kernels));

  // Relabel: the taxonomy's names, then the model for what they cannot place.
  construct::BuildRelabelerOptions ro;
  ro.unknown = UnknownPolicyOf(r.relabel);
  ro.threshold = r.relabel.threshold;
  ro.system_prompt = r.relabel_system_prompt;
  std::unique_ptr<Relabeler> relabeler = construct::NewBuildRelabeler(&tax, r.llm, ro);

  // Verification.
  std::unique_ptr<Verifier> verifier = NewVerifier(r.verify);
  construct::HarnessStepVerifier step_verifier(verifier.get(), StepCheckOf(r.check));

  construct::GraphBuildOptions o;
  o.taxonomy = &tax;
  o.llm = r.llm;
  o.relabeler = relabeler.get();
  if (r.check != StepCheckLevel::kNone) o.verifier = &step_verifier;
  o.system_template = r.system_template;
  o.user_template = r.user_template;
  o.sampling.temperature = r.temperature;
  o.sampling.top_p = r.top_p;
  o.sampling.max_tokens = r.max_tokens;
  o.sampling.seed = r.seed;
  o.jobs = r.jobs;
  o.checkpoint_every = r.checkpoint_every;
  o.max_endpoint_errors_in_a_row = r.max_endpoint_errors_in_a_row;
  o.state_path = r.state_path;
  o.resume = r.resume;
  o.save_trajectories = r.save_trajectories;
  o.config = r.config;
  o.cancel = r.cancel;
  size_t counts[3] = {0, 0, 0};
  CountProgress progress(r.show_progress, static_cast<int>(kernels.size()), SystemClock::Get());
  o.on_kernel = [&](const construct::KernelResult& k, size_t done) {
    ++counts[static_cast<int>(k.outcome)];
    std::string last = k.kernel_id + ": " + std::string(construct::KernelOutcomeName(k.outcome));
    if (!k.reason.empty())
      last += " (" + TruncateMiddle(k.reason.substr(0, k.reason.find('\n')), 120) + ")";
    progress.Update(static_cast<int>(done),
                    "accepted " + std::to_string(counts[0]) + "  cut " + std::to_string(counts[1]) +
                        "  rejected " + std::to_string(counts[2]),
                    last);
  };
  auto note = [&](const std::string& line) {
    if (r.on_note) r.on_note(line);
  };

  GraphBuildResult out;
  if (!r.into.empty()) {
    std::vector<std::string> repairs;
    RG_ASSIGN_OR_RETURN(out.graph, LoadGraph(r.into, GraphFormat::kAuto, &repairs));
    for (const auto& line : repairs) note(line);
  }
  note("building from " + std::to_string(kernels.size()) + " kernels with " + r.llm->ModelId() +
       " (" + std::to_string(r.jobs) + " in flight, verify " + StepCheckName(r.check) + ")");
  auto report = construct::BuildGraph(kernels, o, &out.graph);
  if (!report.ok()) return WithCheckpoint(report.status(), r.state_path);
  for (const auto& k : report->kernels) AddLabelNotes(k.kernel_id, k.labels, &out.label_notes);
  out.verify_log = step_verifier.log();
  out.summary = construct::FormatBuildSummary(*report, out.graph);
  out.kernels = report->kernels.size();
  out.resumed = report->resumed;
  out.stopped = report->stopped;
  out.stop_reason = report->stop_reason;
  return out;
}

}  // namespace regrapht
