// Graph: the single owner of the reasoning graph's nodes and edges.
#include "regrapht/graph.h"

#include "core/hash.h"
#include "core/json_util.h"
#include "core/strings.h"

namespace regrapht {

std::string_view CorrectnessName(Correctness c) {
  switch (c) {
    case Correctness::kUnknown:
      return "unknown";
    case Correctness::kCorrect:
      return "correct";
    case Correctness::kWrong:
      return "wrong";
  }
  return "unknown";
}

std::optional<Correctness> ParseCorrectness(std::string_view name) {
  if (name == "unknown") return Correctness::kUnknown;
  if (name == "correct") return Correctness::kCorrect;
  if (name == "wrong") return Correctness::kWrong;
  return std::nullopt;
}

Graph::Graph() {
  Node init;
  init.id = kInitNode;
  init.name = std::string(kInitNodeName);
  init.description = "The sequential C++ code before any optimization.";
  by_name_.emplace(init.name, kInitNode);
  nodes_.push_back(std::move(init));
}

std::optional<NodeId> Graph::FindNode(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<NodeId> Graph::FindTechnique(std::string_view technique) const {
  if (technique.empty()) return std::nullopt;
  auto it = by_technique_.find(std::string(technique));
  if (it == by_technique_.end()) return std::nullopt;
  return it->second;
}

std::optional<EdgeId> Graph::FindEdge(NodeId from, NodeId to) const {
  auto it = by_endpoints_.find(EdgeKey(from, to));
  if (it == by_endpoints_.end()) return std::nullopt;
  return it->second;
}

std::vector<NodeId> Graph::Successors(NodeId id) const {
  std::vector<NodeId> out;
  out.reserve(nodes_[id].out.size());
  for (EdgeId e : nodes_[id].out) out.push_back(edges_[e].to);
  return out;
}

Result<NodeId> Graph::AddNode(NodeSpec spec) {
  if (spec.name.empty()) return Status::InvalidArgument("node name is empty");
  // The one owner of nodes refuses a name no graph file may hold (the
  // readers refuse it), whoever made it: an importer, a merge, a model.
  if (auto why = NameProblem(spec.name)) {
    return Status::InvalidArgument("node name \"" + TruncateMiddle(spec.name, 60) + "\": " + *why);
  }
  if (by_name_.count(spec.name)) {
    return Status::InvalidArgument("duplicate node name \"" + spec.name + "\"");
  }
  if (!spec.technique.empty() && by_technique_.count(spec.technique)) {
    return Status::InvalidArgument("duplicate technique \"" + spec.technique + "\" (node \"" +
                                   nodes_[by_technique_[spec.technique]].name + "\")");
  }
  Node node;
  node.id = static_cast<NodeId>(nodes_.size());
  node.name = std::move(spec.name);
  node.technique = std::move(spec.technique);
  node.description = std::move(spec.description);
  node.needs_review = spec.needs_review;
  by_name_.emplace(node.name, node.id);
  if (!node.technique.empty()) by_technique_.emplace(node.technique, node.id);
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

Result<EdgeId> Graph::AddEdge(NodeId from, NodeId to) {
  if (from >= nodes_.size() || to >= nodes_.size()) {
    return Status::InvalidArgument("edge " + std::to_string(from) + "->" + std::to_string(to) +
                                   ": node out of range (graph has " +
                                   std::to_string(nodes_.size()) + " nodes)");
  }
  if (to == kInitNode) {
    return Status::InvalidArgument("edge " + std::to_string(from) +
                                   "->0: no edge may enter the init node");
  }
  if (by_endpoints_.count(EdgeKey(from, to))) {
    return Status::InvalidArgument("duplicate edge " + std::to_string(from) + "->" +
                                   std::to_string(to));
  }
  Edge edge;
  edge.id = static_cast<EdgeId>(edges_.size());
  edge.from = from;
  edge.to = to;
  by_endpoints_.emplace(EdgeKey(from, to), edge.id);
  nodes_[from].out.push_back(edge.id);
  nodes_[to].in.push_back(edge.id);
  edges_.push_back(std::move(edge));
  return edges_.back().id;
}

bool Graph::AddExample(EdgeId edge, Example example) {
  // Deduplicate on (edge, kernel, before, after): merging the same trajectory
  // twice must add nothing the second time.
  Hasher h;
  h.Add(static_cast<int64_t>(edge)).Add(example.kernel).Add(example.before).Add(example.after);
  if (!example_keys_.insert(h.Hex()).second) return false;
  edges_[edge].examples.push_back(std::move(example));
  ++num_examples_;
  return true;
}

}  // namespace regrapht
