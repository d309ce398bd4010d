#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "core/clock.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "graph/retrieval.h"
#include "regrapht/search.h"
#include "search/attempt_json.h"
#include "search/fakes.h"
#include "search/progress_text.h"
#include "search/simulated.h"
#include "search/prompts.h"
#include "verify/test_util.h"

namespace regrapht::search {
namespace {

SearchTask MakeTask(const Problem* p, const Graph* g, const ExampleIndex* x) {
  SearchTask t;
  t.problem = p;
  t.graph = g;
  t.examples = x;
  return t;
}

// A small reasoning graph with a cycle (tile <-> unroll) and a self-loop
// (unroll -> unroll):
//
//   init --> map --> tile <--> unroll (self-loop)
//     \-----> grid ----^
//              \--> bad
struct TestGraph {
  Graph g;
  std::map<std::string, std::string> names;  // display name -> id
  NodeId Add(const std::string& id) {
    NodeSpec s;
    s.name = "Tech " + id;
    s.technique = id;
    s.description = "Apply " + id + " to the code";
    names[s.name] = id;
    return *g.AddNode(s);
  }
  void Link(NodeId a, NodeId b, int examples) {
    EdgeId e = *g.AddEdge(a, b);
    for (int i = 0; i < examples; ++i) {
      Example ex;
      ex.kernel = "k" + std::to_string(e) + "_" + std::to_string(i);
      ex.think = "because";
      ex.detail = "like this";
      ex.before = "void before_" + std::to_string(i) + "() { loop(); }";
      ex.after = "__global__ void after_" + std::to_string(i) + "() {}";
      g.AddExample(e, ex);
    }
  }
  TestGraph() {
    NodeId map = Add("map"), grid = Add("grid"), tile = Add("tile"), unroll = Add("unroll"), bad = Add("bad");
    Link(kInitNode, map, 3);
    Link(kInitNode, grid, 1);
    Link(map, tile, 2);
    Link(grid, tile, 1);
    Link(grid, bad, 1);
    Link(tile, unroll, 2);
    Link(unroll, tile, 1);
    Link(unroll, unroll, 1);
  }
};

// Speedup of a technique path: each technique multiplies; "bad" breaks the
// code; applying "unroll" twice in a row breaks it too.
double Score(const std::string& path) {
  if (path.find("bad") != std::string::npos) return 0;
  if (path.find("unroll>unroll") != std::string::npos) return 0;
  double s = 1;
  for (const auto& t : Split(path, '>')) {
    if (t == "map" || t == "standard") s *= 2;
    else if (t == "grid") s *= 1.5;
    else if (t == "tile") s *= 3;
    else if (t == "unroll") s *= 1.2;
  }
  return s;
}

class SearchTest : public testing::Test {
 protected:
  SearchTest() : problem_(testing_util::LoadBundled("saxpy")), index_(tg_.g), model_(tg_.names), eval_(Score) {}

  Result<SearchOutcome> RunMethod(const std::string& method, SearchOptions o) {
    auto r = NewReasoner(method, o);
    if (!r.ok()) return r.status();
    SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
    SearchContext ctx{&model_, &eval_, &prompts_, &clock_, nullptr};
    return (*r)->Run(task, ctx);
  }

  TestGraph tg_;
  Problem problem_;
  ExampleIndex index_;
  PathModel model_;
  PathEvaluator eval_;
  PromptLibrary prompts_;
  FakeClock clock_;
};

TEST_F(SearchTest, McgsExpandsAllSuccessorsAndPrefersCommonTransitions) {
  SearchOptions o;
  o.budget.max_generations = 1;
  auto out = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->attempts.size(), 1u);
  // Both successors of init were expanded; the one with more examples (map) went first.
  EXPECT_EQ(out->attempts[0].action, "map");
  Json tree = Json::parse(out->tree_json);
  EXPECT_EQ(tree["nodes"][0]["edges"].size(), 2u);
  EXPECT_EQ(out->stop_reason, "budget: 1 generation");
}

TEST_F(SearchTest, McgsFindsTheBestPathAndBacksUpTheMaximum) {
  SearchOptions o;
  o.budget.max_generations = 8;
  o.max_depth = 4;
  auto out = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->generations, 8);
  EXPECT_EQ(out->stop_reason, "budget: 8 generations");
  ASSERT_TRUE(out->best_verified);
  const Attempt* best = out->best_attempt();
  ASSERT_NE(best, nullptr);
  // map(2) * tile(3) * unroll(1.2) * tile(3) = 21.6 is the best path of depth 4.
  EXPECT_NEAR(best->speedup, 21.6, 1e-9) << PathOf(best->code);
  EXPECT_EQ(PathOf(best->code), "map>tile>unroll>tile");
  EXPECT_EQ(out->best_path.size(), 4u);
  Json tree = Json::parse(out->tree_json);
  // The root's value is a mean of backed-up maxima: at least the first
  // rollout's max (map -> ... every state is >= 2).
  EXPECT_GE(std::stod(tree["nodes"][0]["q"].get<std::string>()), 2.0);
  // Every iteration logged its selection path from the root.
  for (const auto& it : tree["iterations"]) EXPECT_EQ(it["selection"][0], 0);
}

TEST_F(SearchTest, RolloutStopsAtTheFirstFailingStep) {
  SearchOptions o;
  o.budget.max_generations = 40;
  o.max_depth = 6;
  auto out = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok());
  // No attempt ever continues from a failed one.
  for (const auto& a : out->attempts) {
    if (a.parent >= 0) {
      EXPECT_NE(out->attempts[a.parent].reward, -1.0) << a.action;
    }
  }
  // Failures were explored (bad, unroll>unroll) and are terminal in the tree.
  bool saw_failure = false;
  for (const auto& a : out->attempts) saw_failure |= a.reward == -1.0;
  EXPECT_TRUE(saw_failure);
  Json tree = Json::parse(out->tree_json);
  for (const auto& n : tree["nodes"]) {
    if (n["failed"].get<bool>()) {
      for (const auto& e : n["edges"]) EXPECT_EQ(e["child"], -1);
    }
  }
}

