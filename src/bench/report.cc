#include "bench/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "bench/coverage.h"
#include "core/json_util.h"

namespace regrapht::bench {

std::string FormatFraction(double fraction) { return fmt::format("{:.3f}", fraction); }
std::string FormatSpeedup(double ratio) { return fmt::format("{:.2f}x", ratio); }

namespace {

std::string Ci(const Interval& i, bool fraction) {
  return fraction ? fmt::format("[{:.3f}, {:.3f}]", i.lo, i.hi) : fmt::format("[{:.2f}, {:.2f}]", i.lo, i.hi);
}
std::string ModelName(const GroupMetrics& g) { return g.model.empty() ? "-" : g.model; }

const char* kTiers[] = {"easy", "medium", "hard"};

std::vector<std::string> TierOrder(const GroupMetrics& g) {
  std::set<std::string> names;
  for (const auto& [t, m] : g.by_tier) names.insert(t);
  return OrderTiers(std::move(names));
}

// "gpu-timed 3, emulated 2": the samples behind a row, by evidence level.
std::string EvidenceText(const MetricSet& m) {
  std::string s;
  for (const char* e : kEvidenceLevels) {
    if (m.evidence.count(e) && m.evidence.at(e) > 0) s += (s.empty() ? "" : ", ") + fmt::format("{} {}", e, m.evidence.at(e));
  }
  return s.empty() ? "-" : s;
}

std::string Plural(int n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// One line of the Markdown coverage block, e.g. "2 of 3 rows (3 problems x 1
// sample, expected from the plan); missing: c #0".
std::string CoverageLine(const GroupMetrics& g) {
  const Coverage& c = g.coverage;
  std::string line = "- " + g.method + " / " + ModelName(g) + ": ";
  if (!c.known()) {
    return line + Plural(c.present, "row") + " (" + Plural(c.problems_present, "problem") +
           "); the expected set is unknown (no plan recorded for it): pass --suite DIR to list what is missing\n";
  }
  std::string shape = Plural(c.problems_expected, "problem") + " x " + Plural(c.samples_expected, "sample") +
                      ", expected from " + (c.expected_from == "suite" ? "the suite folder" : "the plan");
  if (c.complete()) {
    line += "all " + Plural(c.expected, "row") + " present (" + shape + ")";
  } else if (c.present == 0) {
    line += "none of " + Plural(c.expected, "row") + " present (" + shape + "): missing all";
  } else {
    line += fmt::format("{} of {} present ({}); missing {}: {}", c.present, Plural(c.expected, "row"), shape,
                        c.missing.size(), FormatMissing(c.missing));
  }
  if (c.outside > 0) line += "; " + Plural(c.outside, "row") + " outside the expected set";
  return line + "\n";
}

// The held-out block of a suite's Markdown section: per method whose
// answers were re-verified, how many stayed correct and what the re-timing
// did to the speedups. Empty when no row had a held-out run.
std::string HeldOutBlock(const std::vector<GroupMetrics>& groups, size_t first, const std::string& suite) {
  std::string lines;
  for (size_t j = first; j < groups.size() && groups[j].suite == suite; ++j) {
    const MetricSet& m = groups[j].overall;
    if (m.heldout_runs == 0) continue;
    lines += fmt::format("- {} / {}: {} of {} answers correct at search time stayed correct on held-out inputs",
                         groups[j].method, ModelName(groups[j]), m.heldout_kept, m.heldout_runs);
    if (m.heldout_timed_pairs > 0) {
      lines += fmt::format(
          "; over the {} timed both times, geomean speedup {} at search time, {} held-out",
          m.heldout_timed_pairs, FormatSpeedup(m.search_geomean_paired),
          FormatSpeedup(m.heldout_geomean_paired));
    }
    lines += "\n";
  }
  if (lines.empty()) return lines;
  return "\nHeld-out (every figure above comes from re-verifying and re-timing each answer on new inputs; "
         "the search-time measurement chose it):\n\n" + lines;
}

// What the speed columns measure, above each suite's table.
std::string TimingLegend(bool kernel) {
  return std::string("Units: pass@k, compile@k and fast_p are fractions of the problems (0-1), as in the csv, "
                     "json and html reports; speedups are ratios (x).\n\n") +
         (kernel ? "Speed: **kernel** only (`--timing kernel`, ParEval's measure): the GPU time of the kernels "
                  "(CUPTI inside the drop-in call, CUDA events in the kernel form) against the `-O3` sequential "
                  "reference; correct samples without a kernel time count as untimed.\n\n"
                : "Speed: **call** = the whole drop-in call, transfers included (the paper's contract; the kernel "
                  "form's rows: its kernel); **kernel** = the GPU time of the kernels inside it (CUPTI), `-` where "
                  "not measured; both against the `-O3` sequential reference.\n\n");
}

class MarkdownPrinter final : public ReportPrinter {
 public:
  explicit MarkdownPrinter(bool kernel) : kernel_(kernel) {}
  std::string Print(const std::vector<GroupMetrics>& groups, const std::vector<int>& ks) override {
    std::string out;
    std::string suite;
    for (size_t i = 0; i < groups.size(); ++i) {
      if (groups[i].suite != suite) {
        suite = groups[i].suite;
        out += "\n## Suite `" + suite + "`\n\n" + TimingLegend(kernel_) + Header(ks);
        for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) {
          if (groups[j].has_rows()) out += Row(groups[j], ks);
        }
        bool tiered = false;
        for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) tiered |= !groups[j].by_tier.empty();
        if (tiered) {
          // Tiers (easy, medium, hard) in that order, or a suite's problem
          // types (ParEval) in name order.
          std::set<std::string> present;
          for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) {
            for (const auto& [t, m] : groups[j].by_tier) present.insert(t);
          }
          const std::vector<std::string> cols = OrderTiers(present);
          const bool types = std::any_of(cols.begin(), cols.end(), [](const std::string& c) {
            return std::find(std::begin(kTiers), std::end(kTiers), c) == std::end(kTiers);
          });
          out += std::string("\nPer ") + (types ? "problem type" : "tier") + " (pass@1 (0-1) / speedup@1 (" +
                 (kernel_ ? "kernel" : "call") + ") over solved problems / solved of problems):\n\n| method | model |";
          for (const auto& c : cols) out += " " + c + " |";
          out += "\n|---|---|";
          for (size_t c = 0; c < cols.size(); ++c) out += "---|";
          out += "\n";
          for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) {
            const auto& g = groups[j];
            if (!g.has_rows()) continue;
            out += "| " + g.method + " | " + ModelName(g) + " |";
            for (const auto& t : cols) {
              auto it = g.by_tier.find(t);
              if (it == g.by_tier.end()) {
                out += " - |";
              } else {
                const auto& m = it->second;
                out += fmt::format(" {} / {} / {}/{} |", FormatFraction(m.pass_at.at(1)),
                                   m.timed_solved ? FormatSpeedup(m.speedup_at.at(1)) : "-",
                                   m.solved, m.problems);
              }
            }
            out += "\n";
          }
        }
        out += "\nCoverage (rows present of the expected problems x samples, per method / model):\n\n";
        for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) out += CoverageLine(groups[j]);
        int unsandboxed = 0;
        for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) unsandboxed += groups[j].overall.unsandboxed;
        if (unsandboxed > 0) {
          out += fmt::format("\n**UNSANDBOXED:** {} with `--unsafe-no-sandbox`: their candidates ran "
                             "as the user with the whole machine visible (docs/trust.md).\n",
                             Plural(unsandboxed, "sample") + " ran");
        }
        out += HeldOutBlock(groups, i, suite);
        bool unverified = false;
        for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) unverified |= groups[j].overall.unverified > 0;
        if (unverified) {
          out += "\n**Unverified:** rows marked `(compiled only)` ran without a GPU: their candidates were "
                 "compiled, never checked or timed; their pass rates say nothing about correctness.\n";
        }
        bool untimed = false;
        for (size_t j = i; j < groups.size() && groups[j].suite == suite; ++j) untimed |= groups[j].overall.untimed > 0;
        if (untimed) {
          out += "\n**Untimed:** rows marked `(untimed)` hold correct samples whose speed was not measured "
                 "(`--no-timing`, or `--emulate`: correctness from the CPU emulator, not a GPU result); speed "
                 "columns cover timed samples only and show `-` when there are none.\n";
        }
      }
    }
    return out;
  }

 private:
  std::string Header(const std::vector<int>& ks) const {
    const char* what = kernel_ ? "kernel" : "call";
    std::string h = "| method | model | problems | samples | solved |";
    std::string sep = "|---|---|---|---|---|";
    for (int k : ks) {
      h += fmt::format(" pass@{} (0-1) |", k);
      sep += "---|";
    }
    h += " 95% CI |";
    sep += "---|";
    for (int k : ks) {
      h += fmt::format(" speedup@{} ({}) |", k, what);
      sep += "---|";
    }
    h += fmt::format(" 95% CI | geomean_speedup ({}) |", what);
    sep += "---|---|";
    if (!kernel_) {
      h += " speedup@1 (kernel) | geomean_speedup (kernel) |";
      sep += "---|---|";
    }
    h += " fast_1 (0-1) | fast_1.5 (0-1) | fast_2 (0-1) | compile@1 (0-1) | tokens/solved | verifications/solved | "
         "evidence |";
    sep += "---|---|---|---|---|---|---|";
    return h + "\n" + sep + "\n";
  }
  // fast_p needs timings: "-" when no correct sample was timed.
  static std::string Fast(const MetricSet& m, const std::string& p) {
    return m.timed_solved || m.untimed == 0 ? FormatFraction(m.fast.at(p)) : std::string("-");
  }
  std::string Row(const GroupMetrics& g, const std::vector<int>& ks) const {
    const MetricSet& m = g.overall;
    std::string r = fmt::format("| {}{}{} | {} | {} | {} | {} |", g.method,
                                m.unverified ? " (compiled only)" : "", m.untimed ? " (untimed)" : "", ModelName(g),
                                m.problems, m.samples, m.solved);
    for (int k : ks) r += " " + FormatFraction(m.pass_at.at(k)) + " |";
    r += " " + Ci(m.pass_at_1_ci, true) + " |";
    for (int k : ks)
      r += " " + (m.timed_solved ? FormatSpeedup(m.speedup_at.at(k)) : std::string("-")) + " |";
    r += " " + (m.timed_solved ? Ci(m.speedup_at_1_ci, false) : std::string("-")) + " |";
    r += " " + (m.timed_solved ? FormatSpeedup(m.geomean_speedup) : std::string("-")) + " |";
    if (!kernel_) {
      const bool k = m.kernel_timed_solved > 0;
      r += " " + (k ? FormatSpeedup(m.kernel_speedup_at_1) : std::string("-")) + " | " +
           (k ? FormatSpeedup(m.kernel_geomean_speedup) : std::string("-")) + " |";
    }
    r += fmt::format(" {} | {} | {} | {} | {:.0f} | {:.1f} | {} |\n", Fast(m, "1"), Fast(m, "1.5"),
                     Fast(m, "2"), FormatFraction(m.compile_at.at(1)), m.tokens_per_solved,
                     m.verifications_per_solved, EvidenceText(m));
    return r;
  }

  bool kernel_;
};

