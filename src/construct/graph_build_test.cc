#include "construct/graph_build.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "graph/llm_relabeler.h"
#include "llm/fake_backend.h"
#include "regrapht/construct.h"

namespace regrapht::construct {
namespace {

fs::path SourceDir() {
  const char* dir = std::getenv("REGRAPHT_SOURCE_DIR");
  return dir ? fs::path(dir) : fs::path(".");
}

std::string Prompt(const std::string& name) {
  auto text = ReadFile(SourceDir() / "data" / "prompts" / name);
  return text.ok() ? *text : "";
}

// A step verifier that needs no compiler: code containing BROKEN does not
// compile, code containing WRONG gives wrong answers; anything else compiled.
class FakeStepVerifier final : public StepVerifier {
 public:
  Result<StepVerification> Verify(const Trajectory& t, size_t index) override {
    const std::string& code = t.steps[index].code;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++calls_;
    }
    if (code.find("NO_NVCC") != std::string::npos) return Status::FailedPrecondition("nvcc missing");
    StepVerification v;
    v.compiled = code.find("BROKEN") == std::string::npos;
    v.archs = {"sm_90"};
    if (v.compiled && code.find("WRONG") != std::string::npos) {
      v.correctness = Correctness::kWrong;
      v.gpu = "FakeGPU";
    }
    v.source_hash = HashHex(code);
    v.verifier = "fake";
    return v;
  }
  int calls() const {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }

 private:
  mutable std::mutex mu_;
  int calls_ = 0;
};

// The large model, scripted per function: a trajectory request for function
// F gets the reply set for F; a relabel request gets "yes" (vectorized
// access) for methods mentioning ZAP, which no taxonomy name places, and
// "no" for the rest (an unreadable answer for GARBLE).
// Functions set down fail like an endpoint that is not there. Delays are
// applied outside FakeLlmBackend's lock, so with several jobs, kernels given
// shorter delays finish first.
class ScriptedModel final : public LlmBackend {
 public:
  ScriptedModel() {
    fake_.set_responder([this](const ChatRequest& r, int) { return Answer(r); });
  }

  void SetReply(const std::string& function, std::string reply) { replies_[function] = std::move(reply); }
  void set_delay_ms(std::map<std::string, int> delay) { delay_ms_ = std::move(delay); }
  void set_down(std::vector<std::string> down) {
    std::lock_guard<std::mutex> lock(mu_);
    down_ = std::move(down);
  }
  // The trajectory requests for `function` that reached the model.
  int Asked(const std::string& function) const {
    int n = 0;
    for (const auto& r : fake_.requests()) n += FunctionOf(r) == function;
    return n;
  }
  int calls() const { return fake_.calls(); }

  static std::string FunctionOf(const ChatRequest& r) {
    const std::string& user = r.messages.back().content;
    const std::string marker = "Optimize the function ";
    size_t at = user.find(marker);
    if (at == std::string::npos) return "";
    size_t end = user.find(' ', at + marker.size());
    return user.substr(at + marker.size(), end - at - marker.size());
  }

  Result<ChatResponse> Chat(const ChatRequest& r) override {
    std::string function = FunctionOf(r);
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const auto& d : down_) {
        if (d == function) return Status::Unavailable("connection refused");
      }
    }
    if (auto it = delay_ms_.find(function); it != delay_ms_.end()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(it->second));
    }
    return fake_.Chat(r);
  }
  std::string Name() const override { return "scripted"; }
  std::string ModelId() const override { return "scripted"; }

 private:
  std::string Answer(const ChatRequest& r) const {
    std::string function = FunctionOf(r);
    if (!function.empty()) {
      auto it = replies_.find(function);
      return it == replies_.end() ? "I have nothing to say about " + function : it->second;
    }
    auto j = ParseJson(r.messages.back().content, "relabel request");
    if (!j.ok()) return "not json";
    OrderedJson out = OrderedJson::array();
    for (const auto& step : (*j)["process"]) {
      std::string method = step["method"];
      if (method.find("GARBLE") != std::string::npos) return "I think these are all fine.";
      if (method.find("ZAP") != std::string::npos) {
        out.push_back({{"existed", "yes"}, {"method", "Vectorized loads and stores (float4)"}});
      } else {
        out.push_back({{"existed", "no"}, {"method", method}});
      }
    }
    return "```json\n" + out.dump() + "\n```";
  }

  FakeLlmBackend fake_;
  std::map<std::string, std::string> replies_;
  std::map<std::string, int> delay_ms_;
  std::mutex mu_;
  std::vector<std::string> down_;
};

