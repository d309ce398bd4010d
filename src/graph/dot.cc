#include "graph/dot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace regrapht {
namespace {

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

Result<Graph> PruneGraph(const Graph& graph, const PruneOptions& options) {
  std::vector<const Edge*> kept;
  for (const Edge& e : graph.edges()) {
    if (e.examples.size() >= options.min_examples) kept.push_back(&e);
  }
  if (options.top > 0 && kept.size() > options.top) {
    std::stable_sort(kept.begin(), kept.end(), [](const Edge* a, const Edge* b) {
      return a->examples.size() > b->examples.size();
    });
    kept.resize(options.top);
    std::sort(kept.begin(), kept.end(), [](const Edge* a, const Edge* b) { return a->id < b->id; });
  }
  std::vector<bool> used(graph.num_nodes(), false);
  used[kInitNode] = true;
  for (const Edge* e : kept) used[e->from] = used[e->to] = true;
  Graph out;
  std::map<NodeId, NodeId> ids = {{kInitNode, kInitNode}};
  for (const Node& n : graph.nodes()) {
    if (n.id == kInitNode || !used[n.id]) continue;
    RG_ASSIGN_OR_RETURN(NodeId id,
                        out.AddNode({n.name, n.technique, n.description, n.needs_review}));
    ids[n.id] = id;
  }
  for (const Edge* e : kept) {
    RG_ASSIGN_OR_RETURN(EdgeId id, out.AddEdge(ids.at(e->from), ids.at(e->to)));
    for (const Example& x : e->examples) out.AddExample(id, x);
  }
  return out;
}

std::string ToDot(const Graph& graph, std::string_view legend) {
  size_t busiest = 1;
  for (const Edge& e : graph.edges()) busiest = std::max(busiest, e.examples.size());
  std::string s;
  s += "digraph regraph {\n";
  s += "  rankdir=LR;\n";
  s += "  nodesep=0.25; ranksep=0.7;\n";
  if (!legend.empty()) {
    s += "  labelloc=t; fontname=\"Helvetica\"; fontsize=12;\n";
    s += "  label=\"" + Escape(std::string(legend)) + "\";\n";
  }
  s += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n";
  s += "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n";
  for (const Node& n : graph.nodes()) {
    s += "  n" + std::to_string(n.id) + " [label=\"" + Escape(n.name);
    if (n.id == kInitNode) {
      s += "\", shape=ellipse, style=bold];\n";
    } else if (n.needs_review) {
      s += "\\n(needs review)\", style=\"rounded,dashed\"];\n";
    } else {
      s += "\\n" + Escape(n.technique) + "\"];\n";
    }
  }
  for (const Edge& e : graph.edges()) {
    // Width 0.6 to 5 and grey 65% to 10% by sqrt(examples / busiest).
    const double w = std::sqrt(static_cast<double>(e.examples.size()) / busiest);
    const int grey = static_cast<int>(std::lround(166 - 140 * w));
    s += fmt::format(
        "  n{} -> n{} [label=\"{}\", penwidth={:.2f}, color=\"#{:02x}{:02x}{:02x}\"];\n", e.from,
        e.to, e.examples.size(), 0.6 + 4.4 * w, grey, grey, grey);
  }
  s += "}\n";
  return s;
}

std::string LegendOfPruning(const Graph& full, const Graph& pruned, const PruneOptions& options) {
  if (pruned.num_edges() == full.num_edges()) return "";
  if (pruned.num_edges() == 0) {
    return fmt::format("No transition has {} examples or more: all {} left out (--min-examples sets the floor).",
                       options.min_examples, full.num_edges());
  }
  size_t least = 0;
  for (const Edge& e : pruned.edges()) {
    if (least == 0 || e.examples.size() < least) least = e.examples.size();
  }
  std::string kept = options.top > 0 ? fmt::format("the {} of {} transitions with the most examples",
                                                   pruned.num_edges(), full.num_edges())
                                     : fmt::format("{} of {} transitions", pruned.num_edges(), full.num_edges());
  return fmt::format(
      "Showing {} (at least {} examples each; {} of {} examples), {} of {} techniques.\n"
      "Left out: {} transitions, {} techniques. --top 0 draws them all (--min-examples N filters by count).",
      kept, least, pruned.num_examples(), full.num_examples(), pruned.num_nodes() - 1, full.num_nodes() - 1,
      full.num_edges() - pruned.num_edges(), full.num_nodes() - pruned.num_nodes());
}

Result<std::string> RenderImage(std::string_view dot_text, std::string_view format,
                                CommandRunner* runner) {
  if (format != "svg" && format != "png")
    return Status::InvalidArgument("image format must be svg or png");
  const std::string flag = "-T" + std::string(format);
  CommandSpec spec;
  spec.argv = {"dot", flag};
  if (format == "png") spec.argv.push_back("-Gdpi=144");
  spec.stdin_data = std::string(dot_text);
  spec.limits.wall_seconds = 120;
  spec.max_output_bytes = 64 * 1024 * 1024;
  auto result = runner->Run(spec);
  if (!result.ok()) {
    return Status::FailedPrecondition("cannot run graphviz `dot` (is graphviz installed?): " +
                                      result.status().message());
  }
  if (!result->ok()) {
    return Status::Internal("dot " + flag + " failed (" + result->Describe() +
                            "): " + result->stderr_text);
  }
  if (result->stdout_dropped > 0) return Status::Internal("dot " + flag + ": image too large");
  return std::move(result->stdout_text);
}

Result<std::string> RenderSvg(std::string_view dot_text, CommandRunner* runner) {
  return RenderImage(dot_text, "svg", runner);
}

Result<std::string> DrawGraph(const Graph& graph, std::string_view format, std::string_view legend,
                              std::string_view source) {
  if (format != "dot" && format != "svg" && format != "png") {
    return Status::InvalidArgument("unknown drawing format \"" + std::string(format) +
                                   "\" (dot, svg or png)");
  }
  std::string dot = ToDot(graph, legend);
  if (format == "dot") return dot;
  if (graph.num_edges() > kMaxDrawnEdges) {
    return Status::InvalidArgument(std::string(source) + ": " + std::to_string(graph.num_edges()) +
                                   " edges are too many to draw as " + std::string(format) +
                                   " (graphviz lays out at most about " +
                                   std::to_string(kMaxDrawnEdges) +
                                   " in reasonable time); keep the busiest with --top K or "
                                   "--min-examples N, or write --format dot");
  }
  SubprocessOptions so;
  so.sandbox = SandboxMode::kNone;  // our own input to a system tool
  so.use_cgroups = false;
  auto runner = NewSubprocessRunner(so);
  return RenderImage(dot, format, runner.get());
}

}  // namespace regrapht
