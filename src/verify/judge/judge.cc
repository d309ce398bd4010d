#include "verify/judge/judge.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/log.h"
#include "core/strings.h"
#include "verify/build/kernel_form.h"
#include "verify/judge/compare.h"

namespace regrapht::verify {
namespace {

// "5 test cases", or "5 test cases + 12 edge cases" (verify/edge_cases.h).
std::string CasesWords(const ProblemSpec& spec) {
  size_t edges = 0;
  for (const auto& t : spec.tests) edges += t.note.empty() ? 0 : 1;
  std::string s = std::to_string(spec.tests.size() - edges) + " test cases";
  if (edges) s += " + " + std::to_string(edges) + " edge cases";
  return s;
}

// When the chunk holding byte `end - 1` arrived (ms since the start).
double ArrivalOf(const std::vector<std::pair<size_t, double>>& arrivals, size_t end) {
  auto it = std::lower_bound(arrivals.begin(), arrivals.end(), end,
                             [](const std::pair<size_t, double>& a, size_t e) { return a.first < e; });
  return it == arrivals.end() ? -1 : it->second;
}

void Implausible(VerifyResult* res, const std::string& why) {
  res->verdict = Verdict::kImplausibleSpeed;
  res->detail = "implausible timing: " + why + "; no speedup is reported";
  res->speedup = 0;
  res->candidate_timing.reset();
  res->reference_timing.reset();
  res->kernel_timing.reset();
  res->kernel_speedup = 0;
}

// "and the timing-size input " (or "... scaled down for the emulator: n=.. of
// n=.. ") when it ran as a case, else nothing.
std::string TimingSizeWords(const JudgeOptions& opts, const std::string& note) {
  if (!opts.timing_size_case) return "";
  if (note.empty()) return "and the timing-size input ";
  return "and the timing-size input scaled down for the emulator (" + note + ") ";
}

}  // namespace

std::string DescribeCall(const DriverRecords& r) {
  if (!r.last_call) return "before the first call";
  auto parts = Split(*r.last_call, ' ');
  if (parts.size() == 2) return "in test case " + parts[0] + ", call " + parts[1];
  return "in " + *r.last_call;
}

// The last "regrapht CUDA emulator: ..." line of the program's error output.
std::string EmulatorReport(const std::string& err) {
  const std::string tag = "regrapht CUDA emulator: ";
  size_t at = err.rfind(tag);
  if (at == std::string::npos) return "";
  size_t end = err.find('\n', at);
  return err.substr(at + tag.size(), end == std::string::npos ? std::string::npos : end - at - tag.size());
}

namespace {

// The emulator's own report of a bounds error (exit 86) or a race (87).
bool ClassifyEmulatorExit(const RunFacts& f, VerifyResult* res) {
  const CommandResult& p = f.process;
  const DriverRecords* recs = f.records;
  if (!f.emulated || p.timed_out || p.term_signal != 0 || (p.exit_code != 86 && p.exit_code != 87))
    return false;
  std::string report = EmulatorReport(p.stderr_text);
  if (report.empty()) return false;
  res->verdict = p.exit_code == 87 ? Verdict::kRace : Verdict::kRuntimeError;
  res->detail = (p.exit_code == 87 ? "" : "in the CPU emulator: ") + report +
                (recs ? " (" + DescribeCall(*recs) + ")" : std::string());
  res->log = TruncateMiddle(p.stdout_text + p.stderr_text, 4000);
  return true;
}

// How the process ended: no GPU (sealed, first event, exit 3), the wall
// limit, a CUDA error, records without a run, a crash or unfinished records.
bool ClassifyProcessEnd(const RunFacts& f, VerifyResult* res) {
  const CommandResult& p = f.process;
  const DriverRecords* recs = f.records;
  std::string output = p.stdout_text + p.stderr_text;
  if (recs && recs->nogpu && recs->finished && p.term_signal == 0 && p.exit_code == 3) {
    auto parts = Split(*recs->nogpu, ' ');
    res->verdict = Verdict::kCompiledOnly;
    res->detail = "compiled for " + f.archs + "; no GPU here (" +
                  (parts.size() >= 2 ? parts[1] + ", CUDA error " + parts[0] : *recs->nogpu) +
                  "): correctness and speed NOT verified";
    return true;
  }
  if (p.timed_out) {
    res->verdict = Verdict::kTimeout;
    res->detail = "exceeded the run's wall limit of " + std::to_string(static_cast<int>(f.time_limit_s)) + " s " +
                  (recs ? DescribeCall(*recs) : std::string());
    res->log = TruncateMiddle(output, 4000);
    return true;
  }
  if (recs && recs->cuda_error) {
    res->verdict = Verdict::kRuntimeError;
    res->detail = "CUDA error after a call: " + *recs->cuda_error;
    res->log = TruncateMiddle(output, 4000);
    return true;
  }
  if (recs && (recs->nogpu || !recs->began) && recs->finished && p.ok()) {
    res->verdict = Verdict::kRuntimeError;
    res->detail = "the driver's records end without a run (no GPU reported with exit status " +
                  std::to_string(p.exit_code) + ")";
    return true;
  }
  if (!p.ok() || !recs || !recs->finished) {
    res->verdict = Verdict::kRuntimeError;
    res->detail = p.ok() ? "the program stopped before the driver finished" : p.Describe();
    if (recs) res->detail += " " + DescribeCall(*recs);
    if (!f.records_error.empty()) res->detail += " (" + f.records_error + ")";
    res->log = TruncateMiddle(output, 4000);
    return true;
  }
  return false;
}

// Events in finished records: host compute, outputs that changed after the
// call, timings longer than the process's wall time.
bool ClassifyRecordedEvents(const CommandResult& p, const DriverRecords& recs, VerifyResult* res) {
  if (recs.host_compute) {
    const std::string& h = *recs.host_compute;  // "case call output[i]"
    size_t s1 = h.find(' '), s2 = s1 == std::string::npos ? s1 : h.find(' ', s1 + 1);
    res->verdict = Verdict::kHostCompute;
    res->detail = "output " + (s2 == std::string::npos ? h : h.substr(s2 + 1)) +
                  " changed on the host to a value no kernel produced" +
                  (s2 == std::string::npos ? std::string()
                                           : " (test case " + h.substr(0, s1) + ", call " + h.substr(s1 + 1, s2 - s1 - 1) + ")") +
                  ": the answer must be computed on the device";
    return true;
  }
  if (recs.late_output) {
    auto f = Split(*recs.late_output, ' ');
    res->verdict = Verdict::kWrongAnswer;
    res->test_case = f.empty() ? -1 : static_cast<int>(ParseInt(f[0]).value_or(-1));
    res->detail = "the outputs changed after the function returned (test case " + (f.empty() ? "?" : f[0]) +
                  ", call " + (f.size() > 1 ? f[1] : "?") +
                  "): it left device work running (a stream or copy nobody synchronised), so a caller "
                  "reading the outputs right after the call sees stale data";
    return true;
  }
  double timed = std::accumulate(recs.times_ms.begin(), recs.times_ms.end(), 0.0);
  if (timed > p.wall_ms * 1.05 + 5) {
    res->verdict = Verdict::kImplausibleSpeed;
    res->detail = "recorded timings (" + std::to_string(timed) + " ms) exceed the process's wall time (" +
                  std::to_string(p.wall_ms) + " ms): timer tampering?";
    return true;
  }
  return false;
}

}  // namespace

bool ClassifyRun(const RunFacts& f, VerifyResult* res) {
  return ClassifyEmulatorExit(f, res) || ClassifyProcessEnd(f, res) ||
         ClassifyRecordedEvents(f.process, *f.records, res);
}

void CheckTimingEvidence(const DriverRecords& cand, const std::vector<std::pair<size_t, double>>& arrivals,
                         const JudgeOptions& opts, VerifyResult* res) {
  std::vector<double> reported, observed;
  for (const auto& r : cand.reps) {
    if (r.t1_end == 0) continue;
    double a0 = ArrivalOf(arrivals, r.t0_end), a1 = ArrivalOf(arrivals, r.t1_end);
    if (a0 < 0 || a1 < 0) return Implausible(res, "timing marks the harness never received");
    reported.push_back(r.reported_ms);
    observed.push_back(a1 - a0);
  }
  if (reported.size() != cand.times_ms.size()) {
    return Implausible(res, std::to_string(cand.times_ms.size()) + " timing samples but " +
                                std::to_string(reported.size()) + " marked repetitions");
  }
  for (size_t i = 0; i < reported.size(); ++i) {
    if (std::fabs(reported[i] - cand.times_ms[i]) > 1e-6 * std::max(1.0, reported[i])) {
      return Implausible(res, "sample " + std::to_string(i) + " differs from its repetition's report");
    }
  }
  double rep = Summarize(reported).median_ms, obs = Summarize(observed).median_ms;
  if (rep * 2 + 5.0 < obs) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "the driver reported a median of %.4f ms per call but the harness saw %.4f ms "
                  "between the marks around each call", rep, obs);
    return Implausible(res, buf);
  }
  double floor_ms = static_cast<double>(opts.bytes_moved) / kMaxBytesPerSecond * 1e3;
  if (rep < floor_ms) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "median %.6f ms is below %.6f ms, the time to move the problem's %lld bytes "
                  "at %.0f GB/s", rep, floor_ms, static_cast<long long>(opts.bytes_moved), kMaxBytesPerSecond / 1e9);
    return Implausible(res, buf);
  }
}