// A trajectory reply: steps (method, code body marker) for `function`.
std::string Reply(const std::string& function,
                  const std::vector<std::pair<std::string, std::string>>& steps) {
  OrderedJson j = OrderedJson::array();
  int n = 0;
  for (const auto& [method, marker] : steps) {
    ++n;
    std::string code = "#include <cuda_runtime.h>\n__global__ void k" + std::to_string(n) +
                       "() {}\n// " + marker + "\nvoid " + function + "() { k" +
                       std::to_string(n) + "<<<1, 32>>>(); }\n";
    j.push_back({{"think", "why " + method},
                 {"method", method},
                 {"detail", "how " + method},
                 {"code", code}});
  }
  return "Here is the trajectory.\n```json\n" + j.dump(2) + "\n```\n";
}

class GraphBuildTest : public testing::Test {
 protected:
  void SetUp() override {
    auto tax = Taxonomy::Builtin();
    ASSERT_TRUE(tax.ok());
    taxonomy_ = std::move(tax).value();
    auto tmp = MakeTempDir("graph-build-test");
    ASSERT_TRUE(tmp.ok());
    tmp_ = *tmp;
    relabel_options_.system_prompt = Prompt("relabel_system.txt");
    ASSERT_FALSE(relabel_options_.system_prompt.empty()) << "data/prompts not found";
  }
  void TearDown() override { (void)RemoveAll(tmp_); }

  // Writes a kernel list of `dirs` (relative to the source tree) and reads it.
  std::vector<KernelEntry> Kernels(const std::vector<std::string>& dirs) {
    std::string text = "# kernels for the test\n";
    for (const auto& d : dirs) text += (SourceDir() / d).string() + "\n";
    EXPECT_TRUE(WriteFile(tmp_ / "kernels.txt", text).ok());
    auto k = ReadKernelList(tmp_ / "kernels.txt");
    EXPECT_TRUE(k.ok()) << k.status().ToString();
    return k.ok() ? *k : std::vector<KernelEntry>{};
  }

  // Options wired to `llm` with the deterministic-then-LLM relabeler.
  GraphBuildOptions Options(LlmBackend* llm) {
    deterministic_ = std::make_unique<DeterministicRelabeler>(&taxonomy_);
    llm_relabeler_ = std::make_unique<LlmRelabeler>(llm, &taxonomy_, relabel_options_);
    chain_ = std::make_unique<ChainRelabeler>(deterministic_.get(), llm_relabeler_.get());
    GraphBuildOptions o;
    o.taxonomy = &taxonomy_;
    o.llm = llm;
    o.relabeler = chain_.get();
    o.verifier = &verifier_;
    o.system_template = Prompt("trajectory_system.txt");
    o.user_template = Prompt("trajectory_user.txt");
    o.jobs = 1;
    o.config = "test";
    return o;
  }

  Taxonomy taxonomy_;
  fs::path tmp_;
  LlmRelabelerOptions relabel_options_;
  FakeStepVerifier verifier_;
  std::unique_ptr<DeterministicRelabeler> deterministic_;
  std::unique_ptr<LlmRelabeler> llm_relabeler_;
  std::unique_ptr<ChainRelabeler> chain_;
};

