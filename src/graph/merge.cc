#include "graph/merge.h"

#include "core/strings.h"
#include "graph/label_text.h"

namespace regrapht {
namespace {

// The node name of a technique outside the taxonomy: the method as written,
// trimmed, inner whitespace collapsed to one space.
std::string NewTechniqueName(std::string_view method) {
  std::string out;
  bool space = false;
  for (char c : Trim(method)) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// Where a step leads: an existing node, or the spec of a node to create.
struct Target {
  std::optional<NodeId> node;
  NodeSpec spec;
};

std::optional<NodeId> FindUnreviewed(const Graph& graph, std::string_view name) {
  std::string key = NormalizeLabel(name);
  for (const Node& n : graph.nodes()) {
    if (n.id != kInitNode && n.technique.empty() && NormalizeLabel(n.name) == key) return n.id;
  }
  return std::nullopt;
}

}  // namespace

std::string_view MergeCaseName(MergeCase c) {
  switch (c) {
    case MergeCase::kExistingEdge:
      return "a";
    case MergeCase::kNewEdge:
      return "b";
    case MergeCase::kNewNode:
      return "c";
  }
  return "?";
}

namespace {

// The node step i of `trajectory` goes to: its taxonomy technique's, or a
// new unreviewed one named after its method; an error when the step cannot
// be merged into `graph`.
Result<NodeSpec> StepNodeSpec(const Trajectory& trajectory, size_t i, const Taxonomy& taxonomy,
                              const Graph& graph) {
  const TrajectoryStep& step = trajectory.steps[i];
  std::string where = trajectory.kernel_id + ": steps[" + std::to_string(i) + "]";
  if (Trim(step.code).empty()) return Status::InvalidArgument(where + ": code is empty");
  NodeSpec spec;
  if (!step.technique_id.empty()) {
    const Technique* t = taxonomy.Find(step.technique_id);
    if (t == nullptr) {
      return Status::InvalidArgument(where + ": technique \"" + step.technique_id +
                                     "\" is not in the taxonomy");
    }
    spec.name = t->name;
    spec.technique = t->id;
    spec.description = t->description;
    if (!graph.FindTechnique(spec.technique) && graph.FindNode(spec.name)) {
      return Status::InvalidArgument(where + ": a node named \"" + spec.name +
                                     "\" exists without technique id \"" + spec.technique +
                                     "\" (from an official-format graph?)");
    }
  } else {
    spec.name = NewTechniqueName(step.method);
    spec.needs_review = true;
    if (spec.name.empty()) return Status::InvalidArgument(where + ": method is empty");
    if (NormalizeLabel(spec.name) == NormalizeLabel(kInitNodeName)) {
      return Status::InvalidArgument(where + ": method \"" + step.method +
                                     "\" names the init state");
    }
    if (!FindUnreviewed(graph, spec.name) && graph.FindNode(spec.name)) {
      return Status::InvalidArgument(where + ": method \"" + step.method +
                                     "\" is outside the taxonomy but names an existing node");
    }
  }
  return spec;
}

}  // namespace

Result<MergeReport> MergeTrajectory(const Trajectory& trajectory, const Taxonomy& taxonomy,
                                    Graph* graph) {
  // Validate every step first so a bad one leaves the graph untouched.
  std::vector<NodeSpec> specs;
  for (size_t i = 0; i < trajectory.steps.size(); ++i) {
    RG_ASSIGN_OR_RETURN(NodeSpec spec, StepNodeSpec(trajectory, i, taxonomy, *graph));
    specs.push_back(std::move(spec));
  }

  MergeReport report;
  NodeId current = kInitNode;
  const std::string* last_code = &trajectory.sequential_source;
  for (size_t i = 0; i < trajectory.steps.size(); ++i) {
    const TrajectoryStep& step = trajectory.steps[i];
    NodeSpec& spec = specs[i];
    StepMerge sm;
    std::optional<NodeId> target = spec.technique.empty() ? FindUnreviewed(*graph, spec.name)
                                                          : graph->FindTechnique(spec.technique);
    std::optional<EdgeId> edge = target ? graph->FindEdge(current, *target) : std::nullopt;
    if (edge) {
      sm.merge_case = MergeCase::kExistingEdge;  // (a)
    } else {
      if (target) {
        sm.merge_case = MergeCase::kNewEdge;  // (b)
      } else {
        sm.merge_case = MergeCase::kNewNode;  // (c)
        RG_ASSIGN_OR_RETURN(target, graph->AddNode(std::move(spec)));
        ++report.nodes_added;
      }
      RG_ASSIGN_OR_RETURN(edge, graph->AddEdge(current, *target));
      ++report.edges_added;
    }
    Example ex;
    ex.kernel = trajectory.kernel_id;
    ex.method = step.method;
    ex.think = step.think;
    ex.detail = step.detail;
    ex.before = *last_code;
    ex.after = step.code;
    ex.verification = step.verification;
    sm.duplicate = !graph->AddExample(*edge, std::move(ex));
    if (sm.duplicate) {
      ++report.examples_duplicate;
    } else {
      ++report.examples_added;
    }
    sm.node = *target;
    sm.edge = *edge;
    report.steps.push_back(sm);
    current = *target;
    last_code = &step.code;
  }
  return report;
}

}  // namespace regrapht
