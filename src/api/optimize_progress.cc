// OptimizeProgress (regrapht/optimize_progress.h): optimize's status line,
// its estimate before the search and the speeds it records.
#include "regrapht/optimize_progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/fs.h"
#include "core/log.h"
#include "core/progress.h"
#include "core/strings.h"
#include "llm/shape.h"
#include "llm/speed.h"
#include "search/progress_text.h"

namespace regrapht {
namespace {

// Over this, the estimate comes with a warning (issue 34: the first hour).
constexpr double kLongSearchS = 30 * 60;

// The longest the measurement below may take: on a machine so busy that it
// takes longer, what it measured until then is the figure.
constexpr double kProbeLimitS = 15;

// A flag set once `deadline_s` (SystemClock) passes or `cancel` is set.
class DeadlineFlag {
 public:
  DeadlineFlag(double deadline_s, const std::atomic<bool>* cancel)
      : thread_([this, deadline_s, cancel] {
          while (!done_.load() && !flag_.load()) {
            if ((cancel != nullptr && cancel->load()) ||
                SystemClock::Get()->NowSeconds() >= deadline_s)
              flag_ = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
        }) {}
  ~DeadlineFlag() {
    done_ = true;
    thread_.join();
  }
  const std::atomic<bool>* get() const { return &flag_; }

 private:
  std::atomic<bool> flag_{false}, done_{false};
  std::thread thread_;
};

// A short measurement of the embedded model: a prompt of about 120 tokens
// and 24 generated ones, greedy, shaped as the search's code replies are
// (`shape`: its grammar slows each token several times over, so a plain
// reply would promise a speed the search never sees); cut short at
// `deadline_s`, when the figures are those of the tokens it had.
Result<llm::ModelSpeed> Probe(LlmBackend* model, const ShapeOptions& shape, double deadline_s,
                              const std::atomic<bool>* cancel) {
  ChatRequest r;
  std::string text;
  for (int i = 0; i < 8; ++i)
    text += "A CUDA kernel runs one thread per element of the array, and each thread ";
  r.messages = {{Role::kUser, text + "adds. Write it."}};
  r.sampling.max_tokens = 24;
  r.sampling.temperature = 0;
  llm::CodeShape code;
  code.signature = "void saxpy(int n, float a, const float* x, float* y)";
  code.opener = "\n__global__ void saxpy_kernel(";
  code.max_tokens = r.sampling.max_tokens;
  code.require_launch = true;
  if (shape.any()) r.shape = llm::MakeOutputShape(code, shape);
  DeadlineFlag stop(deadline_s, cancel);
  r.cancel = stop.get();
  RG_ASSIGN_OR_RETURN(ChatResponse resp, model->Chat(r));
  llm::ModelSpeed s;
  if (resp.time_prompt_ms > 0)
    s.prompt_tok_s = resp.tokens_prompt_evaluated / (resp.time_prompt_ms / 1000);
  if (resp.time_generation_ms > 0)
    s.generate_tok_s = resp.tokens_generated / (resp.time_generation_ms / 1000);
  if (s.generate_tok_s <= 0) return Status::Unavailable("the measurement generated nothing");
  s.measured_by = "optimize (a short measurement)";
  s.measured_at = llm::UtcNowIso();
  return s;
}

// How good a step's verdict is for "best so far": 2 correct, 1 built but
// not judged (no GPU, not emulated), 0 anything else.
int Rank(const std::string& verdict) {
  if (verdict == "correct") return 2;
  if (verdict == "compiled_only" || verdict == "not_emulated") return 1;
  return 0;
}

}  // namespace

struct OptimizeProgress::Impl {
  explicit Impl(OptimizeProgressOptions o)
      : options(std::move(o)),
        start_s(SystemClock::Get()->NowSeconds()),
        cache(options.speed_cache.empty() ? CacheDir() / "speed.json" : options.speed_cache),
        machine(llm::MachineId()) {}

  std::string Render();
  std::string CheckMode() const { return options.emulate ? "emulate" : "compile-or-gpu"; }

