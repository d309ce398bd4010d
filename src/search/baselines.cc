// The paper's single-shot and sampling baselines, and ReGraphT without MCGS.
//
//   standard   one prompt, one answer (the paper's "Standard").
//   cot        one prompt asking for step-by-step optimization as the paper's
//              JSON list of {think, method, detail, code}; the last step's
//              code is the answer ("CoT").
//   rag        one prompt with the most similar corpus kernels (BM25 over
//              code tokens) shown as sequential -> final CUDA pairs ("RAG";
//              the paper used CodeBERTScore similarity).
//   best-of-n  the standard prompt sampled until the budget is spent, the
//              best verified answer kept: the equal-budget baseline reviewers
//              asked for. Its requests are independent, so up to
//              max_in_flight are sent at once (same seeds, same results).
//   regrapht   the reasoning graph without MCGS: a random walk from the init
//              node, one technique per step (uniform over successors), each
//              step with the edge's most similar example; a failing step is
//              retried with another random successor, at most `walk_attempts`
//              tries per step; the walk ends when all tries at a step fail,
//              at the step cap or when the budget is spent.
#include <algorithm>

#include "core/json_util.h"
#include "core/rng.h"
#include "search/attempt_json.h"
#include "search/mcgs.h"
#include "search/reasoners.h"
#include "search/search_run.h"

namespace regrapht::search {
namespace {

class Standard final : public Reasoner {
 public:
  explicit Standard(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "standard"; }
  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    SearchRun run(task, ctx, o_, Name());
    RG_ASSIGN_OR_RETURN(auto m, run.Messages("standard.txt", {{"code", task.StartCode()}}));
    RG_RETURN_IF_ERROR(run.Generate(m, -1, "standard", -1).status());
    return run.Finish(AttemptListJson(Name(), run.attempts()), "one shot");
  }

 private:
  SearchOptions o_;
};

class Cot final : public Reasoner {
 public:
  explicit Cot(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "cot"; }
  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    SearchOptions o = o_;
    o.sampling.max_tokens = std::max(o.sampling.max_tokens, 4096);  // several complete versions
    o.shape = {};  // the reply starts with its reasoning: no prefill, no code-only grammar
    SearchRun run(task, ctx, o, Name());
    RG_ASSIGN_OR_RETURN(auto m, run.Messages("cot.txt", {{"code", task.StartCode()}}));
    RG_RETURN_IF_ERROR(run.Generate(m, -1, "cot", -1).status());
    return run.Finish(AttemptListJson(Name(), run.attempts()), "one shot");
  }

 private:
  SearchOptions o_;
};

class Rag final : public Reasoner {
 public:
  explicit Rag(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "rag"; }
  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    if (!task.graph || !task.examples) return Status::InvalidArgument("rag needs the example pool (the graph)");
    SearchRun run(task, ctx, o_, Name());
    const std::string& code = task.StartCode();
    auto shown = run.SimilarKernels(code, o_.rag_examples);
    // Drop examples until the prompt fits.
    while (true) {
      std::string blocks;
      for (const auto& ex : shown) {
        RG_ASSIGN_OR_RETURN(std::string b, ctx.prompts->Render("rag_example.txt", {{"techniques", ex.to},
                                                                                  {"before", ex.before},
                                                                                  {"after", ex.after}}));
        blocks += b;
      }
      auto m = run.Messages("rag.txt", {{"code", code}, {"examples", blocks}});
      if (m.ok()) {
        RG_RETURN_IF_ERROR(run.Generate(*m, -1, "rag(" + std::to_string(shown.size()) + " examples)", -1).status());
        break;
      }
      if (shown.empty()) return m.status();
      shown.pop_back();
    }
    return run.Finish(AttemptListJson(Name(), run.attempts()), "one shot");
  }

 private:
  SearchOptions o_;
};

