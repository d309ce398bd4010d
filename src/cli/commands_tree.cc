// regrapht tree show: draw one search (an optimize report) as SVG, as PNG
// (graphviz `dot`, as graph show) or as a self-contained HTML page.
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "regrapht/files.h"
#include "regrapht/tree.h"

namespace regrapht::cli {

Result<std::string> RenderSearchReport(const std::filesystem::path& report_path,
                                       const std::string& format) {
  return regrapht::RenderSearchReport(report_path, format);
}

std::function<int()> TreeCommand(CLI::App* sub) {
  sub->require_subcommand(1);
  CLI::App* show = sub->add_subcommand("show",
                                       "Draw a search from its report JSON (optimize --report): "
                                       "the tree as SVG or PNG, or a whole HTML page");
  struct State {
    std::string report, format = "html", output;
  };
  auto st = std::make_shared<State>();
  show->add_option("report", st->report,
                   "the report JSON optimize wrote (default name: OUT.report.json)")
      ->required();
  show->add_option(
          "--format", st->format,
          "svg or png (the tree; png runs graphviz `dot`) or html (summary, winning path, tree, "
          "every attempt with its diff)")
      ->capture_default_str()
      ->check(CLI::IsMember({"svg", "png", "html"}));
  show->add_option("-o,--output", st->output, "write here instead of stdout");
  return [st]() -> int {
    auto text = RenderSearchReport(st->report, st->format);
    if (!text.ok()) return Fail(text.status());
    if (st->output.empty() || st->output == "-") {
      std::fwrite(text->data(), 1, text->size(), stdout);
      return kExitOk;
    }
    Status s = WriteFileAtomic(st->output, *text);
    if (!s.ok()) return Fail(s);
    std::fprintf(stderr, "wrote %s\n", st->output.c_str());
    return kExitOk;
  };
}

}  // namespace regrapht::cli