  const OptimizeProgressOptions options;
  const double start_s;
  llm::SpeedCache cache;
  const std::string machine;
  std::unique_ptr<StatusLine> line;
  std::mutex mu;  // guards the state below
  search::RunStatus status;
  int generations_done = 0;
  int checks_begun = 0;              // kChecking events
  int best_rank = 0;                 // of the best so far: 3 timed, 2 correct, 1 built, 0 none
  std::vector<double> rates;         // tokens/s of each finished generation of the model
  GenerationProgress last_progress;  // of the generation in progress
};

OptimizeProgress::OptimizeProgress(OptimizeProgressOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& m = *impl_;
  m.status.limit_s = m.options.max_seconds;
  m.status.budget = m.options.budget;
  m.status.phase = "reading the source, inferring the spec";
  StatusLine::Options o;
  o.out = m.options.out;
  o.tty = m.options.tty;
  o.interval_s = m.options.interval_s;
  m.line = std::make_unique<StatusLine>(o, [&m] { return m.Render(); });
}

OptimizeProgress::~OptimizeProgress() { Stop(); }

void OptimizeProgress::Start() { impl_->line->Start(); }
void OptimizeProgress::Stop() { impl_->line->Stop(); }

void OptimizeProgress::Print(std::FILE* f, const std::string& text) { impl_->line->Print(f, text); }

std::string OptimizeProgress::Impl::Render() {
  std::lock_guard<std::mutex> lock(mu);
  status.elapsed_s = SystemClock::Get()->NowSeconds() - start_s;
  return search::StatusLineText(status);
}

void OptimizeProgress::SetPhase(const std::string& phase) {
  Impl& m = *impl_;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    m.status.phase = phase;
    m.status.generation = 0;
    m.status.tokens_known = false;
  }
  m.line->Refresh();
}

void OptimizeProgress::OnEvent(const OptimizeEvent& e) {
  using K = OptimizeEvent::Kind;
  Impl& m = *impl_;
  bool refresh = true;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    auto next_generation = [&] {
      const bool more = m.status.budget <= 0 || m.generations_done < m.status.budget;
      m.status.phase = more ? "generating" : "finishing the search";
      m.status.generation = more ? m.generations_done + 1 : 0;
      m.status.tokens_known = false;
    };
    switch (e.kind) {
      case K::kSpec:
        m.status.phase = "writing the problem folder";
        break;
      case K::kProblem:
        m.status.phase = "checking the reference (build and run)";
        break;
      case K::kReference:
        m.status.phase = "loading the model and the graph";
        break;
      case K::kSearchStart:
        next_generation();
        break;
      case K::kSeed:
        m.status.phase = "checking the rules' first step";
        break;
      case K::kGenerating:
        m.status.tokens_known = true;
        m.status.tokens = e.generation;
        m.last_progress = e.generation;
        refresh = false;  // the ticker shows it
        break;
      case K::kChecking:
        if (m.status.tokens_known && m.last_progress.seconds > 0 && m.last_progress.tokens > 0)
          m.rates.push_back(m.last_progress.tokens / m.last_progress.seconds);
        m.status.phase = "checking candidate";
        m.status.generation = m.generations_done + 1;
        m.status.tokens_known = false;
        ++m.checks_begun;
        m.status.checked = m.checks_begun - 1;
        break;
      case K::kSearchStep:
        if (e.step.verdict.empty()) {
          refresh = false;
          break;
        }
        m.status.checked = m.checks_begun;
        m.generations_done = e.step.generation;
        if (e.step.best_speedup > 0) {
          m.status.best = fmt::format("{:.2f}x", e.step.best_speedup);
          m.best_rank = 3;
        } else if (int rank = Rank(e.step.verdict); rank > m.best_rank) {
          m.best_rank = rank;
          m.status.best = rank == 2 ? "correct (speed not measured)" : "compiled, not run";
        }
        next_generation();
        break;
      case K::kHeldOut:
        m.status.phase = "re-checking the answer on held-out inputs";
        m.status.generation = 0;
        break;
    }
  }
  if (refresh) m.line->Refresh();
}