TEST_F(SearchTest, CyclesAndStepCap) {
  SearchOptions o;
  o.budget.max_generations = 200;
  o.max_depth = 3;
  auto out = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok());
  for (const auto& a : out->attempts) {
    EXPECT_LE(Split(PathOf(a.code), '>').size(), 3u) << PathOf(a.code);
  }
  // The graph's cycle makes deeper states, not loops: the space is finite at
  // depth 3 and the search says so before the budget.
  EXPECT_LT(out->generations, 200);
  EXPECT_EQ(out->stop_reason, "search space exhausted (every reachable step generated or terminal)");
}

TEST_F(SearchTest, SameSeedSameTree) {
  SearchOptions o;
  o.budget.max_generations = 30;
  o.rollout_epsilon = 0.3;
  auto a = RunMethod("regrapht-mcgs", o);
  PathModel model2(tg_.names);
  PathEvaluator eval2(Score);
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&model2, &eval2, &prompts_, &clock_, nullptr};
  auto b = (*r)->Run(task, ctx);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->tree_json, b->tree_json);
  o.seed = 99;
  auto c = RunMethod("regrapht-mcgs", o);
  EXPECT_NE(a->tree_json, c->tree_json);
}

// Passes requests to PathModel and keeps the user messages it saw.
class RecordingModel final : public LlmBackend {
 public:
  explicit RecordingModel(LlmBackend* inner) : inner_(inner) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    prompts.push_back(request.messages.back().content);
    systems.push_back(request.messages.front().content);
    shapes.push_back(request.shape);
    return inner_->Chat(request);
  }
  std::string Name() const override { return "recording"; }
  std::string ModelId() const override { return inner_->ModelId(); }
  std::vector<std::string> prompts, systems;
  std::vector<OutputShape> shapes;

 private:
  LlmBackend* inner_;
};

// Every model request carries the context's generation callback (so the
// embedded backend can report tokens as they come), and each step's event
// says why a failed attempt failed and how many tokens its reply took.
TEST_F(SearchTest, EventsCarryTheReasonAndRequestsTheProgressCallback) {
  for (const char* method : {"standard", "regrapht-mcgs", "best-of-n"}) {
    SearchOptions o;
    o.budget.max_generations = 20;  // MCGS reaches the failing "bad" step
    auto r = NewReasoner(method, o);
    ASSERT_TRUE(r.ok());
    struct Progressed final : public LlmBackend {
      explicit Progressed(LlmBackend* inner) : inner(inner) {}
      Result<ChatResponse> Chat(const ChatRequest& request) override {
        all_have_progress = all_have_progress && static_cast<bool>(request.on_progress);
        if (request.on_progress) request.on_progress({7, 64, 0.5});
        return inner->Chat(request);
      }
      std::string Name() const override { return "progressed"; }
      std::string ModelId() const override { return inner->ModelId(); }
      LlmBackend* inner;
      bool all_have_progress = true;
    } model(&model_);
    std::vector<SearchEvent> events;
    int progress_calls = 0;
    SearchContext ctx{&model, &eval_, &prompts_, &clock_, nullptr};
    ctx.on_event = [&](const SearchEvent& e) { events.push_back(e); };
    ctx.on_generation = [&](const GenerationProgress& g) {
      EXPECT_EQ(g.tokens, 7);
      ++progress_calls;
    };
    auto out = (*r)->Run(MakeTask(&problem_, &tg_.g, &index_), ctx);
    ASSERT_TRUE(out.ok()) << method;
    EXPECT_TRUE(model.all_have_progress) << method;
    EXPECT_GT(progress_calls, 0) << method;
    bool saw_failure_reason = false;
    for (const auto& e : events) {
      if (e.verdict.empty() || e.verdict == "correct") continue;
      EXPECT_NE(e.detail.find("scripted: wrong answer"), std::string::npos) << method << ": " << e.detail;
      saw_failure_reason = true;
    }
    if (std::string(method) == "regrapht-mcgs") {
      EXPECT_TRUE(saw_failure_reason);
    }
  }
}

TEST(ProgressTextTest, StepAndGenerationLines) {
  SearchEvent e;
  e.generation = 3;
  e.iteration = 2;
  e.action = "memory_coalescing";
  e.verdict = "static_reject";
  e.best_speedup = 0;
  e.tokens_generated = 312;
  e.detail = "rule launches-kernel: none of the kernels (k) is launched\nline 2 of the detail";
  std::string line = StepLine(e, 16);
  EXPECT_EQ(line,
            "[gen   3/16] iter 2   memory_coalescing              -> static_reject    best -  312 tokens  "
            "(rule launches-kernel: none of the kernels (k) is launched)");
  e.verdict = "correct";
  e.best_speedup = 2.5;
  EXPECT_EQ(StepLine(e, 16).find("rule"), std::string::npos) << "no reason for a correct step";
  EXPECT_NE(StepLine(e, 16).find("best 2.50x"), std::string::npos);
  e.verdict = "wrong_answer";
  e.detail = std::string(150, 'x');
  EXPECT_NE(StepLine(e, 16).find("  (" + std::string(97, 'x') + "...)"), std::string::npos)
      << "the reason is cut to 100 characters";
  EXPECT_EQ(GenerationLine({120, 512, 10}), "generating 120/512 tokens, 12.0 tokens/s, at most 33 s left");
  EXPECT_EQ(GenerationLine({0, 512, 0}), "generating 0/512 tokens");
  e.verdict = "compile_error";
  e.detail = "x";
  e.reply_cached = true;
  EXPECT_NE(StepLine(e, 16).find("tokens (reply from the response cache)"), std::string::npos) << StepLine(e, 16);
}

