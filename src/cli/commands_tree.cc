// regrapht tree show: draw one search (an optimize report) as SVG, as PNG
// (graphviz `dot`, as graph show) or as a self-contained HTML page.
#include <cstdio>
#include <memory>

#include "bench/report_tree.h"
#include "cli/commands.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/subprocess.h"
#include "graph/dot.h"

namespace regrapht::cli {

Result<std::string> RenderSearchReport(const fs::path& report_path, const std::string& format) {
  RG_ASSIGN_OR_RETURN(Json report, ReadJsonFile(report_path));
  if (format == "html") return bench::SearchReportHtml(report, report_path.string());
  RG_ASSIGN_OR_RETURN(auto attempts, bench::ReadTreeAttempts(report, report_path.string()));
  if (attempts.empty()) {
    return Status::InvalidArgument(report_path.string() +
                                   ": no attempts: the search made none, so there is no tree to draw (the html "
                                   "page says so)");
  }
  if (format == "png") {
    SubprocessOptions so;
    so.sandbox = SandboxMode::kNone;  // our own input to a system tool, as graph show
    so.use_cgroups = false;
    auto runner = NewSubprocessRunner(so);
    return RenderImage(bench::SearchTreeDot(attempts), "png", runner.get());
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + bench::SearchTreeSvg(attempts) + "\n";
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
