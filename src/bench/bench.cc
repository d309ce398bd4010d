// regrapht/bench.h: a benchmark run as one library call (what `regrapht
// bench` does between parsing its flags and printing its summary).
#include "regrapht/bench.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

#include "bench/pareval_prompts.h"
#include "bench/runner.h"
#include "bench/sample.h"
#include "bench/shard.h"
#include "bench/suite.h"
#include "core/clock.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "llm/speed.h"
#include "seed/seed.h"
#include "store/results_store.h"

namespace regrapht {

std::string ExperimentKeyJson(const ExperimentSettings& s) {
  const SearchOptions& o = s.options;
  OrderedJson j = {{"method", s.method},
                   {"model", s.model},
                   {"budget", o.budget.max_generations},
                   {"iterations", o.iterations},
                   {"max_depth", o.max_depth},
                   {"step_retries", o.step_retries},
                   {"c", o.exploration_c},
                   {"epsilon", o.rollout_epsilon},
                   {"lambda", o.rollout_lambda},
                   {"rollouts", o.rollouts},
                   {"examples", o.examples_per_step},
                   {"temperature", o.sampling.temperature},
                   {"top_p", o.sampling.top_p},
                   {"max_tokens", o.sampling.max_tokens},
                   {"context", o.context_tokens},
                   {"graph", s.graph},
                   {"retrieval", s.retrieval},
                   {"heldout", s.heldout}};
  if (!s.embed_model.empty()) j["embed_model"] = fs::path(s.embed_model).filename().string();
  // Only where they differ from the defaults, so that earlier rows keep their hash.
  if (o.protocol != "ours") j["protocol"] = o.protocol;
  if (o.q != SearchOptions::QRule::kMean) j["q"] = "max";
  if (!o.close_failed_edges) j["close_failed_edges"] = false;
  if (o.seed != 1) j["seed"] = o.seed;
  // Only when on, so that unshaped runs keep their earlier configuration.
  const ShapeOptions& sh = o.shape;
  if (sh.any())
    j["shape"] = {
        {"prefill", sh.prefill}, {"grammar", sh.grammar}, {"stop_at_fence", sh.stop_at_fence}};
  // The rules' first step changes MCGS's results; off keeps earlier configurations.
  if (s.seed_step == "rules" && (s.method == "regrapht-mcgs" || s.method == "rules"))
    j["seed_step"] = "rules";
  // The balanced grammar and the wrap-up (2026-12): keyed so that rows of the
  // earlier line-based grammar are not mixed with these.
  if (sh.grammar) j["shape"]["grammar_form"] = "balanced";
  if (sh.prefill && sh.grammar && sh.wrap_up) j["shape"]["wrap_up"] = true;
  const SamplingParams& sp = o.sampling;
  if (sp.repetition_control()) {
    j["repetition"] = {{"repeat_penalty", sp.repeat_penalty},
                       {"repeat_last_n", sp.repeat_last_n},
                       {"dry_multiplier", sp.dry_multiplier},
                       {"dry_base", sp.dry_base},
                       {"dry_allowed_length", sp.dry_allowed_length}};
  }
  return JsonLine(j);
}

// What a run's samples share (Bench::Impl's members): named, not anonymous,
// since Impl is declared in the public header.
namespace bench_run {

// The rules' first step of each problem, computed once per problem
// whatever the samples and threads (seed/seed.h).
class SeedCache {
 public:
  const seed::Seed& Get(const Problem& p) {
    std::lock_guard lock(mu_);
    auto it = seeds_.find(p.spec.name);
    if (it == seeds_.end()) it = seeds_.emplace(p.spec.name, seed::Parallelize(p)).first;
    return it->second;
  }