TEST_F(GraphBuildTest, ReadsKernelListsAndNamesTheLineOfAnError) {
  fs::path src = SourceDir();
  ASSERT_TRUE(MakeDirs(tmp_ / "lists").ok());
  ASSERT_TRUE(MakeDirs(tmp_ / "no_problem").ok());
  // Relative to the list's folder; comments and blank lines skipped.
  std::string rel = fs::relative(src / "problems", tmp_ / "lists").string();
  ASSERT_TRUE(WriteFile(tmp_ / "lists" / "k.txt",
                        "# two kernels\n\n  " + rel + "/saxpy   # the first\n" + rel +
                            "/sum_of_squares/\n")
                  .ok());
  auto k = ReadKernelList(tmp_ / "lists" / "k.txt");
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  ASSERT_EQ(k->size(), 2u);
  EXPECT_EQ((*k)[0].kernel_id, "saxpy");
  EXPECT_EQ((*k)[0].function, "saxpy");
  EXPECT_EQ((*k)[0].line, 3);
  EXPECT_EQ((*k)[0].signature, "void saxpy(int n, float a, const float* x, float* y)");
  EXPECT_NE((*k)[0].reference.find("a * x[i] + y[i]"), std::string::npos);
  EXPECT_EQ((*k)[1].kernel_id, "sum_of_squares");
  EXPECT_EQ((*k)[1].function, "sumOfSquares");

  struct Case {
    std::string text;
    std::string error;
  };
  fs::path list = tmp_ / "bad.txt";
  const Case cases[] = {
      {"# nothing\n", list.string() + ": lists no kernel"},
      {(src / "problems/saxpy").string() + "\nmissing_folder\n",
       list.string() + ":2: " + (tmp_ / "missing_folder").string() + ": no such folder"},
      {"no_problem\n", list.string() + ":1: " + (tmp_ / "no_problem").string() + ": no problem.json"},
      {(src / "problems/saxpy").string() + "\n\n" + (src / "problems/saxpy/").string() + "\n",
       list.string() + ":3: kernel \"saxpy\" is already listed on line 1"},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(WriteFile(list, c.text).ok());
    auto r = ReadKernelList(list);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().message().rfind(c.error, 0), 0u) << r.status().message();
  }
}

// The model's replies for AcceptsCutsAndRejects: one kernel per outcome.
void ScriptEveryOutcome(ScriptedModel& model, const std::function<std::string(size_t)>& fn) {
  // 0 accepted; the ZAP step is placed by the model's relabel answer.
  model.SetReply(fn(0), Reply(fn(0), {{"Basic CUDA parallelization", "v1"},
                                      {"ZAP the data path", "v2"},
                                      {"Grid-stride loop", "v3"}}));
  // 1 cut: step 3 does not compile.
  model.SetReply(fn(1), Reply(fn(1), {{"thread_mapping", "v1"},
                                      {"warp shuffle reduction", "v2"},
                                      {"loop unrolling", "BROKEN"}}));
  // 2 no code; 3 endpoint error; 4 first step wrong.
  model.SetReply(fn(2), "Sorry, I cannot optimize this function.");
  model.set_down({fn(3)});
  model.SetReply(fn(4), Reply(fn(4), {{"thread_mapping", "WRONG"}, {"loop unrolling", "v2"}}));
  // 5 the relabel answer is unreadable; 6 cut by the checks: step 2 has no code.
  model.SetReply(fn(5), Reply(fn(5), {{"GARBLE the loads", "v1"}}));
  std::string no_code = Reply(fn(6), {{"thread_mapping", "v1"}, {"loop unrolling", "v2"}});
  no_code = ReplaceAll(no_code, "// v2\\nvoid " + fn(6), "// v2\\nvoid other");
  model.SetReply(fn(6), no_code);
  // 7 a method outside the taxonomy becomes a flagged node.
  model.SetReply(fn(7), Reply(fn(7), {{"thread_mapping", "v1"}, {"Zorbify the frobnicator", "v2"}}));
}

// AcceptsCutsAndRejects' outcome for each of its eight kernels (`fn6`: the
// sixth kernel's function, which its broken step leaves undefined).
void ExpectEveryOutcome(const std::vector<KernelResult>& k, const std::string& fn6, const Graph& graph) {
  EXPECT_EQ(k[0].outcome, KernelOutcome::kAccepted) << k[0].reason;
  EXPECT_EQ(k[0].kept, 3u);
  EXPECT_EQ(k[0].examples_added, 3u);
  ASSERT_EQ(k[0].labels.size(), 3u);
  EXPECT_EQ(k[0].labels[1].technique_id, "vectorized_memory_access");
  EXPECT_EQ(k[0].labels[1].rule, LabelRule::kExternal);

  EXPECT_EQ(k[1].outcome, KernelOutcome::kCut);
  EXPECT_EQ(k[1].steps, 3u);
  EXPECT_EQ(k[1].kept, 2u);
  EXPECT_EQ(k[1].cut_at, 2u);
  EXPECT_EQ(k[1].reason, "step 3 (loop_unrolling): did not compile");

  EXPECT_EQ(k[2].outcome, KernelOutcome::kRejected);
  EXPECT_EQ(k[2].reject, RejectKind::kNoCode);
  EXPECT_EQ(k[2].reason.rfind("no code found", 0), 0u) << k[2].reason;

  EXPECT_EQ(k[3].reject, RejectKind::kEndpoint);
  EXPECT_EQ(k[3].reason, "unavailable: connection refused");

  EXPECT_EQ(k[4].reject, RejectKind::kFirstStep);
  EXPECT_EQ(k[4].reason, "step 1 (thread_mapping): wrong answers on FakeGPU");

  EXPECT_EQ(k[5].reject, RejectKind::kRelabel);
  EXPECT_EQ(k[5].reason.rfind("llm relabeler: unreadable answer", 0), 0u) << k[5].reason;

  EXPECT_EQ(k[6].outcome, KernelOutcome::kCut);
  EXPECT_EQ(k[6].reason, "step 2 (loop unrolling): the code does not define " + fn6 + "()");

  EXPECT_EQ(k[7].outcome, KernelOutcome::kAccepted);
  ASSERT_EQ(k[7].labels.size(), 2u);
  EXPECT_EQ(k[7].labels[1].outcome, LabelOutcome::kNewTechnique);
  ASSERT_TRUE(graph.FindNode("Zorbify the frobnicator"));
  EXPECT_TRUE(graph.node(*graph.FindNode("Zorbify the frobnicator")).needs_review);
}

