// The per-problem view of a results database (report --per-problem).
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "bench/report.h"
#include "core/json_util.h"

namespace regrapht::bench {
namespace {

std::string Speed(const std::optional<double>& v, const char* none) {
  return v ? fmt::format("{:.2f}x", *v) : std::string(none);
}

std::string Counts(const std::map<std::string, int>& m) {
  std::string s;
  for (const auto& [k, n] : m) s += (s.empty() ? "" : ", ") + fmt::format("{} {}", k, n);
  return s;
}

std::string EvidenceCounts(const std::map<std::string, int>& m) {
  std::string s;
  for (const char* e : kEvidenceLevels) {
    if (m.count(e)) s += (s.empty() ? "" : ", ") + fmt::format("{} {}", e, m.at(e));
  }
  return s;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Markdown(const std::vector<ProblemSummary>& problems) {
  std::string out =
      "| suite | problem | tier | method | model | samples | verdict | correct | best speedup | "
      "evidence of best | "
      "mean speedup | verdicts | evidence "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& p : problems) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                       p.suite, p.problem, p.tier.empty() ? "-" : p.tier, p.method,
                       p.model.empty() ? "-" : p.model, p.samples, p.verdict, p.correct,
                       Speed(p.best_speedup, "-"), p.best_evidence.empty() ? "-" : p.best_evidence,
                       Speed(p.mean_speedup, "-"), Counts(p.verdicts), EvidenceCounts(p.evidence));
  }
  return out;
}

std::string Csv(const std::vector<ProblemSummary>& problems) {
  std::string out =
      "suite,method,model,config_hash,problem,tier,samples,verdict,correct,timed,best_speedup,best_"
      "evidence,"
      "best_sample,mean_speedup,reference_ms,best_ms";
  for (const char* e : kEvidenceLevels) out += std::string(",evidence_") + e;
  out += ",verdicts\n";
  auto num = [](const std::optional<double>& v) {
    return v ? fmt::format("{:.6f}", *v) : std::string();
  };
  for (const auto& p : problems) {
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", CsvField(p.suite), CsvField(p.method),
        CsvField(p.model), p.config_hash, CsvField(p.problem), CsvField(p.tier), p.samples,
        p.verdict, p.correct, p.timed, num(p.best_speedup), p.best_evidence,
        p.best_sample >= 0 ? std::to_string(p.best_sample) : std::string(), num(p.mean_speedup),
        p.reference_ms > 0 ? fmt::format("{:.6f}", p.reference_ms) : std::string(), num(p.best_ms));
    for (const char* e : kEvidenceLevels)
      out += fmt::format(",{}", p.evidence.count(e) ? p.evidence.at(e) : 0);
    std::string v;
    for (const auto& [k, n] : p.verdicts) v += (v.empty() ? "" : " ") + fmt::format("{}={}", k, n);
    out += "," + CsvField(v) + "\n";
  }
  return out;
}

std::string JsonText(const std::vector<ProblemSummary>& problems) {
  OrderedJson arr = OrderedJson::array();
  auto num = [](const std::optional<double>& v) {
    return v ? OrderedJson(*v) : OrderedJson(nullptr);
  };
  for (const auto& p : problems) {
    OrderedJson j = {{"suite", p.suite},     {"method", p.method},
                     {"model", p.model},     {"config_hash", p.config_hash},
                     {"problem", p.problem}, {"tier", p.tier},
                     {"samples", p.samples}, {"verdict", p.verdict},
                     {"correct", p.correct}, {"timed", p.timed}};
    j["best_speedup"] = num(p.best_speedup);
    j["best_evidence"] =
        p.best_evidence.empty() ? OrderedJson(nullptr) : OrderedJson(p.best_evidence);
    j["best_sample"] = p.best_sample >= 0 ? OrderedJson(p.best_sample) : OrderedJson(nullptr);
    j["mean_speedup"] = num(p.mean_speedup);
    j["reference_ms"] = p.reference_ms > 0 ? OrderedJson(p.reference_ms) : OrderedJson(nullptr);
    j["best_ms"] = num(p.best_ms);
    OrderedJson v = OrderedJson::object();
    for (const auto& [k, n] : p.verdicts) v[k] = n;
    j["verdicts"] = v;
    OrderedJson ev = OrderedJson::object();
    for (const char* e : kEvidenceLevels) ev[e] = p.evidence.count(e) ? p.evidence.at(e) : 0;
    j["evidence"] = ev;
    arr.push_back(j);
  }
  return DumpJson(arr);
}

}  // namespace

std::vector<ProblemSummary> SummarizeProblems(const std::vector<ResultRow>& rows) {
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, ProblemSummary> by_key;
  std::map<Key, double> speed_sum;
  for (const auto& r : rows) {
    Key key{r.key.suite, r.key.problem, r.key.method, r.key.model, r.key.config_hash};
    ProblemSummary& p = by_key[key];
    if (p.samples == 0) {
      p.suite = r.key.suite;
      p.method = r.key.method;
      p.model = r.key.model;
      p.config_hash = r.key.config_hash;
      p.problem = r.key.problem;
      p.tier = r.tier;
    }
    ++p.samples;
    ++p.verdicts[r.verdict];
    const std::string evidence = EvidenceOf(r);
    ++p.evidence[evidence];
    if (r.reference_ms > 0 && (p.reference_ms == 0 || r.reference_ms < p.reference_ms))
      p.reference_ms = r.reference_ms;
    if (r.verdict != "correct") continue;
    ++p.correct;
    if (r.speedup > 0) {
      ++p.timed;
      speed_sum[key] += r.speedup;
      if (!p.best_speedup || r.speedup > *p.best_speedup) {
        p.best_speedup = r.speedup;
        p.best_ms = r.candidate_ms > 0 ? std::optional<double>(r.candidate_ms) : std::nullopt;
        p.best_sample = r.key.sample;
        p.best_evidence = evidence;
      }
    } else if (p.best_sample < 0) {
      p.best_sample = r.key.sample;
      p.best_evidence = evidence;
    }
  }
  std::vector<ProblemSummary> out;
  for (auto& [key, p] : by_key) {
    if (p.timed > 0) p.mean_speedup = speed_sum[key] / p.timed;
    if (p.correct > 0) {
      p.verdict = "solved";
    } else {
      int most = 0;
      for (const auto& [v, n] : p.verdicts) {
        if (n > most) {
          most = n;
          p.verdict = v;
        }
      }
    }
    out.push_back(std::move(p));
  }
  std::stable_sort(out.begin(), out.end(), [](const ProblemSummary& a, const ProblemSummary& b) {
    return std::make_tuple(a.suite, a.problem, MethodRank(a.method), a.method, a.model,
                           a.config_hash) < std::make_tuple(b.suite, b.problem,
                                                            MethodRank(b.method), b.method, b.model,
                                                            b.config_hash);
  });
  return out;
}

std::string PrintPerProblem(const std::vector<ProblemSummary>& problems,
                            const std::string& format) {
  if (format == "csv") return Csv(problems);
  if (format == "json") return JsonText(problems);
  return Markdown(problems);
}

}  // namespace regrapht::bench
