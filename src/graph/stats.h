// Graph statistics for `regrapht graph stats`: size, degree and example
// distributions, cycle structure and verification coverage.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_util.h"
#include "regrapht/graph.h"

namespace regrapht {

struct CountSummary {
  double min = 0;
  double median = 0;  // the mean of the middle two for an even count
  double max = 0;
};
CountSummary SummarizeCounts(std::vector<double> values);  // all zero if empty

struct Transition {
  EdgeId edge = 0;
  size_t examples = 0;
};

inline constexpr size_t kCycleCountCap = 100000;

struct GraphStats {
  size_t nodes = 0;
  size_t technique_nodes = 0;  // all but the init node
  size_t review_nodes = 0;     // flagged needs_review
  size_t edges = 0;
  size_t examples = 0;
  size_t self_loops = 0;
  size_t unreachable_nodes = 0;  // not reachable from the init node
  CountSummary examples_per_edge;
  CountSummary in_degree;   // over all nodes
  CountSummary out_degree;
  std::vector<Transition> top_transitions;  // by examples, then edge id

  size_t components = 0;         // strongly connected components
  size_t cyclic_components = 0;  // with a cycle: two or more nodes, or a self-loop
  size_t largest_component = 0;
  size_t cycles = 0;             // elementary cycles (self-loops included), up to the cap
  bool cycles_capped = false;    // counting stopped at kCycleCountCap

  // Verification coverage, over all examples.
  size_t with_record = 0;
  size_t authored_records = 0;  // verifier "authored": claimed in a file, not rechecked
  size_t compiled = 0;
  size_t correct = 0;
  size_t correct_emulated = 0;  // of `correct`: checked in the CPU emulator, not on a GPU
  size_t wrong = 0;
  size_t with_speedup = 0;
  std::optional<CountSummary> speedup;  // over examples with a measured speedup
  double fraction_compiled = 0;
  double fraction_correct = 0;
};

GraphStats ComputeStats(const Graph& graph, size_t top_transitions = 10);

// Human-readable report; node names come from `graph`.
std::string FormatStats(const GraphStats& stats, const Graph& graph);
OrderedJson StatsToJson(const GraphStats& stats, const Graph& graph);

}  // namespace regrapht
