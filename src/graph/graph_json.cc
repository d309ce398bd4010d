// The native and official graph formats. See docs/graph.md, "Formats".
#include "graph/graph_json.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "core/fs.h"
#include "core/strings.h"
#include "graph/taxonomy.h"

namespace regrapht {
namespace {

// An array field that must be present.
Result<JsonPath> RequiredArray(const JsonPath& parent, std::string_view key) {
  RG_RETURN_IF_ERROR(parent.ExpectObject());
  if (!parent.Has(key)) return parent.FieldError(key, "required field is missing");
  JsonPath child = parent[key];
  RG_RETURN_IF_ERROR(child.ExpectArray());
  return child;
}

// A list of integers (the official format's node "in"/"out").
Result<std::vector<int64_t>> IntList(const JsonPath& parent, std::string_view key) {
  RG_ASSIGN_OR_RETURN(JsonPath list, RequiredArray(parent, key));
  std::vector<int64_t> out;
  for (size_t i = 0; i < list.json().size(); ++i) {
    const Json& v = list.json()[i];
    if (!v.is_number_integer()) return list[i].Error("expected an integer, got " + JsonLine(v));
    out.push_back(v.get<int64_t>());
  }
  return out;
}

Result<NodeId> NodeRef(const JsonPath& p, std::string_view key, size_t num_nodes) {
  RG_ASSIGN_OR_RETURN(int64_t v, p.GetInt(key));
  if (v < 0 || static_cast<size_t>(v) >= num_nodes) {
    return p.FieldError(key, "node " + std::to_string(v) + " does not exist (the graph has " +
                                 std::to_string(num_nodes) + " nodes)");
  }
  return static_cast<NodeId>(v);
}

}  // namespace

std::string_view GraphFormatName(GraphFormat format) {
  switch (format) {
    case GraphFormat::kAuto:
      return "auto";
    case GraphFormat::kNative:
      return "native";
    case GraphFormat::kOfficial:
      return "official";
  }
  return "auto";
}

Result<GraphFormat> ParseGraphFormat(std::string_view name) {
  if (name == "auto") return GraphFormat::kAuto;
  if (name == "native") return GraphFormat::kNative;
  if (name == "official") return GraphFormat::kOfficial;
  return Status::InvalidArgument("unknown graph format " + Quoted(name) +
                                 " (expected native, official or auto)");
}

// ---- Verification records ---------------------------------------------------

OrderedJson VerificationToJson(const StepVerification& v) {
  OrderedJson j;
  j["compiled"] = v.compiled;
  j["archs"] = v.archs;
  j["correctness"] = std::string(CorrectnessName(v.correctness));
  j["gpu"] = v.gpu;
  if (v.speedup) j["speedup"] = *v.speedup;
  j["source_hash"] = v.source_hash;
  j["verifier"] = v.verifier;
  return j;
}

Result<StepVerification> VerificationFromJson(const JsonPath& p) {
  RG_RETURN_IF_ERROR(
      p.CheckKeys({"compiled", "archs", "correctness", "gpu", "speedup", "source_hash", "verifier"}));
  StepVerification v;
  if (!p.Has("compiled")) return p.FieldError("compiled", "required field is missing");
  RG_ASSIGN_OR_RETURN(v.compiled, p.GetBool("compiled", false));
  RG_ASSIGN_OR_RETURN(v.archs, p.GetStringList("archs"));
  RG_ASSIGN_OR_RETURN(std::string correctness, p.GetString("correctness", "unknown"));
  auto c = ParseCorrectness(correctness);
  if (!c) {
    return p.FieldError("correctness", "expected \"unknown\", \"correct\" or \"wrong\", got " +
                                           Quoted(correctness));
  }
  v.correctness = *c;
  if (v.correctness != Correctness::kUnknown && !v.compiled) {
    return p.FieldError("correctness", Quoted(correctness) + " but \"compiled\" is false");
  }
  RG_ASSIGN_OR_RETURN(v.gpu, p.GetString("gpu", ""));
  if (p.Has("speedup")) {
    RG_ASSIGN_OR_RETURN(double s, p.GetNumber("speedup"));
    if (!(s > 0)) return p.FieldError("speedup", "must be positive");
    if (!v.compiled) return p.FieldError("speedup", "measured but \"compiled\" is false");
    v.speedup = s;
  }
  RG_ASSIGN_OR_RETURN(v.source_hash, p.GetString("source_hash", ""));
  RG_ASSIGN_OR_RETURN(v.verifier, p.GetString("verifier", ""));
  return v;
}

// ---- Native format ------------------------------------------------------------

namespace {

// Whether `id` is a technique of the taxonomy compiled in (data/taxonomy.json).
bool IsBuiltinTechnique(const std::string& id) {
  static const std::set<std::string> ids = [] {
    std::set<std::string> out;
    if (auto tax = Taxonomy::Builtin(); tax.ok()) {
      for (const auto& t : tax->techniques()) out.insert(t.id);
    }
    return out;
  }();
  return ids.count(id) > 0;
}

}  // namespace

OrderedJson NativeGraphToJson(const Graph& graph) {
  OrderedJson j;
  j["format"] = std::string(kGraphFormatName);
  j["version"] = kGraphFormatVersion;
  OrderedJson nodes = OrderedJson::array();
  // Technique ids beyond the built-in taxonomy (a graph relabelled with
  // --taxonomy), declared so that reading it back accepts them.
  std::vector<std::string> declared;
  for (const Node& n : graph.nodes()) {
    OrderedJson jn;
    jn["id"] = n.id;
    jn["name"] = n.name;
    if (n.id != kInitNode) {
      jn["technique"] = n.technique;
      jn["description"] = n.description;
      jn["needs_review"] = n.needs_review;
    }
    nodes.push_back(std::move(jn));
    if (n.id != kInitNode && !n.technique.empty() && !IsBuiltinTechnique(n.technique)) {
      declared.push_back(n.technique);
    }
  }
  if (!declared.empty()) {
    std::sort(declared.begin(), declared.end());
    j["techniques"] = declared;
  }
  j["nodes"] = std::move(nodes);
  OrderedJson edges = OrderedJson::array();
  for (const Edge& e : graph.edges()) {
    OrderedJson je;
    je["id"] = e.id;
    je["from"] = e.from;
    je["to"] = e.to;
    OrderedJson examples = OrderedJson::array();
    for (const Example& x : e.examples) {
      OrderedJson jx;
      jx["kernel"] = x.kernel;
      jx["method"] = x.method;
      jx["think"] = x.think;
      jx["detail"] = x.detail;
      jx["before"] = x.before;
      jx["after"] = x.after;
      if (x.verification) jx["verification"] = VerificationToJson(*x.verification);
      examples.push_back(std::move(jx));
    }
    je["examples"] = std::move(examples);
    edges.push_back(std::move(je));
  }
  j["edges"] = std::move(edges);
  return j;
}

namespace {

// The technique ids the graph declares beyond the built-in taxonomy.
Result<std::set<std::string>> DeclaredTechniques(const JsonPath& root) {
  RG_ASSIGN_OR_RETURN(std::vector<std::string> declared_list, root.GetStringList("techniques"));
  std::set<std::string> declared;
  for (size_t i = 0; i < declared_list.size(); ++i) {
    std::string key = "techniques[" + std::to_string(i) + "]";
    if (auto why = NameProblem(declared_list[i])) return root.FieldError(key, *why);
    if (!declared.insert(declared_list[i]).second)
      return root.FieldError(key, Quoted(declared_list[i]) + " is declared twice");
  }
  return declared;
}

// Node `n` (not the init node) of a native graph: a new name, and a
// technique of the taxonomy or `declared` used by no other node of g.
Result<NodeSpec> NativeNode(const JsonPath& n, const std::set<std::string>& declared,
                            const Graph& g) {
  RG_RETURN_IF_ERROR(n.CheckKeys({"id", "name", "technique", "description", "needs_review"}));
  NodeSpec spec;
  RG_ASSIGN_OR_RETURN(spec.name, n.GetName("name"));
  RG_ASSIGN_OR_RETURN(spec.technique, n.GetString("technique", ""));
  if (auto why = spec.technique.empty() ? std::nullopt : NameProblem(spec.technique)) {
    return n.FieldError("technique", *why);
  }
  if (!spec.technique.empty() && !IsBuiltinTechnique(spec.technique) &&
      !declared.count(spec.technique)) {
    return n.FieldError(
        "technique",
        Quoted(spec.technique) +
            " is not a technique id of the taxonomy "
            "(data/taxonomy.json; docs/techniques.md) and the graph does not declare it "
            "in \"techniques\"");
  }
  RG_ASSIGN_OR_RETURN(spec.description, n.GetString("description", ""));
  RG_ASSIGN_OR_RETURN(spec.needs_review, n.GetBool("needs_review", false));
  if (spec.name.empty()) return n.FieldError("name", "must not be empty");
  if (auto other = g.FindNode(spec.name)) {
    return n.FieldError("name", Quoted(spec.name) + " is already the name of nodes[" +
                                    std::to_string(*other) + "]");
  }
  if (auto other = g.FindTechnique(spec.technique)) {
    return n.FieldError("technique", Quoted(spec.technique) +
                                         " is already the technique of nodes[" +
                                         std::to_string(*other) + "]");
  }
  return spec;
}

// Adds the nodes of a native graph to g, in id order, the init node first.
Status ReadNativeNodes(const JsonPath& nodes, const std::set<std::string>& declared, Graph* g) {
  if (nodes.json().empty()) return nodes.Error("expected at least the init node");
  for (size_t i = 0; i < nodes.json().size(); ++i) {
    JsonPath n = nodes[i];
    RG_ASSIGN_OR_RETURN(int64_t id, n.GetInt("id"));
    if (id != static_cast<int64_t>(i)) {
      return n.FieldError("id", "expected " + std::to_string(i) +
                                    " (nodes are listed in id order), got " + std::to_string(id));
    }
    if (i == kInitNode) {
      RG_RETURN_IF_ERROR(n.CheckKeys({"id", "name"}));
      RG_ASSIGN_OR_RETURN(std::string name, n.GetString("name"));
      if (name != kInitNodeName) {
        return n.FieldError("name", "node 0 is the init node and must be named \"init state\", got " +
                                        Quoted(name));
      }
      continue;
    }
    RG_ASSIGN_OR_RETURN(NodeSpec spec, NativeNode(n, declared, *g));
    RG_ASSIGN_OR_RETURN(NodeId added, g->AddNode(std::move(spec)));
    (void)added;
  }
  return Status::Ok();
}

// An example of a native graph's edge.
Result<Example> NativeExample(const JsonPath& x) {
  RG_RETURN_IF_ERROR(
      x.CheckKeys({"kernel", "method", "think", "detail", "before", "after", "verification"}));
  Example ex;
  RG_ASSIGN_OR_RETURN(ex.kernel, x.GetName("kernel"));
  RG_ASSIGN_OR_RETURN(ex.method, x.GetString("method", ""));
  RG_ASSIGN_OR_RETURN(ex.think, x.GetString("think", ""));
  RG_ASSIGN_OR_RETURN(ex.detail, x.GetString("detail", ""));
  RG_ASSIGN_OR_RETURN(ex.before, x.GetString("before"));
  RG_ASSIGN_OR_RETURN(ex.after, x.GetString("after"));
  if (x.Has("verification")) {
    RG_ASSIGN_OR_RETURN(ex.verification, VerificationFromJson(x["verification"]));
  }
  return ex;
}

// Adds the edges of a native graph, with their examples, to g, in id order.
Status ReadNativeEdges(const JsonPath& edges, Graph* g) {
  for (size_t i = 0; i < edges.json().size(); ++i) {
    JsonPath e = edges[i];
    RG_RETURN_IF_ERROR(e.CheckKeys({"id", "from", "to", "examples"}));
    RG_ASSIGN_OR_RETURN(int64_t id, e.GetInt("id"));
    if (id != static_cast<int64_t>(i)) {
      return e.FieldError("id", "expected " + std::to_string(i) +
                                    " (edges are listed in id order), got " + std::to_string(id));
    }
    RG_ASSIGN_OR_RETURN(NodeId from, NodeRef(e, "from", g->num_nodes()));
    RG_ASSIGN_OR_RETURN(NodeId to, NodeRef(e, "to", g->num_nodes()));
    if (to == kInitNode) return e.FieldError("to", "no edge may enter the init node");
    if (auto other = g->FindEdge(from, to)) {
      return e.Error("duplicate of edges[" + std::to_string(*other) + "] (" +
                     std::to_string(from) + "->" + std::to_string(to) + ")");
    }
    RG_ASSIGN_OR_RETURN(EdgeId edge, g->AddEdge(from, to));
    RG_ASSIGN_OR_RETURN(JsonPath examples, RequiredArray(e, "examples"));
    for (size_t k = 0; k < examples.json().size(); ++k) {
      JsonPath x = examples[k];
      RG_ASSIGN_OR_RETURN(Example ex, NativeExample(x));
      if (!g->AddExample(edge, std::move(ex))) {
        return x.Error("duplicate example (same kernel, before and after as an earlier one)");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Graph> NativeGraphFromJson(const Json& j, std::string_view source) {
  JsonPath root(j, std::string(source));
  RG_RETURN_IF_ERROR(root.CheckKeys({"format", "version", "techniques", "nodes", "edges"}));
  RG_ASSIGN_OR_RETURN(std::string format, root.GetString("format"));
  if (format != kGraphFormatName) {
    return root.FieldError("format", "expected \"regrapht-graph\", got " + Quoted(format));
  }
  RG_ASSIGN_OR_RETURN(int64_t version, root.GetInt("version"));
  if (version != kGraphFormatVersion) {
    return root.FieldError("version", "unsupported version " + std::to_string(version) +
                                          " (this build reads version 1)");
  }
  RG_ASSIGN_OR_RETURN(std::set<std::string> declared, DeclaredTechniques(root));
  Graph g;
  RG_ASSIGN_OR_RETURN(JsonPath nodes, RequiredArray(root, "nodes"));
  RG_RETURN_IF_ERROR(ReadNativeNodes(nodes, declared, &g));
  RG_ASSIGN_OR_RETURN(JsonPath edges, RequiredArray(root, "edges"));
  RG_RETURN_IF_ERROR(ReadNativeEdges(edges, &g));
  return g;
}

Result<Graph> ParseNativeGraph(std::string_view text, std::string_view source) {
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, source));
  return NativeGraphFromJson(j, source);
}

// ---- Official format ------------------------------------------------------------

OrderedJson OfficialGraphToJson(const Graph& graph) {
  OrderedJson j;
  OrderedJson nodes = OrderedJson::array();
  for (const Node& n : graph.nodes()) {
    OrderedJson jn;
    jn["index"] = n.id;
    jn["name"] = n.name;
    OrderedJson in = OrderedJson::array(), out = OrderedJson::array();
    for (EdgeId e : n.in) in.push_back(graph.edge(e).from);
    for (EdgeId e : n.out) out.push_back(graph.edge(e).to);
    jn["in"] = std::move(in);
    jn["out"] = std::move(out);
    nodes.push_back(std::move(jn));
  }
  j["node"] = std::move(nodes);
  OrderedJson edges = OrderedJson::array();
  // Every edge is written, including those created together with a new node
  // (the official ReGraph.save loses these).
  for (const Edge& e : graph.edges()) {
    OrderedJson je;
    je["src"] = e.from;
    je["tgt"] = e.to;
    OrderedJson examples = OrderedJson::array();
    for (const Example& x : e.examples) {
      OrderedJson jx;
      jx["name"] = x.kernel;
      jx["think"] = x.think;
      jx["detail"] = x.detail;
      jx["before"] = x.before;
      jx["after"] = x.after;
      examples.push_back(std::move(jx));
    }
    je["examples"] = std::move(examples);
    edges.push_back(std::move(je));
  }
  j["edge"] = std::move(edges);
  return j;
}

namespace {

// Adds the nodes of an official graph to g, in index order, the init node
// first; *ins and *outs get each node's "in" and "out" lists.
Status ReadOfficialNodes(const JsonPath& nodes, Graph* g, std::vector<std::vector<int64_t>>* ins,
                         std::vector<std::vector<int64_t>>* outs) {
  if (nodes.json().empty()) return nodes.Error("expected at least the init node");
  for (size_t i = 0; i < nodes.json().size(); ++i) {
    JsonPath n = nodes[i];
    RG_RETURN_IF_ERROR(n.CheckKeys({"index", "name", "in", "out"}));
    RG_ASSIGN_OR_RETURN(int64_t index, n.GetInt("index"));
    if (index != static_cast<int64_t>(i)) {
      return n.FieldError("index", "expected " + std::to_string(i) +
                                       " (nodes are listed in index order), got " +
                                       std::to_string(index));
    }
    RG_ASSIGN_OR_RETURN(std::string name, n.GetName("name"));
    RG_ASSIGN_OR_RETURN(std::vector<int64_t> in, IntList(n, "in"));
    RG_ASSIGN_OR_RETURN(std::vector<int64_t> out, IntList(n, "out"));
    ins->push_back(std::move(in));
    outs->push_back(std::move(out));
    if (i == kInitNode) {
      if (name != kInitNodeName) {
        return n.FieldError("name", "node 0 is the init node and must be named \"init state\", got " +
                                        Quoted(name));
      }
      continue;
    }
    if (name.empty()) return n.FieldError("name", "must not be empty");
    if (auto other = g->FindNode(name)) {
      return n.FieldError("name", Quoted(name) + " is already the name of node[" +
                                      std::to_string(*other) + "]");
    }
    NodeSpec spec;
    spec.name = std::move(name);
    RG_ASSIGN_OR_RETURN(NodeId added, g->AddNode(std::move(spec)));
    (void)added;
  }
  return Status::Ok();
}

// Adds the edges of an official graph, with their examples, to g, merging
// duplicate edges and dropping duplicate examples (counted in *report).
Status ReadOfficialEdges(const JsonPath& edges, Graph* g, OfficialReadReport* report) {
  for (size_t i = 0; i < edges.json().size(); ++i) {
    JsonPath e = edges[i];
    RG_RETURN_IF_ERROR(e.CheckKeys({"src", "tgt", "examples"}));
    RG_ASSIGN_OR_RETURN(NodeId from, NodeRef(e, "src", g->num_nodes()));
    RG_ASSIGN_OR_RETURN(NodeId to, NodeRef(e, "tgt", g->num_nodes()));
    if (to == kInitNode) return e.FieldError("tgt", "no edge may enter the init node");
    EdgeId edge;
    if (auto existing = g->FindEdge(from, to)) {
      edge = *existing;
      ++report->duplicate_edges_merged;
    } else {
      RG_ASSIGN_OR_RETURN(edge, g->AddEdge(from, to));
    }
    RG_ASSIGN_OR_RETURN(JsonPath examples, RequiredArray(e, "examples"));
    for (size_t k = 0; k < examples.json().size(); ++k) {
      JsonPath x = examples[k];
      RG_RETURN_IF_ERROR(x.CheckKeys({"name", "think", "detail", "before", "after"}));
      Example ex;
      RG_ASSIGN_OR_RETURN(ex.kernel, x.GetName("name"));
      RG_ASSIGN_OR_RETURN(ex.think, x.GetString("think", ""));
      RG_ASSIGN_OR_RETURN(ex.detail, x.GetString("detail", ""));
      RG_ASSIGN_OR_RETURN(ex.before, x.GetString("before"));
      RG_ASSIGN_OR_RETURN(ex.after, x.GetString("after"));
      // The official merge appends without checking; a kernel merged twice
      // leaves exact duplicates, which carry no information.
      if (!g->AddExample(edge, std::move(ex))) ++report->duplicate_examples_dropped;
    }
  }
  return Status::Ok();
}

// Restores edges that only the nodes' in/out lists remember (counted in
// *report).
Status RestoreListedEdges(const JsonPath& nodes, const std::vector<std::vector<int64_t>>& ins,
                          const std::vector<std::vector<int64_t>>& outs, Graph* g,
                          OfficialReadReport* report) {
  for (size_t i = 0; i < ins.size(); ++i) {
    for (int side = 0; side < 2; ++side) {
      const auto& list = side == 0 ? ins[i] : outs[i];
      const char* key = side == 0 ? "in" : "out";
      for (size_t k = 0; k < list.size(); ++k) {
        int64_t other = list[k];
        if (other < 0 || static_cast<size_t>(other) >= g->num_nodes()) {
          return nodes[i][key][k].Error("node " + std::to_string(other) +
                                        " does not exist (the graph has " +
                                        std::to_string(g->num_nodes()) + " nodes)");
        }
        NodeId from = side == 0 ? static_cast<NodeId>(other) : static_cast<NodeId>(i);
        NodeId to = side == 0 ? static_cast<NodeId>(i) : static_cast<NodeId>(other);
        if (g->FindEdge(from, to)) continue;
        if (to == kInitNode) {
          return nodes[i][key][k].Error("no edge may enter the init node");
        }
        RG_ASSIGN_OR_RETURN(EdgeId added, g->AddEdge(from, to));
        (void)added;
        ++report->edges_recovered;
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Graph> OfficialGraphFromJson(const Json& j, std::string_view source,
                                    OfficialReadReport* report) {
  OfficialReadReport local;
  if (report == nullptr) report = &local;
  *report = {};
  JsonPath root(j, std::string(source));
  RG_RETURN_IF_ERROR(root.CheckKeys({"node", "edge"}));

  Graph g;
  RG_ASSIGN_OR_RETURN(JsonPath nodes, RequiredArray(root, "node"));
  std::vector<std::vector<int64_t>> ins, outs;
  RG_RETURN_IF_ERROR(ReadOfficialNodes(nodes, &g, &ins, &outs));
  RG_ASSIGN_OR_RETURN(JsonPath edges, RequiredArray(root, "edge"));
  RG_RETURN_IF_ERROR(ReadOfficialEdges(edges, &g, report));
  RG_RETURN_IF_ERROR(RestoreListedEdges(nodes, ins, outs, &g, report));
  return g;
}

Result<Graph> ParseOfficialGraph(std::string_view text, std::string_view source,
                                 OfficialReadReport* report) {
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, source));
  return OfficialGraphFromJson(j, source, report);
}

// ---- Entry points declared in regrapht/graph.h ----------------------------------

Result<Graph> ParseGraph(std::string_view text, std::string_view source, GraphFormat format) {
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, source));
  if (format == GraphFormat::kAuto) {
    format = j.is_object() && j.contains("format") ? GraphFormat::kNative : GraphFormat::kOfficial;
  }
  if (format == GraphFormat::kNative) return NativeGraphFromJson(j, source);
  return OfficialGraphFromJson(j, source);
}

Result<Graph> LoadGraph(const fs::path& path, GraphFormat format) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path));
  return ParseGraph(text, path.string(), format);
}

Result<Graph> LoadGraph(const fs::path& path, GraphFormat format, std::vector<std::string>* notes) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path));
  const std::string source = path.string();
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, source));
  if (format == GraphFormat::kAuto) {
    format = j.is_object() && j.contains("format") ? GraphFormat::kNative : GraphFormat::kOfficial;
  }
  if (format == GraphFormat::kNative) return NativeGraphFromJson(j, source);
  OfficialReadReport report;
  RG_ASSIGN_OR_RETURN(Graph g, OfficialGraphFromJson(j, source, &report));
  if (notes == nullptr) return g;
  if (report.edges_recovered) {
    notes->push_back(source + ": recovered " + std::to_string(report.edges_recovered) +
                     " edges listed only in nodes' in/out (the official writer drops them; their "
                     "examples are lost)");
  }
  if (report.duplicate_edges_merged) {
    notes->push_back(source + ": merged " + std::to_string(report.duplicate_edges_merged) +
                     " repeated edges");
  }
  if (report.duplicate_examples_dropped) {
    notes->push_back(source + ": dropped " + std::to_string(report.duplicate_examples_dropped) +
                     " duplicate examples");
  }
  return g;
}

std::string SerializeGraph(const Graph& graph, GraphFormat format) {
  // Strings read from JSON are valid UTF-8 already; importers check files.
  // `replace` only keeps a bug elsewhere from throwing here.
  if (format == GraphFormat::kOfficial) {
    return JsonLine(OfficialGraphToJson(graph), 4) + "\n";
  }
  return JsonLine(NativeGraphToJson(graph), 2) + "\n";
}

Status SaveGraph(const Graph& graph, const fs::path& path, GraphFormat format) {
  return WriteFileAtomic(path, SerializeGraph(graph, format));
}

}  // namespace regrapht
