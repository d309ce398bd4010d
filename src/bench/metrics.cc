#include "bench/metrics.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/json_util.h"
#include "core/rng.h"
#include "regrapht/verify.h"

namespace regrapht::bench {
namespace {

// C(n, r) as a double; 0 when r > n.
double Choose(int n, int r) {
  if (r < 0 || n < r) return 0.0;
  double v = 1.0;
  for (int i = 1; i <= r; ++i) v = v * (n - r + i) / i;
  return v;
}

bool Compiled(const std::string& verdict) {
  return verdict != "compile_error" && verdict != "static_reject";
}

// Per-problem summary of its samples.
struct ProblemStats {
  std::string problem, tier;
  int n = 0, correct = 0, compiled = 0, unverified = 0, untimed = 0, unsandboxed = 0;
  std::map<std::string, int> evidence;
  int verified() const { return n - unverified; }
  std::vector<double> correct_ms;  // candidate medians of timed correct samples
  std::vector<double> speedups;    // of timed correct samples
  std::vector<double> kernel_ms;   // kernel medians of correct samples with a kernel figure
  double baseline_ms = 0;          // best reference median seen
  int64_t tokens = 0;
  int64_t verifications = 0;
  int64_t generations = 0;
  int heldout_runs = 0, heldout_kept = 0;
  std::vector<std::pair<double, double>> heldout_pairs;  // (search, held-out) speedups, both timed
};

struct Core {
  double pass1 = 0, speedup1 = 0, geomean = 0;
};

MetricSet Compute(const std::vector<const ProblemStats*>& ps, const MetricsOptions& o, bool with_ci);

Core CoreOf(const std::vector<const ProblemStats*>& ps) {
  MetricsOptions o;
  o.ks = {1};
  MetricSet m = Compute(ps, o, false);
  return {m.pass_at[1], m.speedup_at[1], m.geomean_speedup};
}

// The 95% bootstrap intervals of pass@1, speedup@1 and the geometric mean
// (o.bootstrap resamples of the problems, seeded by o.seed).
void AddBootstrapIntervals(const std::vector<const ProblemStats*>& ps, const MetricsOptions& o, MetricSet* out) {
  MetricSet& m = *out;
  Rng rng(o.seed);
  std::vector<double> a, b, c;
  std::vector<const ProblemStats*> sample(ps.size());
  for (int i = 0; i < o.bootstrap; ++i) {
    for (auto& s : sample) s = ps[rng.Below(ps.size())];
    Core core = CoreOf(sample);
    a.push_back(core.pass1);
    b.push_back(core.speedup1);
    c.push_back(core.geomean);
  }
  auto ci = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))]; };
    return Interval{at(0.025), at(0.975)};
  };
  m.pass_at_1_ci = ci(a);
  m.speedup_at_1_ci = ci(b);
  m.geomean_ci = ci(c);
}

