// Pulling CUDA/C++ code out of a model's reply.
//
// Replies come in every shape: Markdown fences (```cuda, ```cpp, ```c++,
// untagged, several of them), the paper's JSON formats
//   {"think": "...", "code": "..."}
//   [{"think": "...", "method": "...", "detail": "...", "code": "..."}, ...]
// often broken (trailing commas, raw newlines inside strings, unescaped
// quotes, Python literals, code fenced inside the JSON string), bare code
// with no fence at all, or output cut off mid-way. ExtractCode never fails and
// never throws: a reply with no usable code is an Extraction with found() ==
// false and a reason a person can read.
//
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace regrapht::llm {

enum class ExtractFormat {
  kNone,          // nothing found
  kFenced,        // a Markdown code block
  kJsonThinkCode, // {"think": ..., "code": ...}
  kJsonSteps,     // a list of {"think", "method", "detail", "code"} steps
  kRaw,           // the reply itself is code
};
std::string_view ExtractFormatName(ExtractFormat format);  // "none", "fenced", ...

struct CodeStep {
  std::string think, method, detail, code;
};

struct Extraction {
  ExtractFormat format = ExtractFormat::kNone;
  std::string code;        // the chosen code (the last step's code for kJsonSteps)
  std::string language;    // the fence's tag, lower-cased ("cuda", "cpp", "" if untagged)
  std::string think;       // the JSON "think" field, if any
  std::vector<CodeStep> steps;  // kJsonSteps: every step, in order
  // found(): notes on what was repaired ("repaired JSON: trailing comma").
  // !found(): why nothing was found ("no code block or JSON with code").
  std::string reason;
  bool found() const { return format != ExtractFormat::kNone; }
};

struct ExtractOptions {
  // Prefer the block that defines this function (e.g. "gemm_kernel").
  std::string function_name;
};

Extraction ExtractCode(std::string_view reply, const ExtractOptions& options = {});

struct JsonExtraction {
  bool found = false;
  nlohmann::json value;  // when found
  // found: the repairs made ("repaired JSON: trailing comma"), or "".
  // !found: why no JSON could be read.
  std::string reason;
};

// The first JSON value in `reply` that parses, strictly or else with the
// tolerant parser above, trying in order: the whole reply, each ```json (or
// untagged block starting with { or [), and the span from the first { or [
// to the last matching closer. For answers that are data rather than code
// (the relabel prompt's list of {existed, method}).
JsonExtraction ExtractJson(std::string_view reply);

}  // namespace regrapht::llm
