#include "graph/dot.h"

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

std::string ToDot(const Graph& graph) {
  std::string s;
  s += "digraph regraph {\n";
  s += "  rankdir=LR;\n";
  s += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n";
  s += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
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
    s += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + " [label=\"" +
         std::to_string(e.examples.size()) + "\"];\n";
  }
  s += "}\n";
  return s;
}

Result<std::string> RenderSvg(std::string_view dot_text, CommandRunner* runner) {
  CommandSpec spec;
  spec.argv = {"dot", "-Tsvg"};
  spec.stdin_data = std::string(dot_text);
  spec.limits.wall_seconds = 120;
  spec.max_output_bytes = 64 * 1024 * 1024;
  auto result = runner->Run(spec);
  if (!result.ok()) {
    return Status::FailedPrecondition("cannot run graphviz `dot` (is graphviz installed?): " +
                                      result.status().message());
  }
  if (!result->ok()) {
    return Status::Internal("dot -Tsvg failed (" + result->Describe() + "): " + result->stderr_text);
  }
  if (result->stdout_dropped > 0) return Status::Internal("dot -Tsvg: SVG too large");
  return std::move(result->stdout_text);
}

}  // namespace regrapht
