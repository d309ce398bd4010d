// Pipelining (pipeline.h): the same search with and without it gives
// byte-identical attempts, trees, events and stops; the model really works
// while a candidate is verified; a cancellation mid-pipeline ends cleanly.
#include "search/pipeline.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/clock.h"
#include "core/hash.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "graph/retrieval.h"
#include "search/attempt_json.h"
#include "search/fakes.h"
#include "search/prompts.h"
#include "search/simulated.h"
#include "verify/test_util.h"

namespace regrapht::search {
namespace {

using namespace std::chrono_literals;

const Graph& ShippedGraph() {
  static const Graph* g = [] {
    auto loaded = LoadGraph(testing_util::SourceDir() / "data" / "graph" / "regrapht.json");
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    return new Graph(std::move(*loaded));
  }();
  return *g;
}

std::map<std::string, std::string> Names(const Graph& g) {
  std::map<std::string, std::string> names;
  for (NodeId n = 0; n < g.num_nodes(); ++n) names[g.node(n).name] = g.node(n).technique;
  return names;
}

// Scores code; about one candidate in `fail_one_in` fails (all when
// 1). Each verification takes 1.5 s on the FakeClock, advanced by the
// thread that runs the search (as the harness would take that time).
class ClockedEvaluator final : public CandidateEvaluator {
 public:
  ClockedEvaluator(FakeClock* clock, uint64_t fail_one_in) : clock_(clock), fail_one_in_(fail_one_in) {}
  Result<VerifyResult> Evaluate(const Problem&, const std::string& code) override {
    clock_->Advance(1.5);
    if (sleep_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
    VerifyResult r;
    if (Hash64(code) % fail_one_in_ == 0) {
      r.verdict = Verdict::kWrongAnswer;
      r.detail = "scripted: wrong answer for " + PathOf(code);
      return r;
    }
    r.verdict = Verdict::kCorrect;
    r.speedup = 1.0 + static_cast<double>(Hash64(code, 7) % 300) / 100.0;
    return r;
  }

  int sleep_ms = 0;  // real time each verification takes as well

 private:
  FakeClock* clock_;
  uint64_t fail_one_in_;
};

// PathModel's replies with a line that depends on the seed, so that
// samples of one prompt are different code (some verified, some reused).
class SeededModel final : public LlmBackend {
 public:
  explicit SeededModel(LlmBackend* inner) : inner_(inner) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    auto r = inner_->Chat(request);
    if (r.ok() && !r->choices.empty()) {
      std::string& text = r->choices[0].text;
      if (StartsWith(text, "```cuda\n")) {
        text.insert(8, "// sample " + std::to_string(request.sampling.seed % 4) + "\n");
      }
    }
    return r;
  }
  std::string Name() const override { return "seeded"; }
  std::string ModelId() const override { return "seeded"; }