TEST(ProgressTextTest, TheStatusLineSaysWhereTheRunIs) {
  RunStatus st;
  st.elapsed_s = 42;
  st.limit_s = 60;
  st.phase = "generating";
  st.generation = 2;
  st.budget = 8;
  st.tokens_known = true;
  st.tokens = {180, 512, 4.5};
  st.checked = 1;
  EXPECT_EQ(StatusLineText(st),
            "progress   0m42s of 1m00s  generating 2/8: 180/512 tokens, 40.0 tokens/s | 1 checked | best: none yet");
  st.limit_s = 0;
  st.phase = "checking the reference (build and run)";
  st.generation = 0;
  st.tokens_known = false;
  st.checked = 0;
  st.best = "1.50x";
  EXPECT_EQ(StatusLineText(st),
            "progress   0m42s (no time limit)  checking the reference (build and run) | 0 checked | best: 1.50x");
}

// The system prompt names the architecture candidates are compiled for, and
// every method's prompt asks for the answer the same way (one cuda block).
TEST_F(SearchTest, PromptsNameTheArchAndOneOutputContract) {
  for (const char* method : {"standard", "cot", "regrapht-mcgs"}) {
    SearchOptions o;
    o.budget.max_generations = 2;
    o.arch = "sm_80, sm_90";
    RecordingModel recording(&model_);
    auto r = NewReasoner(method, o);
    ASSERT_TRUE(r.ok());
    SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
    SearchContext ctx{&recording, &eval_, &prompts_, &clock_, nullptr};
    ASSERT_TRUE((*r)->Run(task, ctx).ok());
    ASSERT_FALSE(recording.systems.empty());
    EXPECT_NE(recording.systems[0].find("(sm_80, sm_90)"), std::string::npos) << method;
    EXPECT_EQ(recording.systems[0].find("sm_90)") != std::string::npos, true);
    for (const auto& p : recording.prompts) {
      EXPECT_EQ(p.find("JSON"), std::string::npos) << method << ": " << p;
    }
  }
}

// Output shaping reaches every code request (one at a time and best-of-n's
// batch) except cot's, whose reply starts with its reasoning; off by default.
TEST_F(SearchTest, CodeRequestsCarryTheOutputShape) {
  for (const char* method : {"standard", "cot", "regrapht-mcgs", "best-of-n"}) {
    for (bool on : {false, true}) {
      SearchOptions o;
      o.budget.max_generations = 3;
      o.shape.prefill = o.shape.grammar = on;
      RecordingModel recording(&model_);
      auto r = NewReasoner(method, o);
      ASSERT_TRUE(r.ok());
      SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
      SearchContext ctx{&recording, &eval_, &prompts_, &clock_, nullptr};
      ASSERT_TRUE((*r)->Run(task, ctx).ok());
      ASSERT_FALSE(recording.shapes.empty()) << method;
      for (const OutputShape& shape : recording.shapes) {
        if (!on || std::string(method) == "cot") {
          EXPECT_TRUE(shape.empty()) << method;
          continue;
        }
        EXPECT_EQ(shape.prefill, "```cuda\n#include <cuda_runtime.h>\n\n__global__ void saxpy_kernel(") << method;
        // The function with the problem's exact signature, launching a
        // kernel (the drop-in form), and the wrap-up with that launch.
        EXPECT_NE(shape.grammar.find("\"void saxpy(int n, float a, const float* x, float* y)\" ws \"{\" code "
                                     "\"<<<\" code \">>>\" code \"}\" \"\\n```\""),
                  std::string::npos)
            << method << ": " << shape.grammar;
        EXPECT_EQ(shape.wrap_up, "void saxpy(int n, float a, const float* x, float* y)") << method;
        EXPECT_EQ(shape.wrap_up_launch, "saxpy_kernel<<<") << method;
      }
    }
  }
}

TEST_F(SearchTest, McgsRetriesAFailedStepWithItsFailureThenGivesUp) {
  for (int retries : {0, 2}) {
    SearchOptions o;
    o.budget.max_generations = 60;
    o.max_depth = 3;
    o.step_retries = retries;
    RecordingModel recording(&model_);
    auto r = NewReasoner("regrapht-mcgs", o);
    ASSERT_TRUE(r.ok());
    SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
    SearchContext ctx{&recording, &eval_, &prompts_, &clock_, nullptr};
    auto out = (*r)->Run(task, ctx);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    // grid -> bad always fails: it is tried 1 + retries times, never more.
    int bad = 0;
    for (const auto& a : out->attempts) bad += a.action == "bad";
    EXPECT_EQ(bad, 1 + retries) << "retries " << retries;
    // Every retry's prompt carries the previous failure; first tries do not.
    int with_failure = 0;
    for (const auto& p : recording.prompts) {
      with_failure += p.find("Your previous attempt at this step failed") != std::string::npos;
    }
    if (retries == 0) {
      EXPECT_EQ(with_failure, 0);
    } else {
      EXPECT_GE(with_failure, retries);  // at least the retries of grid -> bad
    }
  }
}

TEST_F(SearchTest, GoldenTree) {
  SearchOptions o;
  o.budget.max_generations = 12;
  o.max_depth = 4;
  auto out = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok());
  fs::path golden = testing_util::SourceDir() / "tests" / "golden" / "mcgs_tree.json";
  if (std::getenv("REGRAPHT_UPDATE_GOLDEN")) {
    ASSERT_TRUE(WriteFile(golden, out->tree_json + "\n").ok());
  }
  EXPECT_EQ(out->tree_json + "\n", *ReadFile(golden));
}

