#include "bench/report_protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "bench/report.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"

namespace regrapht::bench {
namespace {

OrderedJson ProtoConfig(const std::string& text) {
  if (text.empty()) return OrderedJson::object();
  try {
    OrderedJson j = OrderedJson::parse(text);
    return j.is_object() ? j : OrderedJson::object();
  } catch (const std::exception&) {
    return OrderedJson::object();
  }
}

std::string ProtoStopOf(const std::string& trace) {
  if (trace.empty()) return "unknown";
  try {
    OrderedJson j = OrderedJson::parse(trace);
    if (j.is_object() && j.contains("stop_reason") && j["stop_reason"].is_string()) return j["stop_reason"];
  } catch (const std::exception&) {
  }
  return "unknown";
}

// A stop on the generation budget, or the walk's (its last walk ended as the budget ran out).
bool ProtoOnBudget(const std::string& why) {
  return (why.rfind("budget: ", 0) == 0 && why.find("generations") != std::string::npos) ||
         why.rfind("walks: ", 0) == 0;
}

std::string ProtoKey(const std::string& a, const std::string& b, const std::string& c, const std::string& d) {
  return a + '\x1f' + b + '\x1f' + c + '\x1f' + d;
}

AcrossSeeds SummarizeAcross(const std::vector<double>& v, const std::vector<Interval>& cis) {
  AcrossSeeds s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  for (const Interval& i : cis) {
    s.ci_mean.lo += i.lo / static_cast<double>(cis.size());
    s.ci_mean.hi += i.hi / static_cast<double>(cis.size());
  }
  return s;
}

// Pass rates as fractions, as in every other report (the paper's percentages too).
std::string ProtoPct(double f) { return FormatFraction(f); }

std::string SeedText(const AcrossSeeds& s, bool percent) {
  auto f = [&](double x) { return percent ? ProtoPct(x) : FormatSpeedup(x); };
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s ± %s [%s, %s]", f(s.mean).c_str(),
                percent ? ProtoPct(s.sd).c_str() : FormatSpeedup(s.sd).c_str(), f(s.min).c_str(), f(s.max).c_str());
  return buf;
}

std::string ProtoCi(const Interval& i, bool percent) {
  auto f = [&](double x) { return percent ? ProtoPct(x) : FormatSpeedup(x); };
  return "[" + f(i.lo) + ", " + f(i.hi) + "]";
}

}  // namespace

std::vector<BudgetUse> SummarizeBudgetUse(const std::vector<ResultRow>& rows) {
  std::map<std::string, BudgetUse> by;
  std::vector<std::string> order;
  for (const ResultRow& r : rows) {
    const std::string k = ProtoKey(r.key.suite, r.key.method, r.key.model, r.key.config_hash);
    auto [it, fresh] = by.try_emplace(k);
    BudgetUse& u = it->second;
    if (fresh) {
      order.push_back(k);
      u.suite = r.key.suite;
      u.method = r.key.method;
      u.model = r.key.model;
      u.config_hash = r.key.config_hash;
      OrderedJson cfg = ProtoConfig(r.config_json);
      if (cfg.contains("budget") && cfg["budget"].is_number_integer()) u.budget = cfg["budget"];
    }
    ++u.samples;
    u.generations_per_sample += r.generations;
    u.verifications_per_sample += r.verifications;
    if (r.key.method != "reference") {
      std::string why = ProtoStopOf(r.search_json);
      if (!ProtoOnBudget(why)) ++u.early_stops[why];
    }
  }
  std::vector<BudgetUse> out;
  for (const auto& k : order) {
    BudgetUse u = by[k];
    u.generations_per_sample /= u.samples;
    u.verifications_per_sample /= u.samples;
    out.push_back(std::move(u));
  }
  std::stable_sort(out.begin(), out.end(), [](const BudgetUse& a, const BudgetUse& b) {
    if (a.suite != b.suite) return a.suite < b.suite;
    return MethodRank(a.method) < MethodRank(b.method);
  });
  return out;
}

