// The reasoning graph (ReGraph): CUDA optimization techniques and the
// transitions between them, each transition carrying worked examples.
//
//   node 0 "init state" (the sequential code)
//      |  edge 0: examples {kernel, think, detail, before, after, verification}
//      v
//   node 1 "Thread mapping"  --edge 1-->  node 2 "Shared-memory tiling"
//      ^                                      |        ^
//      +--------------- edge 3 ---------------+        | edge 2 (self-loop:
//                                                      |  re-applied)
//
// One Graph owns every node and edge (ninja's State); other modules refer to
// them by NodeId / EdgeId, which are indexes into nodes() and edges() and
// never change once assigned. There is at most one edge per (from, to) pair;
// cycles and self-loops are allowed. Examples live on edges.
//
// Building a graph from trajectories (merge), relabelling free-form method
// names, retrieval and inspection live in src/graph/ (see docs/graph.md).
//
// Thread safety: a const Graph may be read from several threads; mutation
// needs external synchronisation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "regrapht/status.h"

namespace regrapht {

using NodeId = uint32_t;
using EdgeId = uint32_t;

inline constexpr NodeId kInitNode = 0;
inline constexpr std::string_view kInitNodeName = "init state";

enum class Correctness { kUnknown, kCorrect, kWrong };
// "unknown", "correct", "wrong".
std::string_view CorrectnessName(Correctness c);
std::optional<Correctness> ParseCorrectness(std::string_view name);

// What was checked about one optimization step's code.
struct StepVerification {
  bool compiled = false;            // nvcc accepted the code
  std::vector<std::string> archs;   // architectures it was compiled for ("sm_90")
  Correctness correctness = Correctness::kUnknown;
  std::string gpu;                  // the device the correctness check ran on; "" if none
  std::optional<double> speedup;    // vs the sequential code, if measured
  std::string source_hash;          // HashHex() of the code that was verified; "" if unknown
  // What produced the record: a verifier's name and version, or "authored"
  // for a record written by hand in a trajectory file and not rechecked.
  std::string verifier;

  bool operator==(const StepVerification&) const = default;
};

// One worked instance of a transition: how a kernel went from `before` to
// `after` by applying the target node's technique.
struct Example {
  std::string kernel;   // source kernel id (the official format's "name")
  std::string method;   // the method as the trajectory wrote it, before relabelling
  std::string think;    // the reasoning for the step
  std::string detail;   // how the technique was applied
  std::string before;   // code before the step
  std::string after;    // code after the step
  std::optional<StepVerification> verification;  // absent: never verified

  bool operator==(const Example&) const = default;
};

struct Node {
  NodeId id = 0;
  std::string name;          // unique in the graph; "init state" for node 0
  std::string technique;     // taxonomy id; "" for the init node and unreviewed techniques
  std::string description;   // one line, from the taxonomy when known
  bool needs_review = false; // a technique outside the taxonomy, flagged by relabel
  std::vector<EdgeId> in;    // edges ending here, in the order they were added
  std::vector<EdgeId> out;   // edges starting here, in the order they were added
};

struct Edge {
  EdgeId id = 0;
  NodeId from = 0;
  NodeId to = 0;
  std::vector<Example> examples;  // in the order they were added
};

// What AddNode needs; the id and edge lists are assigned by the graph.
struct NodeSpec {
  std::string name;
  std::string technique;
  std::string description;
  bool needs_review = false;
};

class Graph {
 public:
  // A graph holding only the init node.
  Graph();

  size_t num_nodes() const { return nodes_.size(); }
  size_t num_edges() const { return edges_.size(); }
  size_t num_examples() const { return num_examples_; }