// ---- The rules' first step (SearchTask::seed_code) ----

constexpr const char* kSeedCode =
    "// path: seed\n__global__ void k() {}\nvoid saxpy(int n, float a, const float* x, float* y) { k<<<1, 1>>>(); }\n";

// The seed is the root's first child, reached by the seed technique's edge
// without a generation; the model's steps then start from its code.
TEST_F(SearchTest, McgsStartsFromTheRulesSeed) {
  SearchOptions o;
  o.budget.max_generations = 4;
  auto r = NewReasoner("regrapht-mcgs", o);
  ASSERT_TRUE(r.ok());
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  task.seed_code = kSeedCode;
  task.seed_technique = "map";
  SearchContext ctx{&model_, &eval_, &prompts_, &clock_, nullptr};
  std::vector<SearchEvent> events;
  ctx.on_event = [&](const SearchEvent& e) { events.push_back(e); };
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->attempts.size(), 5u);
  const Attempt& seed = out->attempts[0];
  EXPECT_TRUE(seed.by_rules);
  EXPECT_EQ(seed.action, "map");
  EXPECT_EQ(seed.parent, -1);
  EXPECT_EQ(seed.code, kSeedCode);
  EXPECT_EQ(seed.tokens_generated, 0);
  EXPECT_EQ(seed.verdict, Verdict::kCorrect);
  EXPECT_EQ(out->generations, 4);
  EXPECT_EQ(model_.calls(), 4);
  EXPECT_EQ(out->verifications, 5);
  // The model's first step applies a technique to the seed's code.
  const Attempt& next = out->attempts[1];
  EXPECT_FALSE(next.by_rules);
  EXPECT_EQ(next.parent, 0);
  EXPECT_EQ(PathOf(next.code).rfind("seed>", 0), 0u) << PathOf(next.code);
  Json tree = Json::parse(out->tree_json);
  int seed_child = -1;
  for (const auto& e : tree["nodes"][0]["edges"]) {
    if (e["technique"] == "map") seed_child = e["child"];
  }
  ASSERT_EQ(seed_child, 1);
  EXPECT_EQ(tree["nodes"][1]["attempt"], 0);
  EXPECT_EQ(tree["iterations"][0]["selection"], Json::array({0}));
  // Its progress line says it is the rules'.
  bool line = false;
  for (const auto& e : events) line = line || (e.by_rules && StepLine(e, 4).find("map (rules)") != std::string::npos);
  EXPECT_TRUE(line);
  // The attempts JSON says who wrote it, and reads back.
  OrderedJson j = AttemptsToJson(out->attempts, AttemptDetail::kFull);
  EXPECT_EQ(j[0]["by"], "rules");
  EXPECT_FALSE(j[1].contains("by"));
  Json parsed = Json::parse(j.dump());
  auto back = AttemptsFromJson(JsonPath(parsed, "attempts"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)[0].by_rules);
  EXPECT_FALSE((*back)[1].by_rules);
}

// An empty seed is no seed: the search is the one without (GoldenTree holds
// that search as it was before seeds existed).
TEST_F(SearchTest, WithoutASeedMcgsIsUnchanged) {
  SearchOptions o;
  o.budget.max_generations = 12;
  o.max_depth = 4;
  auto plain = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(plain.ok());
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  task.seed_code = "";
  task.seed_note = "dependence: a scan";
  SearchContext ctx{&model_, &eval_, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->tree_json, plain->tree_json);
  EXPECT_EQ(AttemptsToJson(out->attempts, AttemptDetail::kFull).dump(),
            AttemptsToJson(plain->attempts, AttemptDetail::kFull).dump());
}

// A seed the harness rejects fails its edge like a failed step: the model
// may retry the technique from the sequential code.
TEST_F(SearchTest, ARejectedSeedIsAFailedStepTheModelMayRetry) {
  PathEvaluator picky([](const std::string& path) { return path == "seed" ? 0.0 : Score(path); });
  SearchOptions o;
  o.budget.max_generations = 20;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  task.seed_code = kSeedCode;
  task.seed_technique = "map";
  SearchContext ctx{&model_, &picky, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->attempts[0].verdict, Verdict::kWrongAnswer);
  EXPECT_NE(out->attempts[1].parent, 0);  // nothing starts from a failed seed
  bool retried = false;
  for (size_t i = 1; i < out->attempts.size(); ++i) {
    const Attempt& a = out->attempts[i];
    retried = retried || (a.action == "map" && a.parent == -1 && !a.by_rules);
  }
  EXPECT_TRUE(retried);
  EXPECT_NE(out->best, 0);
}

// With pipelining the seeded search is the same search.
TEST_F(SearchTest, ASeededSearchIsTheSameWithPipelining) {
  std::string trees[2], attempts[2];
  for (int k = 0; k < 2; ++k) {
    SearchOptions o;
    o.budget.max_generations = 8;
    o.pipeline = k == 0 ? 1 : 3;
    auto r = NewReasoner("regrapht-mcgs", o);
    SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
    task.seed_code = kSeedCode;
    task.seed_technique = "map";
    SearchContext ctx{&model_, &eval_, &prompts_, &clock_, nullptr};
    auto out = (*r)->Run(task, ctx);
    ASSERT_TRUE(out.ok());
    trees[k] = out->tree_json;
    attempts[k] = AttemptsToJson(out->attempts, AttemptDetail::kFull).dump();
  }
  EXPECT_EQ(trees[0], trees[1]);
  EXPECT_EQ(attempts[0], attempts[1]);
}