 private:
  LlmBackend* inner_;
};

struct Searched {
  std::string text;  // everything the search produced, as one string
  SearchOutcome outcome;
};

Searched RunSearch(const std::string& method, SearchOptions o, uint64_t fail_one_in) {
  static const Problem problem = testing_util::LoadBundled("saxpy");
  static const ExampleIndex index(ShippedGraph());
  static const PromptLibrary prompts;
  PathModel paths(Names(ShippedGraph()));
  SeededModel model(&paths);
  FakeClock clock;
  ClockedEvaluator eval(&clock, fail_one_in);
  SearchTask task;
  task.problem = &problem;
  task.graph = &ShippedGraph();
  task.examples = &index;
  std::string events;
  SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
  ctx.on_event = [&](const SearchEvent& e) {
    events += std::to_string(e.generation) + "/" + std::to_string(e.iteration) + " " + e.action + " " +
              e.verdict + " " + std::to_string(e.best_speedup) + "\n";
  };
  auto r = NewReasoner(method, o);
  EXPECT_TRUE(r.ok());
  auto out = (*r)->Run(task, ctx);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  Searched run;
  run.outcome = *out;
  run.text = AttemptsToJson(out->attempts, AttemptDetail::kFull).dump(1) + "\n" + out->tree_json + "\n" +
             out->stop_reason + "\ngenerations " + std::to_string(out->generations) + " verifications " +
             std::to_string(out->verifications) + " tokens " + std::to_string(out->tokens_prompt) + "/" +
             std::to_string(out->tokens_generated) + " best " + std::to_string(out->best) + " " +
             out->best_rule + "\nwall " + std::to_string(out->wall_s) + "\n" + events;
  return run;
}

struct Case {
  std::string method;
  Budget budget;
  uint64_t fail_one_in;
};

TEST(PipelineTest, SameSearchWithAndWithoutPipelining) {
  std::vector<Case> cases;
  for (std::string m : {"regrapht-mcgs", "regrapht", "best-of-n", "rethink-mcts", "mcts-rag"}) {
    for (int g : {1, 2, 5, 13, 30}) cases.push_back({m, {g, 0, 0}, 3});
    cases.push_back({m, {12, 0, 0}, 1});   // every candidate fails: the weak model's case
    cases.push_back({m, {30, 6, 0}, 3});   // a verification budget
    cases.push_back({m, {40, 0, 10}, 3});  // 10 s: the 7th verification reaches it
  }
  int compared = 0, used = 0, discarded = 0;
  for (const Case& c : cases) {
    for (uint64_t seed : {1, 2, 3}) {
      SearchOptions o;
      o.budget = c.budget;
      o.seed = seed;
      o.max_depth = 4;
      Searched sequential = RunSearch(c.method, o, c.fail_one_in);
      for (int depth : {2, 3, 5}) {
        SearchOptions p = o;
        p.pipeline = depth;
        Searched piped = RunSearch(c.method, p, c.fail_one_in);
        ASSERT_EQ(piped.text, sequential.text) << c.method << " seed " << seed << " pipeline " << depth
                                               << " budget " << c.budget.max_generations << "/"
                                               << c.budget.max_verifications << "/" << c.budget.max_wall_seconds;
        EXPECT_EQ(sequential.outcome.pipeline_speculated, 0);
        EXPECT_EQ(piped.outcome.pipeline_speculated, piped.outcome.pipeline_used + piped.outcome.discarded_generations)
            << c.method;
        used += piped.outcome.pipeline_used;
        discarded += piped.outcome.discarded_generations;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 5 * 8 * 3 * 3);
  // The pipeline did work: most replies came from it, and wrong guesses
  // (a candidate that passed) were thrown away without changing anything.
  EXPECT_GT(used, 1000);
  EXPECT_GT(discarded, 10);
}

TEST(PipelineTest, BestOfNWithRequestsInFlightToo) {
  SearchOptions o;
  o.budget.max_generations = 11;
  o.max_in_flight = 3;
  Searched sequential = RunSearch("best-of-n", o, 3);
  o.pipeline = 4;
  Searched piped = RunSearch("best-of-n", o, 3);
  EXPECT_EQ(piped.text, sequential.text);
  EXPECT_GT(piped.outcome.pipeline_used, 0);
}

TEST(PipelineTest, SimulationUnchanged) {
  SearchOptions base;
  base.max_depth = 6;
  auto off = RunSimulation(ShippedGraph(), {"regrapht-mcgs", "regrapht", "best-of-n"}, {5, 20}, 4, base);
  base.pipeline = 3;
  auto on = RunSimulation(ShippedGraph(), {"regrapht-mcgs", "regrapht", "best-of-n"}, {5, 20}, 4, base);
  ASSERT_TRUE(off.ok() && on.ok());
  ASSERT_EQ(off->size(), on->size());
  for (size_t i = 0; i < off->size(); ++i) {
    EXPECT_EQ((*off)[i].mean_best, (*on)[i].mean_best);
    EXPECT_EQ((*off)[i].median_best, (*on)[i].median_best);
    EXPECT_EQ((*off)[i].solved, (*on)[i].solved);
    EXPECT_EQ((*off)[i].mean_generations, (*on)[i].mean_generations);
  }
}

// What happened when, across the search's thread and the pipeline's.
class Timeline {
 public:
  void Add(std::string what) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back(std::move(what));
    cv_.notify_all();
  }
  // Waits (at most `limit`) until `what` was logged.
  bool WaitFor(const std::string& what, std::chrono::milliseconds limit) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, limit, [&] { return std::find(log_.begin(), log_.end(), what) != log_.end(); });
  }
  std::vector<std::string> log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> log_;
};

// A model that logs when each generation starts and ends (numbered by
// arrival), and does not end one numbered `hold_from` or later before it
// is cancelled.
class LoggingModel final : public LlmBackend {
 public:
  LoggingModel(LlmBackend* inner, Timeline* t) : inner_(inner), t_(t) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    int k = ++started_;
    t_->Add("gen " + std::to_string(k) + " start");
    if (k >= hold_from_) {
      while (!(request.cancel && request.cancel->load())) std::this_thread::sleep_for(1ms);
      t_->Add("gen " + std::to_string(k) + " cancelled");
      ChatResponse cut;
      cut.choices.push_back({"", FinishReason::kCancelled, 7, 0, {}});
      cut.tokens_generated = 7;
      return cut;
    }
    auto r = inner_->Chat(request);
    t_->Add("gen " + std::to_string(k) + " end");
    return r;
  }
  std::string Name() const override { return "logging"; }
  std::string ModelId() const override { return "logging"; }
  std::atomic<int> started_{0};
  int hold_from_ = 1 << 30;