namespace {

// One output the verdict compares: an argument the spec checks, or the return value.
struct CheckedOutput {
  std::string name;
  ElementType type;
  Tolerance tol;
  bool order_matters;
};

std::vector<CheckedOutput> CheckedOutputsOf(const ProblemSpec& spec) {
  std::vector<CheckedOutput> outs;
  for (const auto& a : spec.args) {
    if (a.is_checked()) outs.push_back({a.name, a.type, spec.ToleranceFor(a.type, a.tolerance), a.order_matters});
  }
  if (spec.returns) {
    outs.push_back({"return", *spec.returns, spec.ToleranceFor(*spec.returns, spec.return_tolerance), true});
  }
  return outs;
}

// Sets verdict `v` for mismatch `m` in `test_case`, the detail prefixed.
void JudgeMismatch(Verdict v, int test_case, const Mismatch& m, const std::string& prefix,
                   VerifyResult* res) {
  res->verdict = v;
  res->test_case = test_case;
  res->output = m.arg;
  res->index = m.index;
  res->expected = m.expected;
  res->got = m.got;
  res->detail = prefix + m.ToString();
}

// A wrong answer when the candidate modified one of its inputs.
bool JudgeMutatedInput(const DriverRecords& cand, VerifyResult* res) {
  if (cand.mutated.empty()) return false;
  auto parts = Split(cand.mutated.front(), ' ');
  res->verdict = Verdict::kWrongAnswer;
  res->output = parts.size() == 3 ? parts[2] : cand.mutated.front();
  res->detail = "the candidate modified its input '" + res->output + "'" +
                (parts.size() == 3 ? " (test case " + parts[0] + ")" : "");
  return true;
}

// The emulator's driver may have run no timing-size rung: the test cases
// predicted more work than its budget ("emu_rung none predicted P budget B").
// The verdict's words for that, or "".
std::string SkippedTimingSizeWords(const DriverRecords& cand, const JudgeOptions& opts) {
  std::string skipped;
  for (const auto& e : cand.events) {
    if (!e.starts_with("emu_rung none ")) continue;
    auto f = Split(e, ' ');
    auto millions = [](const std::string& v) {
      auto d = ParseDouble(v);
      return d ? std::to_string(static_cast<long long>(*d / 1e6 + 0.5)) : v;
    };
    if (f.size() >= 6) {
      skipped = "; the timing-size input" +
                (opts.timing_size_smallest.empty() ? std::string() : " (" + opts.timing_size_smallest + ")") +
                " was not run: the test cases predict about " + millions(f[3]) +
                " million checked accesses for it, more than the budget of " + millions(f[5]) +
                " million (--emulate-max-work)";
    }
  }
  return skipped;
}

// The case ids to check: every test case, and each timing-size rung with
// records (the smallest always, unless the emulator skipped it).
std::vector<int> CasesToCheck(const DriverRecords& cand, const std::vector<CheckedOutput>& outs,
                              size_t tests, size_t rungs, bool rung_skipped) {
  std::vector<int> ids;
  for (size_t i = 0; i < tests + rungs; ++i) {
    bool ran = i < tests || (i == tests && !rung_skipped);
    for (const auto& o : outs) {
      int c = static_cast<int>(i);
      ran = ran || cand.Find(c, 0, o.name) || cand.Find(c, 1, o.name);
    }
    if (ran) ids.push_back(static_cast<int>(i));
  }
  return ids;
}

// Output `o` of case `c` (the i-th checked; `timing_size`: a rung) in both
// calls against the reference; true when that decided the verdict.
bool JudgeCaseOutput(const ProblemSpec& spec, const DriverRecords& ref, const DriverRecords& cand,
                     const CheckedOutput& o, int c, size_t i, bool timing_size, VerifyResult* res) {
  const ArrayRecord* e = ref.Find(c, 0, o.name);
  const ArrayRecord* g0 = cand.Find(c, 0, o.name);
  const ArrayRecord* g1 = cand.Find(c, 1, o.name);
  if (e && (!g0 || !g1) && cand.not_emulated) {
    // Device assembly stopped the run: what did run must be right.
    for (const ArrayRecord* g : {g0, g1}) {
      if (!g) continue;
      if (auto m = CompareOutput(spec, o.type, o.tol, o.order_matters, *e, *g)) {
        JudgeMismatch(
            Verdict::kWrongAnswer, timing_size ? -1 : c, *m,
            timing_size ? "the timing-size input: " : "test case " + std::to_string(i) + ": ", res);
        return true;
      }
    }
    res->verdict = Verdict::kNotEmulated;
    res->detail =
        "compiled; the emulator stopped at inline assembly (line " + *cand.not_emulated + ") in " +
        (timing_size ? std::string("the timing-size input") : "test case " + std::to_string(i)) +
        " after " + std::to_string(i) +
        " test case(s) matched the reference: correctness NOT verified";
    return true;
  }
  if (!e || !g0 || !g1) {
    res->verdict = Verdict::kRuntimeError;
    res->detail =
        "missing output records for '" + o.name + "' in " +
        (timing_size ? std::string("the timing-size input") : "test case " + std::to_string(i));
    return true;
  }
  auto m0 = CompareOutput(spec, o.type, o.tol, o.order_matters, *e, *g0);
  auto m1 = CompareOutput(spec, o.type, o.tol, o.order_matters, *e, *g1);
  std::string where =
      timing_size ? "the timing-size input: " : "test case " + std::to_string(i) + ": ";
  int reported = timing_size ? -1 : c;
  if (m0 && m1) {
    JudgeMismatch(Verdict::kWrongAnswer, reported, *m0, where, res);
    return true;
  }
  if (m0 || m1) {
    JudgeMismatch(
        Verdict::kNondeterministic, reported, m0 ? *m0 : *m1,
        where + "two calls on the same inputs disagree (stale or uninitialised memory?): call " +
            std::string(m0 ? "1" : "2") + ": ",
        res);
    return true;
  }
  if (!spec.allow_constant_output && VariesBeyondRounding(spec, o.type, *e) && IsConstant(*g0)) {
    Mismatch m;
    m.arg = o.name;
    m.reason = "constant";
    m.got = FormatElement(spec, o.type, *g0, 0);
    JudgeMismatch(Verdict::kWrongAnswer, reported, m, where, res);
    return true;
  }
  return false;
}

// Outputs of the last timed calls, one per input set, against the
// reference; true when that decided the verdict.
bool JudgeTimingRunOutputs(const ProblemSpec& spec, const DriverRecords& ref,
                           const DriverRecords& cand, const std::vector<CheckedOutput>& outs,
                           VerifyResult* res) {
  for (int set : {kTimingCaseA, kTimingCaseB}) {
    auto ref_calls = ref.CallsOf(set);
    auto cand_calls = cand.CallsOf(set);
    if (ref_calls.empty() || cand_calls.empty()) {
      res->verdict = Verdict::kRuntimeError;
      res->detail = "timing run wrote no outputs";
      return true;
    }
    for (const auto& o : outs) {
      const ArrayRecord* e = ref.Find(set, ref_calls.back(), o.name);
      const ArrayRecord* g = cand.Find(set, cand_calls.back(), o.name);
      if (!e || !g) {
        res->verdict = Verdict::kRuntimeError;
        res->detail = "timing run: missing output '" + o.name + "'";
        return true;
      }
      if (auto m = CompareOutput(spec, o.type, o.tol, o.order_matters, *e, *g)) {
        JudgeMismatch(Verdict::kNondeterministic, -1, *m,
                      "timing run (input set " + std::string(set == kTimingCaseA ? "A" : "B") +
                          ", after " + std::to_string(cand_calls.back()) +
                          " calls): results differ from the reference (cached or stale results?): ",
                      res);
        return true;
      }
    }
  }
  return false;
}

// The kernel-only figure (CUPTI, or the kernel form's adapter) beside the
// call's: sets kernel_timing and kernel_speedup, or *note when only some
// repetitions had one; false when the figure is implausible (verdict set).
bool JudgeKernelTiming(const DriverRecords& cand, const JudgeOptions& opts, VerifyResult* res,
                       std::string* note) {
  // A repetition without a kernel time (no kernel ran, records dropped)
  // leaves the drop-in form's figure absent, never zero. The kernel form's
  // adapter must report every launch.
  const bool partial_kernel_ms =
      !cand.kernel_ms.empty() && cand.kernel_ms.size() != cand.times_ms.size();
  if (partial_kernel_ms && !opts.kernel_form) {
    *note = "; kernel time measured for " + std::to_string(cand.kernel_ms.size()) + " of " +
            std::to_string(cand.times_ms.size()) + " timed calls: no kernel figure";
    return true;
  }
  if (cand.kernel_ms.empty()) return true;
  if (partial_kernel_ms) {
    Implausible(res, "kernel times for " + std::to_string(cand.kernel_ms.size()) + " of " +
                         std::to_string(cand.times_ms.size()) + " timed calls");
    return false;
  }
  for (size_t i = 0; i < cand.kernel_ms.size(); ++i) {
    if (cand.kernel_ms[i] > cand.times_ms[i] * 1.01 + 0.01) {
      Implausible(res, "a kernel time longer than the call around it (repetition " +
                           std::to_string(i) + ")");
      return false;
    }
  }
  res->kernel_timing = Summarize(cand.kernel_ms);
  if (std::string why = KernelFloorViolation(res->kernel_timing->median_ms, opts); !why.empty()) {
    res->kernel_timing.reset();
    Implausible(res, why);
    return false;
  }
  res->kernel_speedup =
      res->reference_timing->median_ms / std::max(res->kernel_timing->median_ms, 1e-6);
  return true;
}

// The correct verdict's words with its timings and speedups.
std::string TimedCorrectWords(const ProblemSpec& spec, const JudgeOptions& opts,
                              const VerifyResult& r, const std::string& kernel_note) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "correct on %s + 2 timing sets; %.3f ms vs reference %.3f ms (median of %d/%d): "
                "speedup %.2fx",
                CasesWords(spec).c_str(),
                opts.kernel_form ? r.kernel_timing->median_ms : r.candidate_timing->median_ms,
                r.reference_timing->median_ms, r.candidate_timing->reps, r.reference_timing->reps,
                r.speedup);
  std::string detail = buf;
  if (!opts.kernel_form && r.kernel_timing) {
    std::snprintf(buf, sizeof buf, "; kernels %.3f ms (CUPTI): kernel speedup %.2fx",
                  r.kernel_timing->median_ms, r.kernel_speedup);
    detail += buf;
  }
  detail += kernel_note;
  if (opts.kernel_form) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f ms", r.candidate_timing->median_ms);
    detail += " (kernel only; the call with transfers took " + std::string(ms) + ")";
  }
  return detail;
}