// "rules": the seed alone, no model; without a seed, nothing and why.
TEST_F(SearchTest, TheRulesMethodVerifiesTheSeedAlone) {
  auto r = NewReasoner("rules", SearchOptions());
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(NeedsGraph("rules"));
  SearchTask task = MakeTask(&problem_, nullptr, nullptr);
  task.seed_code = kSeedCode;
  SearchContext ctx{nullptr, &eval_, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->attempts.size(), 1u);
  EXPECT_TRUE(out->attempts[0].by_rules);
  EXPECT_EQ(out->attempts[0].action, "thread_mapping");
  EXPECT_EQ(out->generations, 0);
  EXPECT_EQ(out->verifications, 1);
  EXPECT_EQ(out->best, 0);
  task.seed_code.clear();
  task.seed_note = "dependence: line 3: a scan";
  out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->attempts.empty());
  EXPECT_EQ(out->stop_reason, "the rules wrote no seed: dependence: line 3: a scan");
}

// Rollout ties (every edge of a fresh state scores 0) go to a seeded random
// edge, not to the first inserted one: greedy rollouts differ across seeds.
TEST_F(SearchTest, RolloutTiesFollowTheSeed) {
  std::set<std::vector<std::string>> sequences;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    SearchOptions o;
    o.budget.max_generations = 8;
    o.rollout_epsilon = 0;
    o.seed = seed;
    auto out = RunMethod("regrapht-mcgs", o);
    ASSERT_TRUE(out.ok());
    std::vector<std::string> actions;
    for (const auto& a : out->attempts) actions.push_back(a.action);
    sequences.insert(actions);
  }
  EXPECT_GT(sequences.size(), 1u);
}

// N rollouts per iteration: one iteration spends more than one rollout's steps.
TEST_F(SearchTest, SeveralRolloutsPerIteration) {
  SearchOptions one, ten;
  one.budget.max_generations = ten.budget.max_generations = 30;
  one.iterations = ten.iterations = 1;
  one.rollouts = 1;
  ten.rollouts = 10;
  auto a = RunMethod("regrapht-mcgs", one);
  auto b = RunMethod("regrapht-mcgs", ten);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(b->generations, a->generations);
}

TEST_F(SearchTest, DuplicateCodeReusesVerification) {
  SearchOptions o;
  o.budget.max_generations = 5;
  auto out = RunMethod("best-of-n", o);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->generations, 5);
  EXPECT_EQ(out->verifications, 1);  // the fake model always writes the same code
  EXPECT_EQ(eval_.evaluations(), 1);
  EXPECT_TRUE(out->attempts[4].reused);
}

TEST_F(SearchTest, BudgetsStopSearches) {
  SearchOptions o;
  o.budget.max_generations = 0;
  o.budget.max_verifications = 3;
  auto out = RunMethod("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->verifications, 3);
  EXPECT_EQ(out->stop_reason, "budget: 3 verifications");
}

TEST_F(SearchTest, Baselines) {
  SearchOptions o;
  o.budget.max_generations = 10;
  auto standard = RunMethod("standard", o);
  ASSERT_TRUE(standard.ok());
  EXPECT_EQ(standard->generations, 1);
  EXPECT_EQ(PathOf(standard->attempts[0].code), "standard");
  auto cot = RunMethod("cot", o);
  ASSERT_TRUE(cot.ok());
  EXPECT_EQ(cot->generations, 1);
  auto rag = RunMethod("rag", o);
  ASSERT_TRUE(rag.ok()) << rag.status().ToString();
  EXPECT_EQ(rag->generations, 1);
  EXPECT_NE(rag->attempts[0].action.find("examples"), std::string::npos);
  SearchOptions short_walks = o;
  short_walks.max_depth = 2;
  auto walk = RunMethod("regrapht", short_walks);
  ASSERT_TRUE(walk.ok());
  // The walk ablation spends the same budget as MCGS: walks repeat from the
  // sequential code until it is gone.
  EXPECT_EQ(walk->generations, 10) << walk->stop_reason;
  int walks = 0;
  for (const auto& a : walk->attempts) walks += a.parent < 0;
  EXPECT_GE(walks, 2);
  for (const auto& a : walk->attempts) {
    if (a.parent >= 0) {
      EXPECT_FALSE(walk->attempts[a.parent].reward == -1.0);
    }
  }
  auto rethink = RunMethod("rethink-mcts", o);
  ASSERT_TRUE(rethink.ok()) << rethink.status().ToString();
  EXPECT_EQ(rethink->generations, 10);
  bool thought = false;
  for (const auto& a : rethink->attempts) thought |= StartsWith(a.action, "thought: ");
  EXPECT_TRUE(thought);
  auto mctsrag = RunMethod("mcts-rag", o);
  ASSERT_TRUE(mctsrag.ok()) << mctsrag.status().ToString();
  EXPECT_EQ(mctsrag->generations, 10);
  EXPECT_FALSE(NewReasoner("magic", o).ok());
}

// The action-MCTS methods write their tree in the shared format
// (attempt_json.h): states with label, statistics and edges; mean backup
// gives the root one visit per iteration that generated a step.
TEST_F(SearchTest, ActionMctsTreesUseTheSharedFormat) {
  for (const std::string method : {"rethink-mcts", "mcts-rag"}) {
    SearchOptions o;
    o.budget.max_generations = 10;
    auto out = RunMethod(method, o);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    Json tree = Json::parse(out->tree_json);
    EXPECT_EQ(tree["method"], method);
    const Json& nodes = tree["nodes"];
    ASSERT_GT(nodes.size(), 1u) << method;
    EXPECT_EQ(nodes[0]["label"], "init");
    int root_edge_visits = 0;
    for (const auto& e : nodes[0]["edges"]) root_edge_visits += e["visits"].get<int>();
    EXPECT_EQ(nodes[0]["visits"].get<int>(), root_edge_visits) << method;
    for (size_t i = 1; i < nodes.size(); ++i) {
      int a = nodes[i]["attempt"].get<int>();
      ASSERT_GE(a, 0);
      EXPECT_EQ(nodes[i]["label"], out->attempts[a].action) << method;
      EXPECT_EQ(nodes[i]["reward"].get<double>(), out->attempts[a].reward);
    }
  }
}

// The one-shot and sampling methods list their attempts in the brief form,
// which the shared parser reads back.
TEST_F(SearchTest, AttemptListsReadBack) {
  SearchOptions o;
  o.budget.max_generations = 4;
  auto out = RunMethod("best-of-n", o);
  ASSERT_TRUE(out.ok());
  Json tree = Json::parse(out->tree_json);
  auto back = AttemptsFromJson(JsonPath(tree, "tree")["attempts"]);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->size(), out->attempts.size());
  for (size_t i = 0; i < back->size(); ++i) {
    EXPECT_EQ((*back)[i].id, out->attempts[i].id);
    EXPECT_EQ((*back)[i].verdict, out->attempts[i].verdict);
    EXPECT_EQ((*back)[i].reward, out->attempts[i].reward);
  }
}