class CsvPrinter final : public ReportPrinter {
 public:
  explicit CsvPrinter(bool kernel) : kernel_(kernel) {}
  std::string Print(const std::vector<GroupMetrics>& groups, const std::vector<int>& ks) override {
    std::string out = "suite,method,model,config_hash,tier,problems,samples,solved,unverified,untimed,timed_solved";
    for (int k : ks) out += fmt::format(",pass@{}", k);
    for (int k : ks) out += fmt::format(",speedup@{}", k);
    for (int k : ks) out += fmt::format(",compile@{}", k);
    out += ",pass@1_lo,pass@1_hi,speedup@1_lo,speedup@1_hi,geomean_speedup,geomean_speedup_lo,"
           "geomean_speedup_hi,fast_1,fast_1.5,fast_2,tokens_per_solved,verifications_per_solved,"
           "generations_per_solved,timing,kernel_timed_solved,kernel_speedup@1,kernel_geomean_speedup";
    for (const char* e : kEvidenceLevels) out += std::string(",evidence_") + e;
    out += ",rows_expected,rows_present,rows_missing,missing\n";
    constexpr size_t kEvidence = std::size(kEvidenceLevels);
    for (const auto& g : groups) {
      if (!g.has_rows()) {  // planned, nothing stored yet: coverage only
        out += fmt::format("{},{},{},{},all,0,0,0,0,0,0", g.suite, g.method, g.model, g.config_hash) +
               std::string(3 * ks.size() + 17 + kEvidence, ',') + CoverageFields(g.coverage) + "\n";
        continue;
      }
      out += Line(g, "all", g.overall, ks) + CoverageFields(g.coverage) + "\n";
      for (const auto& t : TierOrder(g)) out += Line(g, t, g.by_tier.at(t), ks) + ",,,,\n";
    }
    return out;
  }