class BestOfN final : public Reasoner {
 public:
  explicit BestOfN(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "best-of-n"; }
  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    SearchRun run(task, ctx, o_, Name());
    RG_ASSIGN_OR_RETURN(auto m, run.Messages("standard.txt", {{"code", task.StartCode()}}));
    std::string stop;
    int i = 0;
    // Samples are independent: ask for up to max_in_flight at once, then
    // verify them in seed order, exactly as one at a time would.
    while (!run.Exhausted(&stop)) {
      int batch = std::max(1, o_.max_in_flight);
      if (run.GenerationsLeft() >= 0) batch = std::min(batch, run.GenerationsLeft());
      auto replies = run.AskMany(m, batch);
      for (size_t k = 0; k < replies.size(); ++k) {
        // The first reply was asked for after the check above, as one
        // Generate() would be, and is always used (a wall-clock budget that
        // ran out or a cancellation during the request included); a later
        // one only while the budgets allow, as if asked for one at a time.
        if (k > 0 && run.Exhausted(&stop)) break;
        ++i;
        run.Emit(i, "sample " + std::to_string(i));
        RG_RETURN_IF_ERROR(run.Consume(std::move(replies[k]), -1, "sample", -1).status());
      }
    }
    return run.Finish(AttemptListJson(Name(), run.attempts()), stop);
  }

 private:
  SearchOptions o_;
};

class GraphWalk final : public Reasoner {
 public:
  explicit GraphWalk(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "regrapht"; }
  // Random walks from the init node, repeated until the budget is spent (the
  // paper's ablation runs at the same budget as MCGS): each step takes a
  // uniformly random successor with the edge's most similar example; a
  // failing step is retried with another random successor, at most
  // `walk_attempts` tries; a walk ends when every try at a step failed, at
  // the step cap or at a node without successors, and the next walk starts
  // from the sequential code again. `iterations` > 0 caps the number of walks.
  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    if (!task.graph || !task.examples) return Status::InvalidArgument("regrapht needs the reasoning graph");
    SearchRun run(task, ctx, o_, Name());
    Rng rng(o_.seed);
    std::string stop;
    for (int walk = 0; o_.iterations <= 0 || walk < o_.iterations; ++walk) {
      int before = static_cast<int>(run.attempts().size());
      RG_ASSIGN_OR_RETURN(bool exhausted, Walk(task, run, rng, &stop));
      if (exhausted) break;
      if (static_cast<int>(run.attempts().size()) == before) break;  // nothing can be generated
      stop = "walks: " + std::to_string(walk + 1);
    }
    return run.Finish(AttemptListJson(Name(), run.attempts()), stop);
  }

 private:
  // One walk. True when the budget ran out during it.
  Result<bool> Walk(const SearchTask& task, SearchRun& run, Rng& rng, std::string* stop) {
    const Graph& g = *task.graph;
    NodeId node = kInitNode;
    std::string code = task.StartCode();
    int parent = -1;
    *stop = "step cap";
    for (int depth = 0; depth < o_.max_depth; ++depth) {
      // Successors in the order of their technique ids, not the graph's
      // edge order (which follows the import order of its trajectories).
      std::vector<EdgeId> out = g.node(node).out;
      std::sort(out.begin(), out.end(), [&](EdgeId x, EdgeId y) {
        return mcgs::TechniqueKey(g, g.edge(x).to) < mcgs::TechniqueKey(g, g.edge(y).to);
      });
      if (out.empty()) {
        *stop = "no successor";
        return false;
      }
      bool advanced = false;
      for (int tryno = 0; tryno < o_.walk_attempts; ++tryno) {
        if (run.Exhausted(stop)) return true;
        EdgeId e = out[rng.Below(out.size())];
        NodeId to = g.edge(e).to;
        run.Emit(depth + 1, run.TechniqueId(to));
        auto examples = run.EdgeExamples(code, e, o_.examples_per_step);
        RG_ASSIGN_OR_RETURN(auto m, run.StepMessages(code, to, examples, ""));
        RG_ASSIGN_OR_RETURN(int a, run.Generate(m, parent, run.TechniqueId(to), static_cast<int>(to)));
        if (!run.Failed(a)) {
          node = to;
          code = run.attempt(a).code;
          parent = a;
          advanced = true;
          break;
        }
      }
      if (!advanced) {
        *stop = "every try at step " + std::to_string(depth + 1) + " failed";
        return false;
      }
    }
    return false;
  }

  SearchOptions o_;
};

}  // namespace

std::unique_ptr<Reasoner> NewStandard(const SearchOptions& o) { return std::make_unique<Standard>(o); }
std::unique_ptr<Reasoner> NewCot(const SearchOptions& o) { return std::make_unique<Cot>(o); }
std::unique_ptr<Reasoner> NewRag(const SearchOptions& o) { return std::make_unique<Rag>(o); }
std::unique_ptr<Reasoner> NewBestOfN(const SearchOptions& o) { return std::make_unique<BestOfN>(o); }
std::unique_ptr<Reasoner> NewGraphWalk(const SearchOptions& o) { return std::make_unique<GraphWalk>(o); }

}  // namespace regrapht::search