std::vector<SeedSpread> SummarizeSeeds(const std::vector<GroupMetrics>& groups) {
  struct Acc {
    SeedSpread s;
    std::vector<double> pass, speed, geo;
    std::vector<Interval> pass_ci, speed_ci, geo_ci;
  };
  std::map<std::string, Acc> by;
  std::vector<std::string> order;
  for (const GroupMetrics& g : groups) {
    if (!g.has_rows()) continue;
    OrderedJson cfg = ProtoConfig(g.config_json);
    uint64_t seed = 1;
    if (cfg.contains("seed") && cfg["seed"].is_number_unsigned()) seed = cfg["seed"];
    cfg.erase("seed");
    const std::string k = ProtoKey(g.suite, g.method, g.model, cfg.dump());
    auto [it, fresh] = by.try_emplace(k);
    Acc& a = it->second;
    if (fresh) {
      order.push_back(k);
      a.s.suite = g.suite;
      a.s.method = g.method;
      a.s.model = g.model;
    }
    a.s.seeds.push_back(seed);
    const MetricSet& m = g.overall;
    a.pass.push_back(m.pass_at.count(1) ? m.pass_at.at(1) : 0.0);
    a.pass_ci.push_back(m.pass_at_1_ci);
    if (m.timed_solved > 0) {
      ++a.s.timed_seeds;
      a.speed.push_back(m.speedup_at.count(1) ? m.speedup_at.at(1) : 0.0);
      a.speed_ci.push_back(m.speedup_at_1_ci);
      a.geo.push_back(m.geomean_speedup);
      a.geo_ci.push_back(m.geomean_ci);
    }
  }
  std::vector<SeedSpread> out;
  for (const auto& k : order) {
    Acc& a = by[k];
    if (a.s.seeds.size() < 2) continue;
    std::sort(a.s.seeds.begin(), a.s.seeds.end());
    a.s.pass_at_1 = SummarizeAcross(a.pass, a.pass_ci);
    a.s.speedup_at_1 = SummarizeAcross(a.speed, a.speed_ci);
    a.s.geomean = SummarizeAcross(a.geo, a.geo_ci);
    out.push_back(std::move(a.s));
  }
  return out;
}

OrderedJson BudgetUseJson(const BudgetUse& u) {
  OrderedJson stops = OrderedJson::object();
  for (const auto& [why, n] : u.early_stops) stops[why] = n;
  return {{"budget", u.budget},
          {"samples", u.samples},
          {"generations_per_sample", u.generations_per_sample},
          {"verifications_per_sample", u.verifications_per_sample},
          {"early_stops", stops}};
}

OrderedJson SeedSpreadJson(const SeedSpread& s) {
  auto one = [](const AcrossSeeds& a) {
    return OrderedJson{{"mean", a.mean},
                       {"sd", a.sd},
                       {"min", a.min},
                       {"max", a.max},
                       {"bootstrap_ci_mean", {a.ci_mean.lo, a.ci_mean.hi}}};
  };
  OrderedJson seeds = OrderedJson::array();
  for (uint64_t x : s.seeds) seeds.push_back(x);
  return {{"seeds", seeds},
          {"pass_at_1", one(s.pass_at_1)},
          {"timed_seeds", s.timed_seeds},
          {"speedup_at_1", s.timed_seeds ? one(s.speedup_at_1) : OrderedJson(nullptr)},
          {"geomean", s.timed_seeds ? one(s.geomean) : OrderedJson(nullptr)}};
}

std::string PrintBudgetAndSeeds(const std::vector<BudgetUse>& use, const std::vector<SeedSpread>& seeds) {
  std::string out = "\n### Budget use\n\nPer sample: generations (model requests) and verifications (harness "
                    "runs; a reply whose code was already verified reuses that result); searches that stopped "
                    "before their generation budget, and why.\n\n"
                    "| suite | method | model | config | budget | samples | generations/sample | "
                    "verifications/sample | stopped before the budget |\n|---|---|---|---|---|---|---|---|---|\n";
  char buf[96];
  for (const BudgetUse& u : use) {
    std::string stops;
    for (const auto& [why, n] : u.early_stops) {
      stops += (stops.empty() ? "" : "; ") + why + " x" + std::to_string(n);
    }
    std::snprintf(buf, sizeof buf, "| %d | %d | %.1f | %.1f |", u.budget, u.samples, u.generations_per_sample,
                  u.verifications_per_sample);
    out += "| " + u.suite + " | " + u.method + " | " + (u.model.empty() ? "-" : u.model) + " | " +
           u.config_hash.substr(0, 8) + " " + buf + " " + (stops.empty() ? "-" : stops) + " |\n";
  }
  if (seeds.empty()) return out;
  out += "\n### Across seeds\n\nExperiments that differ only in their seed (`bench --seeds N`): mean ± sample "
         "standard deviation [min, max] of each seed's figure, beside the seeds' bootstrap 95% CIs (over "
         "problems; bounds averaged). The seed spread is the search's and the model's randomness; the CI is "
         "the problems'.\n\n"
         "| suite | method | model | seeds | pass@1 (0-1) | pass@1 CI | speedup@1 | speedup@1 CI | geomean | geomean CI "
         "|\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const SeedSpread& s : seeds) {
    std::vector<std::string> ids;
    for (uint64_t x : s.seeds) ids.push_back(std::to_string(x));
    const bool timed = s.timed_seeds > 0;
    out += "| " + s.suite + " | " + s.method + " | " + (s.model.empty() ? "-" : s.model) + " | " + Join(ids, ",") +
           " | " + SeedText(s.pass_at_1, true) + " | " + ProtoCi(s.pass_at_1.ci_mean, true) + " | " +
           (timed ? SeedText(s.speedup_at_1, false) : "-") + " | " + (timed ? ProtoCi(s.speedup_at_1.ci_mean, false) : "-") +
           " | " + (timed ? SeedText(s.geomean, false) : "-") + " | " + (timed ? ProtoCi(s.geomean.ci_mean, false) : "-") +
           " |\n";
  }
  return out;
}