 private:
  // ",expected,present,missing count,\"missing list\"" (empty expected and
  // missing fields when the expected set is unknown).
  static std::string CoverageFields(const Coverage& c) {
    if (!c.known()) return fmt::format(",,{},,", c.present);
    return fmt::format(",{},{},{},\"{}\"", c.expected, c.present, c.missing.size(),
                       FormatMissing(c.missing, c.missing.size()));
  }
  std::string Line(const GroupMetrics& g, const std::string& tier, const MetricSet& m,
                   const std::vector<int>& ks) const {
    // Speed figures are empty, not 0, where no correct sample was timed.
    const bool timed = m.timed_solved > 0;
    auto speed = [&](double v) { return timed ? fmt::format(",{:.6f}", v) : std::string(","); };
    std::string l = fmt::format("{},{},{},{},{},{},{},{},{},{},{}", g.suite, g.method, g.model, g.config_hash, tier,
                                m.problems, m.samples, m.solved, m.unverified, m.untimed, m.timed_solved);
    for (int k : ks) l += fmt::format(",{:.6f}", m.pass_at.at(k));
    for (int k : ks) l += speed(m.speedup_at.at(k));
    for (int k : ks) l += fmt::format(",{:.6f}", m.compile_at.at(k));
    l += fmt::format(",{:.6f},{:.6f}", m.pass_at_1_ci.lo, m.pass_at_1_ci.hi);
    // fast_p is 0 where nothing was correct, unknown where correct samples went untimed.
    const bool fast_known = timed || m.untimed == 0;
    auto fast = [&](const char* p) { return fast_known ? fmt::format(",{:.6f}", m.fast.at(p)) : std::string(","); };
    l += speed(m.speedup_at_1_ci.lo) + speed(m.speedup_at_1_ci.hi) + speed(m.geomean_speedup) +
         speed(m.geomean_ci.lo) + speed(m.geomean_ci.hi) + fast("1") + fast("1.5") + fast("2");
    l += fmt::format(",{:.3f},{:.3f},{:.3f}", m.tokens_per_solved, m.verifications_per_solved,
                     m.generations_per_solved);
    // Kernel-only figures beside the call's: empty where none was measured.
    const bool k = m.kernel_timed_solved > 0;
    l += fmt::format(",{},{}", kernel_ ? "kernel" : "call", m.kernel_timed_solved);
    l += k ? fmt::format(",{:.6f},{:.6f}", m.kernel_speedup_at_1, m.kernel_geomean_speedup) : std::string(",,");
    for (const char* e : kEvidenceLevels) l += fmt::format(",{}", m.evidence.count(e) ? m.evidence.at(e) : 0);
    return l;
  }

