#include "graph/retrieval.h"
#include "graph/retrieval_eval.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "graph/test_util.h"

namespace regrapht {
namespace {

// Examples whose `before` codes differ; one is planted close to the query.
Graph RetrievalGraph() {
  Graph g;
  NodeId a = *g.AddNode({"A", "a", "", false});
  NodeId b = *g.AddNode({"B", "b", "", false});
  EdgeId e0 = *g.AddEdge(kInitNode, a);
  EdgeId e1 = *g.AddEdge(kInitNode, b);
  auto add = [&](EdgeId e, const char* kernel, const char* before) {
    Example x;
    x.kernel = kernel;
    x.before = before;
    x.after = std::string(before) + " // cuda";
    g.AddExample(e, x);
  };
  add(e0, "vec", "void vec_add(float* a, float* b, float* c, int n) { for (int i = 0; i < n; ++i) c[i] = a[i] + b[i]; }");
  add(e0, "mm", "void matmul(const float* A, const float* B, float* C, int N) { for (int i = 0; i < N; ++i) for (int j = 0; j < N; ++j) { float acc = 0; for (int k = 0; k < N; ++k) acc += A[i*N+k] * B[k*N+j]; C[i*N+j] = acc; } }");
  add(e0, "hist", "void histogram(const int* data, int* bins, int n) { for (int i = 0; i < n; ++i) bins[data[i]]++; }");
  add(e0, "stencil", "void blur(const float* in, float* out, int w, int h) { for (int y = 1; y < h-1; ++y) for (int x = 1; x < w-1; ++x) out[y*w+x] = (in[y*w+x-1] + in[y*w+x] + in[y*w+x+1]) / 3; }");
  add(e1, "mm2", "void gemm(const double* A, const double* B, double* C, int N) { for (int i = 0; i < N; ++i) for (int j = 0; j < N; ++j) { double acc = 0; for (int k = 0; k < N; ++k) acc += A[i*N+k] * B[k*N+j]; C[i*N+j] = acc; } }");
  add(e1, "same1", "int zero() { return 0; }");
  add(e1, "same2", "int zero() { return 0; }");
  return g;
}

TEST(RetrievalTest, PlantedMostSimilarExampleRanksFirst) {
  Graph g = RetrievalGraph();
  ExampleIndex index(g);
  EXPECT_EQ(index.num_examples(), 7u);
  const char* query =
      "void sgemm(const float* A, const float* B, float* C, int N) { for (int i = 0; i < N; ++i) "
      "for (int j = 0; j < N; ++j) { float acc = 0; for (int k = 0; k < N; ++k) acc += "
      "A[i*N+k] * B[k*N+j]; C[i*N+j] = acc; } }";
  auto on_edge = index.TopKOnEdge(query, 0, 2);
  ASSERT_EQ(on_edge.size(), 2u);
  EXPECT_EQ(on_edge[0].ref, (ExampleRef{0, 1}));  // the float matmul
  EXPECT_GT(on_edge[0].score, on_edge[1].score);
  EXPECT_DOUBLE_EQ(on_edge[0].score, index.Score(query, {0, 1}));

  auto global = index.TopKGlobal(query, 3);
  ASSERT_EQ(global.size(), 3u);
  EXPECT_EQ(global[0].ref, (ExampleRef{0, 1}));
  EXPECT_EQ(global[1].ref, (ExampleRef{1, 0}));  // the double gemm comes next
  // k larger than the pool gives the whole pool.
  EXPECT_EQ(index.TopKOnEdge(query, 1, 10).size(), 3u);
}

TEST(RetrievalTest, DeterministicWithTiesByContentThenSeed) {
  Graph g = RetrievalGraph();
  ExampleIndex index(g);
  // Two identical examples tie: example order decides.
  auto tie = index.TopKOnEdge("int zero() { return 0; }", 1, 3);
  ASSERT_EQ(tie.size(), 3u);
  EXPECT_EQ(tie[0].ref, (ExampleRef{1, 1}));
  EXPECT_EQ(tie[1].ref, (ExampleRef{1, 2}));
  EXPECT_EQ(tie[0].score, tie[1].score);
  // No shared token: everything scores 0, so the examples' content hashes
  // (seed 0) or a seeded shuffle of them (seed != 0) decide; both
  // reproducible, neither by position.
  auto none = index.TopKGlobal("@@@", 7);
  for (size_t i = 0; i < none.size(); ++i) EXPECT_EQ(none[i].score, 0);
  auto again = index.TopKGlobal("@@@", 7);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(none[i].ref, again[i].ref);
  auto s1 = index.TopKGlobal("@@@", 7, 42), s2 = index.TopKGlobal("@@@", 7, 42);
  auto s3 = index.TopKGlobal("@@@", 7, 43);
  bool same12 = true, same13 = true, same_order = true;
  for (size_t i = 0; i < 7; ++i) {
    same12 = same12 && s1[i].ref == s2[i].ref;
    same13 = same13 && s1[i].ref == s3[i].ref;
    same_order = same_order && s1[i].ref == none[i].ref;
  }
  EXPECT_TRUE(same12);
  EXPECT_FALSE(same13 && same_order);
  // A fresh index over the same graph ranks the same way.
  ExampleIndex other(g);
  auto a = index.TopKGlobal("for (int i = 0; i < n; ++i)", 7);
  auto b = other.TopKGlobal("for (int i = 0; i < n; ++i)", 7);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(a[i].ref, b[i].ref);
}

TEST(RetrievalTest, TheSameGraphBuiltInAnotherOrderRanksTheSameExamples) {
  // The examples of every edge added in reverse, as importing the
  // trajectories in another order would: the same texts come out, ties
  // included (no shared token at all), whatever the seed.
  Graph g = RetrievalGraph();
  Graph r;
  for (const Node& n : g.nodes()) {
    if (n.id == kInitNode) continue;
    NodeSpec spec;
    spec.name = n.name;
    spec.technique = n.technique;
    ASSERT_TRUE(r.AddNode(spec).ok());
  }
  for (const Edge& e : g.edges()) {
    auto id = r.AddEdge(e.from, e.to);
    ASSERT_TRUE(id.ok());
    for (auto ex = e.examples.rbegin(); ex != e.examples.rend(); ++ex) r.AddExample(*id, *ex);
  }
  ExampleIndex a(g), b(r);
  auto text = [](const Graph& graph, const ScoredExample& s) {
    const Example& ex = graph.edge(s.ref.edge).examples[s.ref.index];
    return ex.before + "|" + ex.after;
  };
  for (const char* query : {"@@@", "for (int i = 0; i < n; ++i)", "int zero() { return 0; }"}) {
    for (uint64_t seed : {0, 7}) {
      auto x = a.TopKGlobal(query, 7, seed), y = b.TopKGlobal(query, 7, seed);
      ASSERT_EQ(x.size(), y.size());
      for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(text(g, x[i]), text(r, y[i])) << query << " seed " << seed << " rank " << i;
        EXPECT_EQ(x[i].score, y[i].score);
      }
    }
  }
}

TEST(RetrievalTest, EmptyGraph) {
  Graph g;
  ExampleIndex index(g);
  EXPECT_TRUE(index.TopKGlobal("x", 3).empty());
}

// A fake embedding: a text's vector counts a few marker words, so similarity
// is predictable; texts containing "FAIL" cannot be embedded.
Result<std::vector<std::vector<float>>> FakeEmbed(const std::vector<std::string>& texts, int* calls) {
  ++*calls;
  std::vector<std::vector<float>> out;
  for (const auto& t : texts) {
    if (t.find("FAIL") != std::string::npos) return Status::Unavailable("cannot embed");
    std::vector<float> v(4, 0.01f);
    const char* words[4] = {"bins", "blur", "acc", "zero"};
    for (int k = 0; k < 4; ++k) {
      for (size_t at = t.find(words[k]); at != std::string::npos; at = t.find(words[k], at + 1)) v[k] += 1;
    }
    out.push_back(v);
  }
  return out;
}

TEST(RetrievalTest, EmbeddingsRankByCosineAndFallBackToBm25PerQuery) {
  Graph g = RetrievalGraph();
  ExampleIndex index(g);
  int calls = 0;
  auto embed = [&](const std::vector<std::string>& texts) { return FakeEmbed(texts, &calls); };
  ASSERT_TRUE(index.UseEmbeddings(g, embed, 3).ok());
  EXPECT_TRUE(index.uses_embeddings());
  EXPECT_EQ(calls, 3);  // 7 examples in batches of 3
  // "bins" only in the histogram example: BM25 on these tokens would not rank it
  // first for a query that shares no code tokens with it, cosine does.
  auto top = index.TopKOnEdge("bins bins", 0, 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].ref, (ExampleRef{0, 2}));
  EXPECT_GT(top[0].score, 0.99);
  auto global = index.TopKGlobal("acc", 2);
  ASSERT_EQ(global.size(), 2u);  // both matrix products
  EXPECT_TRUE((global[0].ref == ExampleRef{0, 1} && global[1].ref == ExampleRef{1, 0}) ||
              (global[0].ref == ExampleRef{1, 0} && global[1].ref == ExampleRef{0, 1}));
  // A query is embedded once.
  int before = calls;
  index.TopKOnEdge("bins bins", 0, 1);
  EXPECT_EQ(calls, before);
  // A query that cannot be embedded falls back to BM25 for that query.
  const char* query =
      "FAIL void sgemm(const float* A, const float* B, float* C, int N) { for (int i = 0; i < N; ++i) "
      "for (int j = 0; j < N; ++j) { float acc = 0; for (int k = 0; k < N; ++k) acc += "
      "A[i*N+k] * B[k*N+j]; C[i*N+j] = acc; } }";
  auto fallback = index.TopKOnEdge(query, 0, 1);
  ASSERT_EQ(fallback.size(), 1u);
  EXPECT_DOUBLE_EQ(fallback[0].score, index.Score(query, fallback[0].ref));
}