// ---- the paper's tables -------------------------------------------------------------

Result<PaperData> LoadPaperData(const std::string& path) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  OrderedJson j;
  try {
    j = OrderedJson::parse(text);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(path + ": not JSON: " + e.what());
  }
  auto field = [&](const OrderedJson& o, const char* name, const std::string& where) -> Result<std::string> {
    if (!o.contains(name) || !o[name].is_string()) {
      return Status::InvalidArgument(path + ": " + where + name + ": a string is required");
    }
    return o[name].get<std::string>();
  };
  if (!j.is_object() || j.value("format", "") != "regrapht-paper-results") {
    return Status::InvalidArgument(path + ": format: expected \"regrapht-paper-results\"");
  }
  PaperData d;
  RG_ASSIGN_OR_RETURN(d.arxiv, field(j, "arxiv", ""));
  RG_ASSIGN_OR_RETURN(d.title, field(j, "title", ""));
  RG_ASSIGN_OR_RETURN(d.protocol_note, field(j, "protocol_note", ""));
  if (!j.contains("rows") || !j["rows"].is_array()) return Status::InvalidArgument(path + ": rows: an array is required");
  for (size_t i = 0; i < j["rows"].size(); ++i) {
    const OrderedJson& r = j["rows"][i];
    const std::string where = "rows[" + std::to_string(i) + "].";
    PaperRow row;
    RG_ASSIGN_OR_RETURN(row.table, field(r, "table", where));
    RG_ASSIGN_OR_RETURN(row.backbone, field(r, "backbone", where));
    RG_ASSIGN_OR_RETURN(row.method, field(r, "method", where));
    RG_ASSIGN_OR_RETURN(row.benchmark, field(r, "benchmark", where));
    RG_ASSIGN_OR_RETURN(row.source, field(r, "source", where));
    row.tier = r.value("tier", "");
    for (const char* k : {"pass_at_1", "speedup_at_1"}) {
      if (!r.contains(k) || !r[k].is_number()) {
        return Status::InvalidArgument(path + ": " + where + k + ": a number is required");
      }
    }
    row.pass_at_1 = r["pass_at_1"];
    row.speedup_at_1 = r["speedup_at_1"];
    d.rows.push_back(std::move(row));
  }
  return d;
}

namespace {

// The backbone a model id names, by the usual spellings of its name.
bool SameBackbone(const std::string& backbone, const std::string& model) {
  const std::string m = ToLower(model);
  const std::string b = ToLower(backbone);
  auto has = [&](const char* s) { return m.find(s) != std::string::npos; };
  if (b.find("deepseek-coder-v2-lite") != std::string::npos) return has("deepseek-coder-v2-lite");
  if (b.find("qwen2.5-coder-7b") != std::string::npos) return has("qwen2.5-coder-7b");
  if (b.find("hpc-coder-v2") != std::string::npos) return has("hpc-coder-v2") || has("hpc-coder");
  if (b == "deepseek-r1") return has("deepseek-r1") && !has("distill");
  return false;
}

// Why our experiment is not on the paper's footing; empty when it is.
std::vector<std::string> NotComparable(const GroupMetrics& g, const std::string& benchmark) {
  std::vector<std::string> why;
  if (benchmark == "cudaeval") {
    why.push_back("our suites/cudaeval is our own CUDAEval-style suite, not the paper's 313 (not public)");
  } else if (g.suite != "pareval") {
    why.push_back("suite " + g.suite + " (the paper's task is the drop-in form, suite pareval)");
  }
  OrderedJson cfg = ProtoConfig(g.config_json);
  // The one-shot baselines make one generation whatever the budget (the paper's Standard, CoT, RAG).
  const bool one_shot = g.method == "standard" || g.method == "cot" || g.method == "rag";
  if (!one_shot && cfg.contains("budget") && cfg.value("budget", 0) != 200) {
    why.push_back("budget " + std::to_string(cfg.value("budget", 0)) + ", not 200");
  }
  const bool searched = cfg.contains("budget");
  if (searched) {
    if (cfg.value("heldout", true)) why.push_back("held-out re-timing on (--no-heldout or --protocol paper)");
    if (g.method == "regrapht-mcgs") {
      if (cfg.value("rollouts", 1) != 10) why.push_back("rollouts " + std::to_string(cfg.value("rollouts", 1)) + ", not 10");
      if (cfg.value("q", std::string("mean")) != "max") why.push_back("--q mean, not max");
      if (cfg.value("close_failed_edges", true)) why.push_back("failed edges closed");
    }
  }
  if (g.overall.timed_solved == 0) why.push_back("no GPU-timed solved problem (speed not measured)");
  return why;
}

std::string PaperBenchmark(const std::string& suite) {
  if (suite == "cudaeval") return "cudaeval";
  if (suite == "pareval" || suite == "pareval/kernel") return "pareval";
  return "";
}

std::string PaperNum(double v, bool percent) {
  if (v < 0) return "-";
  char buf[32];
  if (percent) return FormatFraction(v / 100.0);  // the paper prints percentages
  std::snprintf(buf, sizeof buf, "%.2fx", v);
  return buf;
}

std::string OursText(const MetricSet& m, bool percent) {
  if (m.samples == 0) return "-";
  if (percent) return ProtoPct(m.pass_at.count(1) ? m.pass_at.at(1) : 0.0) + " " + ProtoCi(m.pass_at_1_ci, true);
  if (m.timed_solved == 0) return "- (untimed)";
  return FormatSpeedup(m.speedup_at.count(1) ? m.speedup_at.at(1) : 0.0) + " " + ProtoCi(m.speedup_at_1_ci, false);
}

}  // namespace

