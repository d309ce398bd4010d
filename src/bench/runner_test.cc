#include "bench/runner.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>

#include "bench/report.h"
#include "verify/test_util.h"

namespace regrapht::bench {
namespace {

// A suite built from the bundled example problems.
Suite BundledSuite() {
  Suite s;
  s.name = "bundled";
  for (const char* n : {"jacobi2d", "saxpy", "spmv_csr", "sum_of_squares"}) {
    SuiteProblem sp;
    sp.problem = testing_util::LoadBundled(n);
    sp.tier = "easy";
    s.problems.push_back(sp);
  }
  return s;
}

// A fake method: "correct" with a speedup derived from the seed, no GPU needed.
MethodFn FakeMethod(std::atomic<int>* calls, int sleep_ms = 0) {
  return [=](const SuiteProblem& p, int sample, uint64_t seed) -> Result<SampleOutcome> {
    ++*calls;
    if (sleep_ms) usleep(sleep_ms * 1000);
    SampleOutcome o;
    o.source = "// " + p.problem.spec.name + " " + std::to_string(sample);
    o.result.verdict = Verdict::kCorrect;
    o.result.speedup = 1.0 + static_cast<double>(seed % 7);
    o.result.candidate_timing = Summarize({1.0});
    o.result.reference_timing = Summarize({o.result.speedup});
    o.generations = 1;
    return o;
  };
}

TEST(RunnerTest, RunsEverySampleOnceAndResumes) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  Suite suite = BundledSuite();
  RunnerOptions o;
  o.method = "fake";
  o.samples = 3;
  o.progress = false;
  std::atomic<int> calls{0};
  auto r = RunSuite(suite, o, FakeMethod(&calls), store->get(), SystemClock::Get());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->done, 12);
  EXPECT_EQ(calls, 12);
  auto again = RunSuite(suite, o, FakeMethod(&calls), store->get(), SystemClock::Get());
  EXPECT_EQ(again->skipped, 12);
  EXPECT_EQ(calls, 12);
  o.resume = false;
  (void)RunSuite(suite, o, FakeMethod(&calls), store->get(), SystemClock::Get());
  EXPECT_EQ(calls, 24);
  EXPECT_EQ((*store)->Query()->size(), 12u);
}

// A method whose answer was re-verified on held-out inputs: the row holds the
// held-out result, the search-time verdict and speedup beside it.
TEST(RunnerTest, HeldOutRowsKeepTheSearchTimeFiguresApart) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  Suite suite = BundledSuite();
  RunnerOptions o;
  o.method = "fake";
  o.progress = false;
  MethodFn method = [](const SuiteProblem& p, int, uint64_t) -> Result<SampleOutcome> {
    SampleOutcome out;
    out.source = "// " + p.problem.spec.name;
    out.search_result = VerifyResult{};
    out.search_result->verdict = Verdict::kCorrect;
    out.search_result->speedup = 5.0;
    out.result.verdict = p.problem.spec.name == "saxpy" ? Verdict::kWrongAnswer : Verdict::kCorrect;
    out.result.speedup = out.result.ok() ? 4.0 : 0;
    if (out.result.ok()) {
      out.result.candidate_timing = Summarize({1.0});
      out.result.reference_timing = Summarize({4.0});
    }
    return out;
  };
  ASSERT_TRUE(RunSuite(suite, o, method, store->get(), SystemClock::Get()).ok());
  auto rows = (*store)->Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 4u);
  for (const auto& r : *rows) {
    EXPECT_EQ(r.search_verdict, std::optional<std::string>("correct")) << r.key.problem;
    EXPECT_EQ(r.search_speedup, std::optional<double>(5.0)) << r.key.problem;
    EXPECT_EQ(r.verdict, r.key.problem == "saxpy" ? "wrong_answer" : "correct") << r.key.problem;
  }
  auto m = ComputeMetrics(*rows, {});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].overall.heldout_runs, 4);
  EXPECT_EQ(m[0].overall.heldout_kept, 3);
  std::string md = NewReportPrinter("md")->Print(m, {1});
  EXPECT_NE(md.find("3 of 4 answers correct at search time stayed correct on held-out inputs"), std::string::npos)
      << md;
  EXPECT_NE(md.find("geomean speedup 5.00x at search time, 4.00x held-out"), std::string::npos) << md;
}

