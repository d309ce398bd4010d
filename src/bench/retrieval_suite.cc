// EvaluateSuiteRetrieval (regrapht/retrieval.h): graph/retrieval_eval.h's
// measure over a suite's problems with expert trajectories, by BM25 and by
// a llama.cpp model's embeddings.
#include <memory>
#include <utility>

#include "bench/suite.h"
#include "core/clock.h"
#include "core/fs.h"
#include "graph/retrieval_eval.h"
#include "llm/models.h"
#include "regrapht/graph.h"
#include "regrapht/llm.h"
#include "regrapht/retrieval.h"

namespace regrapht {
namespace {

// The queries: the suite's problems that have an expert trajectory.
Result<std::vector<RetrievalQuery>> LoadRetrievalQueries(const fs::path& dir) {
  RG_ASSIGN_OR_RETURN(bench::Suite suite, bench::LoadSuite(dir));
  std::vector<RetrievalQuery> queries;
  for (const auto& p : suite.problems) {
    if (p.trajectory.empty()) continue;
    queries.push_back({p.problem.spec.name, p.problem.reference_source, p.trajectory});
  }
  if (queries.empty())
    return Status::InvalidArgument(dir.string() + ": no problem has an expert trajectory");
  return queries;
}

RetrievalEvalRun RetrievalRunOf(std::string name, const RetrievalQuality& q) {
  RetrievalEvalRun run;
  run.name = std::move(name);
  run.first_match = q.first_match;
  run.jaccard = q.jaccard;
  run.recall = q.recall;
  for (const auto& h : q.hits) {
    run.hits.push_back({h.query, h.kernel, h.techniques, h.first_match, h.jaccard, h.recall});
  }
  return run;
}

// The embeddings' run: the corpus kernels (`starts`) ranked by the
// embedding model's cosine.
Result<RetrievalQuality> EmbeddingRetrieval(const RetrievalEvalOptions& options, const Graph& g,
                                            const Graph& starts,
                                            const std::vector<RetrievalQuery>& queries,
                                            std::string* model_name, double* seconds) {
  LlamaOptions lo;
  if (options.embed_model.empty()) {
    auto path = llm::DefaultModelPath();
    if (!path.ok()) return path.status().WithContext("the default model (give --embed-model FILE)");
    lo.model_path = *path;
  } else {
    lo.model_path = options.embed_model;
  }
  lo.threads = options.threads;
  lo.context_size = 2048;
  lo.max_sequences = 1;
  auto model = NewLlamaBackend(lo);
  if (!model.ok()) return model.status().WithContext("the embedding model");
  *model_name = lo.model_path.filename().string();
  ExampleIndex index(starts);
  LlmBackend* m = model->get();
  const double t0 = SystemClock::Get()->NowSeconds();
  Status s =
      index.UseEmbeddings(starts, [m](const std::vector<std::string>& t) { return m->Embed(t); });
  if (!s.ok()) return s.WithContext("embedding the corpus kernels with " + *model_name);
  RetrievalQuality q = EvaluateRetrieval(g, starts, index, queries);
  *seconds = SystemClock::Get()->NowSeconds() - t0;
  return q;
}

}  // namespace

Result<RetrievalEvalReport> EvaluateSuiteRetrieval(const RetrievalEvalOptions& options) {
  if (!options.bm25 && !options.embeddings) {
    return Status::InvalidArgument(
        "retrieval-eval: no retrieval asked for (bm25, embeddings or both)");
  }
  RetrievalEvalReport report;
  report.graph = options.graph.empty() ? DataDir() / "graph" / "regrapht.json" : options.graph;
  RG_ASSIGN_OR_RETURN(Graph g, LoadGraph(report.graph));
  report.suite = options.suite.empty() ? DataDir() / "suites" / "cudaeval" : options.suite;
  std::error_code ec;
  if (options.suite.empty() && !fs::exists(report.suite, ec)) {
    return Status::NotFound(report.suite.string() + ": no such suite (give --suite DIR)");
  }
  RG_ASSIGN_OR_RETURN(std::vector<RetrievalQuery> queries, LoadRetrievalQueries(report.suite));
  report.problems = queries.size();
  const Graph starts = KernelStarts(g);
  RetrievalQuality any;
  if (options.bm25) {
    ExampleIndex index(g);  // the whole pool, as rag's retrieval (BM25's weights depend on it)
    any = EvaluateRetrieval(g, g, index, queries);
    report.runs.push_back(RetrievalRunOf("bm25", any));
  }
  if (options.embeddings) {
    RG_ASSIGN_OR_RETURN(RetrievalQuality q,
                        EmbeddingRetrieval(options, g, starts, queries, &report.embedding_model,
                                           &report.embed_seconds));
    report.embedded_kernels = starts.num_examples();
    if (report.runs.empty()) any = q;
    report.runs.push_back(RetrievalRunOf("embeddings (" + report.embedding_model + ")", q));
  }
  report.corpus_kernels = CorpusKernels(g).size();
  report.chance_first_match = any.chance_first_match;
  report.chance_jaccard = any.chance_jaccard;
  report.chance_recall = any.chance_recall;
  return report;
}

}  // namespace regrapht