 private:
  LlmBackend* inner_;
  Timeline* t_;
};

// A verification that does not end before the model started the next
// generation (or 5 s passed), and logs both ends.
class WaitingEvaluator final : public CandidateEvaluator {
 public:
  WaitingEvaluator(Timeline* t, LoggingModel* m) : t_(t), m_(m) {}
  Result<VerifyResult> Evaluate(const Problem&, const std::string&) override {
    int i = ++verified_;
    t_->Add("verify " + std::to_string(i) + " start");
    if (i < wait_upto) t_->WaitFor("gen " + std::to_string(i + 1) + " start", 5000ms);
    if (on_verify) on_verify(i);
    t_->Add("verify " + std::to_string(i) + " end");
    VerifyResult r;
    r.verdict = Verdict::kWrongAnswer;  // every candidate fails: the guess is right
    r.detail = "scripted";
    return r;
  }
  std::function<void(int)> on_verify;
  int wait_upto = 1 << 30;  // verifications from this one on do not wait

 private:
  Timeline* t_;
  LoggingModel* m_;
  int verified_ = 0;
};

size_t IndexOf(const std::vector<std::string>& log, const std::string& what) {
  return static_cast<size_t>(std::find(log.begin(), log.end(), what) - log.begin());
}

TEST(PipelineTest, TheModelGeneratesTheNextCandidateWhileOneIsVerified) {
  for (std::string method : {"regrapht-mcgs", "regrapht"}) {
    const Problem problem = testing_util::LoadBundled("saxpy");
    const ExampleIndex index(ShippedGraph());
    const PromptLibrary prompts;
    PathModel paths(Names(ShippedGraph()));
    Timeline t;
    LoggingModel model(&paths, &t);
    WaitingEvaluator eval(&t, &model);
    eval.wait_upto = 4;  // the 4th is the budget's last
    SearchTask task;
    task.problem = &problem;
    task.graph = &ShippedGraph();
    task.examples = &index;
    FakeClock clock;
    SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
    SearchOptions o;
    o.budget.max_generations = 4;
    o.pipeline = 2;
    auto r = NewReasoner(method, o);
    auto out = (*r)->Run(task, ctx);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->generations, 4);
    auto log = t.log();
    // Generations 2..4 started while candidates 1..3 were verified.
    for (int i = 1; i <= 3; ++i) {
      std::string v = std::to_string(i), next = std::to_string(i + 1);
      EXPECT_LT(IndexOf(log, "gen " + next + " start"), IndexOf(log, "verify " + v + " end")) << method << " " << i;
      EXPECT_GT(IndexOf(log, "gen " + next + " start"), IndexOf(log, "gen " + v + " end")) << method << " " << i;
    }
    EXPECT_EQ(model.started_.load(), 4);  // the budget's end: nothing generated past it
    EXPECT_EQ(out->pipeline_used, 3);
    EXPECT_EQ(out->discarded_generations, 0);
  }
}

TEST(PipelineTest, CancelMidPipelineEndsCleanly) {
  const Problem problem = testing_util::LoadBundled("saxpy");
  const ExampleIndex index(ShippedGraph());
  const PromptLibrary prompts;
  PathModel paths(Names(ShippedGraph()));
  Timeline t;
  LoggingModel model(&paths, &t);
  WaitingEvaluator eval(&t, &model);
  std::atomic<bool> cancel{false};
  // While candidate 1 is verified, generation 2 runs ahead and holds on
  // until it is cancelled; then Ctrl-C.
  model.hold_from_ = 2;
  eval.on_verify = [&](int i) {
    if (i == 1) cancel = true;
  };
  SearchTask task;
  task.problem = &problem;
  task.graph = &ShippedGraph();
  task.examples = &index;
  FakeClock clock;
  SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
  ctx.cancel = &cancel;
  SearchOptions o;
  o.budget.max_generations = 10;
  o.pipeline = 2;
  auto r = NewReasoner("regrapht-mcgs", o);
  auto start = std::chrono::steady_clock::now();
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);
  EXPECT_TRUE(out->interrupted);
  EXPECT_EQ(out->generations, 1);  // the speculative one is not a generation
  EXPECT_EQ(out->attempts.size(), 1u);
  EXPECT_EQ(out->pipeline_speculated, 1);
  EXPECT_EQ(out->discarded_generations, 1);
  EXPECT_EQ(out->tokens_discarded, 7);
  EXPECT_EQ(out->tokens_generated, out->attempts[0].tokens_generated);
  auto log = t.log();
  EXPECT_NE(std::find(log.begin(), log.end(), "gen 2 cancelled"), log.end());
}

