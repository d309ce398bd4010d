#include "bench/coverage.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace regrapht::bench {
namespace {

using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;

GroupKey KeyOf(const GroupMetrics& g) { return {g.suite, g.method, g.model, g.config_hash}; }

bool SuiteMatches(const Suite& suite, const std::string& name) {
  return name == suite.name || name == suite.name + "/kernel";
}

// The expected problems and samples of group `g`; false when unknown.
bool ExpectedSet(const GroupMetrics& g, const std::map<std::string, int>& planned,
                 const std::set<std::pair<std::string, int>>& present, const Suite* suite,
                 std::vector<std::string>* problems, int* samples, std::string* from) {
  for (const auto& [p, n] : planned) *samples = std::max(*samples, n);
  if (suite != nullptr && SuiteMatches(*suite, g.suite)) {
    for (const auto& p : suite->problems) problems->push_back(p.problem.spec.name);
    if (*samples == 0) {
      for (const auto& [p, s] : present) *samples = std::max(*samples, s + 1);
    }
    *from = "suite";
    return true;
  }
  if (planned.empty()) return false;
  for (const auto& [p, n] : planned) problems->push_back(p);
  *from = "plan";
  return true;
}

Coverage ComputeCoverage(const GroupMetrics& g, const std::map<std::string, int>& planned,
                         const std::set<std::pair<std::string, int>>& present, const Suite* suite) {
  Coverage c;
  std::set<std::string> with_rows;
  for (const auto& [p, s] : present) with_rows.insert(p);
  c.problems_present = static_cast<int>(with_rows.size());
  std::vector<std::string> problems;
  int samples = 0;
  if (!ExpectedSet(g, planned, present, suite, &problems, &samples, &c.expected_from)) {
    c.present = static_cast<int>(present.size());
    return c;
  }
  std::sort(problems.begin(), problems.end());
  c.problems_expected = static_cast<int>(problems.size());
  c.samples_expected = samples;
  c.expected = c.problems_expected * samples;
  for (const auto& p : problems) {
    for (int s = 0; s < samples; ++s) {
      if (present.count({p, s})) {
        ++c.present;
      } else {
        c.missing.push_back({p, s});
      }
    }
  }
  c.outside = static_cast<int>(present.size()) - c.present;
  return c;
}

}  // namespace

void AddCoverage(const std::vector<ResultRow>& rows, const std::vector<PlanEntry>& plan, const Suite* suite,
                 std::vector<GroupMetrics>* groups) {
  std::map<GroupKey, std::map<std::string, int>> planned;
  for (const auto& e : plan) {
    int& n = planned[{e.suite, e.method, e.model, e.config_hash}][e.problem];
    n = std::max(n, e.samples);
  }
  std::map<GroupKey, std::set<std::pair<std::string, int>>> present;
  for (const auto& r : rows) {
    present[{r.key.suite, r.key.method, r.key.model, r.key.config_hash}].insert({r.key.problem, r.key.sample});
  }
  std::set<GroupKey> known;
  for (const auto& g : *groups) known.insert(KeyOf(g));
  for (const auto& [key, problems] : planned) {
    if (known.count(key)) continue;
    GroupMetrics g;
    std::tie(g.suite, g.method, g.model, g.config_hash) = key;
    groups->push_back(std::move(g));
  }
  static const std::map<std::string, int> kNoPlan;
  static const std::set<std::pair<std::string, int>> kNoRows;
  for (auto& g : *groups) {
    auto pl = planned.find(KeyOf(g));
    auto pr = present.find(KeyOf(g));
    g.coverage = ComputeCoverage(g, pl == planned.end() ? kNoPlan : pl->second,
                                 pr == present.end() ? kNoRows : pr->second, suite);
  }
}

std::string FormatMissing(const std::vector<MissingSample>& missing, size_t max_problems) {
  std::string out;
  size_t problems = 0;
  for (size_t i = 0; i < missing.size();) {
    size_t j = i;
    while (j < missing.size() && missing[j].problem == missing[i].problem) ++j;
    if (problems == max_problems) {
      std::set<std::string> rest;
      for (size_t k = i; k < missing.size(); ++k) rest.insert(missing[k].problem);
      out += ", and " + std::to_string(rest.size()) + " more problem" + (rest.size() == 1 ? "" : "s");
      break;
    }
    out += (out.empty() ? "" : ", ") + missing[i].problem + " #";
    // Consecutive samples as ranges: #0-2,5.
    for (size_t k = i; k < j;) {
      size_t e = k;
      while (e + 1 < j && missing[e + 1].sample == missing[e].sample + 1) ++e;
      out += (k == i ? "" : ",") + std::to_string(missing[k].sample);
      if (e > k) out += "-" + std::to_string(missing[e].sample);
      k = e + 1;
    }
    ++problems;
    i = j;
  }
  return out;
}

}  // namespace regrapht::bench