std::string PrintPaperTables(const std::vector<GroupMetrics>& groups, const PaperData& paper) {
  std::string out = "# Our rows beside the paper's (arXiv " + paper.arxiv + ")\n\n" + paper.title + "\n\n" +
                    paper.protocol_note + "\n\nComparable means: the same problems, the drop-in form, the paper's "
                    "protocol (budget 200, rollouts 10, max backup, failed edges never closed, no held-out "
                    "re-timing: `--protocol paper`), a GPU-timed speed and the same backbone. Ours: pass@1 and "
                    "speedup@1 with bootstrap 95% CIs.\n";
  auto table = [&](const std::string& benchmark, const std::string& tier) {
    const bool t2 = !tier.empty();
    out += t2 ? "\n## Table 2: " + benchmark + ", tier " + tier + "\n\n" : "\n## Table 1: " + benchmark + "\n\n";
    out += "| backbone / our model | method | paper pass@1 (0-1) | our pass@1 (0-1) | paper speedup@1 | our speedup@1 | "
           "source | comparable |\n|---|---|---|---|---|---|---|---|\n";
    std::set<const GroupMetrics*> used;
    for (const PaperRow& p : paper.rows) {
      if (p.benchmark != benchmark || p.tier != tier || (p.table == "2") != t2) continue;
      const GroupMetrics* match = nullptr;
      for (const GroupMetrics& g : groups) {
        if (g.has_rows() && PaperBenchmark(g.suite) == benchmark && g.method == p.method &&
            SameBackbone(p.backbone, g.model) && !used.count(&g)) {
          match = &g;
          break;
        }
      }
      std::string ours_pass = "-", ours_speed = "-", comparable = "no row of ours";
      if (match) {
        used.insert(match);
        const MetricSet* m = t2 ? (match->by_tier.count(tier) ? &match->by_tier.at(tier) : nullptr) : &match->overall;
        ours_pass = m ? OursText(*m, true) : "-";
        ours_speed = m ? OursText(*m, false) : "-";
        auto why = NotComparable(*match, benchmark);
        comparable = why.empty() ? "yes" : "no: " + Join(why, "; ");
      }
      out += "| " + p.backbone + (match ? " / " + match->model : "") + " | " + p.method + " | " +
             PaperNum(p.pass_at_1, true) + " | " + ours_pass + " | " + PaperNum(p.speedup_at_1, false) + " | " + ours_speed +
             " | " + p.source + " | " + comparable + " |\n";
    }
    for (const GroupMetrics& g : groups) {
      if (!g.has_rows() || PaperBenchmark(g.suite) != benchmark || used.count(&g) || g.method == "reference") continue;
      const MetricSet* m = t2 ? (g.by_tier.count(tier) ? &g.by_tier.at(tier) : nullptr) : &g.overall;
      if (!m) continue;
      auto why = NotComparable(g, benchmark);
      why.insert(why.begin(), "the paper has no row for this method and model");
      out += "| " + (g.model.empty() ? std::string("-") : g.model) + " (" + g.suite + ") | " + g.method + " | - | " +
             OursText(*m, true) + " | - | " + OursText(*m, false) + " | - | no: " + Join(why, "; ") + " |\n";
    }
  };
  table("cudaeval", "");
  table("pareval", "");
  for (const char* tier : {"easy", "medium", "hard"}) table("cudaeval", tier);
  return out;
}

}  // namespace regrapht::bench
