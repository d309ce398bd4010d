#include "graph/trajectory.h"

#include <gtest/gtest.h>

#include "core/hash.h"
#include "graph/graph_json.h"
#include "graph/test_util.h"
#include "graph/trajectory_import.h"

namespace regrapht {
namespace {

fs::path Testdata() { return testing_util::SourceDir() / "src" / "graph" / "testdata" / "trajectories"; }

TEST(TrajectoryTest, ReadsAGoodFolder) {
  auto t = ReadTrajectoryDir(Testdata() / "good" / "dot_product");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->kernel_id, "dot_product");
  EXPECT_EQ(t->name, "dot_product");
  EXPECT_EQ(t->description, "Dot product of two float vectors.\n");
  EXPECT_NE(t->sequential_source.find("sum += x[i] * y[i]"), std::string::npos);
  ASSERT_EQ(t->steps.size(), 3u);
  EXPECT_EQ(t->steps[0].method, "thread_mapping");
  EXPECT_EQ(t->steps[0].technique_id, "");  // set by relabelling, not by reading
  EXPECT_EQ(t->steps[2].code_file, "step3.cu");
  EXPECT_NE(t->steps[2].code.find("__shfl_down_sync"), std::string::npos);
  ASSERT_TRUE(t->steps[0].verification);
  EXPECT_TRUE(t->steps[0].verification->compiled);
  EXPECT_EQ(t->steps[0].verification->archs, std::vector<std::string>{"sm_90"});
  EXPECT_EQ(t->steps[0].verification->verifier, "authored");
  EXPECT_FALSE(t->steps[1].verification);
}

// A step file that is a link to a file outside the folder is refused (it
// would be copied into the graph); links inside the folder are fine.
TEST(TrajectoryTest, LinksOutOfTheFolderAreRefused) {
  auto tmp = TempDir::Create("rgtraj");
  ASSERT_TRUE(tmp.ok());
  fs::path dir = tmp->path() / "dot_product";
  fs::copy(Testdata() / "good" / "dot_product", dir, fs::copy_options::recursive);
  ASSERT_TRUE(WriteFile(tmp->path() / "secret.cu", "__global__ void dot_product() {}\n").ok());
  fs::remove(dir / "step2.cu");
  fs::create_symlink(tmp->path() / "secret.cu", dir / "step2.cu");
  auto t = ReadTrajectoryDir(dir);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("step2.cu: leads outside the trajectory folder"), std::string::npos)
      << t.status().message();
  fs::remove(dir / "step2.cu");
  fs::copy_file(Testdata() / "good" / "dot_product" / "step2.cu", dir / "step2_real.cu");
  fs::create_symlink("step2_real.cu", dir / "step2.cu");
  EXPECT_TRUE(ReadTrajectoryDir(dir).ok());
}

TEST(TrajectoryTest, BadFoldersGiveNamedErrors) {
  fs::path bad = Testdata() / "bad";
  auto at = [&](const char* dir, const char* file) { return (bad / dir / file).string(); };
  struct Case {
    const char* dir;
    std::string error;
  };
  const Case cases[] = {
      {"missing_problem", at("missing_problem", "problem.json") +
                              ": missing (every trajectory folder needs its harness spec)"},
      {"kernel_mismatch", at("kernel_mismatch", "trajectory.json") +
                              ": kernel: \"scale\" does not match the folder name \"kernel_mismatch\""},
      {"missing_step_file",
       at("missing_step_file", "trajectory.json") + ": steps[1].code: \"step2.cu\" does not exist"},
      {"method_not_string", at("method_not_string", "trajectory.json") +
                                ": steps[0].method: expected a string, got number"},
      {"unknown_step_field",
       at("unknown_step_field", "trajectory.json") +
           ": steps[0].verfication: unknown field (allowed: method, think, detail, code, verification)"},
      {"wrong_function", at("wrong_function", "trajectory.json") +
                             ": steps[0].code: \"step1.cu\" does not define \"scale\" (every step "
                             "keeps the function's name)"},
      {"unchanged_step", at("unchanged_step", "trajectory.json") +
                             ": steps[1].code: \"step2.cu\" is identical to the code before it (the "
                             "step changes nothing)"},
      {"stale_hash", at("stale_hash", "trajectory.json") +
                         ": steps[0].verification.source_hash: does not match \"step1.cu\" (the "
                         "record is about other code)"},
      {"bad_json", at("bad_json", "trajectory.json") +
                       ":4:1: JSON syntax error while parsing value - unexpected '}'; expected "
                       "'[', '{', or a literal"},
      {"path_escape", at("path_escape", "trajectory.json") +
                          ": steps[0].code: expected a file name in the folder, got "
                          "\"../vec_add/step1.cu\""},
      {"empty_reference", at("empty_reference", "reference.cpp") + ": empty"},
  };
  for (const auto& c : cases) {
    auto t = ReadTrajectoryDir(bad / c.dir);
    ASSERT_FALSE(t.ok()) << c.dir;
    EXPECT_EQ(t.status().message(), c.error) << c.dir;
  }
}

