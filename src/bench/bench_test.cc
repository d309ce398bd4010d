// regrapht/bench.h: a benchmark run through the library alone (no CLI): the
// experiment key, Open's checks and notes, and a search method's run with a
// scripted model, verified in the CPU emulator, stored and resumed.
#include "regrapht/bench.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/fs.h"
#include "core/json_util.h"
#include "llm/fake_backend.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

class RecordingListener final : public BenchListener {
 public:
  void Note(const std::string& line) override { notes.push_back(line); }
  std::vector<std::string> notes;
};

TEST(ExperimentKeyTest, DefaultsLeaveOutTheKeysOfLaterSettings) {
  ExperimentSettings s;
  s.method = "standard";
  s.model = "m";
  OrderedJson j = OrderedJson::parse(ExperimentKeyJson(s));
  EXPECT_EQ(j["method"], "standard");
  EXPECT_EQ(j["model"], "m");
  EXPECT_EQ(j["budget"], 200);
  EXPECT_EQ(j["heldout"], true);
  for (const char* key :
       {"protocol", "q", "seed", "close_failed_edges", "seed_step", "shape", "embed_model"}) {
    EXPECT_FALSE(j.contains(key)) << key;
  }
  s.method = "regrapht-mcgs";
  s.options.seed = 3;
  s.options.q = SearchOptions::QRule::kMax;
  s.embed_model = "/models/e.gguf";
  j = OrderedJson::parse(ExperimentKeyJson(s));
  EXPECT_EQ(j["seed"], 3);
  EXPECT_EQ(j["q"], "max");
  EXPECT_EQ(j["seed_step"], "rules");
  EXPECT_EQ(j["embed_model"], "e.gguf");
  // Different settings, different keys: their rows never mix.
  ExperimentSettings other = s;
  other.options.seed = 4;
  EXPECT_NE(ExperimentKeyJson(s), ExperimentKeyJson(other));
}

class BenchApiTest : public testing::Test {
 protected:
  void SetUp() override {
    auto dir = TempDir::Create("bench-api-test");
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    dir_.emplace(std::move(*dir));
    suite_ = dir_->path() / "suite";
    fs::create_directories(suite_);
    fs::copy(testing_util::SourceDir() / "problems" / "saxpy", suite_ / "saxpy",
             fs::copy_options::recursive);
    ASSERT_TRUE(WriteFile(suite_ / "suite.json",
                          R"({"format": "regrapht-suite", "version": 1, "name": "api"})")
                    .ok());
    auto solution = ReadFile(suite_ / "saxpy" / "solution.cu");
    ASSERT_TRUE(solution.ok());
    model_.set_default_reply("```cuda\n" + *solution + "\n```");
    model_.set_model_id("fake-model");
  }
  // `standard` with one generation, verified in the emulator on the test cases.
  BenchOptions Options() {
    BenchOptions o;
    o.suite_dir = suite_.string();
    o.db = (dir_->path() / "results.sqlite").string();
    o.method = "standard";
    o.progress = false;
    o.verify.run_mode = VerifyOptions::RunMode::kEmulate;
    o.verify.emulate_timing_size = false;
    o.verify.cache_dir = testing_util::TestCacheDir().string();
    o.search.options.budget.max_generations = 1;
    o.search.heldout = false;
    o.open_search = [this]() -> Result<BenchSearchEnv> {
      return BenchSearchEnv{nullptr, nullptr, &model_, &prompts_};
    };
    return o;
  }
  std::optional<TempDir> dir_;
  fs::path suite_;
  FakeLlmBackend model_;
  PromptLibrary prompts_;
};

TEST_F(BenchApiTest, RunsASearchMethodStoresItsRowsAndResumes) {
  RecordingListener notes;
  auto bench = Bench::Open(Options(), &notes);
  ASSERT_TRUE(bench.ok()) << bench.status().ToString();
  EXPECT_EQ((*bench)->suite(), "api");
  EXPECT_EQ((*bench)->problems(), 1);
  auto r = (*bench)->Run();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->tasks, 1);
  EXPECT_EQ(r->done, 1);
  EXPECT_EQ(r->correct, 1) << "failed " << r->failed << ", unverified " << r->unverified;
  EXPECT_TRUE(r->stop_reason.empty());
  EXPECT_FALSE(r->endpoint_failed);
  EXPECT_TRUE((*bench)->Finish(0).ok());
  EXPECT_EQ(model_.calls(), 1);
  EXPECT_TRUE(notes.notes.empty());

  // The same settings again: the stored row is kept, the model not asked.
  auto again = Bench::Open(Options(), &notes);
  ASSERT_TRUE(again.ok());
  auto r2 = (*again)->Run();
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_EQ(r2->skipped, 1);
  EXPECT_EQ(model_.calls(), 1);
}

TEST_F(BenchApiTest, OpenAndRunRefuseWhatCannotRun) {
  BenchOptions o = Options();
  o.suite_dir = (dir_->path() / "missing").string();
  EXPECT_FALSE(Bench::Open(o, nullptr).ok());

  // The kernel form needs a "kernel" section in every problem.json
  o = Options();
  o.verify.kernel_form = true;
  // (the bundled saxpy has none)
  auto k = Bench::Open(o, nullptr);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.status().ToString().find("no \"kernel\" section"), std::string::npos)
      << k.status().ToString();

  // A search method without a model to open.
  o = Options();
  o.open_search = nullptr;
  auto bench = Bench::Open(o, nullptr);
  ASSERT_TRUE(bench.ok());
  EXPECT_FALSE((*bench)->Run().ok());
  EXPECT_EQ(model_.calls(), 0);
}

TEST_F(BenchApiTest, ShardsSharingOneDatabaseAreNoted) {
  BenchOptions o = Options();
  o.shard = "1/2";
  RecordingListener notes;
  auto bench = Bench::Open(o, &notes);
  ASSERT_TRUE(bench.ok()) << bench.status().ToString();
  ASSERT_EQ(notes.notes.size(), 1u);
  EXPECT_NE(notes.notes[0].find("every shard writes to"), std::string::npos);
  o.db = (dir_->path() / "results-{shard}.sqlite").string();
  notes.notes.clear();
  bench = Bench::Open(o, &notes);
  ASSERT_TRUE(bench.ok());
  EXPECT_TRUE(notes.notes.empty());
  EXPECT_EQ((*bench)->db(), (dir_->path() / "results-1.sqlite").string());
}

}  // namespace
}  // namespace regrapht