TEST_F(GraphBuildTest, AcceptsCutsAndRejects) {
  ScriptedModel model;
  auto kernels = Kernels({"problems/saxpy", "problems/sum_of_squares", "data/trajectories/abs_difference",
                          "data/trajectories/advection_1d_upwind", "data/trajectories/any_negative",
                          "data/trajectories/argmax_f64", "data/trajectories/batched_gemm_4x4",
                          "data/trajectories/bellman_ford_relax"});
  ASSERT_EQ(kernels.size(), 8u);
  auto fn = [&](size_t i) { return kernels[i].function; };
  ScriptEveryOutcome(model, fn);

  GraphBuildOptions o = Options(&model);
  o.save_trajectories = tmp_ / "saved";
  std::vector<std::string> seen;
  o.on_kernel = [&](const KernelResult& r, size_t done) {
    seen.push_back(r.kernel_id);
    EXPECT_EQ(done, seen.size());
  };
  Graph graph;
  auto report = BuildGraph(kernels, o, &graph);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const auto& k = report->kernels;
  ASSERT_EQ(k.size(), 8u);
  EXPECT_EQ(seen.size(), 8u);
  EXPECT_FALSE(report->stopped);

  ExpectEveryOutcome(k, fn(6), graph);

  // Verified: 3 + 3 + 1 + 1 + 2 steps (up to the first failure; none for
  // kernels rejected before verification).
  EXPECT_EQ(verifier_.calls(), 10);
  EXPECT_EQ(graph.num_examples(), 3u + 2 + 1 + 2);
  // The records are on the examples.
  const Edge& first = graph.edge(0);
  ASSERT_TRUE(first.examples[0].verification);
  EXPECT_EQ(first.examples[0].verification->verifier, "fake");

  // The summary names every outcome.
  std::string summary = FormatBuildSummary(*report, graph);
  EXPECT_NE(summary.find("8 kernels: 2 accepted, 2 cut, 4 rejected (1 endpoint error, "
                         "1 first step failed, 1 no code found, 1 relabel failed)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("step 3 (loop_unrolling): did not compile"), std::string::npos);
  EXPECT_NE(summary.find("graph: " + std::to_string(graph.num_nodes()) + " nodes"), std::string::npos);

  // Merged trajectories were saved in the authored layout and read back.
  auto saved = ReadTrajectoryDir(tmp_ / "saved" / kernels[1].kernel_id);
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  EXPECT_EQ(saved->steps.size(), 2u);
  EXPECT_EQ(saved->steps[1].method, "warp shuffle reduction");
  ASSERT_TRUE(saved->steps[1].verification);
  EXPECT_EQ(saved->steps[1].verification->verifier, "fake");
  EXPECT_TRUE(ReadTrajectoryDir(tmp_ / "saved" / kernels[0].kernel_id).ok());
  EXPECT_FALSE(fs::exists(tmp_ / "saved" / kernels[2].kernel_id));
}

TEST_F(GraphBuildTest, AVerifierThatCannotRunStopsTheBuild) {
  ScriptedModel model;
  auto kernels = Kernels({"problems/saxpy"});
  model.SetReply("saxpy", Reply("saxpy", {{"thread_mapping", "NO_NVCC"}}));
  GraphBuildOptions o = Options(&model);
  Graph graph;
  auto report = BuildGraph(kernels, o, &graph);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().message(), "saxpy: verifying step 1: nvcc missing");
}

// Eight kernels with two-step trajectories; later ones answer faster.
class GraphBuildRunTest : public GraphBuildTest {
 protected:
  void SetUp() override {
    GraphBuildTest::SetUp();
    kernels_ = Kernels({"data/trajectories/abs_difference", "data/trajectories/advection_1d_upwind",
                        "data/trajectories/any_negative", "data/trajectories/argmax_f64",
                        "data/trajectories/batched_gemm_4x4", "data/trajectories/bellman_ford_relax",
                        "data/trajectories/bilateral_filter_5x5",
                        "data/trajectories/bilinear_interpolate_points"});
    ASSERT_EQ(kernels_.size(), 8u);
    const char* techniques[] = {"shared memory tiling", "loop unrolling", "ZAP the data path",
                                "warp shuffle reduction", "Zorbify the frobnicator"};
    std::map<std::string, int> delay;
    for (size_t i = 0; i < kernels_.size(); ++i) {
      const std::string& f = kernels_[i].function;
      model_.SetReply(f, Reply(f, {{"thread_mapping", "v1"},
                                   {techniques[i % 5], i == 6 ? "BROKEN" : "v2"},
                                   {techniques[(i + 2) % 5], "v3"}}));
      delay[f] = static_cast<int>(kernels_.size() - i) * 15;
    }
    model_.set_delay_ms(delay);
  }

  // Builds with `jobs` into a fresh graph; returns the native JSON.
  std::string Build(int jobs, GraphBuildReport* report = nullptr) {
    GraphBuildOptions o = Options(&model_);
    o.jobs = jobs;
    Graph graph;
    auto r = BuildGraph(kernels_, o, &graph);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok() && report) *report = *r;
    return SerializeGraph(graph);
  }

  ScriptedModel model_;
  std::vector<KernelEntry> kernels_;
};