TEST(TrajectoryTest, FindsFoldersSortedAndSkipsOthers) {
  std::vector<fs::path> skipped;
  auto dirs = FindTrajectoryDirs({Testdata() / "good", Testdata() / "good" / "vec_add"}, &skipped);
  ASSERT_TRUE(dirs.ok());
  ASSERT_EQ(dirs->size(), 3u);
  EXPECT_EQ((*dirs)[0].filename(), "dot_product");
  EXPECT_EQ((*dirs)[1].filename(), "vec_add");
  EXPECT_EQ((*dirs)[2].filename(), "vec_add");  // given again as a root
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].filename(), "only_problem");
  auto missing = FindTrajectoryDirs({Testdata() / "nope"});
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
}

// A step must define the function: code that only calls it (or declares
// it) is refused. Before core/scanner.h, `dot_product(` anywhere was taken
// as a definition.
TEST(TrajectoryTest, AStepThatOnlyCallsTheFunctionIsRefused) {
  auto tmp = TempDir::Create("rgtraj");
  ASSERT_TRUE(tmp.ok());
  fs::path dir = tmp->path() / "dot_product";
  fs::copy(Testdata() / "good" / "dot_product", dir, fs::copy_options::recursive);
  ASSERT_TRUE(ReadTrajectoryDir(dir).ok());
  for (const char* code : {"float dot_product(const float* a, const float* b, int n);\n"
                           "float wrapper(const float* a, const float* b, int n) { return dot_product(a, b, n); }\n",
                           "// float dot_product(const float* a, const float* b, int n) {}\nvoid g() {}\n"}) {
    ASSERT_TRUE(WriteFile(dir / "step2.cu", code).ok());
    auto t = ReadTrajectoryDir(dir);
    ASSERT_FALSE(t.ok()) << code;
    EXPECT_NE(t.status().message().find("\"step2.cu\" does not define \"dot_product\""), std::string::npos)
        << t.status().message();
  }
}

TEST(TrajectoryTest, Utf8) {
  EXPECT_TRUE(IsValidUtf8("plain µs ✓"));
  EXPECT_FALSE(IsValidUtf8("bad \xff byte"));
  EXPECT_FALSE(IsValidUtf8("cut \xe2\x9c"));
  EXPECT_FALSE(IsValidUtf8("overlong \xc0\xaf"));
}

class ImportTest : public testing::Test {
 protected:
  void SetUp() override {
    auto tax = Taxonomy::Builtin();
    ASSERT_TRUE(tax.ok());
    taxonomy_ = std::move(tax).value();
    relabeler_ = std::make_unique<DeterministicRelabeler>(&taxonomy_);
    options_.taxonomy = &taxonomy_;
    options_.relabeler = relabeler_.get();
  }
  Taxonomy taxonomy_;
  std::unique_ptr<DeterministicRelabeler> relabeler_;
  ImportOptions options_;
};

TEST_F(ImportTest, ImportsTheGoodTree) {
  Graph g;
  auto report = ImportTrajectories({Testdata() / "good"}, options_, &g);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->items.size(), 2u);
  EXPECT_EQ(report->merged(), 2u);
  EXPECT_EQ(report->skipped.size(), 1u);
  EXPECT_EQ(report->items[0].kernel_id, "dot_product");
  ASSERT_EQ(report->items[0].labels.size(), 3u);
  EXPECT_EQ(report->items[0].labels[0].rule, LabelRule::kTechniqueId);
  EXPECT_EQ(report->items[0].labels[1].technique_id, "block_tree_reduction");
  EXPECT_EQ(report->items[0].labels[2].technique_id, "warp_shuffle_reduction");
  EXPECT_EQ(report->items[1].labels[1].technique_id, "grid_stride_loop");
  // init -> thread_mapping is shared by both kernels.
  EdgeId first = *g.FindEdge(kInitNode, *g.FindTechnique("thread_mapping"));
  EXPECT_EQ(g.edge(first).examples.size(), 2u);
  EXPECT_EQ(g.num_nodes(), 5u);
  EXPECT_EQ(g.num_edges(), 4u);
  EXPECT_EQ(g.num_examples(), 5u);
  // The authored record travels into the graph.
  ASSERT_TRUE(g.edge(first).examples[0].verification);
  EXPECT_EQ(g.edge(first).examples[0].verification->verifier, "authored");

  // Reproducible and idempotent.
  std::string text = SerializeGraph(g);
  Graph again;
  ASSERT_TRUE(ImportTrajectories({Testdata() / "good"}, options_, &again).ok());
  EXPECT_EQ(SerializeGraph(again), text);
  auto twice = ImportTrajectories({Testdata() / "good"}, options_, &g);
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->merged(), 2u);
  EXPECT_EQ(SerializeGraph(g), text);
}

