// JSON reading with errors that name the file, line and field.
//
// Parse errors come back as "<file>:<line>:<col>: <message>". Field access
// goes through JsonPath, which carries "args[2].tolerance.abs"-style paths
// so a validation error names exactly the offending field.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Limits on every JSON input (stated in the errors).
inline constexpr int kMaxJsonDepth = 256;
inline constexpr uint64_t kMaxJsonFileBytes = kMaxInputFileBytes;  // 256 MiB

// Names read with JsonPath::GetName are at most this long.
inline constexpr size_t kMaxNameBytes = 256;

// Why `name` is not a usable name (see JsonPath::GetName); nullopt if it is.
std::optional<std::string> NameProblem(std::string_view name);

// Parses `text`; `source` names it in errors (a file path or "<stdin>").
// Refuses, naming the key path, what it could not mean: a key given twice
// in one object, nesting deeper than kMaxJsonDepth.
Result<Json> ParseJson(std::string_view text, std::string_view source);
// Reads (ReadInputFile) and parses a regular file of at most
// kMaxJsonFileBytes (a device, a FIFO or a larger file is an error naming
// it, never an allocation).
Result<Json> ReadJsonFile(const fs::path& path);

// Serialises with 2-space indentation and a trailing newline. Every JSON
// regrapht writes goes through DumpJson or JsonLine: text that is not valid
// UTF-8 (a Latin-1 comment in a source file, a model reply cut inside a
// character) is written with U+FFFD in place of each invalid byte, never an
// exception (nlohmann's default throws type_error 316).
std::string DumpJson(const Json& j);
std::string DumpJson(const OrderedJson& j);
// The same on one line (indent < 0) or with `indent` spaces, no newline.
std::string JsonLine(const Json& j, int indent = -1);
std::string JsonLine(const OrderedJson& j, int indent = -1);

// A cursor into a JSON document that knows its path and file, for errors.
class JsonPath {
 public:
  JsonPath(const Json& j, std::string file, std::string path = "")
      : j_(&j), file_(std::move(file)), path_(std::move(path)) {}

  const Json& json() const { return *j_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  JsonPath operator[](std::string_view key) const;  // REQUIRES: Has(key)
  JsonPath operator[](size_t index) const;          // REQUIRES: array, index < size
  bool Has(std::string_view key) const;

  // "<file>: <path>: <message>" as an InvalidArgument Status.
  Status Error(std::string_view message) const;
  // Error about a child field that may not exist.
  Status FieldError(std::string_view key, std::string_view message) const;

  Status ExpectObject() const;
  Status ExpectArray() const;
  // Fails naming any key not in `allowed` (typos must not pass silently).
  Status CheckKeys(const std::vector<std::string_view>& allowed) const;

  Result<std::string> GetString(std::string_view key) const;
  Result<std::string> GetString(std::string_view key, std::string fallback) const;
  Result<double> GetNumber(std::string_view key) const;
  Result<double> GetNumber(std::string_view key, double fallback) const;
  Result<int64_t> GetInt(std::string_view key) const;
  Result<int64_t> GetInt(std::string_view key, int64_t fallback) const;
  Result<bool> GetBool(std::string_view key, bool fallback) const;
  Result<std::vector<std::string>> GetStringList(std::string_view key) const;  // [] if absent
  // A name (of a problem, technique, kernel, node): a string of 1 to
  // kMaxNameBytes bytes (UTF-8, as all JSON text) without control characters
  // (U+0000-U+001F, U+007F): names end up in paths, prompts, reports and
  // database keys, where a NUL or newline means something else.
  Result<std::string> GetName(std::string_view key) const;

 private:
  std::string Child(std::string_view key) const;
  const Json* j_;
  std::string file_;
  std::string path_;
};

}  // namespace regrapht
