// A fast JSON parser for graph files, which are mostly long code strings.
//
// nlohmann's lexer handles one character at a time and spends ~85% of the
// time of loading a graph; this one scans string bodies in bulk and builds
// the same nlohmann DOM. It accepts exactly RFC 8259 JSON in UTF-8. On any
// error it defers to ParseJson, so error messages (line, column, wording)
// stay nlohmann's. graph_json_test checks both parsers agree.
#pragma once

#include <optional>
#include <string_view>

#include "core/json_util.h"

namespace regrapht {

Result<Json> ParseJsonFast(std::string_view text, std::string_view source);

// The fast parser alone: nullopt where the text is not valid JSON (or nests
// deeper than 512).
std::optional<Json> TryParseJsonFast(std::string_view text);

}  // namespace regrapht