TEST_F(SearchTest, CompileOnlyRuleWithoutGpu) {
  // Every candidate compiles but nothing can be checked: the deepest wins.
  class CompiledOnly final : public CandidateEvaluator {
   public:
    Result<VerifyResult> Evaluate(const Problem&, const std::string& code) override {
      VerifyResult r;
      r.verdict = PathOf(code).find("bad") != std::string::npos ? Verdict::kCompileError : Verdict::kCompiledOnly;
      return r;
    }
  } eval;
  SearchOptions o;
  o.budget.max_generations = 8;
  o.max_depth = 3;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&model_, &eval, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->best_verified);
  ASSERT_NE(out->best_attempt(), nullptr);
  EXPECT_EQ(Split(PathOf(out->best_attempt()->code), '>').size(), 3u);
  EXPECT_NE(out->best_rule.find("NOT verified"), std::string::npos);
}

TEST(PromptTest, RenderAndTruncate) {
  auto r = RenderTemplate("a {{x}} b", {{"x", "1"}}, "t");
  EXPECT_EQ(*r, "a 1 b");
  EXPECT_EQ(RenderTemplate("{{y}}", {}, "t.txt").status().message(), "t.txt: no value for {{y}}");
  PromptLibrary lib;
  for (const char* name : {"system.txt", "standard.txt", "cot.txt", "step.txt", "example.txt", "failure.txt",
                           "rag.txt", "rag_example.txt", "thoughts.txt", "thought_step.txt", "refine.txt"}) {
    EXPECT_TRUE(lib.Has(name)) << name;
  }
}

TEST_F(SearchTest, LongExamplesAreCutToFitTheContext) {
  // One huge example: the step prompt must still fit by cutting it.
  Example big;
  big.kernel = "huge";
  big.before = std::string(60000, 'x');
  big.after = std::string(60000, 'y');
  tg_.g.AddExample(*tg_.g.FindEdge(kInitNode, *tg_.g.FindTechnique("map")), big);
  ExampleIndex index(tg_.g);
  SearchOptions o;
  o.context_tokens = 8192;
  o.examples_per_step = 3;
  o.budget.max_generations = 1;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index);
  SearchContext ctx{&model_, &eval_, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  o.context_tokens = 500;  // not even the instructions fit
  auto tiny = NewReasoner("regrapht-mcgs", o);
  auto fail = (*tiny)->Run(task, ctx);
  ASSERT_FALSE(fail.ok());
  EXPECT_NE(fail.status().message().find("does not fit"), std::string::npos);
}

}  // namespace
}  // namespace regrapht::search