  bool kernel_;
};

OrderedJson SetJson(const MetricSet& m, bool kernel_mode) {
  OrderedJson j;
  j["problems"] = m.problems;
  j["samples"] = m.samples;
  j["solved"] = m.solved;
  j["unverified"] = m.unverified;
  j["untimed"] = m.untimed;
  j["unsandboxed"] = m.unsandboxed;
  j["timed_solved"] = m.timed_solved;
  // Speed figures are null where no correct sample was timed.
  const bool timed = m.timed_solved > 0;
  auto speed = [&](double v) { return timed ? OrderedJson(v) : OrderedJson(nullptr); };
  for (const auto& [k, v] : m.pass_at) j["pass@" + std::to_string(k)] = v;
  for (const auto& [k, v] : m.speedup_at) j["speedup@" + std::to_string(k)] = speed(v);
  for (const auto& [k, v] : m.compile_at) j["compile@" + std::to_string(k)] = v;
  j["pass@1_ci"] = {m.pass_at_1_ci.lo, m.pass_at_1_ci.hi};
  j["speedup@1_ci"] = timed ? OrderedJson{m.speedup_at_1_ci.lo, m.speedup_at_1_ci.hi} : OrderedJson(nullptr);
  j["geomean_speedup"] = speed(m.geomean_speedup);
  j["geomean_ci"] = timed ? OrderedJson{m.geomean_ci.lo, m.geomean_ci.hi} : OrderedJson(nullptr);
  // What the speed figures above time, and the kernel-only ones beside them.
  j["timing"] = kernel_mode ? "kernel" : "call";
  const bool k = m.kernel_timed_solved > 0;
  OrderedJson kj;
  kj["timed_solved"] = m.kernel_timed_solved;
  kj["speedup@1"] = k ? OrderedJson(m.kernel_speedup_at_1) : OrderedJson(nullptr);
  kj["geomean_speedup"] = k ? OrderedJson(m.kernel_geomean_speedup) : OrderedJson(nullptr);
  j["kernel"] = kj;
  for (const auto& [p, v] : m.fast) j["fast_" + p] = timed || m.untimed == 0 ? OrderedJson(v) : OrderedJson(nullptr);
  OrderedJson ev = OrderedJson::object();
  for (const char* e : kEvidenceLevels) ev[e] = m.evidence.count(e) ? m.evidence.at(e) : 0;
  j["evidence"] = ev;
  j["tokens_per_solved"] = m.tokens_per_solved;
  j["verifications_per_solved"] = m.verifications_per_solved;
  j["generations_per_solved"] = m.generations_per_solved;
  OrderedJson held;
  held["runs"] = m.heldout_runs;
  held["stayed_correct"] = m.heldout_kept;
  held["timed_pairs"] = m.heldout_timed_pairs;
  const bool pairs = m.heldout_timed_pairs > 0;
  held["search_geomean"] = pairs ? OrderedJson(m.search_geomean_paired) : OrderedJson(nullptr);
  held["heldout_geomean"] = pairs ? OrderedJson(m.heldout_geomean_paired) : OrderedJson(nullptr);
  j["heldout"] = held;
  return j;
}

