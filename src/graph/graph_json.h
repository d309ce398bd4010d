// Reading and writing graphs: the native format and the official ReGraphT
// repository's format. The plain entry points (ParseGraph, SerializeGraph,
// LoadGraph, SaveGraph) are declared in regrapht/graph.h; this header adds
// what the CLI and tests need beyond them.
#pragma once

#include <string>
#include <string_view>

#include "core/json_util.h"
#include "regrapht/graph.h"

namespace regrapht {

inline constexpr std::string_view kGraphFormatName = "regrapht-graph";
inline constexpr int kGraphFormatVersion = 1;

// What reading an official-format file had to repair. The official writer
// (ReGraph.save) drops every edge created for a brand-new node ("case c")
// from its edge list, but keeps it in the nodes' "in"/"out" lists; we restore
// such edges, without examples (those were lost by the writer).
struct OfficialReadReport {
  size_t edges_recovered = 0;       // listed in a node's in/out, absent from "edge"
  size_t duplicate_edges_merged = 0;  // the same src->tgt listed twice in "edge"
  size_t duplicate_examples_dropped = 0;
};

Result<Graph> ParseNativeGraph(std::string_view text, std::string_view source);
Result<Graph> ParseOfficialGraph(std::string_view text, std::string_view source,
                                 OfficialReadReport* report = nullptr);

// Parses an already-parsed document; `source` names it in errors.
Result<Graph> NativeGraphFromJson(const Json& j, std::string_view source);
Result<Graph> OfficialGraphFromJson(const Json& j, std::string_view source,
                                    OfficialReadReport* report = nullptr);

OrderedJson NativeGraphToJson(const Graph& graph);
OrderedJson OfficialGraphToJson(const Graph& graph);

OrderedJson VerificationToJson(const StepVerification& v);
// Reads a verification record at `p` (an object), rejecting unknown fields.
Result<StepVerification> VerificationFromJson(const JsonPath& p);

// "native", "official", "auto" <-> GraphFormat (ParseGraphFormat is public:
// regrapht/graph.h).
std::string_view GraphFormatName(GraphFormat format);

}  // namespace regrapht
