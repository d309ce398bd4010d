// Stoppers (stop.h) and the searches' stops, with a FakeClock that the
// tests advance: time budgets stop a search at the right step, not earlier.
#include "search/stop.h"

#include <gtest/gtest.h>

#include "core/clock.h"
#include "graph/retrieval.h"
#include "search/fakes.h"
#include "search/prompts.h"
#include "search/search_run.h"
#include "verify/test_util.h"

namespace regrapht::search {
namespace {

TEST(StopTest, GenerationAndVerificationBudgets) {
  GenerationBudget g(3);
  EXPECT_FALSE(g.Check({2, 0}));
  EXPECT_EQ(g.Check({3, 0}), "budget: 3 generations");
  VerificationBudget v(2);
  EXPECT_FALSE(v.Check({10, 1}));
  EXPECT_EQ(v.Check({10, 2}), "budget: 2 verifications");
}

TEST(StopTest, WallClockBudgetReadsTheClock) {
  FakeClock clock;
  WallClockBudget w(&clock, clock.NowSeconds(), 3);
  EXPECT_FALSE(w.Check({}));
  clock.Advance(2.999);
  EXPECT_FALSE(w.Check({}));  // not early
  clock.Advance(0.001);
  EXPECT_EQ(w.Check({}), "budget: 3 s wall clock");
}

TEST(StopTest, BudgetStoppersSkipZeroLimitsAndReportTheFirstThatFires) {
  FakeClock clock;
  Budget none;
  none.max_generations = 0;
  BudgetStoppers unlimited(none, &clock, clock.NowSeconds());
  clock.Advance(1e6);
  EXPECT_FALSE(unlimited.Check({1000000, 1000000}));
  Budget all;
  all.max_generations = 5;
  all.max_verifications = 5;
  all.max_wall_seconds = 10;
  BudgetStoppers s(all, &clock, clock.NowSeconds());
  EXPECT_FALSE(s.Check({4, 4}));
  clock.Advance(10);
  EXPECT_EQ(s.Check({4, 4}), "budget: 10 s wall clock");
  EXPECT_EQ(s.Check({5, 5}), "budget: 5 generations");
  EXPECT_EQ(s.Check({4, 5}), "budget: 5 verifications");
}

// A model whose every request takes one second on a FakeClock.
class SlowModel final : public LlmBackend {
 public:
  SlowModel(LlmBackend* inner, FakeClock* clock) : inner_(inner), clock_(clock) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    clock_->Advance(1.0);
    return inner_->Chat(request);
  }
  std::string Name() const override { return "slow"; }
  std::string ModelId() const override { return "slow"; }

 private:
  LlmBackend* inner_;
  FakeClock* clock_;
};

class StopSearchTest : public testing::Test {
 protected:
  StopSearchTest()
      : problem_(testing_util::LoadBundled("saxpy")),
        graph_(MakeGraph()),
        index_(graph_),
        paths_({{"Tech map", "map"}, {"Tech tile", "tile"}}),
        slow_(&paths_, &clock_),
        eval_([](const std::string& path) { return 1.0 + static_cast<double>(path.size()); }) {}

  static Graph MakeGraph() {
    Graph g;
    NodeSpec map{}, tile{};
    map.name = "Tech map";
    map.technique = "map";
    tile.name = "Tech tile";
    tile.technique = "tile";
    NodeId m = *g.AddNode(map), t = *g.AddNode(tile);
    const std::vector<std::pair<NodeId, NodeId>> links = {{kInitNode, m}, {m, t}, {t, t}, {t, m}};
    for (auto [from, to] : links) {
      EdgeId e = *g.AddEdge(from, to);
      Example ex;
      ex.kernel = "k" + std::to_string(e);
      ex.before = "void f() { loop(); }";
      ex.after = "__global__ void k() {}";
      g.AddExample(e, ex);
    }
    return g;
  }

  Result<SearchOutcome> Run(const std::string& method, const SearchOptions& o) {
    auto r = NewReasoner(method, o);
    if (!r.ok()) return r.status();
    SearchTask task;
    task.problem = &problem_;
    task.graph = &graph_;
    task.examples = &index_;
    SearchContext ctx{&slow_, &eval_, &prompts_, &clock_, nullptr};
    return (*r)->Run(task, ctx);
  }

