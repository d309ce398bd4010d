// `report --format html`: one self-contained page of a results database.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

#include "bench/coverage.h"
#include "bench/report.h"
#include "core/html.h"
#include "core/json_util.h"
#include "core/strings.h"

namespace regrapht::bench {
namespace {

using Html = std::string;

// "1 row", "3 rows".
std::string N(int64_t n, const char* noun) { return regrapht::Plural(n, noun); }

std::string Slug(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

Html CiFraction(const Interval& i) {
  return fmt::format(" <span class=\"ci\">[{:.3f}, {:.3f}]</span>", i.lo, i.hi);
}
Html CiX(const Interval& i) {
  return fmt::format(" <span class=\"ci\">[{:.2f}, {:.2f}]</span>", i.lo, i.hi);
}
Html Td(const std::string& text) { return "<td>" + HtmlEscape(text) + "</td>"; }
Html TdNum(const std::string& text) { return "<td class=\"num\">" + text + "</td>"; }
Html Th(const std::string& text) { return "<th>" + HtmlEscape(text) + "</th>"; }
const char* kNone = "<span class=\"muted\">&ndash;</span>";

std::string ModelName(const std::string& m) { return m.empty() ? "-" : m; }

// "budget 10, 0123abcd": what tells configs of one method apart.
std::string ConfigLabel(const std::string& config_json, const std::string& hash) {
  std::string label = hash.substr(0, 8);
  auto cfg = ParseJson(config_json.empty() ? "{}" : config_json, "config");
  if (cfg.ok() && cfg->is_object() && cfg->contains("budget") && (*cfg)["budget"].is_number()) {
    label = fmt::format("budget {}, {}", (*cfg)["budget"].dump(), label);
  }
  return label;
}

std::optional<double> Budget(const std::string& config_json) {
  auto cfg = ParseJson(config_json.empty() ? "{}" : config_json, "config");
  if (cfg.ok() && cfg->is_object() && cfg->contains("budget") && (*cfg)["budget"].is_number()) {
    return (*cfg)["budget"].get<double>();
  }
  return std::nullopt;
}

Html EvidenceHtml(const std::map<std::string, int>& ev) {
  Html s;
  for (const char* e : kEvidenceLevels) {
    if (!ev.count(e) || ev.at(e) == 0) continue;
    s += fmt::format("{}<span class=\"ev-{}\">{} {}</span>", s.empty() ? "" : ", ", e, e, ev.at(e));
  }
  return s.empty() ? kNone : s;
}

Html VerdictHtml(const std::string& v) {
  const char* cls = v == "correct" || v == "solved"               ? "v-correct"
                    : v == "compiled_only" || v == "not_emulated" ? "v-other"
                                                                  : "v-fail";
  return fmt::format("<span class=\"{}\">{}</span>", cls, HtmlEscape(v));
}

Html GroupLabelCells(const GroupMetrics& g, bool show_config) {
  Html s = Td(g.method) + Td(ModelName(g.model));
  if (show_config) s += Td(ConfigLabel(g.config_json, g.config_hash));
  return s;
}

bool SeveralConfigs(const std::vector<const GroupMetrics*>& gs) {
  std::set<std::tuple<std::string, std::string>> seen;
  for (const auto* g : gs) {
    if (!seen.insert({g->method, g->model}).second) return true;
  }
  return false;
}

Html MetricsTable(const std::string& suite, const std::vector<const GroupMetrics*>& gs,
                  const std::vector<int>& ks, bool kernel_mode) {
  const bool cfg = SeveralConfigs(gs);
  const std::string what = kernel_mode ? " (kernel)" : " (call)";
  Html h = fmt::format("<table class=\"metrics\" id=\"metrics-{}\">\n<thead><tr>", Slug(suite));
  h += Th("method") + Th("model") + (cfg ? Th("config") : "") + Th("problems") + Th("samples") +
       Th("solved");
  for (int k : ks) h += Th(fmt::format("pass@{} (0-1)", k)) + (k == 1 ? Th("pass@1 95% CI") : "");
  for (int k : ks)
    h += Th(fmt::format("speedup@{}{}", k, what)) + (k == 1 ? Th("speedup@1 95% CI") : "");
  h += Th("geomean_speedup" + what) + Th("geomean_speedup 95% CI");
  if (!kernel_mode) h += Th("speedup@1 (kernel)") + Th("geomean_speedup (kernel)");
  h += Th("fast_1 (0-1)") + Th("fast_1.5 (0-1)") + Th("fast_2 (0-1)") + Th("compile@1 (0-1)") + Th("tokens/solved") +
       Th("verifications/solved") + Th("evidence");
  h += "</tr></thead>\n<tbody>\n";
  for (const auto* g : gs) {
    if (!g->has_rows()) continue;
    const MetricSet& m = g->overall;
    const bool timed = m.timed_solved > 0;
    h += "<tr>" + GroupLabelCells(*g, cfg) + TdNum(std::to_string(m.problems)) +
         TdNum(std::to_string(m.samples)) + TdNum(std::to_string(m.solved));
    for (int k : ks) {
      h += TdNum(FormatFraction(m.pass_at.at(k)));
      if (k == 1) h += TdNum(CiFraction(m.pass_at_1_ci));
    }
    for (int k : ks) {
      h += TdNum(timed ? FormatSpeedup(m.speedup_at.at(k)) : kNone);
      if (k == 1) h += TdNum(timed ? CiX(m.speedup_at_1_ci) : kNone);
    }
    const bool fast_known = timed || m.untimed == 0;
    h += TdNum(timed ? FormatSpeedup(m.geomean_speedup) : kNone) +
         TdNum(timed ? CiX(m.geomean_ci) : kNone);
    if (!kernel_mode) {
      const bool k = m.kernel_timed_solved > 0;  // absent, never a zero speedup
      h += TdNum(k ? FormatSpeedup(m.kernel_speedup_at_1) : kNone) +
           TdNum(k ? FormatSpeedup(m.kernel_geomean_speedup) : kNone);
    }
    for (const char* p : {"1", "1.5", "2"})
      h += TdNum(fast_known ? FormatFraction(m.fast.at(p)) : kNone);
    h += TdNum(FormatFraction(m.compile_at.at(1))) +
         TdNum(fmt::format("{:.0f}", m.tokens_per_solved)) +
         TdNum(fmt::format("{:.1f}", m.verifications_per_solved)) + "<td>" +
         EvidenceHtml(m.evidence) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

// What the speed columns time (the Markdown report's legend, in words).
Html TimingNote(bool kernel_mode) {
  return kernel_mode
             ? "Speed: <b>kernel</b> only (<code>--timing kernel</code>, ParEval's measure): the GPU "
               "time of the kernels (CUPTI inside the drop-in call, CUDA events in the kernel form) "
               "against the <code>-O3</code> sequential reference; correct samples without a kernel "
               "time count as untimed."
             : "Speed: <b>call</b> = the whole drop-in call, transfers included (the paper's contract; "
               "the kernel form's rows: its kernel); <b>kernel</b> = the GPU time of the kernels "
               "inside it (CUPTI), &ndash; where not measured; both against the <code>-O3</code> "
               "sequential reference.";
}

Html TierTable(const std::string& suite, const std::vector<const GroupMetrics*>& gs) {
  std::set<std::string> present;
  for (const auto* g : gs) {
    for (const auto& [t, m] : g->by_tier) present.insert(t);
  }
  if (present.empty()) return "";
  const std::vector<std::string> cols = OrderTiers(present);
  const bool cfg = SeveralConfigs(gs);
  Html h = fmt::format(
      "<p>Per tier or problem type: pass@1 (0-1) with its 95% CI, speedup@1 over the timed solved "
      "problems with its "
      "95% CI, solved of problems.</p>\n<table class=\"tiers\" id=\"tiers-{}\">\n<thead><tr>",
      Slug(suite));
  h += Th("method") + Th("model") + (cfg ? Th("config") : "");
  for (const auto& c : cols) h += Th(c + " pass@1 (0-1)") + Th(c + " speedup@1") + Th(c + " solved");
  h += "</tr></thead>\n<tbody>\n";
  for (const auto* g : gs) {
    if (!g->has_rows()) continue;
    h += "<tr>" + GroupLabelCells(*g, cfg);
    for (const auto& t : cols) {
      auto it = g->by_tier.find(t);
      if (it == g->by_tier.end()) {
        h += TdNum(kNone) + TdNum(kNone) + TdNum(kNone);
        continue;
      }
      const MetricSet& m = it->second;
      h += TdNum(FormatFraction(m.pass_at.at(1)) + CiFraction(m.pass_at_1_ci));
      h += TdNum(m.timed_solved ? FormatSpeedup(m.speedup_at.at(1)) + CiX(m.speedup_at_1_ci)
                                : kNone);
      h += TdNum(fmt::format("{}/{}", m.solved, m.problems));
    }
    h += "</tr>\n";
  }
  return h + "</tbody></table>\n";
}

Html CoverageList(const std::vector<const GroupMetrics*>& gs) {
  Html h = "<ul class=\"coverage\">\n";
  bool incomplete = false;
  for (const auto* g : gs) {
    const Coverage& c = g->coverage;
    h += "<li>" + HtmlEscape(g->method + " / " + ModelName(g->model)) + ": ";
    if (!c.known()) {
      h += fmt::format(
          "{} over {}; the expected set is unknown (no plan recorded): pass "
          "<code>--suite DIR</code> to list what is missing",
          N(c.present, "row"), N(c.problems_present, "problem"));
      incomplete = true;
    } else if (c.complete()) {
      h += fmt::format("all {} present ({} x {}, expected from {})", N(c.expected, "row"),
                       N(c.problems_expected, "problem"), N(c.samples_expected, "sample"),
                       c.expected_from == "suite" ? "the suite" : "the plan");
    } else {
      incomplete = true;
      h += fmt::format(
          "<strong>{} of {} present</strong> ({} x {}, expected from {}); "
          "missing "
          "{}: {}",
          c.present, N(c.expected, "row"), N(c.problems_expected, "problem"), N(c.samples_expected, "sample"),
          c.expected_from == "suite" ? "the suite" : "the plan", c.missing.size(),
          HtmlEscape(FormatMissing(c.missing)));
    }
    if (c.outside > 0) h += fmt::format("; {} outside the expected set", N(c.outside, "row"));
    h += "</li>\n";
  }
  h += "</ul>\n";
  if (incomplete) {
    h = "<p class=\"warn\">This suite's results are incomplete or their expected set is unknown: "
        "figures cover the "
        "rows present only.</p>\n" +
        h;
  }
  return h;
}

Html SpeedupFigure(const std::string& suite, const std::vector<const GroupMetrics*>& gs,
                   const std::vector<ResultRow>& rows) {
  const bool cfg = SeveralConfigs(gs);
  std::vector<StripSeries> series;
  for (const auto* g : gs) {
    if (!g->has_rows()) continue;
    StripSeries s;
    s.label = g->method + (g->model.empty() ? "" : " / " + g->model);
    if (s.label.size() > 26) s.label = s.label.substr(0, 25) + "…";
    if (cfg) s.label += " (" + g->config_hash.substr(0, 6) + ")";
    for (const auto& r : rows) {
      if (r.key.suite == g->suite && r.key.method == g->method && r.key.model == g->model &&
          r.key.config_hash == g->config_hash && r.verdict == "correct" && r.speedup > 0) {
        s.values.push_back(r.speedup);
      }
    }
    series.push_back(std::move(s));
  }
  return fmt::format(
      "<figure class=\"speedups\" id=\"speedups-{}\">{}<figcaption>Speedup of every timed correct "
      "sample over the sequential reference (log scale; box: quartiles and median; line at 1x). "
      "Untimed and failed samples are not drawn.</figcaption></figure>\n",
      Slug(suite), SvgStripPlot(series, "speedup distribution, suite " + suite, "speedup (log2)"));
}

// pass@k and speedup@k against k (when several k were asked for) and against
// the search budget (when one method ran with several budgets).
Html CurveFigures(const std::string& suite, const std::vector<const GroupMetrics*>& gs,
                  const std::vector<int>& ks) {
  Html h;
  if (ks.size() > 1) {
    std::vector<LineSeries> pass, speed;
    for (const auto* g : gs) {
      if (!g->has_rows()) continue;
      LineSeries p{g->method + (g->model.empty() ? "" : " / " + g->model), {}}, s = p;
      for (int k : ks) {
        p.points.push_back({static_cast<double>(k), g->overall.pass_at.at(k)});
        if (g->overall.timed_solved)
          s.points.push_back({static_cast<double>(k), g->overall.speedup_at.at(k)});
      }
      pass.push_back(p);
      if (!s.points.empty()) speed.push_back(s);
    }
    h += fmt::format(
        "<figure class=\"pass-at-k\" id=\"pass-at-k-{}\">{}<figcaption>pass@k (0-1) against k."
        "</figcaption></figure>\n",
        Slug(suite), SvgLineChart(pass, "pass@k against k, suite " + suite, "k", "pass@k (0-1)"));
    if (!speed.empty()) {
      h += fmt::format(
          "<figure class=\"speedup-at-k\" id=\"speedup-at-k-{}\">{}<figcaption>speedup@k (expected "
          "best of k correct samples) against k.</figcaption></figure>\n",
          Slug(suite),
          SvgLineChart(speed, "speedup@k against k, suite " + suite, "k", "speedup@k"));
    }
  }
  // Budget curves: one line per method / model with two or more budgets.
  std::map<std::string, std::vector<std::pair<double, const GroupMetrics*>>> by_method;
  for (const auto* g : gs) {
    auto b = Budget(g->config_json);
    if (g->has_rows() && b)
      by_method[g->method + (g->model.empty() ? "" : " / " + g->model)].push_back({*b, g});
  }
  std::vector<LineSeries> pass, speed;
  for (auto& [label, pts] : by_method) {
    std::set<double> budgets;
    for (const auto& [b, g] : pts) budgets.insert(b);
    if (budgets.size() < 2) continue;
    std::sort(pts.begin(), pts.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    LineSeries p{label, {}}, s{label, {}};
    for (const auto& [b, g] : pts) {
      p.points.push_back({b, g->overall.pass_at.at(1)});
      if (g->overall.timed_solved) s.points.push_back({b, g->overall.speedup_at.at(1)});
    }
    pass.push_back(p);
    if (!s.points.empty()) speed.push_back(s);
  }
  if (!pass.empty()) {
    h += fmt::format(
        "<figure class=\"budget\" id=\"budget-pass-{}\">{}<figcaption>pass@1 (0-1) against the "
        "search "
        "budget (generations per sample).</figcaption></figure>\n",
        Slug(suite),
        SvgLineChart(pass, "pass@1 against budget, suite " + suite, "budget", "pass@1 (0-1)"));
  }
  if (!speed.empty()) {
    h += fmt::format(
        "<figure class=\"budget\" id=\"budget-speedup-{}\">{}<figcaption>speedup@1 against the "
        "search "
        "budget.</figcaption></figure>\n",
        Slug(suite),
        SvgLineChart(speed, "speedup@1 against budget, suite " + suite, "budget", "speedup@1"));
  }
  if (h.empty()) {
    h = "<p class=\"muted\">One k and one budget per method: no pass@k or budget curves (ask for "
        "more with "
        "<code>--k 1,5,10</code>, or run a method with several <code>--budget</code> "
        "values).</p>\n";
  }
  return h;
}

// The distinct candidates of one problem's samples, each in a <details>.
Html Sources(const std::vector<const ResultRow*>& samples) {
  std::map<std::string, std::vector<const ResultRow*>> by_source;  // source -> samples
  std::vector<std::string> order;
  for (const auto* r : samples) {
    if (r->candidate_source.empty()) continue;
    auto& v = by_source[r->candidate_source];
    if (v.empty()) order.push_back(r->candidate_source);
    v.push_back(r);
  }
  if (order.empty()) return "<span class=\"muted\">no source stored</span>";
  Html h;
  for (const auto& src : order) {
    const auto& rs = by_source[src];
    std::string which;
    for (const auto* r : rs) which += (which.empty() ? "#" : ", #") + std::to_string(r->key.sample);
    const ResultRow& r = *rs.front();
    std::string speed =
        r.verdict == "correct" && r.speedup > 0 ? fmt::format(" {:.2f}x", r.speedup) : "";
    h += fmt::format(
        "<details class=\"source\"><summary>sample {}: {}{} "
        "({})</summary><pre><code>{}</code></pre>"
        "</details>",
        which, VerdictHtml(r.verdict), speed, EvidenceOf(r), HtmlEscape(src));
  }
  return h;
}

Html ProblemTable(const std::string& suite, const std::vector<ResultRow>& rows) {
  std::vector<ResultRow> mine;
  for (const auto& r : rows) {
    if (r.key.suite == suite) mine.push_back(r);
  }
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<const ResultRow*>> samples;
  for (const auto& r : mine)
    samples[{r.key.problem, r.key.method, r.key.model, r.key.config_hash}].push_back(&r);
  Html h = fmt::format("<table class=\"problems\" id=\"problems-{}\">\n<thead><tr>", Slug(suite));
  h += Th("problem") + Th("tier") + Th("method") + Th("model") + Th("samples") + Th("verdict") +
       Th("correct") + Th("best speedup") + Th("mean speedup") + Th("reference ms") +
       Th("verdicts") + Th("evidence") + Th("candidates");
  h += "</tr></thead>\n<tbody>\n";
  for (const auto& p : SummarizeProblems(mine)) {
    std::string verdicts;
    for (const auto& [v, n] : p.verdicts)
      verdicts += (verdicts.empty() ? "" : ", ") + fmt::format("{} {}", v, n);
    h += "<tr>" + Td(p.problem) + Td(p.tier.empty() ? "-" : p.tier) + Td(p.method) +
         Td(ModelName(p.model)) + TdNum(std::to_string(p.samples)) + "<td>" +
         VerdictHtml(p.verdict) + "</td>" + TdNum(std::to_string(p.correct));
    h += TdNum(p.best_speedup  ? fmt::format("{} <span class=\"ev-{}\">({})</span>",
                                             FormatSpeedup(*p.best_speedup), p.best_evidence,
                                             p.best_evidence)
               : p.correct > 0 ? fmt::format("untimed <span class=\"ev-{}\">({})</span>",
                                             p.best_evidence, p.best_evidence)
                               : std::string(kNone));
    h += TdNum(p.mean_speedup ? FormatSpeedup(*p.mean_speedup) : kNone);
    h += TdNum(p.reference_ms > 0 ? fmt::format("{:.3f}", p.reference_ms) : kNone);
    h += Td(verdicts) + "<td>" + EvidenceHtml(p.evidence) + "</td>";
    h += "<td>" + Sources(samples[{p.problem, p.method, p.model, p.config_hash}]) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

// The machine an environment record describes: everything but the flags,
// which vary by problem and form.
const char* kMachineFields[] = {"gpu_name",
                                "gpu_cc",
                                "gpu_sms",
                                "gpu_l2_bytes",
                                "driver_version",
                                "cuda_runtime_version",
                                "cuda_toolkit_version",
                                "host_cpu",
                                "host_compiler",
                                "archs",
                                "sandbox",
                                "regrapht_version"};

Html EnvironmentSection(const std::vector<ResultRow>& rows) {
  struct Machine {
    Json env;
    int rows = 0;
    std::set<std::string> suites, methods;
    std::map<std::string, int> evidence;
  };
  std::map<std::string, Machine> machines;
  int unrecorded = 0;
  for (const auto& r : rows) {
    auto env = ParseJson(r.env_json.empty() ? "{}" : r.env_json, "env");
    if (!env.ok() || !env->is_object() || env->empty()) {
      ++unrecorded;
      continue;
    }
    Json key = Json::object();
    for (const char* f : kMachineFields) {
      if (env->contains(f)) key[f] = (*env)[f];
    }
    Machine& m = machines[key.dump()];
    m.env = key;
    ++m.rows;
    m.suites.insert(r.key.suite);
    m.methods.insert(r.key.method);
    ++m.evidence[EvidenceOf(r)];
  }
  Html h =
      "<section id=\"environment\">\n<h2>Environment</h2>\n<p>Every machine that produced rows, "
      "from each row's "
      "environment record (compiler and nvcc flags vary by problem and are left out).</p>\n";
  h += "<table class=\"environments\" id=\"environments\">\n<thead><tr>" + Th("#");
  for (const char* f : kMachineFields) h += Th(f);
  h += Th("rows") + Th("suites") + Th("methods") + Th("evidence") + "</tr></thead>\n<tbody>\n";
  int i = 0;
  for (const auto& [k, m] : machines) {
    h += "<tr>" + TdNum(std::to_string(++i));
    for (const char* f : kMachineFields) {
      if (!m.env.contains(f)) {
        h += "<td>" + std::string(kNone) + "</td>";
      } else {
        // A count of 0 (the emulator's gpu_sms and gpu_l2_bytes) was not measured: missing, not 0.
        const Json& v = m.env[f];
        std::string text = v.is_string() ? v.get<std::string>() : v.dump();
        const bool missing = text.empty() || (v.is_number() && v.get<double>() == 0);
        h += missing ? "<td>" + std::string(kNone) + "</td>" : Td(text);
      }
    }
    std::vector<std::string> suites(m.suites.begin(), m.suites.end()),
        methods(m.methods.begin(), m.methods.end());
    h += TdNum(std::to_string(m.rows)) + Td(Join(suites, ", ")) + Td(Join(methods, ", ")) + "<td>" +
         EvidenceHtml(m.evidence) + "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  if (unrecorded > 0)
    h += fmt::format("<p class=\"warn\">{} no environment record.</p>\n",
                     unrecorded == 1 ? std::string("1 row carries") : std::to_string(unrecorded) + " rows carry");
  return h + "</section>\n";
}

}  // namespace

std::string RenderHtmlReport(const HtmlReportInput& in) {
  std::vector<std::string> suites;
  for (const auto& g : in.groups) {
    if (std::find(suites.begin(), suites.end(), g.suite) == suites.end()) suites.push_back(g.suite);
  }
  Html body = "<h1>regrapht benchmark report</h1>\n";
  body +=
      fmt::format("<p>{}, {}, from {}.</p>\n", regrapht::Plural(static_cast<int64_t>(in.rows.size()), "row"),
                  regrapht::Plural(static_cast<int64_t>(in.groups.size()), "experiment"),
                  HtmlEscape(in.databases.empty() ? std::string("(no database named)")
                                                  : Join(in.databases, ", ")));
  int unverified = 0, untimed = 0, unsandboxed = 0;
  for (const auto& g : in.groups) {
    unverified += g.overall.unverified;
    untimed += g.overall.untimed;
    unsandboxed += g.overall.unsandboxed;
  }
  if (unverified > 0) {
    body += fmt::format(
        "<p class=\"warn\"><strong>Unverified:</strong> {} without a GPU "
        "(compiled-only): "
        "never checked or timed, they count as neither passes nor failures.</p>\n",
        unverified == 1 ? std::string("1 sample ran") : std::to_string(unverified) + " samples ran");
  }
  if (untimed > 0) {
    body += fmt::format(
        "<p class=\"warn\"><strong>Untimed:</strong> {} not timed "
        "(<code>--no-timing</code>, or the CPU emulator): speed figures cover timed samples "
        "only.</p>\n",
        untimed == 1 ? std::string("1 correct sample was") : std::to_string(untimed) + " correct samples were");
  }
  if (unsandboxed > 0) {
    body += fmt::format(
        "<p class=\"warn\"><strong>UNSANDBOXED:</strong> {} with "
        "<code>--unsafe-no-sandbox</code> (docs/trust.md).</p>\n",
        unsandboxed == 1 ? std::string("1 sample ran") : std::to_string(unsandboxed) + " samples ran");
  }
  body += "<nav><h2>Contents</h2><ul>\n";
  for (const auto& s : suites) {
    body += fmt::format("<li><a href=\"#suite-{}\">suite {}</a></li>\n", Slug(s), HtmlEscape(s));
  }
  body += "<li><a href=\"#environment\">environment</a></li>\n</ul></nav>\n";
  for (const auto& s : suites) {
    std::vector<const GroupMetrics*> gs;
    for (const auto& g : in.groups) {
      if (g.suite == s) gs.push_back(&g);
    }
    const std::string id = Slug(s);
    body +=
        fmt::format("<section class=\"suite\" id=\"suite-{}\">\n<h2>Suite <code>{}</code></h2>\n",
                    id, HtmlEscape(s));
    body +=
        "<h3>Methods x metrics</h3>\n<p>pass@k over verified samples; speed figures over timed "
        "correct samples "
        "(&ndash; where none was timed); 95% bootstrap intervals over problems. " +
        TimingNote(in.timing == "kernel") + "</p>\n" + MetricsTable(s, gs, in.ks, in.timing == "kernel");
    body += "<h3>Per tier</h3>\n" + TierTable(s, gs);
    body += "<h3>Coverage</h3>\n" + CoverageList(gs);
    body += "<h3>Speedup distributions</h3>\n" + SpeedupFigure(s, gs, in.rows);
    body += "<h3>pass@k and budget</h3>\n" + CurveFigures(s, gs, in.ks);
    body +=
        "<h3>Per problem</h3>\n<p>Verdict \"solved\" when a sample was correct; best speedup with "
        "the evidence "
        "behind it; each distinct candidate source in a collapsible block.</p>\n" +
        ProblemTable(s, in.rows);
    body += "</section>\n";
  }
  body += EnvironmentSection(in.rows);
  return HtmlPage("regrapht benchmark report", body);
}

}  // namespace regrapht::bench
