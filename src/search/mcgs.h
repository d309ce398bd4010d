// The steps of one MCGS iteration (docs/search.md, "MCGS"), as functions on
// a SearchTree so that each can be tested on a hand-built tree without a
// model (mcgs_test.cc). The Reasoner in mcgs.cc runs them in order:
//
//   1. Select    descend by P-UCB to an edge whose step is not generated yet
//   2. Expand    a state's first visit adds one edge per graph successor;
//                the selected edge's step is generated (StepFn: model + verification)
//   3. Rollout   epsilon-greedy steps from the new state, `rollouts` times
//   4. Backup    the iteration's maximum reward along the selection path,
//                each rollout state's suffix maximum; finished states close
//
// A tree state's `state` is its graph node; an edge's `action` is its graph
// edge (the successor is graph.edge(action).to) and its prior the number of
// examples on that edge.
#pragma once

#include <functional>
#include <vector>

#include "core/json_util.h"
#include "core/rng.h"
#include "regrapht/graph.h"
#include "regrapht/search.h"
#include "search/tree.h"

namespace regrapht::search::mcgs {

// What one iteration walked and reached.
struct Iteration {
  std::vector<PathStep> path;  // the selection's steps, then every rollout's
  size_t selection_len = 0;    // how many of `path` are the selection's
  std::vector<int> on_path;    // states of the selection, root first
  int cur = 0;                 // where the selection ended (the fresh state once generated)
  bool pending = false;        // the selection's last edge is to be generated (step 2)
  int fresh = -1;              // the state step 2 generated; -1: none
  std::vector<std::vector<int>> rollouts;  // the states each rollout reached, in order
};

// Generates the step of edge `edge` of state `node` and returns the child
// state (new, or an existing one through the transposition table); sets the
// edge's child and counts a failure.
using StepFn = std::function<Result<int>(int node, int edge)>;

// ---- 1. Select ----------------------------------------------------------------------

// From the root, expands (step 2's structural half) and updates the closing
// of each state met, then follows SelectPucb through generated states that
// are not on the path, not closed (unless retryable), until an edge whose
// step is to be generated (pending), a terminal or closed state, the step
// cap, or a cycle.
Iteration Select(SearchTree& tree, const Graph& graph, const SearchOptions& o);

// ---- 2. Expand ----------------------------------------------------------------------

// A state's first visit: one edge for every successor of its graph node,
// prior = examples on the graph edge, in the order of the successors'
// technique ids (not the graph's edge order, which follows the order its
// trajectories were imported in), each with its tie-break
// TieHash(seed, successor, state). Later calls do nothing.
void Expand(SearchTree& tree, int node, const Graph& graph, uint64_t seed = 0);

// The technique id of a graph node (its name when it has none).
const std::string& TechniqueKey(const Graph& graph, NodeId node);

// The tie-break of the edge applying `technique` to `state`: a hash of the
// seed, the technique's id, the state's technique id and its code.
uint64_t TieHash(uint64_t seed, const Graph& graph, NodeId technique, const TreeNode& state);

// A failed step is sampled again until it failed 1 + step_retries times;
// without o.close_failed_edges, always.
bool Retryable(const SearchTree& tree, const TreeEdge& e, const SearchOptions& o);

// Closes a state when nothing below it can be generated any more: its step
// failed, it sits at the step cap, it has no successor, or every edge leads
// to a closed state that is not retryable.
void UpdateClosed(SearchTree& tree, int node, const SearchOptions& o);

// ---- 3. Rollout ---------------------------------------------------------------------

// One rollout from `start`: RolloutEdge steps (generating with `step` where
// no child exists) until the step cap, a state without successors, a state
// on `on_path` or the same state again, a failed state, or `exhausted()`.
// Appends the edges taken to it->path; returns the states reached.
Result<std::vector<int>> RolloutOnce(SearchTree& tree, const Graph& graph, const SearchOptions& o,
                                     Rng& rng, int start, std::vector<int> on_path,
                                     const StepFn& step, const std::function<bool()>& exhausted,
                                     Iteration* it);

// max(1, o.rollouts) rollouts from the fresh state when step 2 generated
// one that did not fail (fewer when `exhausted()`); non-empty ones are kept
// in it->rollouts. Adds the fresh state to it->on_path.
Status Rollout(SearchTree& tree, const Graph& graph, const SearchOptions& o, Rng& rng,
               const StepFn& step, const std::function<bool()>& exhausted, Iteration* it);

// ---- 4. Backup ----------------------------------------------------------------------

struct Backed {
  double value = 0;          // backed up along the selection
  std::vector<int> reached;  // the fresh state, then every rollout's states (they may repeat)
};

// Every edge on it.path gets a visit; the selection's states get one visit
// of `value` (the maximum reward among the reached states; without any,
// the reward of the state the selection ended on, 0 at the root, which then
// gets the visit too); each reached state gets its suffix maximum (the
// fresh state: the maximum over all rollouts). Then closes finished
// states, deepest first.
Backed Backup(SearchTree& tree, const SearchOptions& o, const Iteration& it);

// The iteration's entry in the tree JSON's "iterations".
OrderedJson IterationLog(int iteration, const Backed& backed, const Iteration& it);

}  // namespace regrapht::search::mcgs