// What the model wrote reaches a row's JSON through the verdict's detail; it
// need not be UTF-8 (a reply cut inside a character): stored, not a crash.
TEST(RunnerTest, DetailThatIsNotUtf8IsStored) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  Suite suite = BundledSuite();
  suite.problems.resize(1);
  RunnerOptions o;
  o.method = "fake";
  o.progress = false;
  MethodFn method = [](const SuiteProblem&, int, uint64_t) -> Result<SampleOutcome> {
    SampleOutcome out;
    out.source = "__global__ void k() {} // \xfa\xc3";
    out.result.verdict = Verdict::kCompileError;
    out.result.detail = "no code found in: \xfa\xc3(";
    return out;
  };
  auto r = RunSuite(suite, o, method, store->get(), SystemClock::Get());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto rows = (*store)->Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].verdict, "compile_error");
  EXPECT_NE((*rows)[0].result_json.find("no code found in: \xef\xbf\xbd"), std::string::npos)
      << (*rows)[0].result_json;  // U+FFFD in place of the bad bytes
}

TEST(RunnerTest, ShardsPartitionProblems) {
  auto store = ResultsStore::Open(":memory:");
  Suite suite = BundledSuite();
  std::atomic<int> calls{0};
  for (int i = 0; i < 3; ++i) {
    RunnerOptions o;
    o.method = "fake";
    o.shard_index = i;
    o.shard_count = 3;
    o.progress = false;
    ASSERT_TRUE(RunSuite(suite, o, FakeMethod(&calls), store->get(), SystemClock::Get()).ok());
  }
  EXPECT_EQ(calls, 4);
  EXPECT_EQ((*store)->Query()->size(), 4u);
  RunnerOptions bad;
  bad.shard_index = 3;
  bad.shard_count = 3;
  EXPECT_FALSE(RunSuite(suite, bad, FakeMethod(&calls), store->get(), SystemClock::Get()).ok());
}

TEST(RunnerTest, ToolFailureStopsAndKeepsFinishedRows) {
  auto store = ResultsStore::Open(":memory:");
  Suite suite = BundledSuite();
  RunnerOptions o;
  o.method = "fake";
  o.progress = false;
  std::atomic<int> calls{0};
  MethodFn flaky = [&](const SuiteProblem& p, int s, uint64_t seed) -> Result<SampleOutcome> {
    if (p.problem.spec.name == "spmv_csr") return Status::Unavailable("endpoint down");
    return FakeMethod(&calls)(p, s, seed);
  };
  auto r = RunSuite(suite, o, flaky, store->get(), SystemClock::Get());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "spmv_csr sample 0: endpoint down");
  EXPECT_EQ((*store)->Query()->size(), 2u);  // jacobi2d and saxpy came first
}