// A model that records the sizes of the batches it is sent.
class BatchSizes final : public LlmBackend {
 public:
  explicit BatchSizes(LlmBackend* inner) : inner_(inner) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override { return inner_->Chat(request); }
  Result<std::vector<ChatResponse>> ChatBatch(const std::vector<ChatRequest>& requests) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      sizes.push_back(requests.size());
    }
    return LlmBackend::ChatBatch(requests);
  }
  std::string Name() const override { return "batches"; }
  std::string ModelId() const override { return "batches"; }
  std::mutex mu_;
  std::vector<size_t> sizes;

 private:
  LlmBackend* inner_;
};

TEST(PipelineTest, RequestsSentAheadTogetherGoAsOneBatch) {
  const Problem problem = testing_util::LoadBundled("saxpy");
  const ExampleIndex index(ShippedGraph());
  const PromptLibrary prompts;
  PathModel paths(Names(ShippedGraph()));
  BatchSizes model(&paths);
  FakeClock clock;
  ClockedEvaluator eval(&clock, 1);  // every candidate fails: MCGS's next steps are all known
  eval.sleep_ms = 100;               // time for the pipeline's worker to take what is queued
  SearchTask task;
  task.problem = &problem;
  task.graph = &ShippedGraph();
  task.examples = &index;
  SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
  SearchOptions o;
  o.budget.max_generations = 9;
  o.pipeline = 4;
  auto out = (*NewReasoner("regrapht-mcgs", o))->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  std::lock_guard<std::mutex> lock(model.mu_);
  ASSERT_FALSE(model.sizes.empty());
  EXPECT_EQ(model.sizes[0], 3u);  // the three steps after the first, with different prompts, in one batch
}

// ---- Pipeline and Lookahead alone ----------------------------------------------------

ChatRequest Req(const std::string& text, uint64_t seed) {
  ChatRequest r;
  r.messages = {{Role::kUser, text}};
  r.sampling.seed = seed;
  return r;
}

TEST(PipelineTest, RequestKeyCoversWhatChangesTheReply) {
  ChatRequest a = Req("x", 1);
  EXPECT_EQ(RequestKey(a), RequestKey(Req("x", 1)));
  EXPECT_NE(RequestKey(a), RequestKey(Req("x", 2)));
  EXPECT_NE(RequestKey(a), RequestKey(Req("y", 1)));
  ChatRequest b = a;
  b.shape.grammar = "root ::= \"a\"";
  EXPECT_NE(RequestKey(a), RequestKey(b));
  b = a;
  b.sampling.temperature = 0.1f;
  EXPECT_NE(RequestKey(a), RequestKey(b));
  std::atomic<bool> flag{false};
  b = a;
  b.cancel = &flag;
  b.on_progress = [](const GenerationProgress&) {};
  EXPECT_EQ(RequestKey(a), RequestKey(b));
}

TEST(PipelineTest, AMissDropsTheOtherGuesses) {
  PathModel paths({});
  Pipeline p(&paths, 1);
  p.Speculate({Req("one", 1), Req("two", 2)});
  while (p.stats().speculated < 2) std::this_thread::sleep_for(1ms);  // both sent
  auto got = p.Claim({RequestKey(Req("one", 1))}, nullptr);
  ASSERT_TRUE(got[0].has_value());
  EXPECT_TRUE(got[0]->ok());
  got = p.Claim({RequestKey(Req("three", 3))}, nullptr);  // not guessed: "two" goes
  EXPECT_FALSE(got[0].has_value());
  got = p.Claim({RequestKey(Req("two", 2))}, nullptr);
  EXPECT_FALSE(got[0].has_value());
  p.Stop();
  PipelineStats s = p.stats();
  EXPECT_EQ(s.used, 1);
  EXPECT_EQ(s.speculated, 2);
  EXPECT_EQ(s.discarded, 1);
}

TEST(PipelineTest, LookaheadStopsAtARequestThatQuotesAnUnknownVerdict) {
  // rethink-mcts refines a failing first version with the verifier's
  // message: with that verdict unknown nothing can be sent ahead.
  const Problem problem = testing_util::LoadBundled("saxpy");
  const PromptLibrary prompts;
  SearchTask task;
  task.problem = &problem;
  SearchOptions o;
  o.budget.max_generations = 5;
  Lookahead ahead("rethink-mcts", o, task, &prompts);
  auto first = ahead.Predict(3);
  ASSERT_EQ(first.size(), 1u);  // the first version; the refinement would quote its verdict
  PathModel paths({});
  ahead.RecordReply(first[0], paths.Chat(first[0]));
  EXPECT_TRUE(ahead.Predict(3).empty());
}

}  // namespace
}  // namespace regrapht::search
