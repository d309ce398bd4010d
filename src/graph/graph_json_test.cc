#include "graph/graph_json.h"

#include <gtest/gtest.h>

#include "graph/merge.h"
#include "graph/test_util.h"

namespace regrapht {
namespace {

using testing_util::CheckGolden;
using testing_util::SmallGraph;

void ExpectSameGraph(const Graph& a, const Graph& b) {
  ASSERT_EQ(a.num_nodes(), b.num_nodes());
  ASSERT_EQ(a.num_edges(), b.num_edges());
  for (NodeId i = 0; i < a.num_nodes(); ++i) {
    EXPECT_EQ(a.node(i).name, b.node(i).name);
    EXPECT_EQ(a.node(i).technique, b.node(i).technique);
    EXPECT_EQ(a.node(i).in, b.node(i).in);
    EXPECT_EQ(a.node(i).out, b.node(i).out);
  }
  for (EdgeId e = 0; e < a.num_edges(); ++e) {
    EXPECT_EQ(a.edge(e).from, b.edge(e).from);
    EXPECT_EQ(a.edge(e).to, b.edge(e).to);
    EXPECT_EQ(a.edge(e).examples, b.edge(e).examples);
  }
}

TEST(GraphJsonTest, NativeRoundTripIsByteIdentical) {
  Graph g = SmallGraph();
  std::string first = SerializeGraph(g, GraphFormat::kNative);
  auto back = ParseGraph(first, "g.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSameGraph(g, *back);
  EXPECT_EQ(back->node(1).description, g.node(1).description);
  EXPECT_TRUE(back->node(4).needs_review);
  EXPECT_EQ(SerializeGraph(*back, GraphFormat::kNative), first);
  EXPECT_EQ(CheckGolden("graph_small.json", first), "");
}

// A technique from another taxonomy (graph relabel --taxonomy) is declared
// by the writer, so the graph reads back.
TEST(GraphJsonTest, TechniquesBeyondTheTaxonomyAreDeclared) {
  Graph g;
  NodeSpec spec;
  spec.name = "Warp magic";
  spec.technique = "warp_magic";
  ASSERT_TRUE(g.AddNode(spec).ok());
  std::string text = SerializeGraph(g, GraphFormat::kNative);
  EXPECT_NE(text.find("\"techniques\": [\n    \"warp_magic\"\n  ]"), std::string::npos) << text;
  auto back = ParseGraph(text, "g.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->node(1).technique, "warp_magic");
}

TEST(GraphJsonTest, SavesAndLoadsFiles) {
  auto dir = TempDir::Create("graph_json_test");
  ASSERT_TRUE(dir.ok());
  Graph g = SmallGraph();
  fs::path native = dir->path() / "g.json", official = dir->path() / "o.json";
  ASSERT_TRUE(SaveGraph(g, native).ok());
  ASSERT_TRUE(SaveGraph(g, official, GraphFormat::kOfficial).ok());
  auto a = LoadGraph(native);  // auto-detected
  auto b = LoadGraph(official);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ExpectSameGraph(g, *a);
  EXPECT_EQ(b->num_edges(), g.num_edges());
  EXPECT_EQ(LoadGraph(dir->path() / "missing.json").status().code(), Status::Code::kNotFound);
}

TEST(GraphJsonTest, OfficialExportKeepsEveryEdgeAndItsExamples) {
  // Built by merging, so that most edges come from case (c): exactly the
  // edges the official ReGraph.save drops.
  auto tax = Taxonomy::Builtin();
  ASSERT_TRUE(tax.ok());
  Graph g;
  auto t1 = testing_util::MakeTrajectory(
      "k1", "seq1", {{"thread_mapping", "s1"}, {"shared_memory_tiling", "s2"}, {"loop_unrolling", "s3"}});
  auto t2 = testing_util::MakeTrajectory("k2", "seq2", {{"thread_mapping", "u1"}, {"loop_unrolling", "u2"}});
  ASSERT_TRUE(MergeTrajectory(t1, *tax, &g).ok());
  ASSERT_TRUE(MergeTrajectory(t2, *tax, &g).ok());
  ASSERT_EQ(g.num_edges(), 4u);

  OrderedJson j = OfficialGraphToJson(g);
  ASSERT_EQ(j["edge"].size(), 4u);
  EXPECT_EQ(j["node"][1]["name"], "Thread mapping (parallelization)");
  EXPECT_EQ(j["node"][1]["in"], OrderedJson::parse("[0]"));
  EXPECT_EQ(j["node"][1]["out"], OrderedJson::parse("[2, 3]"));
  EXPECT_EQ(j["edge"][1]["examples"][0]["before"], "s1");
  EXPECT_EQ(j["edge"][1]["examples"][0]["after"], "s2");
  EXPECT_EQ(j["edge"][1]["examples"][0]["name"], "k1");

  std::string text = SerializeGraph(g, GraphFormat::kOfficial);
  OfficialReadReport report;
  auto back = ParseOfficialGraph(text, "o.json", &report);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(report.edges_recovered, 0u);
  EXPECT_EQ(back->num_edges(), 4u);
  EXPECT_EQ(back->num_examples(), 5u);
  EXPECT_EQ(SerializeGraph(*back, GraphFormat::kOfficial), text);  // official round trip
}

TEST(GraphJsonTest, OfficialImportRecoversEdgesTheOfficialWriterDropped) {
  // What ReGraph.save writes after merging one trajectory init -> A -> B:
  // both edges came from case (c), so "edge" is empty, yet the nodes list them.
  const char* buggy = R"({
    "node": [
      {"index": 0, "name": "init state", "in": [], "out": [1]},
      {"index": 1, "name": "parallelization", "in": [0], "out": [2]},
      {"index": 2, "name": "shared memory", "in": [1, 2], "out": [2]}
    ],
    "edge": [
      {"src": 2, "tgt": 2, "examples": [
        {"name": "k", "think": "t", "detail": "d", "before": "b", "after": "a"},
        {"name": "k", "think": "t", "detail": "d", "before": "b", "after": "a"}]}
    ]})";
  OfficialReadReport report;
  auto g = ParseOfficialGraph(buggy, "o.json", &report);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(report.edges_recovered, 2u);
  EXPECT_EQ(report.duplicate_examples_dropped, 1u);
  ASSERT_EQ(g->num_edges(), 3u);
  EXPECT_TRUE(g->FindEdge(0, 1));
  EXPECT_TRUE(g->FindEdge(1, 2));
  EXPECT_EQ(g->edge(*g->FindEdge(2, 2)).examples.size(), 1u);
  EXPECT_EQ(g->edge(*g->FindEdge(0, 1)).examples.size(), 0u);  // lost by the writer
  EXPECT_EQ(g->node(2).technique, "");  // official names are kept as they are
}

TEST(GraphJsonTest, NativeValidationErrorsNameTheField) {
  auto doc = [](const std::string& nodes, const std::string& edges) {
    return R"({"format":"regrapht-graph","version":1,"techniques":["a"],"nodes":[{"id":0,"name":"init state"})" +
           nodes + R"(],"edges":[)" + edges + "]}";
  };
  const std::string a = R"(,{"id":1,"name":"A","technique":"a","description":"","needs_review":false})";
  const std::string ex = R"({"kernel":"k","before":"b","after":"c"})";
  struct Case {
    std::string text;
    std::string error;
  };
  std::vector<Case> cases = {
      {R"({"version":1,"nodes":[],"edges":[]})", "g.json: format: required field is missing"},
      {R"({"format":"regrapht-graph","version":3,"nodes":[],"edges":[]})",
       "g.json: version: unsupported version 3 (this build reads version 1)"},
      {R"({"format":"regrapht-graph","version":1,"nodes":[{"id":0,"name":"start"}],"edges":[]})",
       "g.json: nodes[0].name: node 0 is the init node and must be named \"init state\", got \"start\""},
      {doc(R"(,{"id":2,"name":"A"})", ""),
       "g.json: nodes[1].id: expected 1 (nodes are listed in id order), got 2"},
      {doc(a + R"(,{"id":2,"name":"A"})", ""),
       "g.json: nodes[2].name: \"A\" is already the name of nodes[1]"},
      {doc(a + R"(,{"id":2,"name":"B","technique":"a"})", ""),
       "g.json: nodes[2].technique: \"a\" is already the technique of nodes[1]"},
      {R"({"format":"regrapht-graph","version":1,"nodes":[{"id":0,"name":"init state"},)"
       R"({"id":1,"name":"A","technique":"warp_magic"}],"edges":[]})",
       "g.json: nodes[1].technique: \"warp_magic\" is not a technique id of the taxonomy (data/taxonomy.json; "
       "docs/techniques.md) and the graph does not declare it in \"techniques\""},
      {R"({"format":"regrapht-graph","version":1,"techniques":["a","a"],"nodes":[],"edges":[]})",
       "g.json: techniques[1]: \"a\" is declared twice"},
      {doc(R"(,{"id":1,"name":"A\u0000B"})", ""),
       "g.json: nodes[1].name: control character U+0000 at byte 1 (names are printable text)"},
      {doc(a, R"({"id":0,"from":0,"to":7,"examples":[]})"),
       "g.json: edges[0].to: node 7 does not exist (the graph has 2 nodes)"},
      {doc(a, R"({"id":0,"from":1,"to":0,"examples":[]})"),
       "g.json: edges[0].to: no edge may enter the init node"},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[]},{"id":1,"from":0,"to":1,"examples":[]})"),
       "g.json: edges[1]: duplicate of edges[0] (0->1)"},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[{"kernel":"k","before":"b","after":"c","code":"x"}]})"),
       "g.json: edges[0].examples[0].code: unknown field (allowed: kernel, method, think, detail, "
       "before, after, verification)"},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[{"kernel":"k","after":"c"}]})"),
       "g.json: edges[0].examples[0].before: required field is missing"},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[)" + ex + "," + ex + "]}"),
       "g.json: edges[0].examples[1]: duplicate example (same kernel, before and after as an "
       "earlier one)"},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[{"kernel":"k","before":"b","after":"c",)"
              R"("verification":{"compiled":true,"correctness":"yes"}}]})"),
       "g.json: edges[0].examples[0].verification.correctness: expected \"unknown\", \"correct\" "
       "or \"wrong\", got \"yes\""},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[{"kernel":"k","before":"b","after":"c",)"
              R"("verification":{"compiled":false,"correctness":"correct"}}]})"),
       "g.json: edges[0].examples[0].verification.correctness: \"correct\" but \"compiled\" is false"},
      {doc(a, R"({"id":0,"from":0,"to":1,"examples":[{"kernel":"k","before":"b","after":"c",)"
              R"("verification":{"compiled":true,"speedup":-2}}]})"),
       "g.json: edges[0].examples[0].verification.speedup: must be positive"},
      {"{\n  \"format\": \"regrapht-graph\",\n  \"nodes\": [,]\n}",
       "g.json:3:13: JSON syntax error while parsing value - unexpected ','; expected '[', '{', "
       "or a literal"},
  };
  for (const auto& c : cases) {
    auto g = ParseGraph(c.text, "g.json", GraphFormat::kNative);
    ASSERT_FALSE(g.ok()) << c.text;
    EXPECT_EQ(g.status().message(), c.error);
  }
}

