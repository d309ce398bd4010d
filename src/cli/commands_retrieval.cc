// regrapht graph retrieval-eval: how often the corpus kernel that retrieval
// ranks first for a suite problem shares the problem's expert technique path,
// by BM25 and by embeddings (docs/search.md "Retrieval quality").
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "regrapht/retrieval.h"

namespace regrapht::cli {

namespace {

struct RetrievalEvalState {
  std::string graph, suite, retrieval = "both", embed_model;
  int threads = 0;
  bool per_problem = false, json = false;
};

// The table's rows (and each run as JSON, with its hits).
OrderedJson PrintRetrievalRuns(const std::vector<RetrievalEvalRun>& runs) {
  OrderedJson out = OrderedJson::array();
  for (const auto& r : runs) {
    std::printf("| %s | %.1f%% | %.3f | %.1f%% |\n", r.name.c_str(), 100 * r.first_match, r.jaccard,
                100 * r.recall);
    OrderedJson hits = OrderedJson::array();
    for (const auto& h : r.hits) {
      hits.push_back({{"problem", h.problem},
                      {"kernel", h.kernel},
                      {"techniques", h.techniques},
                      {"first_match", h.first_match},
                      {"jaccard", h.jaccard},
                      {"recall", h.recall}});
    }
    out.push_back({{"retrieval", r.name},
                   {"first_match", r.first_match},
                   {"jaccard", r.jaccard},
                   {"recall", r.recall},
                   {"hits", hits}});
  }
  return out;
}

// --per-problem: each problem's retrieved kernel and its path.
void PrintPerProblemHits(const std::vector<RetrievalEvalRun>& runs) {
  for (const auto& r : runs) {
    std::printf("\n%s:\n", r.name.c_str());
    for (const auto& h : r.hits) {
      std::string path;
      for (const auto& t : h.techniques) path += (path.empty() ? "" : " > ") + t;
      std::printf("  %-28s %-28s %s%s\n", h.problem.c_str(), h.kernel.c_str(), path.c_str(),
                  h.first_match ? "  (first matches)" : "");
    }
  }
}

// graph retrieval-eval, once its flags are parsed.
int RunRetrievalEval(const RetrievalEvalState& st) {
  RetrievalEvalOptions o;
  o.graph = st.graph;
  o.suite = st.suite;
  o.bm25 = st.retrieval != "embeddings";
  o.embeddings = st.retrieval != "bm25";
  o.embed_model = st.embed_model;
  o.threads = st.threads;
  auto r = EvaluateSuiteRetrieval(o);
  if (!r.ok()) return Fail(r.status());
  if (o.embeddings) {
    std::fprintf(stderr, "embedded %zu corpus kernels and %zu queries with %s in %.1f s\n",
                 r->embedded_kernels, r->problems, r->embedding_model.c_str(), r->embed_seconds);
  }
  const std::string spath = r->suite.string(), gpath = r->graph.string();
  std::printf(
      "retrieval quality on %s: %zu problems with an expert trajectory, %zu corpus kernels "
      "(%s)\n\n",
      spath.c_str(), r->problems, r->corpus_kernels, gpath.c_str());
  std::printf(
      "| retrieval | first technique matches | technique-set Jaccard | expert techniques recalled "
      "|\n");
  std::printf("|---|---|---|---|\n");
  OrderedJson out = PrintRetrievalRuns(r->runs);
  std::printf("| chance (a kernel drawn uniformly) | %.1f%% | %.3f | %.1f%% |\n",
              100 * r->chance_first_match, r->chance_jaccard, 100 * r->chance_recall);
  if (st.per_problem) PrintPerProblemHits(r->runs);
  if (st.json) {
    EmitJson(OrderedJson{{"suite", spath},
                         {"graph", gpath},
                         {"problems", r->problems},
                         {"corpus_kernels", r->corpus_kernels},
                         {"chance",
                          {{"first_match", r->chance_first_match},
                           {"jaccard", r->chance_jaccard},
                           {"recall", r->chance_recall}}},
                         {"runs", out}});
  }
  return kExitOk;
}

}  // namespace

std::function<int()> RetrievalEvalCommand(CLI::App* sub) {
  auto st = std::make_shared<RetrievalEvalState>();
  sub->add_option("--graph", st->graph, "reasoning graph (default: the shipped one)");
  sub->add_option("--suite", st->suite,
                  "a suite with expert.json trajectories (default: the shipped suites/cudaeval)");
  sub->add_option("--retrieval", st->retrieval, "bm25, embeddings or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"bm25", "embeddings", "both"}));
  sub->add_option("--embed-model", st->embed_model,
                  "a GGUF file whose llama.cpp embeddings rank the kernels (default: the "
                  "registry's default model)");
  AddNumber(sub, "--threads", &st->threads, {0, 4096},
            "CPU threads for the embedding model (0: physical cores)");
  sub->add_flag("--per-problem", st->per_problem,
                "also list each problem's retrieved kernel and path");
  AddJsonFlag(sub, &st->json, "the figures and every problem's hit");
  return [st]() -> int { return RunRetrievalEval(*st); };
}

}  // namespace regrapht::cli
