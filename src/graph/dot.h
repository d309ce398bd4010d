// Drawing the graph: Graphviz DOT text, SVG or PNG through `dot`, and the
// pruning that keeps a big graph readable (`graph show/export --min-examples
// N --top K`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/subprocess.h"
#include "regrapht/graph.h"

namespace regrapht {

// PruneOptions, PruneGraph, LegendOfPruning, kMaxDrawnEdges and DrawGraph
// are public (regrapht/graph.h).

// DOT for `graph`: one box per technique (its name and taxonomy id; dashed
// if flagged for review), an ellipse for the init node, and each edge
// labelled with its example count, its width and darkness growing with that
// count (square-root scale, relative to the busiest edge). Deterministic:
// nodes and edges in id order. A non-empty `legend` is drawn as a note at
// the top (e.g. what a pruned drawing left out: LegendOfPruning).
std::string ToDot(const Graph& graph, std::string_view legend = {});

// Runs `dot -T<format>` ("svg" or "png") on `dot_text` through `runner` and
// returns the image (PNG bytes are binary); a PNG at 144 dpi, so that its
// text reads at the size it opens at (96 dpi made an attempt's 10-point label
// 13 pixels high). FailedPrecondition if graphviz cannot be run; Internal if
// it fails.
Result<std::string> RenderImage(std::string_view dot_text, std::string_view format,
                                CommandRunner* runner);
// RenderImage(dot_text, "svg", runner).
Result<std::string> RenderSvg(std::string_view dot_text, CommandRunner* runner);

}  // namespace regrapht