TEST(GraphJsonTest, OfficialValidationErrorsNameTheField) {
  struct Case {
    std::string text;
    std::string error;
  };
  std::vector<Case> cases = {
      {R"({"node":[{"index":0,"name":"init state","in":[],"out":[]},{"index":5,"name":"x","in":[],"out":[]}],"edge":[]})",
       "o.json: node[1].index: expected 1 (nodes are listed in index order), got 5"},
      {R"({"node":[{"index":0,"name":"init state","in":[],"out":[3]}],"edge":[]})",
       "o.json: node[0].out[0]: node 3 does not exist (the graph has 1 nodes)"},
      {R"({"node":[{"index":0,"name":"init state","in":[],"out":[]}],"edge":[{"src":0,"tgt":0,"examples":[]}]})",
       "o.json: edge[0].tgt: no edge may enter the init node"},
      {R"({"node":[{"index":0,"name":"init state","in":[],"out":"x"}],"edge":[]})",
       "o.json: node[0].out: expected an array, got string"},
      {R"({"node":[],"edge":[],"extra":true})",
       "o.json: extra: unknown field (allowed: node, edge)"},
  };
  for (const auto& c : cases) {
    auto g = ParseGraph(c.text, "o.json", GraphFormat::kOfficial);
    ASSERT_FALSE(g.ok()) << c.text;
    EXPECT_EQ(g.status().message(), c.error);
  }
}

