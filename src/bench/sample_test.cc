#include "bench/sample.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "search/fakes.h"
#include "verify/spec/heldout.h"
#include "verify/test_util.h"

namespace regrapht::bench {
namespace {

// The fake search evaluator, recording the problems it was asked about.
class RecordingEvaluator final : public CandidateEvaluator {
 public:
  explicit RecordingEvaluator(double speedup) : inner_([speedup](const std::string&) { return speedup; }) {}
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override {
    std::lock_guard lock(mu_);
    problems.push_back(problem);
    return inner_.Evaluate(problem, code);
  }
  std::vector<Problem> problems;

 private:
  std::mutex mu_;
  search::PathEvaluator inner_;
};

class SearchSampleTest : public testing::Test {
 protected:
  SearchSampleTest() : model_({}) {
    p_.problem = testing_util::LoadBundled("saxpy");
    env_.method = "standard";
    env_.options.budget.max_generations = 1;
    env_.llm = &model_;
    env_.prompts = &prompts_;
  }
  Result<SampleOutcome> Run(CandidateEvaluator* eval, uint64_t seed = 7) {
    env_.evaluator = eval;
    return RunSearchSample(env_, p_, seed);
  }
  SuiteProblem p_;
  search::PathModel model_;
  PromptLibrary prompts_;
  SearchSampleEnv env_;
};

TEST_F(SearchSampleTest, ACorrectBestIsReverifiedOnHeldOutInputs) {
  RecordingEvaluator eval(2.0);
  auto o = Run(&eval);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_TRUE(o->incomplete.empty());
  ASSERT_EQ(eval.problems.size(), 2u);  // the search's check, then the held-out run
  ASSERT_TRUE(o->search_result.has_value());
  EXPECT_EQ(o->search_result->verdict, Verdict::kCorrect);
  EXPECT_EQ(o->result.verdict, Verdict::kCorrect);
  EXPECT_EQ(o->verifications, 2);
  EXPECT_EQ(o->generations, 1);
  EXPECT_FALSE(o->source.empty());
  // The second check ran on the held-out problem of this sample's seed.
  const Problem held = HeldOutProblem(p_.problem, HeldOutSalt(7));
  ASSERT_FALSE(eval.problems[1].spec.tests.empty());
  EXPECT_NE(eval.problems[1].spec.tests[0].seed, p_.problem.spec.tests[0].seed);
  EXPECT_EQ(eval.problems[1].spec.tests[0].seed, held.spec.tests[0].seed);
  EXPECT_EQ(eval.problems[0].spec.tests[0].seed, p_.problem.spec.tests[0].seed);
  // The trace says why the search stopped.
  EXPECT_NE(o->search_json.find("stop_reason"), std::string::npos);
}

TEST_F(SearchSampleTest, NoHeldOutRunWhenOffOrWhenTheBestFailed) {
  env_.heldout = false;
  RecordingEvaluator correct(2.0);
  auto o = Run(&correct);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(correct.problems.size(), 1u);
  EXPECT_FALSE(o->search_result.has_value());
  env_.heldout = true;
  RecordingEvaluator wrong(0.0);
  o = Run(&wrong);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(wrong.problems.size(), 1u);
  EXPECT_EQ(o->result.verdict, Verdict::kWrongAnswer);
  EXPECT_FALSE(o->search_result.has_value());
}

TEST_F(SearchSampleTest, AnInterruptedSampleIsIncomplete) {
  std::atomic<bool> cancel{true};
  env_.cancel = &cancel;
  RecordingEvaluator eval(2.0);
  auto o = Run(&eval);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->incomplete, "interrupted");
  EXPECT_TRUE(eval.problems.empty());
}

}  // namespace
}  // namespace regrapht::bench