// kill -9 in the middle of a run, then --resume: no finished row is lost and
// no finished sample is redone.
TEST(RunnerTest, IncompleteSamplesAreNotStoredAndAStopEndsTheRun) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  Suite suite = BundledSuite();
  RunnerOptions o;
  o.method = "fake";
  o.samples = 2;
  o.progress = false;
  std::atomic<int> calls{0};
  std::atomic<int> endpoint_failures{0};
  MethodFn inner = FakeMethod(&calls);
  // Samples after the 3rd lose their endpoint: incomplete; after 2 of those the run stops.
  MethodFn method = [&](const SuiteProblem& p, int sample, uint64_t seed) -> Result<SampleOutcome> {
    RG_ASSIGN_OR_RETURN(SampleOutcome out, inner(p, sample, seed));
    if (calls > 3) {
      ++endpoint_failures;
      out.incomplete = "every model request failed";
      out.endpoint_failed = true;
    }
    return out;
  };
  o.stop = [&]() -> std::string { return endpoint_failures >= 2 ? "endpoint: dead" : ""; };
  auto r = RunSuite(suite, o, method, store->get(), SystemClock::Get());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->done, 3);
  EXPECT_EQ(r->incomplete, 2);
  EXPECT_EQ(r->incomplete_endpoint, 2);
  EXPECT_EQ(r->not_started, 3);
  EXPECT_EQ(r->stop_reason, "endpoint: dead");
  ASSERT_EQ(r->incomplete_reasons.size(), 2u);
  EXPECT_NE(r->incomplete_reasons[0].find("every model request failed"), std::string::npos);
  EXPECT_EQ((*store)->Query()->size(), 3u);
  // Resumed with a working endpoint: the incomplete and unstarted samples are done.
  endpoint_failures = 0;
  o.stop = nullptr;
  calls = -100;
  auto again = RunSuite(suite, o, inner, store->get(), SystemClock::Get());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->skipped, 3);
  EXPECT_EQ(again->done, 5);
  EXPECT_TRUE(again->stop_reason.empty());
  EXPECT_EQ((*store)->Query()->size(), 8u);
}

TEST(RunnerTest, AStopBeforeTheBuildPhaseRunsNothing) {
  auto store = ResultsStore::Open(":memory:");
  Suite suite = BundledSuite();
  RunnerOptions o;
  o.method = "fake";
  o.progress = false;
  std::atomic<int> builds{0}, calls{0};
  o.prepare = [&](const SuiteProblem&) {
    ++builds;
    return Status::Ok();
  };
  o.stop = [] { return std::string("interrupted (SIGINT)"); };
  auto r = RunSuite(suite, o, FakeMethod(&calls), store->get(), SystemClock::Get());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(builds, 0);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(r->not_started, 4);
  EXPECT_EQ(r->stop_reason, "interrupted (SIGINT)");
}

TEST(RunnerTest, KillNineThenResume) {
  auto dir = TempDir::Create("rgrun");
  fs::path db = dir->path() / "r.sqlite";
  Suite suite = BundledSuite();
  RunnerOptions o;
  o.method = "fake";
  o.samples = 10;
  o.progress = false;
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto store = ResultsStore::Open(db);
    std::atomic<int> calls{0};
    (void)RunSuite(suite, o, FakeMethod(&calls, 30), store->get(), SystemClock::Get());
    _exit(0);
  }
  size_t before = 0;
  for (int i = 0; i < 300 && before < 8; ++i) {
    usleep(20 * 1000);
    auto s = ResultsStore::Open(db);
    if (s.ok()) before = (*s)->Query().value_or({}).size();
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  auto store = ResultsStore::Open(db);
  ASSERT_TRUE(store.ok());
  size_t kept = (*store)->Query()->size();
  ASSERT_GE(kept, 8u);
  ASSERT_LT(kept, 40u) << "the run finished before it was killed; the test proves nothing";
  std::atomic<int> calls{0};
  auto r = RunSuite(suite, o, FakeMethod(&calls), store->get(), SystemClock::Get());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(static_cast<size_t>(r->skipped), kept);
  EXPECT_EQ(static_cast<size_t>(calls.load()), 40 - kept);
  EXPECT_EQ((*store)->Query()->size(), 40u);
}

TEST(RunnerTest, SeedsAreStable) {
  EXPECT_EQ(SampleSeed(1, "saxpy", 0), SampleSeed(1, "saxpy", 0));
  EXPECT_NE(SampleSeed(1, "saxpy", 0), SampleSeed(1, "saxpy", 1));
  EXPECT_NE(SampleSeed(1, "saxpy", 0), SampleSeed(2, "saxpy", 0));
  EXPECT_EQ(ConfigHash("{}").size(), 16u);
}

}  // namespace
}  // namespace regrapht::bench