TEST_F(ImportTest, BadFoldersAreReportedAndNotMerged) {
  Graph g;
  auto report = ImportTrajectories({Testdata() / "bad", Testdata() / "good"}, options_, &g);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->merged(), 2u);
  EXPECT_EQ(report->failed(), 11u);
  for (const auto& item : report->items) {
    if (item.status.ok()) continue;
    EXPECT_NE(item.status.message().find(item.dir.string()), std::string::npos)
        << item.status.message();
  }
  EXPECT_EQ(g.num_examples(), 5u);
}

TEST_F(ImportTest, RejectPolicyRefusesTrajectoriesWithUnknownLabels) {
  DeterministicRelabelerOptions strict;
  strict.unknown = UnknownLabelPolicy::kReject;
  DeterministicRelabeler relabeler(&taxonomy_, strict);
  options_.relabeler = &relabeler;
  Trajectory t = testing_util::MakeTrajectory("k", "void k(){}",
                                              {{"Loop unrolling", "a"}, {"Morton-order traversal", "b"}},
                                              /*ids_are_techniques=*/false);
  Graph g;
  auto item = ImportTrajectory(t, options_, &g);
  ASSERT_TRUE(item.ok());
  ASSERT_FALSE(item->status.ok());
  EXPECT_EQ(item->status.message().rfind("k: steps[1].method \"Morton-order traversal\": rejected", 0), 0u)
      << item->status.message();
  EXPECT_EQ(g.num_edges(), 0u);
}

// Records every call; fails a chosen step.
class FakeVerifier final : public StepVerifier {
 public:
  Result<StepVerification> Verify(const Trajectory& t, size_t index) override {
    calls.push_back(t.kernel_id + "#" + std::to_string(index));
    StepVerification v;
    v.compiled = index != 1;
    v.archs = {"sm_90"};
    v.correctness = v.compiled ? Correctness::kCorrect : Correctness::kUnknown;
    v.source_hash = HashHex(t.steps[index].code);
    v.verifier = "fake";
    return v;
  }
  std::vector<std::string> calls;
};

TEST_F(ImportTest, VerifierRecordsReplaceTheFilesRecordsAndCutAtTheFirstFailure) {
  FakeVerifier verifier;
  options_.verifier = &verifier;
  Graph g;
  auto report = ImportTrajectories({Testdata() / "good" / "dot_product"}, options_, &g);
  ASSERT_TRUE(report.ok());
  // Step 2 (index 1) does not compile: it is the last one verified, and the
  // trajectory is cut before it.
  EXPECT_EQ(verifier.calls, (std::vector<std::string>{"dot_product#0", "dot_product#1"}));
  ASSERT_EQ(report->items.size(), 1u);
  EXPECT_EQ(report->items[0].cut_at, 1u);
  EXPECT_EQ(report->items[0].cut_reason, "did not compile");
  EXPECT_EQ(report->merged(), 1u);
  EdgeId first = *g.FindEdge(kInitNode, *g.FindTechnique("thread_mapping"));
  EXPECT_EQ(g.edge(first).examples[0].verification->verifier, "fake");
  EXPECT_TRUE(g.node(*g.FindTechnique("thread_mapping")).out.empty());
}

TEST_F(ImportTest, ACutBeforeTheFirstStepMergesNothingAndIsNotAnError) {
  class FailFirst final : public StepVerifier {
   public:
    Result<StepVerification> Verify(const Trajectory& t, size_t index) override {
      StepVerification v;
      v.compiled = true;
      v.correctness = Correctness::kWrong;
      v.gpu = "Test GPU";
      v.source_hash = HashHex(t.steps[index].code);
      v.verifier = "fake";
      return v;
    }
  } verifier;
  options_.verifier = &verifier;
  Graph g;
  auto report = ImportTrajectories({Testdata() / "good" / "dot_product"}, options_, &g);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->items.size(), 1u);
  EXPECT_TRUE(report->items[0].status.ok());
  EXPECT_EQ(report->items[0].cut_at, 0u);
  EXPECT_EQ(report->items[0].cut_reason, "wrong answers on Test GPU");
  EXPECT_EQ(report->merged(), 0u);
  EXPECT_EQ(report->failed(), 0u);
  EXPECT_EQ(g.num_edges(), 0u);
}

}  // namespace
}  // namespace regrapht
