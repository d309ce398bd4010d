// Renaming every trajectory of the corpus (so that they are imported in
// another order, and the graph's nodes, edges and examples get other ids and
// positions) must not change a search: the same prompts, the same attempts,
// the same tree (docs/search.md "Ties"). Issue 36: ties used to follow the
// import order (40.36x became 37.59x when 19 kernels were renamed).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/fs.h"
#include "core/hash.h"
#include "core/json_util.h"
#include "graph/relabel.h"
#include "graph/retrieval.h"
#include "graph/taxonomy.h"
#include "graph/trajectory_import.h"
#include "search/simulated.h"

namespace regrapht::search {
namespace {

// Every request's messages, hashed, in order; answers from `inner`.
class RecordingBackend final : public LlmBackend {
 public:
  explicit RecordingBackend(LlmBackend* inner) : inner_(inner) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override {
    std::string all;
    for (const auto& m : request.messages) all += m.content + '\x1f';
    log_.push_back(HashHex(all));
    return inner_->Chat(request);
  }
  std::string Name() const override { return "recording"; }
  std::string ModelId() const override { return "recording"; }
  const std::vector<std::string>& log() const { return log_; }

 private:
  LlmBackend* inner_;
  std::vector<std::string> log_;
};

Result<Graph> Import(const fs::path& root) {
  RG_ASSIGN_OR_RETURN(Taxonomy tax, Taxonomy::Builtin());
  DeterministicRelabelerOptions ro;
  ro.unknown = UnknownLabelPolicy::kReject;
  DeterministicRelabeler relabeler(&tax, ro);
  ImportOptions options;
  options.taxonomy = &tax;
  options.relabeler = &relabeler;
  Graph g;
  RG_ASSIGN_OR_RETURN(ImportReport report, ImportTrajectories({root}, options, &g));
  if (report.failed() > 0) return Status::Internal("some trajectories failed to import");
  return g;
}

// A copy of the corpus under new names ("r" + a hash of the old one: another
// order), with each trajectory.json's "kernel" renamed to match.
Status CopyRenamed(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(from, ec)) {
    if (!e.is_directory()) continue;
    const std::string old_name = e.path().filename().string();
    const std::string new_name = "r" + HashHex(old_name).substr(0, 12);
    fs::copy(e.path(), to / new_name, fs::copy_options::recursive, ec);
    if (ec) return Status::IoError("copying " + e.path().string() + ": " + ec.message());
    fs::path tj = to / new_name / "trajectory.json";
    RG_ASSIGN_OR_RETURN(std::string text, ReadFile(tj));
    auto j = OrderedJson::parse(text);
    j["kernel"] = new_name;
    RG_RETURN_IF_ERROR(WriteFileAtomic(tj, j.dump(2)));
  }
  return Status::Ok();
}

// Everything a search did, as text: every request's messages, every
// attempt, the tree, the stop.
std::string Trace(const Graph& graph, const std::string& method, const SearchOptions& o, int problem) {
  Problem p;
  p.spec.name = "simulated";
  p.spec.function = "f";
  p.reference_source = "void f(int n, float* y) { for (int i = 0; i < n; ++i) y[i] = 0; }";
  ExampleIndex index(graph);
  PromptLibrary prompts;
  FakeClock clock;
  SimulatedWorld world(&graph, static_cast<uint64_t>(problem) + 1);
  SimulatedModel model(&world);
  RecordingBackend recording(&model);
  SimulatedEvaluator eval;
  SearchOptions so = o;
  so.seed = 1000 + static_cast<uint64_t>(problem);
  auto reasoner = NewReasoner(method, so);
  EXPECT_TRUE(reasoner.ok());
  SearchTask task;
  task.problem = &p;
  task.graph = &graph;
  task.examples = &index;
  SearchContext ctx{&recording, &eval, &prompts, &clock, nullptr};
  auto out = (*reasoner)->Run(task, ctx);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  if (!out.ok()) return "";
  std::string t = "stop: " + out->stop_reason + "\n";
  for (const auto& r : recording.log()) t += "request " + r + "\n";
  for (const auto& a : out->attempts) {
    t += std::to_string(a.id) + " <- " + std::to_string(a.parent) + " " + a.action + " " + a.code_hash + " " +
         std::string(VerdictName(a.verdict)) + " " + std::to_string(a.reward) + "\n";
  }
  return t + out->tree_json;
}

TEST(RenameTest, RenamingEveryTrajectoryGivesTheIdenticalSearch) {
  const char* src = std::getenv("REGRAPHT_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const fs::path corpus = fs::path(src) / "data" / "trajectories";
  auto tmp = TempDir::Create("rename-test");
  ASSERT_TRUE(tmp.ok());
  ASSERT_TRUE(CopyRenamed(corpus, tmp->path()).ok());
  auto a = Import(corpus), b = Import(tmp->path());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ(a->num_nodes(), b->num_nodes());
  ASSERT_EQ(a->num_edges(), b->num_edges());
  // The renaming did reorder: some node or edge has another id.
  bool moved = false;
  for (size_t i = 0; i < a->num_nodes(); ++i) moved = moved || a->node(i).name != b->node(i).name;
  for (size_t i = 0; i < a->num_edges(); ++i) {
    moved = moved || a->node(a->edge(i).from).name != b->node(b->edge(i).from).name ||
            a->node(a->edge(i).to).name != b->node(b->edge(i).to).name ||
            a->edge(i).examples.front().before != b->edge(i).examples.front().before;
  }
  ASSERT_TRUE(moved) << "the renamed corpus was imported in the same order: the test proves nothing";

  SearchOptions ours;
  ours.budget.max_generations = 60;
  SearchOptions paper = ours;
  ApplyPaperProtocol(&paper);
  paper.budget.max_generations = 60;
  struct Case {
    std::string method;
    SearchOptions options;
  };
  for (const Case& c : {Case{"regrapht-mcgs", ours}, Case{"regrapht-mcgs", paper}, Case{"regrapht", ours},
                        Case{"mcts-rag", ours}, Case{"rag", ours}}) {
    for (int problem = 0; problem < 3; ++problem) {
      std::string x = Trace(*a, c.method, c.options, problem), y = Trace(*b, c.method, c.options, problem);
      EXPECT_FALSE(x.empty());
      EXPECT_EQ(x, y) << c.method << " (" << c.options.protocol << "), problem " << problem;
    }
  }
}

}  // namespace
}  // namespace regrapht::search