// The timed verdict once every output matched: samples, speedups, the
// kernel figure, the detail.
void JudgeTimings(const ProblemSpec& spec, const DriverRecords& ref, const DriverRecords& cand,
                  const JudgeOptions& opts, VerifyResult* res) {
  if (cand.times_ms.empty() || ref.times_ms.empty()) {
    res->verdict = Verdict::kRuntimeError;
    res->detail = "no timing samples recorded";
    return;
  }
  res->candidate_timing = Summarize(cand.times_ms);
  res->reference_timing = Summarize(ref.times_ms);
  double cand_ms = std::max(res->candidate_timing->median_ms, 1e-6);
  res->speedup = res->reference_timing->median_ms / cand_ms;
  res->verdict = Verdict::kCorrect;
  std::string kernel_note;
  if (!JudgeKernelTiming(cand, opts, res, &kernel_note)) return;
  if (opts.kernel_form) {
    if (!res->kernel_timing) return Implausible(res, "the kernel form's adapter reported no kernel time");
    res->speedup = res->kernel_speedup;
    res->transfers_timed = false;
  }
  res->detail = TimedCorrectWords(spec, opts, *res, kernel_note);
}

}  // namespace

void Judge(const ProblemSpec& spec, const DriverRecords& ref, const DriverRecords& cand,
           const JudgeOptions& opts, VerifyResult* res) {
  const std::vector<CheckedOutput> outs = CheckedOutputsOf(spec);
  if (JudgeMutatedInput(cand, res)) return;
  // In the emulator the timing-size input runs as more cases (no timing run
  // checks its outputs there): its rungs, ascending, of which the emulator
  // ran the smallest and maybe more. Every rung with records is checked (the
  // smallest always: without records it is reported missing); the verdict
  // names the largest.
  const size_t tests = spec.tests.size();
  const size_t rungs =
      opts.timing_size_case ? std::max<size_t>(1, opts.timing_size_notes.size()) : 0;
  const std::string skipped = SkippedTimingSizeWords(cand, opts);
  const std::vector<int> ids = CasesToCheck(cand, outs, tests, rungs, !skipped.empty());
  const size_t largest = rungs && static_cast<size_t>(ids.back()) >= tests ? ids.back() - tests : 0;
  const std::string note =
      opts.timing_size_notes.empty() ? opts.timing_size_note : opts.timing_size_notes[largest];
  for (size_t i = 0; i < ids.size(); ++i) {
    int c = ids[i];
    bool timing_size = i >= tests;
    for (const auto& o : outs) {
      if (JudgeCaseOutput(spec, ref, cand, o, c, i, timing_size, res)) return;
    }
    // -v: one line per case that matched the reference.
    spdlog::info("{}{} output(s) match the reference in both calls",
                 timing_size ? std::string("the timing-size input: ")
                             : "test case " + std::to_string(i) + ": ",
                 outs.size());
  }
  if (!opts.timing) {
    res->verdict = Verdict::kCorrect;
    const bool rung_ran = rungs && static_cast<size_t>(ids.back()) >= tests;
    res->detail =
        "correct on " + CasesWords(spec) + " " +
        (opts.emulate ? (rung_ran ? TimingSizeWords(opts, note) : std::string()) +
                            "in the CPU emulator (correctness only, not a GPU result)" + skipped
                      : std::string("(timing off)"));
    return;
  }
  if (JudgeTimingRunOutputs(spec, ref, cand, outs, res)) return;
  JudgeTimings(spec, ref, cand, opts, res);
}