TEST(GraphJsonTest, FormatNames) {
  EXPECT_EQ(*ParseGraphFormat("official"), GraphFormat::kOfficial);
  EXPECT_EQ(GraphFormatName(GraphFormat::kNative), "native");
  EXPECT_EQ(ParseGraphFormat("dot").status().message(),
            "unknown graph format \"dot\" (expected native, official or auto)");
}

TEST(GraphJsonTest, LoadGraphSaysWhatReadingTheOfficialFormatRepaired) {
  auto dir = TempDir::Create("graph_json_test");
  ASSERT_TRUE(dir.ok());
  const fs::path file = dir->path() / "o.json";
  ASSERT_TRUE(WriteFileAtomic(file, R"({
    "node": [
      {"index": 0, "name": "init state", "in": [], "out": [1]},
      {"index": 1, "name": "parallelization", "in": [0], "out": []}
    ],
    "edge": []})")
                  .ok());
  std::vector<std::string> notes;
  auto g = LoadGraph(file, GraphFormat::kAuto, &notes);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->num_edges(), 1u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], file.string() +
                          ": recovered 1 edges listed only in nodes' in/out (the official writer "
                          "drops them; their examples are lost)");
  notes.clear();
  ASSERT_TRUE(SaveGraph(SmallGraph(), file).ok());
  ASSERT_TRUE(LoadGraph(file, GraphFormat::kAuto, &notes).ok());  // native: nothing to repair
  EXPECT_TRUE(notes.empty());
  EXPECT_TRUE(LoadGraph(file, GraphFormat::kNative, nullptr).ok());
}

TEST(GraphJsonTest, StatsAsTextAndJson) {
  Graph g = SmallGraph();
  const std::string json = GraphStatsJson(g, 2);
  auto parsed = ParseJson(json, "stats");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed->is_object());
  EXPECT_FALSE(GraphStatsText(g).empty());
}

}  // namespace
}  // namespace regrapht
