#include "cli/optimize_live.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "cli/interrupt.h"
#include "core/log.h"
#include "core/strings.h"
#include "llm/shape.h"

namespace regrapht::cli {
namespace {

// Over this, the estimate comes with a warning (issue 34: the first hour).
constexpr double kLongSearchS = 30 * 60;

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The longest the measurement below may take: on a machine so busy that it
// takes longer, what it measured until then is the figure.
constexpr double kProbeLimitS = 15;

// A flag set once `deadline_s` (SystemClock) passes or Ctrl-C arrives.
class DeadlineFlag {
 public:
  explicit DeadlineFlag(double deadline_s)
      : thread_([this, deadline_s] {
          while (!done_.load() && !flag_.load()) {
            if (InterruptFlag()->load() || SystemClock::Get()->NowSeconds() >= deadline_s) flag_ = true;
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
Result<llm::ModelSpeed> Probe(LlmBackend* model, const ShapeOptions& shape, double deadline_s) {
  ChatRequest r;
  std::string text;
  for (int i = 0; i < 8; ++i) text += "A CUDA kernel runs one thread per element of the array, and each thread ";
  r.messages = {{Role::kUser, text + "adds. Write it."}};
  r.sampling.max_tokens = 24;
  r.sampling.temperature = 0;
  llm::CodeShape code;
  code.signature = "void saxpy(int n, float a, const float* x, float* y)";
  code.opener = "\n__global__ void saxpy_kernel(";
  code.max_tokens = r.sampling.max_tokens;
  code.require_launch = true;
  if (shape.any()) r.shape = llm::MakeOutputShape(code, shape);
  DeadlineFlag stop(deadline_s);
  r.cancel = stop.get();
  RG_ASSIGN_OR_RETURN(ChatResponse resp, model->Chat(r));
  llm::ModelSpeed s;
  if (resp.time_prompt_ms > 0) s.prompt_tok_s = resp.tokens_prompt_evaluated / (resp.time_prompt_ms / 1000);
  if (resp.time_generation_ms > 0) s.generate_tok_s = resp.tokens_generated / (resp.time_generation_ms / 1000);
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

OptimizeLive::OptimizeLive(const SearchFlags& flags, bool quiet, bool emulate)
    : flags_(flags),
      quiet_(quiet),
      emulate_(emulate),
      start_s_(SystemClock::Get()->NowSeconds()),
      cache_(CacheDir() / "speed.json"),
      machine_(llm::MachineId()) {
  status_.limit_s = flags.max_seconds;
  status_.budget = flags.budget;
  status_.phase = "reading the source, inferring the spec";
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  StatusLine::Options o;
  o.out = quiet ? nullptr : stderr;
  o.tty = tty;
  o.interval_s = tty ? 1 : 5;  // a log: a line every 5 s at least
  line_ = std::make_unique<StatusLine>(o, [this] { return Render(); });
}

OptimizeLive::~OptimizeLive() { Stop(); }

void OptimizeLive::Start() { line_->Start(); }
void OptimizeLive::Stop() { line_->Stop(); }

void OptimizeLive::Print(std::FILE* f, const std::string& text) { line_->Print(f, text); }

std::string OptimizeLive::Render() {
  std::lock_guard<std::mutex> lock(mu_);
  status_.elapsed_s = SystemClock::Get()->NowSeconds() - start_s_;
  return search::StatusLineText(status_);
}

void OptimizeLive::SetPhase(const std::string& phase) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    status_.phase = phase;
    status_.generation = 0;
    status_.tokens_known = false;
  }
  line_->Refresh();
}

void OptimizeLive::OnEvent(const OptimizeEvent& e) {
  using K = OptimizeEvent::Kind;
  bool refresh = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto next_generation = [&] {
      const bool more = status_.budget <= 0 || generations_done_ < status_.budget;
      status_.phase = more ? "generating" : "finishing the search";
      status_.generation = more ? generations_done_ + 1 : 0;
      status_.tokens_known = false;
    };
    switch (e.kind) {
      case K::kSpec:
        status_.phase = "writing the problem folder";
        break;
      case K::kProblem:
        status_.phase = "checking the reference (build and run)";
        break;
      case K::kReference:
        status_.phase = "loading the model and the graph";
        break;
      case K::kSearchStart:
        next_generation();
        break;
      case K::kSeed:
        status_.phase = "checking the rules' first step";
        break;
      case K::kGenerating:
        status_.tokens_known = true;
        status_.tokens = e.generation;
        last_progress_ = e.generation;
        refresh = false;  // the ticker shows it
        break;
      case K::kChecking:
        if (status_.tokens_known && last_progress_.seconds > 0 && last_progress_.tokens > 0)
          rates_.push_back(last_progress_.tokens / last_progress_.seconds);
        status_.phase = "checking candidate";
        status_.generation = generations_done_ + 1;
        status_.tokens_known = false;
        ++checks_begun_;
        checking_ = true;
        status_.checked = checks_begun_ - 1;
        break;
      case K::kSearchStep:
        if (e.step.verdict.empty()) {
          refresh = false;
          break;
        }
        checking_ = false;
        status_.checked = checks_begun_;
        generations_done_ = e.step.generation;
        if (e.step.best_speedup > 0) {
          status_.best = fmt::format("{:.2f}x", e.step.best_speedup);
          best_rank_ = 3;
        } else if (int rank = Rank(e.step.verdict); rank > best_rank_) {
          best_rank_ = rank;
          status_.best = rank == 2 ? "correct (speed not measured)" : "compiled, not run";
        }
        next_generation();
        break;
      case K::kHeldOut:
        status_.phase = "re-checking the answer on held-out inputs";
        status_.generation = 0;
        break;
    }
  }
  if (refresh) line_->Refresh();
}

void OptimizeLive::Estimate(LlmBackend* model, const std::string& model_id) {
  std::optional<llm::ModelSpeed> speed = cache_.FindModel(model_id, machine_);
  auto usable = [](const std::optional<llm::ModelSpeed>& s) {
    return s && (s->generate_tok_s > 0 || s->search_generate_tok_s > 0);
  };
  if (!usable(speed) && !flags_.backend.UseHttp() && model != nullptr) {
    SetPhase("measuring the model's speed (once per model and machine)");
    double deadline = SystemClock::Get()->NowSeconds() + kProbeLimitS;
    if (flags_.max_seconds > 0) deadline = std::min(deadline, start_s_ + flags_.max_seconds);
    auto probe = Probe(model, flags_.Shape(), deadline);
    if (probe.ok()) {
      probe->model = model_id;
      probe->machine = machine_;
      if (Status st = cache_.PutModel(*probe); !st.ok()) spdlog::warn("speed cache: {}", st.ToString());
      speed = cache_.FindModel(model_id, machine_);
      if (!usable(speed)) speed = *probe;
    }
  }
  const int budget = flags_.budget, max_tokens = flags_.max_tokens;
  if (!usable(speed)) {
    Print(stdout, "estimate   not known yet: no speed of this model measured on this machine (`regrapht "
                  "bench-llm` measures one); the progress line shows tokens/s as it generates\n");
    return;
  }
  auto check = cache_.FindCheck(machine_, CheckMode());
  llm::SearchEstimate e = llm::EstimateSearch(*speed, check, budget, max_tokens);
  std::string prompt = e.prompt_tok_s > 0
                           ? fmt::format("a ~{:.0f}-token prompt at {:.0f} tokens/s, ", e.prompt_tokens, e.prompt_tok_s)
                           : std::string();
  std::string checks = e.check_s > 0 ? fmt::format("a check ~{:.0f} s (median of {} here)", e.check_s, check->count)
                                     : std::string("checks not timed here yet, not counted");
  Print(stdout, fmt::format("estimate   up to {} for {} here: each {}up to {} tokens at {:.1f} tokens/s, {} "
                            "(speeds: {}, {})\n",
                            FormatDuration(e.seconds), Plural(budget, "generation"), prompt, max_tokens,
                            e.generate_tok_s, checks, speed->measured_by, speed->measured_at));
  if (e.seconds > kLongSearchS) {
    Print(stderr, fmt::format("regrapht: warning: this search may take up to {} on this machine (more than 30 "
                              "minutes): --budget, --max-tokens or --max-seconds bound it{}\n",
                              FormatDuration(e.seconds),
                              flags_.EmbeddedOnCpu() ? fmt::format(" (the embedded model's default is --budget {} "
                                                                   "--max-tokens {})",
                                                                   SearchFlags::kCpuBudget, SearchFlags::kCpuMaxTokens)
                                                     : std::string()));
  }
}

void OptimizeLive::Record(const OptimizeReport& report) {
  llm::ModelSpeed seen;
  seen.model = report.model;
  seen.machine = machine_;
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
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<double> rates = rates_;
    // A generation cut short (the time limit, Ctrl-C) still measured its speed.
    if (rates.empty() && last_progress_.seconds > 0 && last_progress_.tokens > 0)
      rates.push_back(last_progress_.tokens / last_progress_.seconds);
    seen.search_generate_tok_s = Median(rates);
  }
  if (seen.search_generate_tok_s <= 0) {
    // An endpoint reports no tokens while it generates: its replies' own
    // times (the prompt's included, so a lower bound of its speed).
    std::vector<double> rates;
    for (const Attempt& a : report.search.attempts) {
      if (!a.endpoint_error && !a.interrupted && !a.reply_cached && a.time_generation_ms > 0 && a.tokens_generated > 0)
        rates.push_back(a.tokens_generated / (a.time_generation_ms / 1000));
    }
    seen.search_generate_tok_s = Median(rates);
  }
  if (prompts > 0) seen.prompt_tokens = prompt_tokens / prompts;
  seen.measured_by = "optimize";
  seen.measured_at = llm::UtcNowIso();
  Status st;
  if (seen.search_generate_tok_s > 0 || seen.prompt_tokens > 0) st = cache_.PutModel(seen);
  if (st.ok() && !checks.empty()) {
    st = cache_.PutCheck({machine_, CheckMode(), Median(checks), static_cast<int>(checks.size()), seen.measured_at});
  }
  if (!st.ok()) spdlog::warn("speed cache: {}", st.ToString());
}

}  // namespace regrapht::cli
