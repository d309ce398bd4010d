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

// "// sim: path=tiling>shared_memory ok=1 speedup=2.5000": techniques by
// id, so that the code does not depend on the graph's node numbering.
struct SimState {
  std::vector<std::string> path;
  bool ok = true;
  double speedup = 1;
};

std::string Encode(const SimState& s, const std::string& signature) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", s.speedup);
  return "```cuda\n// sim: path=" + Join(s.path, ">") + " ok=" + (s.ok ? "1" : "0") + " speedup=" + buf +
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
  if (!parts[0].empty()) s.path = Split(parts[0], '>');
  s.ok = parts[1] == "ok=1";
  s.speedup = std::stod(parts[2].substr(8));
  return s;
}

// A technique's id without characters the encoding uses.
std::string SimKey(const Graph& g, NodeId n) {
  std::string k = g.node(n).technique.empty() ? g.node(n).name : g.node(n).technique;
  for (char& c : k) {
    if (c == ' ' || c == '>' || c == '\n') c = '_';
  }
  return k;
}

}  // namespace

SimulatedWorld::SimulatedWorld(const Graph* graph, uint64_t seed) : graph_(graph), seed_(seed) {
  // Each technique's draws come from its id, not its node number: the same
  // world whatever order the graph's trajectories were imported in.
  for (size_t i = 0; i < graph->num_nodes(); ++i) {
    const std::string key = SimKey(*graph, static_cast<NodeId>(i));
    Rng r(Hash64(key, seed * 7919 + 17));
    p_.push_back(0.45 + 0.45 * r.Uniform());
    f_.push_back(std::exp(0.1 + 0.45 * Normal(r)));
    by_key_[key] = static_cast<NodeId>(i);
    if (i != kInitNode) techniques_.push_back(static_cast<NodeId>(i));
  }
  std::sort(techniques_.begin(), techniques_.end(),
            [&](NodeId a, NodeId b) { return SimKey(*graph, a) < SimKey(*graph, b); });
}

std::string SimulatedWorld::Key(NodeId t) const { return SimKey(*graph_, t); }

std::optional<NodeId> SimulatedWorld::Find(const std::string& key) const {
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
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
    const std::string key = world_->Key(t);
    bool again = std::find(s.path.begin(), s.path.end(), key) != s.path.end();
    s.path.push_back(key);
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
    NodeId from = s.path.empty() ? kInitNode : world_->Find(s.path.back()).value_or(kInitNode);
    auto e = g.FindEdge(from, t);
    size_t examples = e ? g.edge(*e).examples.size() : 0;
    if (cur) {
      apply(s, t, examples);
    } else {
      s.path.push_back(world_->Key(t));
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
      NodeId t = world_->techniques()[r.Below(world_->techniques().size())];
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

namespace {

// Mean and sample standard deviation.
std::pair<double, double> MeanSd(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return {m, v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0};
}

// "budget: 200 generations" and the like, without the numbers that differ
// between budgets and searches, so that reasons can be counted.
std::string StopKind(const std::string& why) {
  if (why.rfind("budget: ", 0) == 0 && why.find("generations") != std::string::npos) return "budget";
  if (why.rfind("walks: ", 0) == 0) return "budget";  // the walk's last walk ended as the budget ran out
  return why;
}

}  // namespace

}  // namespace regrapht::search

namespace regrapht {

Result<std::vector<SimulationRow>> RunSimulation(const Graph& graph, const std::vector<std::string>& methods,
                                                 const std::vector<int>& budgets, int problems,
                                                 const SearchOptions& base, int seeds) {
  Problem problem;
  problem.spec.name = "simulated";
  problem.spec.function = "f";
  problem.reference_source = "void f(int n, float* y) { for (int i = 0; i < n; ++i) y[i] = 0; }";
  ExampleIndex index(graph);
  PromptLibrary prompts;
  FakeClock clock;
  seeds = std::max(1, seeds);
  std::vector<SimulationRow> rows;
  for (const auto& m : methods) {
    for (int budget : budgets) {
      SimulationRow row;
      row.method = m;
      row.budget = budget;
      row.seeds = seeds;
      std::vector<double> best, seed_means, seed_solved;
      double solved = 0, gens = 0, verifs = 0;
      for (int sd = 0; sd < seeds; ++sd) {
        double seed_sum = 0, seed_ok = 0;
        for (int p = 0; p < problems; ++p) {
          search::SimulatedWorld world(&graph, static_cast<uint64_t>(p) + 1);
          search::SimulatedModel model(&world);
          search::SimulatedEvaluator eval;
          SearchOptions o = base;
          o.budget.max_generations = budget;
          o.seed = 1000 + static_cast<uint64_t>(p) + 100000 * static_cast<uint64_t>(sd);
          RG_ASSIGN_OR_RETURN(auto reasoner, NewReasoner(m, o));
          SearchTask task;
          task.problem = &problem;
          task.graph = &graph;
          task.examples = &index;
          SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
          RG_ASSIGN_OR_RETURN(SearchOutcome out, reasoner->Run(task, ctx));
          const Attempt* a = out.best_attempt();
          bool ok = a && out.best_verified;
          double b = ok ? std::max(1.0, a->speedup) : 1.0;
          best.push_back(b);
          seed_sum += b;
          seed_ok += ok;
          gens += out.generations;
          verifs += out.verifications;
          ++row.stops[search::StopKind(out.stop_reason)];
        }
        seed_means.push_back(seed_sum / problems);
        seed_solved.push_back(seed_ok / problems);
        solved += seed_ok;
      }
      const double n = static_cast<double>(problems) * seeds;
      double sum = 0;
      for (double b : best) sum += b;
      row.mean_best = sum / n;
      std::sort(best.begin(), best.end());
      row.median_best = best[best.size() / 2];
      row.solved = solved / n;
      row.mean_generations = gens / n;
      row.mean_verifications = verifs / n;
      row.sd_mean_best = search::MeanSd(seed_means).second;
      row.min_mean_best = *std::min_element(seed_means.begin(), seed_means.end());
      row.max_mean_best = *std::max_element(seed_means.begin(), seed_means.end());
      row.sd_solved = search::MeanSd(seed_solved).second;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace regrapht