MetricSet Compute(const std::vector<const ProblemStats*>& ps, const MetricsOptions& o, bool with_ci) {
  MetricSet m;
  m.problems = static_cast<int>(ps.size());
  if (ps.empty()) return m;
  int64_t tokens = 0, verifs = 0, gens = 0;
  double log_sum = 0, kernel_log_sum = 0, kernel_sum = 0;
  double search_log_sum = 0, heldout_log_sum = 0;  // over held-out pairs
  std::map<std::string, double> fast_sum = {{"1", 0}, {"1.5", 0}, {"2", 0}};
  for (const auto* p : ps) {
    m.samples += p->n;
    m.unverified += p->unverified;
    m.unsandboxed += p->unsandboxed;
    m.untimed += p->untimed;
    tokens += p->tokens;
    verifs += p->verifications;
    gens += p->generations;
    for (const auto& [level, count] : p->evidence) m.evidence[level] += count;
    m.heldout_runs += p->heldout_runs;
    m.heldout_kept += p->heldout_kept;
    for (const auto& [search, held] : p->heldout_pairs) {
      ++m.heldout_timed_pairs;
      search_log_sum += std::log(search);
      heldout_log_sum += std::log(held);
    }
    if (p->correct > 0) ++m.solved;
    if (p->verified() > 0) ++m.verified_problems;
    if (!p->correct_ms.empty()) {
      ++m.timed_solved;
      log_sum += std::log(std::max(SpeedupAtK(p->correct_ms, p->baseline_ms, 1), 1e-12));
    }
    if (!p->kernel_ms.empty() && p->baseline_ms > 0) {
      ++m.kernel_timed_solved;
      double k1 = SpeedupAtK(p->kernel_ms, p->baseline_ms, 1);
      kernel_sum += k1;
      kernel_log_sum += std::log(std::max(k1, 1e-12));
    }
    for (auto& [name, sum] : fast_sum) {
      double thr = std::stod(name);
      int fast = 0;
      for (double s : p->speedups) fast += s > thr;
      if (p->verified() > 0) sum += static_cast<double>(fast) / p->verified();
    }
  }
  const int verified = std::max(1, m.verified_problems);
  for (int k : o.ks) {
    double pass = 0, comp = 0, spd = 0;
    for (const auto* p : ps) {
      if (p->verified() > 0) pass += PassAtK(p->verified(), p->correct, k);
      comp += PassAtK(p->n, p->compiled, k);
      if (!p->correct_ms.empty()) spd += SpeedupAtK(p->correct_ms, p->baseline_ms, k);
    }
    m.pass_at[k] = pass / verified;
    m.compile_at[k] = comp / m.problems;
    m.speedup_at[k] = m.timed_solved ? spd / m.timed_solved : 0;
  }
  m.geomean_speedup = m.timed_solved ? std::exp(log_sum / m.timed_solved) : 0;
  if (m.kernel_timed_solved > 0) {
    m.kernel_speedup_at_1 = kernel_sum / m.kernel_timed_solved;
    m.kernel_geomean_speedup = std::exp(kernel_log_sum / m.kernel_timed_solved);
  }
  if (m.heldout_timed_pairs > 0) {
    m.search_geomean_paired = std::exp(search_log_sum / m.heldout_timed_pairs);
    m.heldout_geomean_paired = std::exp(heldout_log_sum / m.heldout_timed_pairs);
  }
  for (auto& [name, sum] : fast_sum) m.fast[name] = sum / verified;
  if (m.solved) {
    m.tokens_per_solved = static_cast<double>(tokens) / m.solved;
    m.verifications_per_solved = static_cast<double>(verifs) / m.solved;
    m.generations_per_solved = static_cast<double>(gens) / m.solved;
  }
  if (with_ci && o.bootstrap > 0) AddBootstrapIntervals(ps, o, &m);
  return m;
}

}  // namespace

// The row as far as the evidence rule needs it, judged by EvidenceLevel (one
// rule for results and stored rows).
std::string EvidenceOf(const ResultRow& r) {
  VerifyResult v;
  v.verdict = ParseVerdict(r.verdict).value_or(Verdict::kRuntimeError);
  if (r.verdict == "correct" && r.speedup > 0) v.candidate_timing = Timing{};
  if (auto env = ParseJson(r.env_json.empty() ? "{}" : r.env_json, "env"); env.ok() && env->is_object()) {
    v.env.gpu_name = env->value("gpu_name", std::string());
  }
  v.emulated = v.env.gpu_name == kEmulatorGpuName;
  if (auto res = ParseJson(r.result_json.empty() ? "{}" : r.result_json, "result"); res.ok() && res->is_object()) {
    v.emulated = v.emulated || res->value("emulated", false);
    if (res->contains("cross_checks") && (*res)["cross_checks"].is_array()) {
      for (const auto& c : (*res)["cross_checks"]) {
        if (c.is_string()) v.cross_checks.push_back(c.get<std::string>());
      }
    }
  }
  return std::string(EvidenceLevel(v));
}

std::optional<KernelFigure> KernelFigureOf(const ResultRow& r) {
  if (r.verdict != "correct" || r.result_json.find("kernel_timing") == std::string::npos) return std::nullopt;
  auto res = ParseJson(r.result_json, "result");
  if (!res.ok() || !res->is_object() || !res->contains("kernel_timing")) return std::nullopt;
  const auto& k = (*res)["kernel_timing"];
  if (!k.is_object() || !k.contains("median_ms") || !k["median_ms"].is_number()) return std::nullopt;
  KernelFigure f;
  f.ms = k["median_ms"].get<double>();
  f.speedup = res->value("kernel_speedup", 0.0);
  if (!(f.ms > 0) || !(f.speedup > 0)) return std::nullopt;
  return f;
}

