// Merging a relabelled trajectory into the graph (the paper's Algorithm 1,
// ReGraph.merge in the official code, without its lost-edge bug).
//
// Walk from the init node with last_code = the sequential source. For each
// step, with T the step's technique:
//   (a) the current node has an out-edge to T's node: append the example there;
//   (b) else T's node exists elsewhere: add an edge current -> T (a back-edge
//       or self-loop when T was seen before: cycles are allowed);
//   (c) else add T's node and the edge to it.
// The example records before = last_code and after = the step's code; then
// last_code = the step's code and the walk moves to T's node. Every edge is
// kept in the graph's edge list.
//
// Idempotent: an example whose (kernel, before, after) is already on the
// edge is not added again, so merging the same trajectory twice changes
// nothing the second time.
#pragma once

#include <vector>

#include "graph/taxonomy.h"
#include "graph/trajectory.h"
#include "regrapht/graph.h"

namespace regrapht {

enum class MergeCase { kExistingEdge, kNewEdge, kNewNode };  // (a), (b), (c)
std::string_view MergeCaseName(MergeCase c);  // "a", "b", "c"

struct StepMerge {
  MergeCase merge_case = MergeCase::kExistingEdge;
  NodeId node = 0;        // where the step led
  EdgeId edge = 0;        // the edge that holds its example
  bool duplicate = false; // the example was already there
};

struct MergeReport {
  std::vector<StepMerge> steps;
  size_t nodes_added = 0;
  size_t edges_added = 0;
  size_t examples_added = 0;
  size_t examples_duplicate = 0;
};

// Merges `trajectory` into `graph`. A step with a technique_id gets the node
// of that taxonomy technique (named, described from `taxonomy`); a step
// without one is a technique outside the taxonomy, whose node is named after
// its method (whitespace collapsed), flagged needs_review, and matched to an
// existing unreviewed node by NormalizeLabel.
// Fails without changing the graph if a technique_id is not in `taxonomy`, a
// step has no code, or a method names the init state.
Result<MergeReport> MergeTrajectory(const Trajectory& trajectory, const Taxonomy& taxonomy,
                                    Graph* graph);

}  // namespace regrapht