  Problem problem_;
  Graph graph_;
  ExampleIndex index_;
  FakeClock clock_;
  PathModel paths_;
  SlowModel slow_;
  PathEvaluator eval_;
  PromptLibrary prompts_;
};

// Every method with a wall-clock budget stops after exactly as many
// one-second requests as the budget allows: not one earlier, not one later.
TEST_F(StopSearchTest, EveryMethodStopsAtTheWallClockBudget) {
  for (const std::string method :
       {"regrapht-mcgs", "regrapht", "best-of-n", "rethink-mcts", "mcts-rag"}) {
    for (int seconds : {1, 4, 7}) {
      SearchOptions o;
      o.budget.max_generations = 0;  // the clock alone
      o.budget.max_wall_seconds = seconds;
      o.max_depth = 20;
      o.step_retries = 100;
      auto out = Run(method, o);
      ASSERT_TRUE(out.ok()) << method << ": " << out.status().ToString();
      EXPECT_EQ(out->generations, seconds) << method;
      EXPECT_EQ(out->stop_reason, "budget: " + std::to_string(seconds) + " s wall clock") << method;
      EXPECT_DOUBLE_EQ(out->wall_s, seconds) << method;
    }
  }
}

// A half second left is still time for one more request.
TEST_F(StopSearchTest, AStartedSecondIsNotCutShort) {
  SearchOptions o;
  o.budget.max_generations = 0;
  o.budget.max_wall_seconds = 2.5;
  auto out = Run("regrapht-mcgs", o);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->generations, 3);
  EXPECT_DOUBLE_EQ(out->wall_s, 3.0);
}

// With several limits the first one reached stops the search.
TEST_F(StopSearchTest, TheFirstLimitReachedStops) {
  SearchOptions o;
  o.budget.max_generations = 5;
  o.budget.max_wall_seconds = 9;
  auto gens = Run("regrapht-mcgs", o);
  ASSERT_TRUE(gens.ok());
  EXPECT_EQ(gens->stop_reason, "budget: 5 generations");
  o.budget.max_generations = 50;
  o.budget.max_wall_seconds = 4;
  auto secs = Run("regrapht-mcgs", o);
  ASSERT_TRUE(secs.ok());
  EXPECT_EQ(secs->generations, 4);
  EXPECT_EQ(secs->stop_reason, "budget: 4 s wall clock");
}

class IterationLoopTest : public StopSearchTest {
 protected:
  Result<std::string> Loop(const IterationLoop& loop, const std::function<Status(int)>& iterate) {
    SearchTask task;
    task.problem = &problem_;
    task.graph = &graph_;
    task.examples = &index_;
    SearchContext ctx{&slow_, &eval_, &prompts_, &clock_, nullptr};
    SearchOptions o;
    o.budget.max_generations = 0;
    SearchRun run(task, ctx, o, "test");
    return RunIterations(run, loop, iterate);
  }
};

TEST_F(IterationLoopTest, IterationLimitSpaceExhaustedAndIdleIterations) {
  int calls = 0;
  auto count = [&](int i) {
    EXPECT_EQ(i, ++calls);
    return Status::Ok();
  };
  IterationLoop limit;
  limit.max_iterations = 5;
  EXPECT_EQ(*Loop(limit, count), "iterations: 5");
  EXPECT_EQ(calls, 5);
  calls = 0;
  IterationLoop closed;
  closed.space_exhausted = [&] { return calls >= 3; };
  closed.exhausted_reason = "closed";
  EXPECT_EQ(*Loop(closed, count), "closed");
  EXPECT_EQ(calls, 3);
  calls = 0;
  IterationLoop idle;  // iterations that generate nothing: 64 in a row stop it
  EXPECT_EQ(*Loop(idle, count), "search space exhausted");
  EXPECT_EQ(calls, 64);
  auto failing = [](int) { return Status::Internal("boom"); };
  EXPECT_FALSE(Loop(idle, failing).ok());
}

}  // namespace
}  // namespace regrapht::search
