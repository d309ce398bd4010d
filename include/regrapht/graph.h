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

}  // namespace regrapht