TEST(RetrievalTest, EmbeddingsThatFailLeaveBm25InPlace) {
  Graph g = RetrievalGraph();
  ExampleIndex index(g);
  Status s = index.UseEmbeddings(g, [](const std::vector<std::string>&) -> Result<std::vector<std::vector<float>>> {
    return Status::Unimplemented("test does not offer embeddings");
  });
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("embedding the graph's examples"), std::string::npos) << s.message();
  EXPECT_FALSE(index.uses_embeddings());
  Status wrong = index.UseEmbeddings(g, [](const std::vector<std::string>& t) -> Result<std::vector<std::vector<float>>> {
    return std::vector<std::vector<float>>(t.size() - 1, std::vector<float>(3, 1.0f));
  });
  EXPECT_FALSE(wrong.ok());
  EXPECT_FALSE(index.uses_embeddings());
}

// The shipped graph's top examples for the bundled problems' sources,
// pinned: a change of tokenizer (core/scanner.h) or of scoring shows here.
// The golden file was written before retrieval moved to the scanner, whose
// token streams equal the old tokenizer's on all 1,356 example codes.
TEST(ExampleIndexTest, ShippedGraphRankingIsPinned) {
  fs::path root = testing_util::SourceDir();
  auto graph = LoadGraph(root / "data" / "graph" / "regrapht.json");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ExampleIndex index(*graph);
  std::string out;
  for (const char* problem : {"jacobi2d", "saxpy", "spmv_csr", "sum_of_squares"}) {
    auto code = ReadFile(root / "problems" / problem / "reference.cpp");
    ASSERT_TRUE(code.ok()) << code.status().ToString();
    out += std::string(problem) + ":";
    for (const ScoredExample& s : index.TopKGlobal(*code, 5)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " %u/%u=%.6f", s.ref.edge, s.ref.index, s.score);
      out += buf;
    }
    out += "\n";
  }
  EXPECT_EQ(testing_util::CheckGolden("retrieval_shipped_top.txt", out), "");
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// Two corpus kernels: "sum" (map -> reduce) and "blur" (map -> tile -> unroll).
Graph TwoKernels() {
  Graph g;
  NodeId map = *g.AddNode({"thread mapping", "map", "", false});
  NodeId reduce = *g.AddNode({"tree reduction", "reduce", "", false});
  NodeId tile = *g.AddNode({"tiling", "tile", "", false});
  NodeId unroll = *g.AddNode({"unrolling", "unroll", "", false});
  EdgeId e_map = *g.AddEdge(kInitNode, map), e_red = *g.AddEdge(map, reduce);
  EdgeId e_tile = *g.AddEdge(map, tile), e_unroll = *g.AddEdge(tile, unroll);
  auto add = [&](EdgeId e, const char* kernel, const char* before, const char* after) {
    Example x;
    x.kernel = kernel;
    x.before = before;
    x.after = after;
    g.AddExample(e, x);
  };
  add(e_map, "sum", "float sum(const float* acc, int n) { float s = 0; for (int i = 0; i < n; ++i) s += acc[i]; return s; }", "S1");
  add(e_red, "sum", "S1", "S2");
  add(e_map, "blur", "void blur(const float* in, float* out, int w) { for (int x = 1; x < w; ++x) out[x] = in[x-1] + in[x]; }", "B1");
  add(e_tile, "blur", "B1", "B2");
  add(e_unroll, "blur", "B2", "B3");
  return g;
}