 private:
  std::mutex mu_;
  std::map<std::string, seed::Seed> seeds_;
};

// The caches' totals over a run's samples (threads add to them).
struct CacheCounts {
  std::atomic<int> replies{0}, replies_cached{0}, builds{0}, builds_cached{0};
  void Add(const bench::SampleOutcome& o) {
    replies += o.replies;
    replies_cached += o.replies_cached;
    builds += o.builds;
    builds_cached += o.builds_cached;
  }
  // "cache      3 of 4 replies from the response cache; ..." or "" when they served nothing.
  std::string Line() const {
    if (replies_cached == 0 && builds_cached == 0) return "";
    std::string line = "cache      ";
    if (replies_cached > 0) {
      line +=
          fmt::format("{} of {} replies from the response cache (--no-cache asks the model again)",
                      replies_cached.load(), replies.load());
    }
    if (builds_cached > 0) {
      line += fmt::format("{}{} of {} builds from the build cache", replies_cached > 0 ? "; " : "",
                          builds_cached.load(), builds.load());
    }
    return line;
  }
};

}  // namespace bench_run

namespace {

bool Cancelled(const std::atomic<bool>* cancel) { return cancel != nullptr && cancel->load(); }

}  // namespace

struct Bench::Impl {
  BenchOptions options;
  BenchListener* listener = nullptr;
  bench::Shard shard;
  std::string db;
  bench::Suite suite;
  std::unique_ptr<ResultsStore> store;
  std::string run_id;
  double wall_s = 0;  // the run's, for Finish

  // Run's state: what the method's samples share (they run on several threads).
  std::unique_ptr<Verifier> verifier;
  std::atomic<int> endpoint_in_a_row{0};
  std::mutex last_endpoint_mu;
  std::string last_endpoint_error;
  bench_run::CacheCounts caches;
  bench_run::SeedCache seeds;
  std::map<std::string, std::string> kernel_tasks;  // --form kernel: problem -> task text
  std::unique_ptr<CandidateEvaluator> verifier_evaluator, evaluator;
  bench::SearchSampleEnv search_env;