std::string KernelFloorViolation(double kernel_ms, const JudgeOptions& opts) {
  if (opts.device_bytes_per_s <= 0 || opts.output_bytes <= opts.device_l2_bytes) return "";
  const double floor_ms = static_cast<double>(opts.output_bytes - opts.device_l2_bytes) / opts.device_bytes_per_s * 1e3;
  if (kernel_ms >= floor_ms) return "";
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "a kernel time of %.4f ms, below the %.4f ms the device needs to write the outputs' %.1f MiB "
                "(beyond its %.1f MiB L2) at its memory bandwidth of %.2f TB/s: the kernels did not produce the "
                "outputs",
                kernel_ms, floor_ms, static_cast<double>(opts.output_bytes) / (1 << 20),
                static_cast<double>(opts.device_l2_bytes) / (1 << 20), opts.device_bytes_per_s / 1e12);
  return buf;
}

std::optional<std::pair<Verdict, std::string>> SanitizerReport(const std::string& tool, const CommandResult& run) {
  if (run.term_signal != 0 || run.exit_code != 89) return std::nullopt;
  std::string first;
  for (const auto& line : SplitLines(run.stdout_text + "\n" + run.stderr_text)) {
    std::string_view l = Trim(line);
    if (!StartsWith(l, "=========")) continue;
    std::string_view body = Trim(l.substr(9));
    if (body.empty() || StartsWith(body, "COMPUTE-SANITIZER") || StartsWith(body, "ERROR SUMMARY") ||
        StartsWith(body, "RACECHECK SUMMARY") || StartsWith(body, "Program hit") || StartsWith(body, "at ") ||
        StartsWith(body, "by thread") || StartsWith(body, "Saved host backtrace")) {
      continue;
    }
    first = std::string(body);
    break;
  }
  if (first.empty()) first = "errors reported (no detail line)";
  const bool race = tool == "racecheck" || tool == "synccheck";
  return std::make_pair(race ? Verdict::kRace : Verdict::kRuntimeError, "compute-sanitizer " + tool + ": " + first);
}

