// Pictures of one search: the tree of attempts of an `optimize` report as
// SVG or PNG, or the report's whole self-contained HTML page (what
// `regrapht tree show` prints and optimize writes beside its report JSON).
//
//   Result<std::string> page = RenderSearchReport("saxpy.report.json", "html");
//
// The input is the report JSON `optimize` writes (docs/search.md).
//
// Thread safety: safe to call from any thread.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "regrapht/status.h"

namespace regrapht {

// The search in the optimize report at `report_path` drawn as `format`:
//   "svg"  the tree (an XML document: the sequential code at the root, one
//          box per attempt coloured by verdict, the winning path thick);
//   "png"  the same tree rendered by graphviz `dot` (run outside the sandbox,
//          as `graph show` does: our own input to a system tool);
//   "html" the whole page: summary, winning path, tree, every attempt with
//          its diff and code, environment and configuration.
// Errors name the file and the field ("r.json: attempts[3].parent: ...");
// a report without attempts has no tree to draw (svg, png: InvalidArgument;
// the html page says so); an unknown format is InvalidArgument; png without
// graphviz fails with dot's error.
Result<std::string> RenderSearchReport(const std::filesystem::path& report_path,
                                       std::string_view format);

}  // namespace regrapht
