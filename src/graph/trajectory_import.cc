#include "graph/trajectory_import.h"

#include <map>

namespace regrapht {

std::string VerificationFailure(const std::optional<StepVerification>& v) {
  if (!v) return "";
  if (!v->compiled) return "did not compile";
  if (v->correctness == Correctness::kWrong) {
    return "wrong answers on " + (v->gpu.empty() ? std::string("a GPU") : v->gpu);
  }
  return "";
}

size_t ImportReport::merged() const {
  size_t n = 0;
  for (const auto& item : items) n += item.status.ok() && item.cut_at != 0;  // cut before step 1: nothing merged
  return n;
}

size_t ImportReport::failed() const {
  size_t n = 0;
  for (const auto& item : items) n += !item.status.ok();
  return n;
}

Result<ImportedTrajectory> ImportTrajectory(Trajectory trajectory, const ImportOptions& options,
                                            Graph* graph) {
  ImportedTrajectory item;
  item.dir = trajectory.dir;
  item.kernel_id = trajectory.kernel_id;

  // 1. Relabel.
  RelabelInput input;
  input.trajectory = &trajectory;
  for (const Node& n : graph->nodes()) {
    if (n.id != kInitNode) input.graph_methods.push_back(n.name);
  }
  RG_ASSIGN_OR_RETURN(item.labels, options.relabeler->Relabel(input));
  item.status = ApplyLabels(item.labels, &trajectory);
  if (!item.status.ok()) return item;

  // 2. Verify, and cut at the first step whose record says it failed.
  for (size_t i = 0; i < trajectory.steps.size(); ++i) {
    if (options.verifier != nullptr) {
      RG_ASSIGN_OR_RETURN(StepVerification v, options.verifier->Verify(trajectory, i));
      trajectory.steps[i].verification = std::move(v);
    }
    std::string failure = VerificationFailure(trajectory.steps[i].verification);
    if (!failure.empty()) {
      item.cut_at = i;
      item.cut_reason = std::move(failure);
      trajectory.steps.resize(i);
      break;
    }
  }
  // Cut before step 1: a verification result, not an error; nothing to merge.
  if (trajectory.steps.empty()) return item;

  // 3. Merge.
  auto merged = MergeTrajectory(trajectory, *options.taxonomy, graph);
  if (!merged.ok()) {
    item.status = merged.status();
  } else {
    item.merge = std::move(merged).value();
  }
  return item;
}

Result<ImportReport> ImportTrajectories(const std::vector<fs::path>& roots,
                                        const ImportOptions& options, Graph* graph) {
  ImportReport report;
  RG_ASSIGN_OR_RETURN(std::vector<fs::path> dirs, FindTrajectoryDirs(roots, &report.skipped));
  std::map<std::string, fs::path> seen;  // kernel id -> folder
  for (const fs::path& dir : dirs) {
    auto trajectory = ReadTrajectoryDir(dir);
    if (!trajectory.ok()) {
      ImportedTrajectory item;
      item.dir = dir;
      item.kernel_id = dir.filename().string();
      item.status = trajectory.status();
      report.items.push_back(std::move(item));
      continue;
    }
    std::string kernel = trajectory->kernel_id;
    if (auto it = seen.find(kernel); it != seen.end()) {
      ImportedTrajectory item;
      item.dir = dir;
      item.kernel_id = kernel;
      item.status = Status::InvalidArgument(dir.string() + ": kernel id \"" + kernel +
                                            "\" was already imported from " + it->second.string());
      report.items.push_back(std::move(item));
      continue;
    }
    seen[kernel] = dir;
    RG_ASSIGN_OR_RETURN(ImportedTrajectory item,
                        ImportTrajectory(std::move(trajectory).value(), options, graph));
    report.items.push_back(std::move(item));
  }
  return report;
}

}  // namespace regrapht