OptimizeEstimate OptimizeProgress::Estimate(LlmBackend* model, const std::string& model_id) {
  Impl& m = *impl_;
  const OptimizeProgressOptions& o = m.options;
  std::optional<llm::ModelSpeed> speed = m.cache.FindModel(model_id, m.machine);
  auto usable = [](const std::optional<llm::ModelSpeed>& s) {
    return s && (s->generate_tok_s > 0 || s->search_generate_tok_s > 0);
  };
  if (!usable(speed) && o.measure && model != nullptr) {
    SetPhase("measuring the model's speed (once per model and machine)");
    double deadline = SystemClock::Get()->NowSeconds() + kProbeLimitS;
    if (o.max_seconds > 0) deadline = std::min(deadline, m.start_s + o.max_seconds);
    auto probe = Probe(model, o.shape, deadline, o.cancel);
    if (probe.ok()) {
      probe->model = model_id;
      probe->machine = m.machine;
      if (Status st = m.cache.PutModel(*probe); !st.ok())
        spdlog::warn("speed cache: {}", st.ToString());
      speed = m.cache.FindModel(model_id, m.machine);
      if (!usable(speed)) speed = *probe;
    }
  }
  const int budget = o.budget, max_tokens = o.max_tokens;
  OptimizeEstimate out;
  if (!usable(speed)) {
    out.line =
        "estimate   not known yet: no speed of this model measured on this machine (`regrapht "
        "bench-llm` measures one); the progress line shows tokens/s as it generates\n";
    return out;
  }
  auto check = m.cache.FindCheck(m.machine, m.CheckMode());
  llm::SearchEstimate e = llm::EstimateSearch(*speed, check, budget, max_tokens);
  std::string prompt = e.prompt_tok_s > 0
                           ? fmt::format("a ~{:.0f}-token prompt at {:.0f} tokens/s, ",
                                         e.prompt_tokens, e.prompt_tok_s)
                           : std::string();
  std::string checks =
      e.check_s > 0 ? fmt::format("a check ~{:.0f} s (median of {} here)", e.check_s, check->count)
                    : std::string("checks not timed here yet, not counted");
  out.duration = FormatDuration(e.seconds);
  out.line = fmt::format(
      "estimate   up to {} for {} here: each {}up to {} tokens at {:.1f} tokens/s, {} "
      "(speeds: {}, {})\n",
      out.duration, Plural(budget, "generation"), prompt, max_tokens, e.generate_tok_s, checks,
      speed->measured_by, speed->measured_at);
  out.long_search = e.seconds > kLongSearchS;
  return out;
}

void OptimizeProgress::Record(const OptimizeReport& report) {
  Impl& m = *impl_;
  llm::ModelSpeed seen;
  seen.model = report.model;
  seen.machine = m.machine;
  std::vector<double> checks;
  double prompt_tokens = 0;
  int prompts = 0;
  for (const Attempt& a : report.search.attempts) {
    if (a.endpoint_error || a.interrupted) continue;
    if (!a.reply_cached && a.tokens_prompt > 0) {
      prompt_tokens += a.tokens_prompt;
      ++prompts;
    }
    if (!a.reused && a.time_verify_ms > 0) checks.push_back(a.time_verify_ms / 1000);
  }
  {
    std::lock_guard<std::mutex> lock(m.mu);
    std::vector<double> rates = m.rates;
    // A generation cut short (the time limit, Ctrl-C) still measured its speed.
    if (rates.empty() && m.last_progress.seconds > 0 && m.last_progress.tokens > 0)
      rates.push_back(m.last_progress.tokens / m.last_progress.seconds);
    seen.search_generate_tok_s = llm::Median(rates);
  }
  if (seen.search_generate_tok_s <= 0) {
    // An endpoint reports no tokens while it generates: its replies' own
    // times (the prompt's included, so a lower bound of its speed).
    std::vector<double> rates;
    for (const Attempt& a : report.search.attempts) {
      if (!a.endpoint_error && !a.interrupted && !a.reply_cached && a.time_generation_ms > 0 &&
          a.tokens_generated > 0)
        rates.push_back(a.tokens_generated / (a.time_generation_ms / 1000));
    }
    seen.search_generate_tok_s = llm::Median(rates);
  }
  if (prompts > 0) seen.prompt_tokens = prompt_tokens / prompts;
  seen.measured_by = "optimize";
  seen.measured_at = llm::UtcNowIso();
  Status st;
  if (seen.search_generate_tok_s > 0 || seen.prompt_tokens > 0) st = m.cache.PutModel(seen);
  if (st.ok() && !checks.empty()) {
    st = m.cache.PutCheck({m.machine, m.CheckMode(), llm::Median(checks),
                           static_cast<int>(checks.size()), seen.measured_at});
  }
  if (!st.ok()) spdlog::warn("speed cache: {}", st.ToString());
}

std::string OptimizeStepLine(const SearchEvent& step, int budget) {
  return search::StepLine(step, budget);
}

}  // namespace regrapht