  void Note(const std::string& line) const {
    if (listener != nullptr) listener->Note(line);
  }
  // The runner's options besides the method: the run's record and when to stop.
  bench::RunnerOptions RunnerOptions();
  // The configuration keyed into the rows of "reference" and "rules".
  OrderedJson BaseConfig() const;
  Result<bench::MethodFn> RulesMethod(OrderedJson* cfg);
  Result<bench::MethodFn> ReferenceMethod(bench::RunnerOptions* ro);
  // The kernel form's task of each problem: its ParEval prompt, else its spec.
  Status LoadKernelTasks();
  Result<bench::MethodFn> SearchMethod(bench::RunnerOptions* ro, OrderedJson* cfg);
  // Fills search_env for `env` (the run's search settings and its hooks).
  void FillSearchEnv(const BenchSearchEnv& env);
};

Bench::Bench(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Bench::~Bench() = default;
const std::string& Bench::db() const { return impl_->db; }
const std::string& Bench::suite() const { return impl_->suite.name; }
int Bench::problems() const { return static_cast<int>(impl_->suite.problems.size()); }
int Bench::shard_index() const { return impl_->shard.index; }
int Bench::shard_count() const { return impl_->shard.count; }

Result<std::unique_ptr<Bench>> Bench::Open(const BenchOptions& options, BenchListener* listener) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->listener = listener;
  RG_ASSIGN_OR_RETURN(impl->shard, bench::ParseShard(options.shard, bench::ProcessEnv()));
  impl->db = bench::ExpandShardPath(options.db, impl->shard);
  if (impl->shard.count > 1 && impl->db == options.db) {
    impl->Note("note: every shard writes to " + impl->db +
               "; on a shared filesystem (NFS, Lustre) give each its own file, e.g. --db "
               "'results-{shard}.sqlite', "
               "and merge them with `regrapht bench merge` (docs/scale.md)");
  }
  RG_ASSIGN_OR_RETURN(impl->suite, bench::LoadSuite(options.suite_dir));
  if (options.verify.kernel_form) {
    for (const auto& p : impl->suite.problems) {
      if (!p.problem.spec.kernel) {
        return Status::InvalidArgument(p.problem.dir.string() +
                                       ": no \"kernel\" section in problem.json for --form kernel");
      }
    }
    // The two forms are two benchmarks: their rows never mix or resume each other.
    impl->suite.name += "/kernel";
  }
  RG_ASSIGN_OR_RETURN(impl->store, ResultsStore::Open(impl->db));
  return std::unique_ptr<Bench>(new Bench(std::move(impl)));
}

bench::RunnerOptions Bench::Impl::RunnerOptions() {
  bench::RunnerOptions ro;
  const VerifyOptions& vo = verifier->options();
  // What ran, in every row (ResultRow::run_json); its exit status is added by Finish.
  run_id = llm::UtcNowIso() + "-" + std::to_string(::getpid());
  ro.run_json = OrderedJson{
      {"run_id", run_id},
      {"command", options.command},
      {"version", options.version},
      {"commit", options.commit},
      {"device", vo.emulated() ? OrderedJson(std::string(kEmulatorGpuName)) : OrderedJson(nullptr)},
      {"emulated",
       vo.emulated()}}.dump();
  ro.method = options.method;
  ro.samples = options.samples;
  ro.shard_index = shard.index;
  ro.shard_count = shard.count;
  ro.resume = options.resume;
  ro.seed = options.search.options.seed;
  ro.progress = options.progress;
  ro.prepare_jobs = options.jobs;
  ro.stop = [this]() -> std::string {
    if (options.interrupted) {
      if (std::string why = options.interrupted(); !why.empty()) return why;
    }
    const int max = options.max_endpoint_failures;
    if (endpoint_in_a_row.load() > max) {
      std::lock_guard lock(last_endpoint_mu);
      return "endpoint: more than " + std::to_string(max) +
             " failed model requests in a row (--max-endpoint-failures); last: " +
             last_endpoint_error;
    }
    return "";
  };
  return ro;
}

OrderedJson Bench::Impl::BaseConfig() const {
  const VerifyOptions& vo = verifier->options();
  return {{"method", options.method},    {"archs", vo.archs},
          {"nvcc_flags", vo.nvcc_flags}, {"reference_flags", vo.reference_flags},
          {"timing", vo.timing},         {"cpu_candidate", vo.cpu_candidate()},
          {"emulate", vo.emulated()},       {"form", vo.kernel_form ? "kernel" : "dropin"}};
}

Result<bench::MethodFn> Bench::Impl::RulesMethod(OrderedJson* cfg) {
  if (options.verify.kernel_form) {
    return Status::InvalidArgument("--method rules writes drop-ins only: use --form dropin");
  }
  // No model: each problem's seed, verified like any candidate; a problem
  // the rules refuse is a failed sample saying why.
  (*cfg)["seed_step"] = "rules";
  return bench::MethodFn(
      [this](const bench::SuiteProblem& p, int, uint64_t) -> Result<bench::SampleOutcome> {
        bench::SampleOutcome o;
        const seed::Seed& s = seeds.Get(p.problem);
        if (!s.written) {
          o.result.verdict = Verdict::kCompileError;
          o.result.detail = "no seed from the rules (" + s.category + "): " + s.reason;
          return o;
        }
        o.source = s.code;
        RG_ASSIGN_OR_RETURN(o.result, verifier->Verify(p.problem, o.source));
        ++o.verifications;
        if (Cancelled(options.cancel)) o.incomplete = "interrupted during its verification";
        return o;
      });
}

Result<bench::MethodFn> Bench::Impl::ReferenceMethod(bench::RunnerOptions* ro) {
  // The expert solution of the form: solution.cu (drop-in) or kernel.cu.
  const bool kernel = options.verify.kernel_form;
  auto expert = [kernel](const bench::SuiteProblem& p) -> const std::optional<std::string>& {
    return kernel ? p.problem.kernel_solution_source : p.problem.solution_source;
  };
  for (const auto& p : suite.problems) {
    if (!expert(p)) {
      return Status::InvalidArgument(p.problem.dir.string() + ": no " +
                                     (kernel ? "kernel.cu" : "solution.cu") +
                                     " for --method reference");
    }
  }
  ro->prepare = [this, expert](const bench::SuiteProblem& p) {
    return verifier->Prepare(p.problem, *expert(p));
  };
  // No model to wait for: `jobs` verifications at once, as the compiles. The
  // verifier keeps timed phases apart (the GPU lock, the machine's timing
  // lock and its timing CPU); correctness runs and the emulator fill the
  // other cores.
  ro->jobs = std::max(1, options.jobs);
  return bench::MethodFn(
      [this, expert](const bench::SuiteProblem& p, int, uint64_t) -> Result<bench::SampleOutcome> {
        bench::SampleOutcome o;
        o.source = *expert(p);
        RG_ASSIGN_OR_RETURN(o.result, verifier->Verify(p.problem, o.source));
        if (Cancelled(options.cancel)) o.incomplete = "interrupted during its verification";
        o.builds = 1;
        o.builds_cached = o.result.compile_cached;
        caches.Add(o);
        return o;
      });
}

Status Bench::Impl::LoadKernelTasks() {
  const std::string& file = options.pareval_prompts;
  if (!file.empty()) {
    RG_ASSIGN_OR_RETURN(kernel_tasks, bench::LoadParEvalPrompts(file));
  }
  for (const auto& p : suite.problems) {
    if (kernel_tasks.count(p.problem.spec.name)) continue;
    if (!file.empty())
      Note("note: " + p.problem.spec.name + " has no cuda prompt in " + file +
           ": using its description and signature");
    kernel_tasks[p.problem.spec.name] = bench::KernelTaskFromSpec(p.problem);
  }
  return Status::Ok();
}

void Bench::Impl::FillSearchEnv(const BenchSearchEnv& env) {
  search_env.method = options.method;
  search_env.options = options.search.options;
  search_env.options.arch =
      Join(verifier->options().archs, ", ");  // the prompt names what candidates are compiled for
  search_env.graph = env.graph;
  search_env.examples = env.examples;
  search_env.llm = env.llm;
  search_env.prompts = env.prompts;
  search_env.evaluator = evaluator.get();
  search_env.cancel = options.cancel;
  search_env.endpoint_failures_in_a_row = &endpoint_in_a_row;
  search_env.heldout = options.search.heldout;
  search_env.prepare_task = [this](const Problem& problem, SearchTask* task) {
    if (options.verify.kernel_form) {
      task->kernel_form = true;
      task->kernel_task = kernel_tasks.at(problem.spec.name);
    } else if (options.search.seed_step == "rules" && options.method == "regrapht-mcgs") {
      const seed::Seed& s = seeds.Get(problem);
      task->seed_code = s.code;
      task->seed_note = s.written ? "" : s.category + ": " + s.reason;
    }
  };
  search_env.on_endpoint_error = [this](const std::string& error) {
    std::lock_guard lock(last_endpoint_mu);
    last_endpoint_error = error;
  };
}

Result<bench::MethodFn> Bench::Impl::SearchMethod(bench::RunnerOptions* ro, OrderedJson* cfg) {
  if (options.verify.kernel_form) RG_RETURN_IF_ERROR(LoadKernelTasks());
  RG_RETURN_IF_ERROR(NewReasoner(options.method, options.search.options).status());
  if (!options.open_search)
    return Status::InvalidArgument(options.method + ": no model given for a search method");
  RG_ASSIGN_OR_RETURN(BenchSearchEnv env, options.open_search());
  verifier_evaluator = NewVerifierEvaluator(verifier.get());
  evaluator = std::make_unique<bench::BoundedEvaluator>(verifier_evaluator.get(), options.jobs);
  ro->jobs = options.max_in_flight;
  ro->model = env.llm->ModelId();
  ExperimentSettings key = options.search;
  key.method = options.method;
  key.model = ro->model;
  *cfg = OrderedJson::parse(ExperimentKeyJson(key));
  (*cfg)["archs"] = verifier->options().archs;
  (*cfg)["form"] = options.verify.kernel_form ? "kernel" : "dropin";
  FillSearchEnv(env);
  return bench::MethodFn(
      [this](const bench::SuiteProblem& p, int, uint64_t seed) -> Result<bench::SampleOutcome> {
        RG_ASSIGN_OR_RETURN(bench::SampleOutcome o, bench::RunSearchSample(search_env, p, seed));
        caches.Add(o);  // zero for a sample cut short before its search finished
        return o;
      });
}

Result<BenchSummary> Bench::Run() {
  Impl& m = *impl_;
  VerifyOptions vo = m.options.verify;
  vo.cancel = m.options.cancel;
  m.verifier = NewVerifier(vo);
  bench::RunnerOptions ro = m.RunnerOptions();
  OrderedJson cfg = m.BaseConfig();
  Result<bench::MethodFn> method = m.options.method == "rules"       ? m.RulesMethod(&cfg)
                                   : m.options.method == "reference" ? m.ReferenceMethod(&ro)
                                                                     : m.SearchMethod(&ro, &cfg);
  if (!method.ok()) return method.status();
  ro.config_json = cfg.dump();
  RG_ASSIGN_OR_RETURN(BenchSummary s,
                      bench::RunSuite(m.suite, ro, *method, m.store.get(), SystemClock::Get()));
  m.wall_s = s.wall_s;
  s.cache_line = m.caches.Line();
  s.endpoint_failed =
      s.incomplete_endpoint > 0 || m.endpoint_in_a_row.load() > m.options.max_endpoint_failures;
  return s;
}

Status Bench::Finish(int exit_status) {
  // wall_s is the run's; a Finish without Run records 0.
  return impl_->store->FinishRun(impl_->run_id, exit_status, impl_->wall_s);
}

}  // namespace regrapht
