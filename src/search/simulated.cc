#include "search/simulated.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/clock.h"
#include "core/hash.h"
#include "core/rng.h"
#include "core/strings.h"
#include "graph/retrieval.h"
#include "search/prompts.h"

namespace regrapht::search {
namespace {

double Normal(Rng& r) {
  double u1 = std::max(r.Uniform(), 1e-300), u2 = r.Uniform();
  return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// "// sim: path=3>7 ok=1 speedup=2.5000"
struct SimState {
  std::vector<NodeId> path;
  bool ok = true;
  double speedup = 1;
};

std::string Encode(const SimState& s, const std::string& signature) {
  std::vector<std::string> ids;
  for (NodeId n : s.path) ids.push_back(std::to_string(n));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", s.speedup);
  return "```cuda\n// sim: path=" + Join(ids, ">") + " ok=" + (s.ok ? "1" : "0") + " speedup=" + buf +
         "\n__global__ void k() {}\n" + signature + " { k<<<1, 1>>>(); }\n```";
}

std::optional<SimState> Decode(const std::string& text) {
  size_t p = text.find("// sim: path=");
  if (p == std::string::npos) return std::nullopt;
  SimState s;
  size_t e = text.find('\n', p);
  std::string line = text.substr(p + 13, e - p - 13);
  auto parts = Split(line, ' ');
  if (parts.size() != 3) return std::nullopt;
  if (!parts[0].empty()) {
    for (const auto& id : Split(parts[0], '>')) s.path.push_back(static_cast<NodeId>(std::stoul(id)));
  }
  s.ok = parts[1] == "ok=1";
  s.speedup = std::stod(parts[2].substr(8));
  return s;
}

}  // namespace

SimulatedWorld::SimulatedWorld(const Graph* graph, uint64_t seed) : graph_(graph), seed_(seed) {
  Rng r(seed * 7919 + 17);
  for (size_t i = 0; i < graph->num_nodes(); ++i) {
    p_.push_back(0.45 + 0.45 * r.Uniform());
    f_.push_back(std::exp(0.1 + 0.45 * Normal(r)));
  }
}

Result<ChatResponse> SimulatedModel::Chat(const ChatRequest& req) {
  std::lock_guard<std::mutex> lock(mu_);
  if (by_name_.empty()) {
    for (const Node& n : world_->graph().nodes()) by_name_[n.name] = n.id;
  }
  const std::string& user = req.messages.back().content;
  const std::string& system = req.messages.front().content;
  std::string signature = "void f()";
  if (auto p = system.find("exactly: "); p != std::string::npos) {
    signature = system.substr(p + 9, system.find('\n', p) - p - 9);
  }
  Rng r(Hash64(std::to_string(req.sampling.seed), world_->seed()));
  const Graph& g = world_->graph();
  auto apply = [&](SimState& s, NodeId t, size_t examples) {
    if (!s.ok) return;
    double prob = world_->p(t) * std::pow(0.93, static_cast<double>(s.path.size())) *
                  (0.75 + 0.1 * static_cast<double>(std::min<size_t>(3, examples)));
    bool again = std::find(s.path.begin(), s.path.end(), t) != s.path.end();
    s.path.push_back(t);
    if (r.Uniform() >= prob) {
      s.ok = false;
      return;
    }
    s.speedup *= again ? std::pow(world_->f(t), 0.25) : world_->f(t);
  };
  auto first_version = [&](SimState& s) {
    s.ok = r.Uniform() < 0.6;
    s.speedup = std::exp(0.6 + 0.3 * Normal(r));
  };
  SimState s;
  const std::string marker = "applying one technique: ";
  if (auto p = user.find(marker); p != std::string::npos) {
    std::string name = user.substr(p + marker.size(), user.find(".\n", p + marker.size()) - p - marker.size());
    auto cur = Decode(user);
    auto it = by_name_.find(name);
    if (it == by_name_.end()) return Status::Internal("simulated model: unknown technique " + name);
    NodeId t = it->second;
    if (cur) {
      s = *cur;
    } else {
      first_version(s);  // from the sequential code: the step makes the first version
    }
    NodeId from = s.path.empty() ? kInitNode : s.path.back();
    auto e = g.FindEdge(from, t);
    size_t examples = e ? g.edge(*e).examples.size() : 0;
    if (cur) {
      apply(s, t, examples);
    } else {
      s.path.push_back(t);
      if (s.ok && r.Uniform() < world_->p(t) * (0.75 + 0.1 * std::min<size_t>(3, examples))) {
        s.speedup *= world_->f(t);
      } else {
        s.ok = false;
      }
    }
  } else {
    // A one-shot answer from the sequential code.
    first_version(s);
    int k = static_cast<int>(r.Below(4));
    for (int i = 0; i < k && s.ok; ++i) {
      NodeId t = static_cast<NodeId>(1 + r.Below(g.num_nodes() - 1));
      apply(s, t, 0);
    }
  }
  ChatResponse resp;
  Completion c;
  c.text = Encode(s, signature);
  c.tokens_generated = 300;
  resp.choices.push_back(c);
  resp.tokens_prompt = static_cast<int>(user.size() / 4);
  resp.tokens_generated = 300;
  return resp;
}

Result<VerifyResult> SimulatedEvaluator::Evaluate(const Problem&, const std::string& code) {
  VerifyResult r;
  auto s = Decode(code);
  if (!s || !s->ok) {
    r.verdict = Verdict::kWrongAnswer;
    r.detail = "simulated failure";
  } else {
    r.verdict = Verdict::kCorrect;
    r.speedup = s->speedup;
    r.detail = "simulated success";
  }
  return r;
}

Result<std::vector<SimulationRow>> RunSimulation(const Graph& graph, const std::vector<std::string>& methods,
                                                 const std::vector<int>& budgets, int problems,
                                                 const SearchOptions& base) {
  Problem problem;
  problem.spec.name = "simulated";
  problem.spec.function = "f";
  problem.reference_source = "void f(int n, float* y) { for (int i = 0; i < n; ++i) y[i] = 0; }";
  ExampleIndex index(graph);
  PromptLibrary prompts;
  FakeClock clock;
  std::vector<SimulationRow> rows;
  for (const auto& m : methods) {
    for (int budget : budgets) {
      std::vector<double> best;
      double solved = 0, gens = 0;
      for (int p = 0; p < problems; ++p) {
        SimulatedWorld world(&graph, static_cast<uint64_t>(p) + 1);
        SimulatedModel model(&world);
        SimulatedEvaluator eval;
        SearchOptions o = base;
        o.budget.max_generations = budget;
        o.seed = 1000 + static_cast<uint64_t>(p);
        RG_ASSIGN_OR_RETURN(auto reasoner, NewReasoner(m, o));
        SearchTask task;
        task.problem = &problem;
        task.graph = &graph;
        task.examples = &index;
        SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
        RG_ASSIGN_OR_RETURN(SearchOutcome out, reasoner->Run(task, ctx));
        const Attempt* a = out.best_attempt();
        bool ok = a && out.best_verified;
        best.push_back(ok ? std::max(1.0, a->speedup) : 1.0);
        solved += ok;
        gens += out.generations;
      }
      SimulationRow row;
      row.method = m;
      row.budget = budget;
      double sum = 0;
      for (double b : best) sum += b;
      row.mean_best = sum / problems;
      std::sort(best.begin(), best.end());
      row.median_best = best[best.size() / 2];
      row.solved = solved / problems;
      row.mean_generations = gens / problems;
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace regrapht::search