TEST_F(GraphBuildRunTest, TheGraphDoesNotDependOnJobsOrCompletionOrder) {
  GraphBuildReport one, two;
  std::string serial = Build(1, &one);
  std::string parallel = Build(2, &two);
  std::string wide = Build(8);
  EXPECT_EQ(serial, parallel);
  EXPECT_EQ(serial, wide);
  Graph g;
  EXPECT_EQ(FormatBuildSummary(one, g), FormatBuildSummary(two, g));
  EXPECT_EQ(one.Count(KernelOutcome::kCut), 1u);
  EXPECT_EQ(one.Count(KernelOutcome::kAccepted), 7u);
}

TEST_F(GraphBuildRunTest, ResumesAfterAKillWithTheSameGraph) {
  std::string uninterrupted = Build(2);

  // Killed after six kernels: the last checkpoint (every 4) holds four.
  fs::path state = tmp_ / "g.json.state";
  std::atomic<bool> kill{false};
  GraphBuildOptions o = Options(&model_);
  o.jobs = 2;
  o.checkpoint_every = 4;
  o.state_path = state;
  o.cancel = &kill;
  o.on_kernel = [&](const KernelResult&, size_t done) {
    if (done == 6) kill = true;
  };
  Graph first;
  auto r1 = BuildGraph(kernels_, o, &first);
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  EXPECT_TRUE(r1->stopped);
  EXPECT_EQ(r1->kernels.size(), 6u);
  auto j = ReadJsonFile(state);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["kernels"].size(), 4u);

  // Without --resume the unfinished build is not overwritten.
  GraphBuildOptions fresh = Options(&model_);
  fresh.state_path = state;
  Graph g;
  auto refused = BuildGraph(kernels_, fresh, &g);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Status::Code::kFailedPrecondition);

  // Other settings, or another list, are refused too.
  GraphBuildOptions other = Options(&model_);
  other.state_path = state;
  other.resume = true;
  other.config = "other";
  EXPECT_FALSE(BuildGraph(kernels_, other, &g).ok());
  other.config = "test";
  std::vector<KernelEntry> reordered = kernels_;
  std::swap(reordered[0], reordered[1]);
  auto wrong_list = BuildGraph(reordered, other, &g);
  ASSERT_FALSE(wrong_list.ok());
  EXPECT_NE(wrong_list.status().message().find("(a different kernel list)"), std::string::npos);

  // Resume: the four checkpointed kernels are not asked again.
  std::map<std::string, int> asked_before;
  for (const auto& k : kernels_) asked_before[k.function] = model_.Asked(k.function);
  GraphBuildOptions again = Options(&model_);
  again.jobs = 2;
  again.checkpoint_every = 4;
  again.state_path = state;
  again.resume = true;
  Graph resumed;
  auto r2 = BuildGraph(kernels_, again, &resumed);
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_FALSE(r2->stopped);
  EXPECT_EQ(r2->resumed, 4u);
  ASSERT_EQ(r2->kernels.size(), 8u);
  EXPECT_TRUE(r2->kernels[3].from_checkpoint);
  EXPECT_FALSE(r2->kernels[4].from_checkpoint);
  for (size_t i = 0; i < kernels_.size(); ++i) {
    const std::string& f = kernels_[i].function;
    EXPECT_EQ(model_.Asked(f) - asked_before[f], i < 4 ? 0 : 1) << f;
  }
  EXPECT_EQ(SerializeGraph(resumed), uninterrupted);
  // The report of the resumed build still has every kernel.
  EXPECT_EQ(r2->Count(KernelOutcome::kCut), 1u);
  EXPECT_EQ(r2->kernels[6].reason.find("did not compile") != std::string::npos, true);
}

