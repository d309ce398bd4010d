// A SIMULATED small model, for comparing search methods at equal budgets
// without a GPU or a real model (docs/search.md, "Simulation"). Nothing here
// says anything about real CUDA; it says how the searches spend a budget in
// a world whose rules are written below.
//
// A simulated problem (seeded) gives every technique t of the graph (drawn
// from a hash of its id, so the world does not depend on node numbering)
//   success probability p_t ~ U(0.45, 0.9) and speedup factor f_t = exp(N(0.1, 0.45)),
// so some techniques help, some hurt, and which ones is problem-specific.
//   - A first CUDA version (any prompt from the sequential code) succeeds
//     with probability 0.6 and is exp(N(0.6, 0.3)) times faster than the
//     serial code.
//   - Applying t to working code succeeds with probability
//     p_t * 0.93^depth * (0.75 + 0.1 * min(3, examples on the graph edge)),
//     so deep chains get harder and worked examples help; on success the
//     speedup is multiplied by f_t (by f_t^0.25 when t was already applied).
//   - A one-shot answer (standard prompt) applies, after the first version,
//     each of k ~ U{0..3} random techniques with the same rules, all in one
//     reply: more ambitious answers fail more often.
// Every draw comes from the request's seed, so a search is reproducible and
// different samples are independent.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "regrapht/graph.h"
#include "regrapht/search.h"
#include "regrapht/simulate.h"

namespace regrapht::search {

class SimulatedWorld {
 public:
  SimulatedWorld(const Graph* graph, uint64_t problem_seed);
  double p(NodeId t) const { return p_[t]; }
  double f(NodeId t) const { return f_[t]; }
  const Graph& graph() const { return *graph_; }
  uint64_t seed() const { return seed_; }
  // A technique's id as the simulated code names it, and back.
  std::string Key(NodeId t) const;
  std::optional<NodeId> Find(const std::string& key) const;
  // The techniques (every node but init), by id.
  const std::vector<NodeId>& techniques() const { return techniques_; }

 private:
  const Graph* graph_;
  uint64_t seed_;
  std::vector<double> p_, f_;
  std::map<std::string, NodeId> by_key_;
  std::vector<NodeId> techniques_;
};

// Answers prompts with code that carries its simulated outcome.
class SimulatedModel final : public LlmBackend {
 public:
  explicit SimulatedModel(const SimulatedWorld* world) : world_(world) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override;
  std::string Name() const override { return "simulated"; }
  std::string ModelId() const override { return "simulated-small-model"; }

 private:
  const SimulatedWorld* world_;
  std::map<std::string, NodeId> by_name_;
  std::mutex mu_;
};

// Reads the outcome the simulated model wrote into the code.
class SimulatedEvaluator final : public CandidateEvaluator {
 public:
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override;
};

// The simulation's table and its runner are public (regrapht/simulate.h).
using regrapht::RunSimulation;
using regrapht::SimulationRow;

}  // namespace regrapht::search