namespace regrapht::search {
namespace {

TEST(SimulationTest, DeterministicAndLabelledPerMethod) {
  TestGraph tg;
  SearchOptions o;
  o.max_depth = 4;
  auto a = RunSimulation(tg.g, {"regrapht-mcgs", "best-of-n"}, {3, 10}, 8, o);
  auto b = RunSimulation(tg.g, {"regrapht-mcgs", "best-of-n"}, {3, 10}, 8, o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_EQ(a->size(), 4u);
  for (size_t i = 0; i < a->size(); ++i) {
    EXPECT_EQ((*a)[i].mean_best, (*b)[i].mean_best);
    EXPECT_GE((*a)[i].mean_best, 1.0);
    EXPECT_LE((*a)[i].mean_generations, (*a)[i].budget);
  }
  EXPECT_EQ((*a)[0].method, "regrapht-mcgs");
  EXPECT_EQ((*a)[3].budget, 10);
}

// The path model, slowed down, with a reply that depends on the seed; it
// records how many requests it had at once.
class SlowSeededModel final : public LlmBackend {
 public:
  explicit SlowSeededModel(LlmBackend* inner) : inner_(inner) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    int now = ++in_flight_;
    for (int seen = max_in_flight_; now > seen && !max_in_flight_.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    --in_flight_;
    RG_ASSIGN_OR_RETURN(ChatResponse r, inner_->Chat(request));
    static const char* kVariants[] = {"tile", "grid", "bad"};
    r.choices[0].text = ReplaceAll(r.choices[0].text, "// path: standard",
                                   std::string("// path: standard>") + kVariants[request.sampling.seed % 3]);
    return r;
  }
  std::string Name() const override { return "slow"; }
  std::string ModelId() const override { return "slow"; }
  int max_in_flight() const { return max_in_flight_; }

 private:
  LlmBackend* inner_;
  std::atomic<int> in_flight_{0}, max_in_flight_{0};
};

TEST_F(SearchTest, BestOfNInFlightGivesTheSequentialResult) {
  auto run = [&](int in_flight, const Budget& budget, int* max_seen) {
    SlowSeededModel slow(&model_);
    PathEvaluator eval(Score);
    SearchOptions o;
    o.budget = budget;
    o.max_in_flight = in_flight;
    auto r = NewReasoner("best-of-n", o);
    SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
    SearchContext ctx{&slow, &eval, &prompts_, &clock_, nullptr};
    auto out = (*r)->Run(task, ctx);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    *max_seen = slow.max_in_flight();
    return *out;
  };
  auto brief = [](const SearchOutcome& o) {
    std::string s = o.stop_reason + " best " + std::to_string(o.best) + ":";
    for (const auto& a : o.attempts) s += " " + PathOf(a.code) + "=" + std::string(VerdictName(a.verdict));
    return s + " gen " + std::to_string(o.generations) + " ver " + std::to_string(o.verifications);
  };
  Budget gens;
  gens.max_generations = 10;
  Budget verifications;
  verifications.max_generations = 0;
  verifications.max_verifications = 2;  // stops mid-batch: later replies are not used
  for (const Budget& b : {gens, verifications}) {
    int one = 0, four = 0;
    SearchOutcome seq = run(1, b, &one);
    SearchOutcome par = run(4, b, &four);
    EXPECT_EQ(brief(seq), brief(par));
    EXPECT_EQ(one, 1);
    EXPECT_EQ(four, 4);
  }
  int seen = 0;
  EXPECT_EQ(run(4, gens, &seen).generations, 10);  // 4 + 4 + 2: never past the budget
}

// A model that fails the calls `fail(n)` picks (n counts from 1), and that
// can set a cancel flag on a given call (a Ctrl-C arriving then).
class FlakyModel final : public LlmBackend {
 public:
  FlakyModel(LlmBackend* inner, std::function<bool(int)> fail) : inner_(inner), fail_(std::move(fail)) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    int n = ++calls_;
    if (cancel_on_ == n && cancel_) cancel_->store(true);
    if (fail_(n)) return Status::Unavailable("POST http://x/v1/chat/completions: HTTP 500: injected (call " +
                                              std::to_string(n) + ")");
    return inner_->Chat(request);
  }
  std::string Name() const override { return "flaky"; }
  std::string ModelId() const override { return "flaky"; }
  int calls() const { return calls_; }
  void CancelOn(int call, std::atomic<bool>* flag) {
    cancel_on_ = call;
    cancel_ = flag;
  }

 private:
  LlmBackend* inner_;
  std::function<bool(int)> fail_;
  std::atomic<int> calls_{0};
  int cancel_on_ = 0;
  std::atomic<bool>* cancel_ = nullptr;
};

TEST_F(SearchTest, AFailedModelRequestIsAFailedGenerationAndTheSearchGoesOn) {
  FlakyModel flaky(&model_, [](int n) { return n == 3 || n == 4; });
  SearchOptions o;
  o.budget.max_generations = 12;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&flaky, &eval_, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->generations, 12);  // the failures spent budget, the rest was used
  EXPECT_EQ(out->endpoint_failures, 2);
  ASSERT_EQ(out->endpoint_errors.size(), 2u);
  EXPECT_NE(out->endpoint_errors[0].find("HTTP 500"), std::string::npos);
  EXPECT_FALSE(out->endpoint_stopped);
  EXPECT_FALSE(out->endpoint_failed());
  int failed = 0;
  for (const auto& a : out->attempts) {
    if (!a.endpoint_error) continue;
    ++failed;
    EXPECT_EQ(a.verdict, Verdict::kCompileError);
    EXPECT_EQ(a.reward, -1);
    EXPECT_TRUE(a.code.empty());
    EXPECT_NE(a.detail.find("the model request failed"), std::string::npos) << a.detail;
    EXPECT_NE(a.detail.find("injected"), std::string::npos) << a.detail;
  }
  EXPECT_EQ(failed, 2);
  ASSERT_NE(out->best_attempt(), nullptr);
  EXPECT_GT(out->best_attempt()->speedup, 1);
}

TEST_F(SearchTest, TooManyFailedRequestsInARowStopTheSearchWithWhatItFound) {
  FlakyModel flaky(&model_, [](int n) { return n >= 3; });
  SearchOptions o;
  o.budget.max_generations = 50;
  o.max_endpoint_failures = 2;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&flaky, &eval_, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->generations, 5);  // 2 answered, then 3 failures in a row (more than 2)
  EXPECT_EQ(flaky.calls(), 5);
  EXPECT_TRUE(out->endpoint_stopped);
  EXPECT_TRUE(out->endpoint_failed());
  EXPECT_NE(out->stop_reason.find("more than 2 failed model requests in a row"), std::string::npos)
      << out->stop_reason;
  EXPECT_NE(out->stop_reason.find("injected (call 5)"), std::string::npos) << out->stop_reason;
  ASSERT_NE(out->best_attempt(), nullptr);  // the best of the two answered
  EXPECT_FALSE(out->best_attempt()->endpoint_error);
}

TEST_F(SearchTest, ASuccessResetsTheFailuresInARow) {
  // Every other request fails: never 2 in a row, so a limit of 1 never stops it.
  FlakyModel flaky(&model_, [](int n) { return n % 2 == 0; });
  SearchOptions o;
  o.budget.max_generations = 10;
  o.max_endpoint_failures = 1;
  auto r = NewReasoner("best-of-n", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&flaky, &eval_, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->generations, 10);
  EXPECT_EQ(out->endpoint_failures, 5);
  EXPECT_FALSE(out->endpoint_stopped);
  EXPECT_EQ(out->stop_reason, "budget: 10 generations");
}

