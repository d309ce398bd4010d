#include "bench/report_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/fs.h"
#include "core/html.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "graph/dot.h"
#include "regrapht/tree.h"
#include "search/attempt_json.h"

namespace regrapht::bench {
namespace {

using Html = std::string;

const char* VerdictColor(const std::string& v) {
  if (v == "correct") return "#2e8b57";
  if (v == "compiled_only" || v == "not_emulated") return "#d4a017";
  if (v == "compile_error" || v == "static_reject" || v == "interrupted") return "#9e9e9e";
  return "#c0392b";  // wrong answers, crashes, timeouts, ...
}

std::string Short(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n - 1) + "…";
}

std::string SpeedText(const TreeAttempt& a) {
  if (a.verdict != "correct") return "";
  return a.speedup > 0 ? fmt::format("{:.2f}x", a.speedup) : "untimed";
}

// Rows (leaf order) and depths of every attempt; the root is the sequential
// code. Children in id order.
struct Layout {
  std::map<int, double> row;  // id -> row (internal nodes: mean of their children's)
  std::map<int, int> depth;
  int rows = 0, depth_max = 0;
};

Layout Place(const std::vector<TreeAttempt>& attempts) {
  std::map<int, std::vector<int>> children;
  for (const auto& a : attempts) children[a.parent].push_back(a.id);
  Layout l;
  // Iterative post-order from the root (-1).
  struct Frame {
    int id, depth;
    size_t next;
  };
  std::vector<Frame> stack = {{-1, 0, 0}};
  while (!stack.empty()) {
    Frame& f = stack.back();
    auto& kids = children[f.id];
    if (f.next < kids.size()) {
      int child = kids[f.next++];
      stack.push_back({child, f.depth + 1, 0});
      continue;
    }
    l.depth[f.id] = f.depth;
    l.depth_max = std::max(l.depth_max, f.depth);
    if (kids.empty()) {
      l.row[f.id] = l.rows++;
    } else {
      l.row[f.id] = (l.row[kids.front()] + l.row[kids.back()]) / 2;
    }
    stack.pop_back();
  }
  if (l.rows == 0) l.rows = 1;
  return l;
}

// The search's own tree ("tree": {"nodes": [...]}, the methods' format of
// search/attempt_json.h), when the report has one: every edge's child must
// be a node of the list and every node's attempt -1 or an attempt. (The
// drawing is made from the attempts, whose parents AttemptsFromJson checks;
// this keeps a report that no search could have written from passing.)
Status CheckSearchTree(const JsonPath& root, const std::set<int>& attempt_ids) {
  if (!root.Has("tree") || !root.json()["tree"].is_object() || !root.json()["tree"].contains("nodes")) {
    return Status::Ok();
  }
  JsonPath nodes = root["tree"]["nodes"];
  RG_RETURN_IF_ERROR(nodes.ExpectArray());
  std::set<int64_t> ids;
  for (size_t i = 0; i < nodes.json().size(); ++i) {
    RG_RETURN_IF_ERROR(nodes[i].ExpectObject());
    RG_ASSIGN_OR_RETURN(int64_t id, nodes[i].GetInt("id"));
    if (!ids.insert(id).second) return nodes[i].FieldError("id", "node id " + std::to_string(id) + " is used twice");
    RG_ASSIGN_OR_RETURN(int64_t attempt, nodes[i].GetInt("attempt", -1));
    if (attempt != -1 && !attempt_ids.count(static_cast<int>(attempt))) {
      return nodes[i].FieldError("attempt", "no attempt has id " + std::to_string(attempt));
    }
  }
  for (size_t i = 0; i < nodes.json().size(); ++i) {
    if (!nodes[i].Has("edges")) continue;
    JsonPath edges = nodes[i]["edges"];
    RG_RETURN_IF_ERROR(edges.ExpectArray());
    for (size_t k = 0; k < edges.json().size(); ++k) {
      RG_RETURN_IF_ERROR(edges[k].ExpectObject());
      RG_ASSIGN_OR_RETURN(int64_t child, edges[k].GetInt("child"));
      if (child != -1 && !ids.count(child)) {  // -1: an edge not expanded yet
        return edges[k].FieldError("child", "no node of the tree has id " + std::to_string(child));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<TreeAttempt>> ReadTreeAttempts(const Json& report, const std::string& source) {
  JsonPath root(report, source);
  RG_RETURN_IF_ERROR(root.ExpectObject());
  if (!root.Has("attempts"))
    return root.FieldError("attempts", "required field is missing (is this an optimize report?)");
  RG_ASSIGN_OR_RETURN(std::vector<Attempt> attempts, search::AttemptsFromJson(root["attempts"]));
  std::vector<TreeAttempt> out;
  std::set<int> ids;
  for (Attempt& a : attempts) {
    TreeAttempt t;
    t.id = a.id;
    t.parent = a.parent;
    t.action = a.by_rules ? a.action + " (rules)" : std::move(a.action);  // the rules' seed
    t.verdict = std::string(AttemptVerdictName(a));
    t.detail = std::move(a.detail);
    t.code = std::move(a.code);
    t.speedup = a.speedup;
    t.reused = a.reused;
    ids.insert(t.id);
    out.push_back(std::move(t));
  }
  RG_RETURN_IF_ERROR(CheckSearchTree(root, ids));
  if (report.contains("best_path")) {
    JsonPath path = root["best_path"];
    RG_RETURN_IF_ERROR(path.ExpectArray());
    for (const auto& v : path.json()) {
      if (!v.is_number_integer() || !ids.count(v.get<int>())) {
        return path.Error("every entry must be an attempt's id, got " + JsonLine(v));
      }
      for (auto& t : out) t.on_best_path |= t.id == v.get<int>();
    }
  }
  return out;
}

std::string SearchTreeSvg(const std::vector<TreeAttempt>& attempts) {
  constexpr double kColW = 200, kBoxW = 172, kBoxH = 34, kRowH = 44, kPad = 16;
  const Layout l = Place(attempts);
  const double width = kPad * 2 + kColW * (l.depth_max + 1);
  const double height = kPad * 2 + kRowH * l.rows;
  auto x_of = [&](int id) { return kPad + kColW * l.depth.at(id); };
  auto y_of = [&](int id) { return kPad + kRowH * l.row.at(id); };
  std::map<int, const TreeAttempt*> by_id;
  for (const auto& a : attempts) by_id[a.id] = &a;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tree\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" role=\"img\"><title>search tree: {} attempts</title>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      width, height, width, height, attempts.size());
  // Edges first, under the boxes.
  for (const auto& a : attempts) {
    const double x1 = x_of(a.parent) + kBoxW, y1 = y_of(a.parent) + kBoxH / 2;
    const double x2 = x_of(a.id), y2 = y_of(a.id) + kBoxH / 2;
    const double mx = (x1 + x2) / 2;
    const bool best = a.on_best_path && (a.parent == -1 || by_id.at(a.parent)->on_best_path);
    s += fmt::format(
        "<path class=\"edge{}\" d=\"M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" "
        "fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>\n",
        best ? " best" : "", x1, y1, mx, y1, mx, y2, x2, y2, best ? "#1f4fd1" : "#9aa4b1",
        best ? 3.5 : 1.2);
  }
  s += fmt::format(
      "<g class=\"node root\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" rx=\"17\" "
      "fill=\"#eef1f5\" stroke=\"#555\"/><text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" "
      "text-anchor=\"middle\">sequential code</text></g>\n",
      x_of(-1), y_of(-1), kBoxW, kBoxH, x_of(-1) + kBoxW / 2, y_of(-1) + kBoxH / 2 + 4);
  for (const auto& a : attempts) {
    const double x = x_of(a.id), y = y_of(a.id);
    const std::string speed = SpeedText(a);
    s += fmt::format(
        "<a href=\"#attempt-{}\"><g class=\"node{}\" data-verdict=\"{}\"><title>#{} {}: "
        "{}{}{}</title>",
        a.id, a.on_best_path ? " best" : "", HtmlEscape(a.verdict), a.id, HtmlEscape(a.action),
        HtmlEscape(a.verdict), speed.empty() ? "" : " " + speed,
        a.detail.empty() ? "" : " (" + HtmlEscape(Short(a.detail, 200)) + ")");
    s += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"#ffffff\" "
        "stroke=\"{}\" stroke-width=\"{}\"/>",
        x, y, kBoxW, kBoxH, a.on_best_path ? "#1f4fd1" : "#888", a.on_best_path ? 2.5 : 1);
    s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"6\" height=\"{}\" fill=\"{}\"/>", x,
                     y, kBoxH, VerdictColor(a.verdict));
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">#{} {}</text>", x + 11,
                     y + 14, a.id, HtmlEscape(Short(a.action, 24)));
    s += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"10\" fill=\"{}\">{}{}{}</text></g></a>\n",
        x + 11, y + 28, VerdictColor(a.verdict), HtmlEscape(a.verdict),
        speed.empty() ? "" : " " + speed, a.reused ? " (reused)" : "");
  }
  return s + "</svg>";
}

namespace {

// A DOT string literal's body.
std::string DotEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::string SearchTreeDot(const std::vector<TreeAttempt>& attempts) {
  std::map<int, const TreeAttempt*> by_id;
  for (const auto& a : attempts) by_id[a.id] = &a;
  std::string s = fmt::format(
      "digraph search {{\n  rankdir=LR; bgcolor=\"#ffffff\"; nodesep=0.15; ranksep=0.5;\n"
      "  label=\"search tree: {} attempts\"; labelloc=t; fontname=\"Helvetica\"; fontsize=12;\n"
      "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", "
      "fontsize=10];\n  edge [arrowhead=none];\n"
      "  root [label=\"sequential code\", shape=ellipse, fillcolor=\"#eef1f5\", "
      "color=\"#555555\"];\n",
      attempts.size());
  for (const auto& a : attempts) {
    const std::string speed = SpeedText(a);
    s += fmt::format(
        "  a{} [label=\"#{} {}\\n{}{}{}\", color=\"{}\", fontcolor=\"#222222\", penwidth={}];\n",
        a.id, a.id, DotEscape(Short(a.action, 24)), DotEscape(a.verdict),
        speed.empty() ? "" : " " + speed, a.reused ? " (reused)" : "",
        a.on_best_path ? "#1f4fd1" : VerdictColor(a.verdict), a.on_best_path ? 3 : 1.5);
  }
  for (const auto& a : attempts) {
    const bool best = a.on_best_path && (a.parent == -1 || by_id.at(a.parent)->on_best_path);
    s += fmt::format("  {} -> a{} [color=\"{}\", penwidth={}];\n",
                     a.parent == -1 ? "root" : "a" + std::to_string(a.parent), a.id,
                     best ? "#1f4fd1" : "#9aa4b1", best ? 3.5 : 1.2);
  }
  return s + "}\n";
}

namespace {

Html Row(const std::string& k, const Html& v) {
  return "<tr><th>" + HtmlEscape(k) + "</th><td>" + v + "</td></tr>\n";
}

std::string ValueText(const Json& v) { return v.is_string() ? v.get<std::string>() : JsonLine(v); }

Html AttemptSection(const TreeAttempt& a, const std::map<int, const TreeAttempt*>& by_id,
                    const std::string& source) {
  Html h = fmt::format(
      "<section class=\"attempt{}\" id=\"attempt-{}\">\n<h3>#{} {} &rarr; <span style=\"color:{}\">"
      "{}</span>{}</h3>\n",
      a.on_best_path ? " best" : "", a.id, a.id, HtmlEscape(a.action), VerdictColor(a.verdict),
      HtmlEscape(a.verdict), HtmlEscape(SpeedText(a).empty() ? "" : " " + SpeedText(a)));
  h += "<p>parent: " +
       (a.parent < 0 ? std::string("the sequential code")
                     : fmt::format("<a href=\"#attempt-{0}\">#{0}</a>", a.parent)) +
       (a.reused ? "; same code as an earlier attempt (its verification reused)" : "") +
       (a.on_best_path ? "; <strong>on the winning path</strong>" : "") + "</p>\n";
  if (!a.detail.empty()) h += "<p class=\"detail\">" + HtmlEscape(a.detail) + "</p>\n";
  if (a.code.empty()) {
    h += "<p class=\"muted\">The report holds no code for this attempt (reports written before "
         "code was stored, or "
         "nothing was extracted from the reply).</p>\n";
  } else {
    const std::string& before = a.parent < 0 ? source : by_id.at(a.parent)->code;
    const std::string diff = UnifiedDiff(before, a.code);
    h += fmt::format(
        "<details class=\"diff\" open><summary>diff against {} ({} lines)</summary>{}</details>\n",
        a.parent < 0 ? "the sequential code" : fmt::format("#{}", a.parent),
        std::count(diff.begin(), diff.end(), '\n'),
        diff.empty() ? "<p class=\"muted\">no change</p>" : DiffHtml(diff));
    h += "<details class=\"code\"><summary>code</summary><pre><code>" + HtmlEscape(a.code) +
         "</code></pre></details>\n";
  }
  return h + "</section>\n";
}

// The winning path's section: a table of its steps, or why there is none.
Html WinningPathHtml(const Json& report, const std::vector<TreeAttempt>& attempts,
                     const std::map<int, const TreeAttempt*>& by_id) {
  Html b = "<h2>Winning path</h2>\n";
  std::vector<const TreeAttempt*> path;
  for (const auto& a : attempts) {
    if (a.on_best_path) path.push_back(&a);
  }
  if (path.empty()) {
    b += "<p class=\"muted\">No winning path: no attempt was chosen.</p>\n";
  } else {
    b += "<table class=\"path\" "
         "id=\"path\">\n<thead><tr><th>step</th><th>attempt</th><th>technique / action</th>"
         "<th>verdict</th><th>speedup</th></tr></thead>\n<tbody>\n";
    int step = 0;
    for (const auto& id : report["best_path"]) {
      const TreeAttempt& a = *by_id.at(id.get<int>());
      b += fmt::format(
          "<tr><td class=\"num\">{}</td><td><a href=\"#attempt-{}\">#{}</a></td><td>{}</td>"
          "<td>{}</td><td class=\"num\">{}</td></tr>\n",
          ++step, a.id, a.id, HtmlEscape(a.action), HtmlEscape(a.verdict),
          SpeedText(a).empty() ? "&ndash;" : HtmlEscape(SpeedText(a)));
    }
    b += "</tbody></table>\n";
  }
  return b;
}

}  // namespace

Result<std::string> SearchReportHtml(const Json& report, const std::string& source_name) {
  RG_ASSIGN_OR_RETURN(auto attempts, ReadTreeAttempts(report, source_name));
  JsonPath root(report, source_name);
  RG_ASSIGN_OR_RETURN(std::string file, root.GetString("file", ""));
  RG_ASSIGN_OR_RETURN(std::string function, root.GetString("function", ""));
  RG_ASSIGN_OR_RETURN(std::string source, root.GetString("source", ""));
  std::map<int, const TreeAttempt*> by_id;
  for (const auto& a : attempts) by_id[a.id] = &a;

  Html b = fmt::format("<h1>regrapht optimize: <code>{}</code></h1>\n<p>from <code>{}</code></p>\n",
                       HtmlEscape(function.empty() ? "(function not named)" : function),
                       HtmlEscape(file));
  b += "<h2>Summary</h2>\n<table class=\"summary\" id=\"summary\">\n";
  for (const char* k :
       {"signature", "method", "model", "stop_reason", "generations", "verifications",
        "tokens_prompt", "tokens_generated", "best_rule", "best_verified", "best_evidence"}) {
    if (report.contains(k)) b += Row(k, HtmlEscape(ValueText(report[k])));
  }
  const TreeAttempt* best = nullptr;
  if (report.contains("best_path") && !report["best_path"].empty())
    best = by_id.at(report["best_path"].back().get<int>());
  b += Row("best", best ? fmt::format("<a href=\"#attempt-{}\">#{}</a> {} {}", best->id, best->id,
                                      HtmlEscape(best->verdict), HtmlEscape(SpeedText(*best)))
                        : std::string("none"));
  b += "</table>\n";
  if (report.value("best_verified", false) == false && best) {
    b += "<p class=\"warn\">The best attempt was not verified on a GPU: see its evidence "
         "above.</p>\n";
  }

  b += WinningPathHtml(report, attempts, by_id);

  b += fmt::format(
      "<h2>Search tree</h2>\n<figure class=\"tree\" id=\"tree\">{}<figcaption>{} attempts; each "
      "box "
      "is one attempt (its action, verdict and speedup), linked to its parent, whose code it "
      "started "
      "from; the winning path is drawn thick and blue; the bar's colour is the verdict (green "
      "correct, "
      "amber unverified, grey rejected or not compiled, red wrong or "
      "crashed).</figcaption></figure>\n",
      SearchTreeSvg(attempts), attempts.size());

  b += "<h2>Attempts</h2>\n";
  if (source.empty()) {
    b += "<p class=\"muted\">The report holds no sequential source: first attempts are diffed "
         "against nothing.</p>\n";
  }
  for (const auto& a : attempts) b += AttemptSection(a, by_id, source);

  if (report.contains("best_result") && report["best_result"].is_object() &&
      report["best_result"].contains("environment") &&
      report["best_result"]["environment"].is_object()) {
    b += "<h2>Environment of the best attempt</h2>\n<table class=\"environment\" "
         "id=\"environment\">\n";
    for (const auto& [k, v] : report["best_result"]["environment"].items())
      b += Row(k, HtmlEscape(ValueText(v)));
    b += "</table>\n";
  }
  if (report.contains("config") && report["config"].is_object()) {
    b += "<h2>Configuration</h2>\n<table class=\"config\" id=\"config\">\n";
    for (const auto& [k, v] : report["config"].items()) b += Row(k, HtmlEscape(ValueText(v)));
    b += "</table>\n";
  }
  return HtmlPage("regrapht optimize: " + (function.empty() ? source_name : function), b);
}

}  // namespace regrapht::bench

namespace regrapht {

Result<std::string> RenderSearchReport(const std::filesystem::path& report_path,
                                       std::string_view format) {
  if (format != "svg" && format != "png" && format != "html") {
    return Status::InvalidArgument("unknown search picture format \"" + std::string(format) +
                                   "\" (svg, png or html)");
  }
  RG_ASSIGN_OR_RETURN(Json report, ReadJsonFile(report_path));
  if (format == "html") return bench::SearchReportHtml(report, report_path.string());
  RG_ASSIGN_OR_RETURN(auto attempts, bench::ReadTreeAttempts(report, report_path.string()));
  if (attempts.empty()) {
    return Status::InvalidArgument(
        report_path.string() +
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

}  // namespace regrapht