  // REQUIRES: id < num_nodes() (resp. num_edges()).
  const Node& node(NodeId id) const { return nodes_[id]; }
  const Edge& edge(EdgeId id) const { return edges_[id]; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Edge>& edges() const { return edges_; }

  // Exact-name lookup; nullopt if absent.
  std::optional<NodeId> FindNode(std::string_view name) const;
  // Lookup by taxonomy id; nullopt if absent or `technique` is empty.
  std::optional<NodeId> FindTechnique(std::string_view technique) const;
  std::optional<EdgeId> FindEdge(NodeId from, NodeId to) const;

  // The targets of `id`'s out-edges, in edge order (the search's actions).
  std::vector<NodeId> Successors(NodeId id) const;

  // Adds a node. Fails (InvalidArgument) on an empty or duplicate name or a
  // duplicate taxonomy id.
  Result<NodeId> AddNode(NodeSpec spec);
  // Adds the edge from -> to. Fails if either id is out of range, the edge
  // already exists, or `to` is the init node.
  Result<EdgeId> AddEdge(NodeId from, NodeId to);
  // Appends `example` to the edge unless one with the same kernel, before and
  // after is already on it. Returns true if added, false if a duplicate.
  // REQUIRES: edge < num_edges().
  bool AddExample(EdgeId edge, Example example);

 private:
  static uint64_t EdgeKey(NodeId from, NodeId to) {
    return (static_cast<uint64_t>(from) << 32) | to;
  }

  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  size_t num_examples_ = 0;
  std::unordered_map<std::string, NodeId> by_name_;
  std::unordered_map<std::string, NodeId> by_technique_;
  std::unordered_map<uint64_t, EdgeId> by_endpoints_;
  std::unordered_set<std::string> example_keys_;  // edge + kernel + before + after
};

// ---- Files -----------------------------------------------------------------

enum class GraphFormat {
  kAuto,      // reading only: native if the document has "format", else official
  kNative,    // {"format":"regrapht-graph","version":1,...}; lossless, deterministic
  kOfficial,  // the ReGraphT repository's {"node":[...],"edge":[...]}; drops
              // raw methods, descriptions and verification records
};

// Parses a graph; `source` names the document in errors, which name the
// offending field ("g.json: edges[3].to: node 17 does not exist").
Result<Graph> ParseGraph(std::string_view text, std::string_view source,
                         GraphFormat format = GraphFormat::kAuto);
Result<Graph> LoadGraph(const std::filesystem::path& path,
                        GraphFormat format = GraphFormat::kAuto);

// Serialises deterministically: the same graph gives the same bytes.
// REQUIRES: format != kAuto.
std::string SerializeGraph(const Graph& graph, GraphFormat format = GraphFormat::kNative);
// Writes atomically (readers never see a torn file).
Status SaveGraph(const Graph& graph, const std::filesystem::path& path,
                 GraphFormat format = GraphFormat::kNative);

// "auto", "native", "official" -> GraphFormat; InvalidArgument naming the
// accepted names otherwise.
Result<GraphFormat> ParseGraphFormat(std::string_view name);

// LoadGraph, saying what reading the official format repaired: one line
// each, naming the file, appended to *notes ("g.json: merged 2 repeated
// edges"; edges listed only in nodes' in/out, repeated edges, duplicate
// examples). `notes` may be null.
Result<Graph> LoadGraph(const std::filesystem::path& path, GraphFormat format,
                        std::vector<std::string>* notes);

// ---- Stats -----------------------------------------------------------------

// The graph's size, structure (degrees, strongly connected components,
// cycles) and verification coverage, with its `top` busiest transitions, as
// `regrapht graph stats` prints it: text, or one JSON document.
std::string GraphStatsText(const Graph& graph, size_t top = 10);
std::string GraphStatsJson(const Graph& graph, size_t top = 10);

// ---- Drawing ---------------------------------------------------------------

// Graphviz lays out a few thousand edges in seconds and a million in hours:
// `graph show` draws svg and png up to this many edges (prune with --top or
// --min-examples; DOT text has no limit).
inline constexpr size_t kMaxDrawnEdges = 3000;

// Which transitions a drawing or an export keeps.
struct PruneOptions {
  size_t min_examples = 0;  // keep edges with at least this many examples
  size_t top = 0;           // then the `top` edges with the most examples (ties: lower id); 0: all
};

// The sub-graph of `graph` with the edges `options` keeps (their examples
// included) and the nodes they touch; the init node always stays. Nodes and
// edges keep their relative order (ids are renumbered).
Result<Graph> PruneGraph(const Graph& graph, const PruneOptions& options);

// What PruneGraph kept of `full` in `pruned`, in words for a drawing's
// legend: "the 20 of 182 transitions with the most examples (at least 9
// each; 520 of 678 examples), 25 of 38 techniques; left out: 162
// transitions, 13 techniques; --top 0 draws all". Empty when nothing was
// left out.
std::string LegendOfPruning(const Graph& full, const Graph& pruned, const PruneOptions& options);

// The graph drawn (`regrapht graph show`): "dot" is Graphviz DOT text (one
// box per technique, each edge labelled with its example count and drawn
// wider the more it has; a non-empty `legend` drawn as a note at the top),
// "svg" and "png" that text rendered by graphviz `dot` (run outside the
// sandbox: our own input to a system tool; PNG bytes are binary).
// InvalidArgument naming `source` (the graph's file) when an image would
// have more than kMaxDrawnEdges edges, or for an unknown format;
// FailedPrecondition when graphviz cannot be run.
Result<std::string> DrawGraph(const Graph& graph, std::string_view format, std::string_view legend,
                              std::string_view source);

}  // namespace regrapht
