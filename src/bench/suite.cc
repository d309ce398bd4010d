#include "bench/suite.h"

#include <algorithm>

#include "core/json_util.h"

namespace regrapht::bench {

std::string TierForSteps(size_t steps) {
  if (steps <= 2) return "easy";
  if (steps <= 5) return "medium";
  return "hard";
}

Result<Suite> LoadSuite(const fs::path& dir, const std::set<std::string>& known) {
  Suite s;
  s.dir = dir;
  fs::path meta = dir / "suite.json";
  RG_ASSIGN_OR_RETURN(Json j, ReadJsonFile(meta));
  JsonPath root(j, meta.string());
  RG_RETURN_IF_ERROR(
      root.CheckKeys({"format", "version", "name", "description", "tiered", "grouped_by", "credits"}));
  RG_ASSIGN_OR_RETURN(std::string format, root.GetString("format"));
  if (format != "regrapht-suite") return root.FieldError("format", "expected \"regrapht-suite\"");
  RG_ASSIGN_OR_RETURN(int64_t version, root.GetInt("version"));
  if (version != 1) return root.FieldError("version", "unsupported version");
  RG_ASSIGN_OR_RETURN(s.name, root.GetName("name"));
  RG_ASSIGN_OR_RETURN(s.description, root.GetString("description", ""));
  RG_ASSIGN_OR_RETURN(s.tiered, root.GetBool("tiered", false));
  RG_ASSIGN_OR_RETURN(std::string grouped_by, root.GetString("grouped_by", ""));
  if (!grouped_by.empty() && grouped_by != "category") {
    return root.FieldError("grouped_by", "\"" + grouped_by + "\": the only grouping is \"category\"");
  }
  if (!grouped_by.empty() && s.tiered) return root.FieldError("grouped_by", "a tiered suite is grouped by tier");
  s.grouped_by_category = !grouped_by.empty();

  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory() && fs::exists(e.path() / "problem.json")) dirs.push_back(e.path());
  }
  if (ec) return Status::IoError(dir.string() + ": " + ec.message());
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty()) return Status::InvalidArgument(dir.string() + ": no problem folders");
  for (const auto& d : dirs) {
    SuiteProblem sp;
    RG_ASSIGN_OR_RETURN(sp.problem, LoadProblem(d));
    if (sp.problem.spec.name != d.filename().string()) {
      return Status::InvalidArgument((d / "problem.json").string() + ": name: \"" + sp.problem.spec.name +
                                     "\" differs from the folder name \"" + d.filename().string() + "\"");
    }
    if (s.grouped_by_category) {
      if (sp.problem.spec.category.empty()) {
        return Status::InvalidArgument((d / "problem.json").string() +
                                       ": category: required in a suite grouped by category");
      }
      sp.tier = sp.problem.spec.category;
    }
    fs::path ej = d / "expert.json";
    if (!fs::exists(ej)) {
      if (s.tiered) return Status::InvalidArgument(ej.string() + ": missing (tiered suites need it)");
      s.problems.push_back(std::move(sp));
      continue;
    }
    RG_ASSIGN_OR_RETURN(Json e, ReadJsonFile(ej));
    JsonPath ep(e, ej.string());
    RG_RETURN_IF_ERROR(ep.CheckKeys({"format", "version", "tier", "domain", "trajectory", "notes"}));
    RG_ASSIGN_OR_RETURN(std::string ef, ep.GetString("format"));
    if (ef != "regrapht-expert") return ep.FieldError("format", "expected \"regrapht-expert\"");
    RG_ASSIGN_OR_RETURN(sp.tier, ep.GetString("tier"));
    RG_ASSIGN_OR_RETURN(sp.domain, ep.GetString("domain", ""));
    RG_ASSIGN_OR_RETURN(sp.trajectory, ep.GetStringList("trajectory"));
    if (sp.trajectory.empty()) return ep.FieldError("trajectory", "needs at least one technique");
    for (size_t i = 0; i < sp.trajectory.size(); ++i) {
      if (!known.empty() && !known.count(sp.trajectory[i])) {
        return ep.FieldError("trajectory[" + std::to_string(i) + "]",
                             "unknown technique id \"" + sp.trajectory[i] + "\" (see data/taxonomy.json)");
      }
    }
    std::string expected = TierForSteps(sp.trajectory.size());
    if (sp.tier != expected) {
      return ep.FieldError("tier", "\"" + sp.tier + "\" but the trajectory has " +
                                       std::to_string(sp.trajectory.size()) + " steps, which makes it \"" +
                                       expected + "\" (easy 1-2, medium 3-5, hard 6+)");
    }
    s.problems.push_back(std::move(sp));
  }
  return s;
}

}  // namespace regrapht::bench