double PassAtK(int n, int c, int k) {
  if (n <= 0) return 0;
  if (n < k) return c > 0 ? 1.0 : 0.0;  // fewer samples than k: did any pass
  if (n - c < k) return 1.0;
  double prod = 1.0;
  for (int i = n - c + 1; i <= n; ++i) prod *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - prod;
}

double SpeedupAtK(std::vector<double> runtimes_ms, double baseline_ms, int k) {
  int n = static_cast<int>(runtimes_ms.size());
  if (n == 0) return 0;
  if (k > n) k = n;  // fewer correct samples than k: the best of them
  // Slowest first, so that C(j-1, k-1) / C(n, k) is the probability that the
  // j-th is the fastest of k samples drawn without replacement.
  std::sort(runtimes_ms.begin(), runtimes_ms.end(), std::greater<double>());
  double sum = 0;
  for (int j = 1; j <= n; ++j) {
    sum += Choose(j - 1, k - 1) / Choose(n, k) * baseline_ms / std::max(runtimes_ms[j - 1], 1e-8);
  }
  return sum;
}

std::vector<GroupMetrics> ComputeMetrics(const std::vector<ResultRow>& rows, const MetricsOptions& o) {
  using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<GroupKey, std::map<std::string, ProblemStats>> groups;
  std::map<GroupKey, std::string> configs;
  const bool kernel_mode = o.timing == "kernel";
  for (const auto& row : rows) {
    // --timing kernel: every speed figure is the kernel's (ParEval's measure).
    ResultRow kernel_row;
    const std::optional<KernelFigure> kf = KernelFigureOf(row);
    if (kernel_mode) {
      kernel_row = row;
      kernel_row.speedup = kf ? kf->speedup : 0;
      kernel_row.candidate_ms = kf ? kf->ms : 0;
      kernel_row.search_speedup.reset();
    }
    const ResultRow& r = kernel_mode ? kernel_row : row;
    GroupKey g{r.key.suite, r.key.method, r.key.model, r.key.config_hash};
    configs[g] = r.config_json;
    ProblemStats& p = groups[g][r.key.problem];
    p.problem = r.key.problem;
    p.tier = r.tier;
    ++p.n;
    if (r.verdict == "correct" && !(r.speedup > 0)) {
      ++p.correct;  // correct, speed not measured (--no-timing, --emulate)
      ++p.untimed;
    } else if (r.verdict == "correct") {
      ++p.correct;
      p.correct_ms.push_back(r.candidate_ms);
      p.speedups.push_back(r.speedup);
      if (kf) p.kernel_ms.push_back(kf->ms);
      if (r.reference_ms > 0 && (p.baseline_ms == 0 || r.reference_ms < p.baseline_ms)) {
        p.baseline_ms = r.reference_ms;
      }
    }
    if (Compiled(r.verdict)) ++p.compiled;
    if (r.verdict == "compiled_only" || r.verdict == "not_emulated") ++p.unverified;
    if (r.env_json.find("UNSANDBOXED") != std::string::npos) ++p.unsandboxed;
    ++p.evidence[EvidenceOf(r)];
    p.tokens += r.tokens_prompt + r.tokens_generated;
    p.verifications += r.verifications;
    p.generations += r.generations;
    if (r.search_verdict) {
      ++p.heldout_runs;
      if (r.verdict == "correct") ++p.heldout_kept;
      if (r.verdict == "correct" && r.speedup > 0 && r.search_speedup && *r.search_speedup > 0) {
        p.heldout_pairs.emplace_back(*r.search_speedup, r.speedup);
      }
    }
  }
  std::vector<GroupMetrics> out;
  for (const auto& [g, problems] : groups) {
    GroupMetrics gm;
    std::tie(gm.suite, gm.method, gm.model, gm.config_hash) = g;
    gm.config_json = configs[g];
    std::vector<const ProblemStats*> all;
    std::map<std::string, std::vector<const ProblemStats*>> tiers;
    for (const auto& [name, p] : problems) {
      all.push_back(&p);
      if (!p.tier.empty()) tiers[p.tier].push_back(&p);
    }
    gm.overall = Compute(all, o, true);
    for (const auto& [tier, ps] : tiers) gm.by_tier[tier] = Compute(ps, o, true);
    out.push_back(std::move(gm));
  }
  return out;
}

}  // namespace regrapht::bench