std::string FirstError(const std::string& log) {
  auto lines = SplitLines(log);
  for (const auto& line : lines) {
    if (line.find("error") != std::string::npos) return std::string(Trim(line));
  }
  return lines.empty() ? std::string() : std::string(lines.front());
}

void JudgeStaticFindings(const std::vector<std::string>& findings, VerifyResult* res) {
  res->verdict = Verdict::kStaticReject;
  for (const auto& f : findings) res->findings.push_back(f);
  res->detail = findings.front();
}

void JudgeCompileFailure(const std::string& failure, const std::string& log, VerifyResult* res) {
  res->verdict = failure.rfind("timed out", 0) == 0 ? Verdict::kTimeout : Verdict::kCompileError;
  res->detail = res->verdict == Verdict::kTimeout ? "compilation " + failure : FirstError(log);
  res->log = TruncateMiddle(log, 8000);
}

void JudgeLinkFailure(const ProblemSpec& spec, bool kernel_form, const std::string& log, VerifyResult* res) {
  res->verdict = Verdict::kCompileError;
  res->log = TruncateMiddle(log, 8000);
  if (kernel_form && log.find("undefined reference to `" + spec.kernel->function + "(") != std::string::npos) {
    res->detail = "link: the candidate does not define `" + KernelSignature(spec) +
                  "` (same name and parameter types as the kernel form's signature)";
  } else if (log.find("undefined reference to `" + spec.function + "(") != std::string::npos) {
    res->detail = "link: the candidate does not define `" + spec.Signature() +
                  "` (same name, parameter types and constness as the reference)";
  } else {
    res->detail = "link: " + FirstError(log);
  }
}

