// regrapht graph retrieval-eval: how often the corpus kernel that retrieval
// ranks first for a suite problem shares the problem's expert technique path,
// by BM25 and by embeddings (docs/search.md "Retrieval quality").
#include <cstdio>
#include <memory>

#include "bench/suite.h"
#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "core/fs.h"
#include "core/clock.h"
#include "core/json_util.h"
#include "graph/retrieval_eval.h"
#include "llm/models.h"
#include "regrapht/llm.h"

namespace regrapht::cli {

namespace {

struct RetrievalEvalState {
  std::string graph, suite, retrieval = "both", embed_model;
  int threads = 0;
  bool per_problem = false, json = false;
};

// One retrieval's figures, under its name in the table.
struct RetrievalRun {
  std::string name;
  RetrievalQuality q;
};

// The queries: the suite's problems that have an expert trajectory.
Result<std::vector<RetrievalQuery>> LoadQueries(const std::string& spath) {
  RG_ASSIGN_OR_RETURN(bench::Suite suite, bench::LoadSuite(spath));
  std::vector<RetrievalQuery> queries;
  for (const auto& p : suite.problems) {
    if (p.trajectory.empty()) continue;
    queries.push_back({p.problem.spec.name, p.problem.reference_source, p.trajectory});
  }
  if (queries.empty()) return Status::InvalidArgument(spath + ": no problem has an expert trajectory");
  return queries;
}

// The embeddings' run: the corpus kernels (`starts`) ranked by the
// embedding model's cosine; says on stderr how long embedding took.
Result<RetrievalRun> EvaluateEmbeddings(const RetrievalEvalState& st, const Graph& g, const Graph& starts,
                                        const std::vector<RetrievalQuery>& queries) {
  LlamaOptions lo;
  if (st.embed_model.empty()) {
    auto path = llm::DefaultModelPath();
    if (!path.ok()) return path.status().WithContext("the default model (give --embed-model FILE)");
    lo.model_path = *path;
  } else {
    lo.model_path = st.embed_model;
  }
  lo.threads = st.threads;
  lo.context_size = 2048;
  lo.max_sequences = 1;
  auto model = NewLlamaBackend(lo);
  if (!model.ok()) return model.status().WithContext("the embedding model");
  const std::string model_name = lo.model_path.filename().string();
  ExampleIndex index(starts);
  LlmBackend* m = model->get();
  const double t0 = SystemClock::Get()->NowSeconds();
  Status s = index.UseEmbeddings(starts, [m](const std::vector<std::string>& t) { return m->Embed(t); });
  if (!s.ok()) return s.WithContext("embedding the corpus kernels with " + model_name);
  RetrievalRun run{"embeddings (" + model_name + ")", EvaluateRetrieval(g, starts, index, queries)};
  std::fprintf(stderr, "embedded %zu corpus kernels and %zu queries with %s in %.1f s\n", starts.num_examples(),
               queries.size(), model_name.c_str(), SystemClock::Get()->NowSeconds() - t0);
  return run;
}

// The table's rows (and each run as JSON, with its hits).
OrderedJson PrintRetrievalRuns(const std::vector<RetrievalRun>& runs) {
  OrderedJson out = OrderedJson::array();
  for (const auto& r : runs) {
    std::printf("| %s | %.1f%% | %.3f | %.1f%% |\n", r.name.c_str(), 100 * r.q.first_match, r.q.jaccard,
                100 * r.q.recall);
    OrderedJson hits = OrderedJson::array();
    for (const auto& h : r.q.hits) {
      hits.push_back({{"problem", h.query},
                      {"kernel", h.kernel},
                      {"techniques", h.techniques},
                      {"first_match", h.first_match},
                      {"jaccard", h.jaccard},
                      {"recall", h.recall}});
    }
    out.push_back({{"retrieval", r.name},
                   {"first_match", r.q.first_match},
                   {"jaccard", r.q.jaccard},
                   {"recall", r.q.recall},
                   {"hits", hits}});
  }
  return out;
}

// --per-problem: each problem's retrieved kernel and its path.
void PrintPerProblemHits(const std::vector<RetrievalRun>& runs) {
  for (const auto& r : runs) {
    std::printf("\n%s:\n", r.name.c_str());
    for (const auto& h : r.q.hits) {
      std::string path;
      for (const auto& t : h.techniques) path += (path.empty() ? "" : " > ") + t;
      std::printf("  %-28s %-28s %s%s\n", h.query.c_str(), h.kernel.c_str(), path.c_str(),
                  h.first_match ? "  (first matches)" : "");
    }
  }
}

// graph retrieval-eval, once its flags are parsed.
int RunRetrievalEval(const RetrievalEvalState& st) {
  const std::string gpath = st.graph.empty() ? (DataDir() / "graph" / "regrapht.json").string() : st.graph;
  auto g = LoadGraph(gpath);
  if (!g.ok()) return Fail(g.status());
  const std::string spath = st.suite.empty() ? (DataDir() / "suites" / "cudaeval").string() : st.suite;
  if (st.suite.empty() && !fs::exists(spath)) {
    return Fail(Status::NotFound(spath + ": no such suite (give --suite DIR)"));
  }
  auto queries = LoadQueries(spath);
  if (!queries.ok()) return Fail(queries.status());
  std::vector<RetrievalRun> runs;
  const Graph starts = KernelStarts(*g);
  if (st.retrieval != "embeddings") {
    ExampleIndex index(*g);  // the whole pool, as rag's retrieval (BM25's weights depend on it)
    runs.push_back({"bm25", EvaluateRetrieval(*g, *g, index, *queries)});
  }
  if (st.retrieval != "bm25") {
    auto run = EvaluateEmbeddings(st, *g, starts, *queries);
    if (!run.ok()) return Fail(run.status());
    runs.push_back(std::move(*run));
  }
  const size_t corpus = CorpusKernels(*g).size();
  std::printf("retrieval quality on %s: %zu problems with an expert trajectory, %zu corpus kernels (%s)\n\n",
              spath.c_str(), queries->size(), corpus, gpath.c_str());
  std::printf("| retrieval | first technique matches | technique-set Jaccard | expert techniques recalled |\n");
  std::printf("|---|---|---|---|\n");
  OrderedJson out = PrintRetrievalRuns(runs);
  const RetrievalQuality& any = runs.front().q;
  std::printf("| chance (a kernel drawn uniformly) | %.1f%% | %.3f | %.1f%% |\n", 100 * any.chance_first_match,
              any.chance_jaccard, 100 * any.chance_recall);
  if (st.per_problem) PrintPerProblemHits(runs);
  if (st.json) {
    EmitJson(OrderedJson{{"suite", spath},
                         {"graph", gpath},
                         {"problems", queries->size()},
                         {"corpus_kernels", corpus},
                         {"chance", {{"first_match", any.chance_first_match},
                                     {"jaccard", any.chance_jaccard},
                                     {"recall", any.chance_recall}}},
                         {"runs", out}});
  }
  return kExitOk;
}

}  // namespace

std::function<int()> RetrievalEvalCommand(CLI::App* sub) {
  auto st = std::make_shared<RetrievalEvalState>();
  sub->add_option("--graph", st->graph, "reasoning graph (default: the shipped one)");
  sub->add_option("--suite", st->suite, "a suite with expert.json trajectories (default: the shipped suites/cudaeval)");
  sub->add_option("--retrieval", st->retrieval, "bm25, embeddings or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"bm25", "embeddings", "both"}));
  sub->add_option("--embed-model", st->embed_model,
                  "a GGUF file whose llama.cpp embeddings rank the kernels (default: the registry's default model)");
  AddNumber(sub, "--threads", &st->threads, {0, 4096}, "CPU threads for the embedding model (0: physical cores)");
  sub->add_flag("--per-problem", st->per_problem, "also list each problem's retrieved kernel and path");
  AddJsonFlag(sub, &st->json, "the figures and every problem's hit");
  return [st]() -> int { return RunRetrievalEval(*st); };
}

}  // namespace regrapht::cli