TEST(RetrievalEvalTest, KernelPathsAndTheFirstRetrievedKernelAgainstTheExpert) {
  Graph g = TwoKernels();
  auto corpus = CorpusKernels(g);
  ASSERT_EQ(corpus.size(), 2u);
  EXPECT_EQ(corpus[0].kernel, "sum");
  EXPECT_EQ(corpus[0].techniques, (std::vector<std::string>{"map", "reduce"}));
  EXPECT_EQ(corpus[1].techniques, (std::vector<std::string>{"map", "tile", "unroll"}));
  std::vector<RetrievalQuery> queries = {
      {"dot", "float dot(const float* acc, int n) { float s = 0; for (int i = 0; i < n; ++i) s += acc[i] * acc[i]; return s; }",
       {"map", "reduce"}},
      {"box", "void box(const float* in, float* out, int w) { for (int x = 1; x < w; ++x) out[x] = in[x-1] + in[x] + in[x+1]; }",
       {"map", "tile"}}};
  ExampleIndex bm25(g);
  RetrievalQuality q = EvaluateRetrieval(g, g, bm25, queries);
  ASSERT_EQ(q.hits.size(), 2u);
  EXPECT_EQ(q.hits[0].kernel, "sum");
  EXPECT_EQ(q.hits[1].kernel, "blur");
  EXPECT_DOUBLE_EQ(q.first_match, 1.0);
  EXPECT_DOUBLE_EQ(q.hits[0].jaccard, 1.0);
  EXPECT_DOUBLE_EQ(q.hits[1].jaccard, 2.0 / 3);  // {map, tile} against {map, tile, unroll}
  EXPECT_DOUBLE_EQ(q.recall, 1.0);
  // Chance: each query against both kernels: dot 1 and 1/4, box 1/3 and 2/3.
  EXPECT_DOUBLE_EQ(q.chance_first_match, 1.0);
  EXPECT_NEAR(q.chance_jaccard, (1 + 0.25 + 1.0 / 3 + 2.0 / 3) / 4, 1e-12);
  // Embeddings over the kernels' starts rank by cosine (the fake embedding
  // counts marker words: "acc" puts dot with sum; box, without markers, is
  // nearer blur's one-marker vector than sum's).
  Graph starts = KernelStarts(g);
  EXPECT_EQ(starts.num_examples(), 2u);
  ExampleIndex emb(starts);
  int calls = 0;
  ASSERT_TRUE(emb.UseEmbeddings(starts, [&](const std::vector<std::string>& t) { return FakeEmbed(t, &calls); }).ok());
  RetrievalQuality e = EvaluateRetrieval(g, starts, emb, queries);
  EXPECT_EQ(calls, 3);  // the two starts in one batch, then each query
  EXPECT_EQ(e.hits[0].kernel, "sum");
  EXPECT_EQ(e.hits[1].kernel, "blur");
  EXPECT_DOUBLE_EQ(e.jaccard, (1 + 2.0 / 3) / 2);
}

}  // namespace
}  // namespace regrapht