TEST_F(SearchTest, EveryMethodSurvivesADeadEndpoint) {
  for (const auto& method : ReasonerNames()) {
    if (method == "rules") continue;  // asks no model
    FlakyModel dead(&model_, [](int) { return true; });
    SearchOptions o;
    o.budget.max_generations = 20;
    o.max_endpoint_failures = 3;
    auto r = NewReasoner(method, o);
    ASSERT_TRUE(r.ok()) << method;
    SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
    SearchContext ctx{&dead, &eval_, &prompts_, &clock_, nullptr};
    auto out = (*r)->Run(task, ctx);
    ASSERT_TRUE(out.ok()) << method << ": " << out.status().ToString();
    EXPECT_TRUE(out->endpoint_failed()) << method;
    EXPECT_LE(out->generations, 4) << method;  // at most the limit + 1 requests
    EXPECT_EQ(out->endpoint_failures, out->generations) << method;
    EXPECT_EQ(out->best_attempt(), nullptr) << method;
  }
}

TEST_F(SearchTest, FailuresInARowAreSharedBetweenSearches) {
  std::atomic<int> shared{0};
  FlakyModel dead(&model_, [](int) { return true; });
  SearchOptions o;
  o.budget.max_generations = 20;
  o.max_endpoint_failures = 3;
  auto r = NewReasoner("best-of-n", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&dead, &eval_, &prompts_, &clock_, nullptr};
  ctx.endpoint_failures_in_a_row = &shared;
  auto first = (*r)->Run(task, ctx);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->generations, 4);
  // The next search (bench's next sample) stops before asking at all.
  auto second = (*r)->Run(task, ctx);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->generations, 0);
  EXPECT_TRUE(second->endpoint_stopped);
}

TEST_F(SearchTest, AHarnessFailureStopsTheSearchAndKeepsWhatItFound) {
  // The evaluator fails (nvcc gone, disk full) at its 3rd verification.
  class Failing final : public CandidateEvaluator {
   public:
    explicit Failing(CandidateEvaluator* inner) : inner_(inner) {}
    Result<VerifyResult> Evaluate(const Problem& p, const std::string& code) override {
      if (++calls_ == 3) return Status::IoError("/tmp/build: No space left on device");
      return inner_->Evaluate(p, code);
    }
    int calls_ = 0;

   private:
    CandidateEvaluator* inner_;
  } failing(&eval_);
  SearchOptions o;
  o.budget.max_generations = 30;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&model_, &failing, &prompts_, &clock_, nullptr};
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->error.code(), Status::Code::kIoError);
  EXPECT_EQ(failing.calls_, 3);
  EXPECT_NE(out->stop_reason.find("the harness failed"), std::string::npos) << out->stop_reason;
  ASSERT_EQ(out->attempts.size(), 3u);
  EXPECT_NE(out->attempts[2].detail.find("No space left"), std::string::npos);
  ASSERT_NE(out->best_attempt(), nullptr);  // one of the two verified
  EXPECT_LT(out->best, 2);
}

TEST_F(SearchTest, CancelStopsTheSearchAndKeepsWhatItFound) {
  std::atomic<bool> cancel{false};
  FlakyModel model(&model_, [](int) { return false; });
  model.CancelOn(4, &cancel);  // Ctrl-C while the 4th request is out
  SearchOptions o;
  o.budget.max_generations = 30;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&model, &eval_, &prompts_, &clock_, nullptr};
  ctx.cancel = &cancel;
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(out->interrupted);
  EXPECT_FALSE(out->endpoint_stopped);
  EXPECT_EQ(out->stop_reason, "interrupted");
  EXPECT_EQ(model.calls(), 4);  // no request after the flag
  ASSERT_EQ(out->generations, 4);  // the 4th reply finished; its check did not run
  EXPECT_NE(out->attempts[3].detail.find("interrupted"), std::string::npos) << out->attempts[3].detail;
  EXPECT_TRUE(out->attempts[3].interrupted);
  EXPECT_EQ(AttemptVerdictName(out->attempts[3]), "interrupted");  // not a verdict about the code
  EXPECT_FALSE(out->attempts[2].interrupted);
  ASSERT_NE(out->best_attempt(), nullptr);
}

// A reply cut short by the cancellation is an interrupted attempt and not a
// generation: "after N generations" counts finished ones.
TEST_F(SearchTest, AReplyCutShortIsInterruptedAndNotAGeneration) {
  std::atomic<bool> cancel{false};
  class CutShort final : public LlmBackend {
   public:
    CutShort(LlmBackend* inner, std::atomic<bool>* cancel) : inner_(inner), cancel_(cancel) {}
    Result<ChatResponse> Chat(const ChatRequest& request) override {
      if (++calls_ < 3) return inner_->Chat(request);
      cancel_->store(true);  // Ctrl-C in the middle of the 3rd reply
      ChatResponse r;
      r.tokens_generated = 5;
      r.choices.push_back({"```cuda\n__global__ void k(", FinishReason::kCancelled, 5, 1, {}});
      return r;
    }
    std::string Name() const override { return "cut"; }
    std::string ModelId() const override { return "cut"; }

   private:
    LlmBackend* inner_;
    std::atomic<bool>* cancel_;
    int calls_ = 0;
  } model(&model_, &cancel);
  SearchOptions o;
  o.budget.max_generations = 30;
  auto r = NewReasoner("regrapht-mcgs", o);
  SearchTask task = MakeTask(&problem_, &tg_.g, &index_);
  SearchContext ctx{&model, &eval_, &prompts_, &clock_, nullptr};
  ctx.cancel = &cancel;
  auto out = (*r)->Run(task, ctx);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(out->interrupted);
  ASSERT_EQ(out->attempts.size(), 3u);
  EXPECT_EQ(out->generations, 2);
  EXPECT_TRUE(out->attempts[2].interrupted);
  EXPECT_EQ(AttemptVerdictName(out->attempts[2]), "interrupted");
}

}  // namespace
}  // namespace regrapht::search
