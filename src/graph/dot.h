// Drawing the graph: Graphviz DOT text, and SVG through `dot -Tsvg`.
#pragma once

#include <string>
#include <string_view>

#include "core/subprocess.h"
#include "regrapht/graph.h"

namespace regrapht {

// DOT for `graph`: one box per technique (its name and taxonomy id; dashed
// if flagged for review), an ellipse for the init node, and each edge
// labelled with its example count. Deterministic: nodes and edges in id order.
std::string ToDot(const Graph& graph);

// Runs `dot -Tsvg` on `dot_text` through `runner` and returns the SVG.
// FailedPrecondition if graphviz cannot be run; Internal if it fails.
Result<std::string> RenderSvg(std::string_view dot_text, CommandRunner* runner);

}  // namespace regrapht