OrderedJson CoverageJson(const Coverage& c) {
  OrderedJson j;
  j["expected_from"] = c.known() ? OrderedJson(c.expected_from) : OrderedJson(nullptr);
  j["problems_expected"] = c.known() ? OrderedJson(c.problems_expected) : OrderedJson(nullptr);
  j["samples_expected"] = c.known() ? OrderedJson(c.samples_expected) : OrderedJson(nullptr);
  j["rows_expected"] = c.known() ? OrderedJson(c.expected) : OrderedJson(nullptr);
  j["rows_present"] = c.present;
  j["problems_present"] = c.problems_present;
  j["rows_outside"] = c.outside;
  j["complete"] = c.known() ? OrderedJson(c.complete()) : OrderedJson(nullptr);
  OrderedJson missing = OrderedJson::array();
  for (const auto& m : c.missing) missing.push_back({{"problem", m.problem}, {"sample", m.sample}});
  j["missing"] = c.known() ? missing : OrderedJson(nullptr);
  return j;
}

class JsonPrinter final : public ReportPrinter {
 public:
  explicit JsonPrinter(bool kernel) : kernel_(kernel) {}
  std::string Print(const std::vector<GroupMetrics>& groups, const std::vector<int>&) override {
    OrderedJson arr = OrderedJson::array();
    for (const auto& g : groups) {
      OrderedJson j = {{"suite", g.suite}, {"method", g.method}, {"model", g.model}, {"config_hash", g.config_hash}};
      auto cfg = ParseJson(g.config_json.empty() ? "{}" : g.config_json, "config");
      j["config"] = cfg.ok() ? OrderedJson::parse(cfg->dump()) : OrderedJson::object();
      j["overall"] = g.has_rows() ? SetJson(g.overall, kernel_) : OrderedJson(nullptr);
      OrderedJson tiers = OrderedJson::object();
      for (const auto& t : TierOrder(g)) tiers[t] = SetJson(g.by_tier.at(t), kernel_);
      j["tiers"] = tiers;
      j["coverage"] = CoverageJson(g.coverage);
      arr.push_back(j);
    }
    return DumpJson(arr);
  }

 private:
  bool kernel_;
};

}  // namespace

int MethodRank(const std::string& m) {
  static const char* kOrder[] = {"standard", "cot", "rag", "regrapht", "best-of-n", "rethink-mcts",
                                 "mcts-rag", "regrapht-mcgs", "reference"};
  for (int i = 0; i < static_cast<int>(std::size(kOrder)); ++i) {
    if (m == kOrder[i]) return i;
  }
  return 100;
}

std::vector<std::string> OrderTiers(std::set<std::string> names) {
  std::vector<std::string> out;
  for (const char* t : kTiers) {
    if (names.erase(t)) out.push_back(t);
  }
  out.insert(out.end(), names.begin(), names.end());
  return out;
}

void SortForDisplay(std::vector<GroupMetrics>* groups) {
  std::stable_sort(groups->begin(), groups->end(), [](const GroupMetrics& a, const GroupMetrics& b) {
    if (a.suite != b.suite) return a.suite < b.suite;
    if (MethodRank(a.method) != MethodRank(b.method)) return MethodRank(a.method) < MethodRank(b.method);
    if (a.method != b.method) return a.method < b.method;
    return a.model < b.model;
  });
}

std::unique_ptr<ReportPrinter> NewReportPrinter(const std::string& format, const std::string& timing) {
  const bool kernel = timing == "kernel";
  if (format == "md") return std::make_unique<MarkdownPrinter>(kernel);
  if (format == "csv") return std::make_unique<CsvPrinter>(kernel);
  if (format == "json") return std::make_unique<JsonPrinter>(kernel);
  return nullptr;
}

}  // namespace regrapht::bench