TEST_F(GraphBuildRunTest, StopsOnAnEndpointOutageAndRetriesThoseKernelsOnResume) {
  std::string uninterrupted = Build(1);
  // Kernels 4-6 (and 7) hit a dead endpoint: three in a row stop the build.
  model_.set_down({kernels_[3].function, kernels_[4].function, kernels_[5].function,
                kernels_[6].function});
  fs::path state = tmp_ / "outage.state";
  GraphBuildOptions o = Options(&model_);
  o.jobs = 2;
  o.checkpoint_every = 1;
  o.state_path = state;
  Graph first;
  auto r1 = BuildGraph(kernels_, o, &first);
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  EXPECT_TRUE(r1->stopped);
  EXPECT_EQ(r1->stop_reason.rfind("3 endpoint errors in a row", 0), 0u) << r1->stop_reason;
  auto j = ReadJsonFile(state);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["kernels"].size(), 3u);  // the failed ones are left to retry

  model_.set_down({});
  GraphBuildOptions again = Options(&model_);
  again.jobs = 2;
  again.state_path = state;
  again.resume = true;
  Graph resumed;
  auto r2 = BuildGraph(kernels_, again, &resumed);
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_EQ(r2->resumed, 3u);
  EXPECT_EQ(r2->Count(KernelOutcome::kRejected), 0u);
  EXPECT_EQ(SerializeGraph(resumed), uninterrupted);
}

TEST_F(GraphBuildTest, ATemplateAskingForAnUnknownValueFailsBeforeAnyRequest) {
  ScriptedModel model;
  auto kernels = Kernels({"problems/saxpy"});
  GraphBuildOptions o = Options(&model);
  o.user_template = "Optimize {{kernel_name}}";
  Graph graph;
  auto report = BuildGraph(kernels, o, &graph);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().message(), "trajectory_user.txt: no value for {{kernel_name}}");
  EXPECT_EQ(model.calls(), 0);
}


// ImportGraph (regrapht/construct.h) without a check: the authored
// trajectories merged and counted; a taxonomy that does not load fails.
TEST(ConstructApiTest, ImportGraphMergesAuthoredTrajectoriesWithoutAHarness) {
  GraphImportOptions o;
  o.dirs = {SourceDir() / "data" / "trajectories" / "abs_difference"};
  auto r = ImportGraph(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->trajectories, 1u);
  EXPECT_EQ(r->imported, 1u);
  EXPECT_EQ(r->failed, 0u);
  EXPECT_GT(r->examples_added, 0u);
  EXPECT_EQ(r->graph.num_examples(), r->examples_added);
  EXPECT_TRUE(r->verify_log.empty());
  EXPECT_EQ(r->records_written, 0u);

  o.relabel.taxonomy = "/nonexistent/taxonomy.json";
  EXPECT_FALSE(ImportGraph(o).ok());
}

TEST(ConstructApiTest, BuildGraphWithModelNeedsAModel) {
  GraphBuildRequest r;
  EXPECT_EQ(BuildGraphWithModel(r).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace regrapht::construct