void JudgeNotEmulated(const std::string& archs, const std::string& why, const std::string& log,
                      VerifyResult* res) {
  res->verdict = Verdict::kNotEmulated;
  res->detail = "compiled for " + archs + "; not emulated (" + why + "): correctness and speed NOT verified";
  res->log = TruncateMiddle(log, 8000);
}

void JudgeCompiledOnly(bool device_only, VerifyResult* res) {
  res->verdict = Verdict::kCompiledOnly;
  res->detail =
      "compiled for " + res->env.archs + (device_only ? " (device code only; not linked, not run)" : " (not run)");
}

bool JudgeSanitizerRun(const std::string& tool, const CommandResult& run, VerifyResult* res) {
  auto report = SanitizerReport(tool, run);
  if (!report) return false;
  res->verdict = report->first;
  res->detail = report->second;
  res->log = TruncateMiddle(run.stdout_text + run.stderr_text, 4000);
  return true;
}

void OverruleGpuVerdict(const VerifyResult& by, const std::string& check, VerifyResult* res) {
  res->verdict = by.verdict;
  res->detail = "correct on the GPU, but not under " + check + ": " + by.detail;
  res->test_case = by.test_case;
  res->output = by.output;
  res->index = by.index;
  res->expected = by.expected;
  res->got = by.got;
  res->log = by.log;
  res->speedup = 0;
  res->kernel_speedup = 0;
  res->candidate_timing.reset();
  res->reference_timing.reset();
  res->kernel_timing.reset();
}

}  // namespace regrapht::verify
