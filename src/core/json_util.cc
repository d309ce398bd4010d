#include "core/json_util.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

#include "core/strings.h"

namespace regrapht {

namespace {

// Raised from the parser callback to stop at the first thing it refuses.
struct JsonRefusal {
  std::string message;
};

std::string KeyPath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& k : path) out += (out.empty() ? "" : ".") + k;
  return out.empty() ? "(top level)" : out;
}

// The checks nlohmann's parser does not make, as a SAX pass over the text:
// a key given twice in one object, nesting deeper than kMaxJsonDepth. (Not
// the parser's callback: in nlohmann 3.11.2 it rescans the enclosing array
// at the end of every object, quadratic in a graph of a million edges.)
// Stops quietly at a syntax error, which the DOM parse then reports.
class RefusalSax {
 public:
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(Json::number_integer_t) { return true; }
  bool number_unsigned(Json::number_unsigned_t) { return true; }
  bool number_float(Json::number_float_t, const Json::string_t&) { return true; }
  bool string(Json::string_t&) { return true; }
  bool binary(Json::binary_t&) { return true; }
  bool start_object(std::size_t) { return Open(true); }
  bool start_array(std::size_t) { return Open(false); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(Json::string_t& k) {
    last_key_ = k;
    if (!frames_.empty() && !frames_.back().keys.insert(k).second) {
      throw JsonRefusal{"key \"" + k + "\" given twice in " + KeyPath(path_)};
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
  };
  bool Open(bool object) {
    if (frames_.size() >= static_cast<size_t>(kMaxJsonDepth)) {
      throw JsonRefusal{"nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels at " + KeyPath(path_)};
    }
    if (!frames_.empty()) path_.push_back(frames_.back().object ? last_key_ : "[]");
    frames_.push_back({object, {}});
    return true;
  }
  bool Close() {
    if (!frames_.empty()) frames_.pop_back();
    if (!path_.empty() && !frames_.empty()) path_.pop_back();
    return true;
  }
  std::vector<Frame> frames_;
  std::vector<std::string> path_;
  std::string last_key_;
};

}  // namespace

std::optional<std::string> NameProblem(std::string_view name) {
  if (name.empty()) return "must not be empty";
  if (name.size() > kMaxNameBytes) {
    return std::to_string(name.size()) + " bytes, longer than the " +
           std::to_string(kMaxNameBytes) + "-byte limit on names";
  }
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) {
      char buf[96];
      std::snprintf(buf, sizeof buf,
                    "control character U+%04X at byte %zu (names are printable text)", c, i);
      return std::string(buf);
    }
  }
  return std::nullopt;
}

Result<Json> ParseJson(std::string_view text, std::string_view source) {
  try {
    RefusalSax refusals;
    Json::sax_parse(text.begin(), text.end(), &refusals);
    return Json::parse(text.begin(), text.end());
  } catch (const JsonRefusal& r) {
    return Status::InvalidArgument(std::string(source) + ": JSON " + r.message);
  } catch (const Json::parse_error& e) {
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    int line = LineOfOffset(text, offset);
    size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    size_t col = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line..., column ...: "
    auto colon = what.find("syntax error");
    if (colon != std::string::npos) what = what.substr(colon);
    return Status::InvalidArgument(std::string(source) + ":" + std::to_string(line) + ":" +
                                   std::to_string(col) + ": JSON " + what);
  } catch (const Json::exception& e) {
    // A number past double's range ("1e999", out_of_range.406) and the like:
    // say where, from the token nlohmann quotes.
    std::string what = e.what();
    auto bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    std::string where = std::string(source);
    auto q1 = what.find('\''), q2 = what.rfind('\'');
    if (q1 != std::string::npos && q2 > q1) {
      size_t at = text.find(what.substr(q1 + 1, q2 - q1 - 1));
      if (at != std::string_view::npos) {
        size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
        size_t col = line_start == std::string_view::npos ? at + 1 : at - line_start;
        where += ":" + std::to_string(LineOfOffset(text, at)) + ":" + std::to_string(col);
      }
    }
    return Status::InvalidArgument(where + ": JSON " + what);
  }
}

Result<Json> ReadJsonFile(const fs::path& path) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path, kMaxJsonFileBytes));
  return ParseJson(text, path.string());
}

std::string DumpJson(const Json& j) { return JsonLine(j, 2) + "\n"; }
std::string DumpJson(const OrderedJson& j) { return JsonLine(j, 2) + "\n"; }
std::string JsonLine(const Json& j, int indent) { return j.dump(indent, ' ', false, Json::error_handler_t::replace); }
std::string JsonLine(const OrderedJson& j, int indent) {
  return j.dump(indent, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string JsonPath::Child(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

JsonPath JsonPath::operator[](std::string_view key) const {
  return JsonPath((*j_)[std::string(key)], file_, Child(key));
}

JsonPath JsonPath::operator[](size_t index) const {
  return JsonPath((*j_)[index], file_, path_ + "[" + std::to_string(index) + "]");
}

bool JsonPath::Has(std::string_view key) const {
  return j_->is_object() && j_->contains(std::string(key));
}

Status JsonPath::Error(std::string_view message) const {
  std::string where = file_;
  if (!path_.empty()) where += ": " + path_;
  return Status::InvalidArgument(where + ": " + std::string(message));
}

Status JsonPath::FieldError(std::string_view key, std::string_view message) const {
  std::string where = file_ + ": " + Child(key);
  return Status::InvalidArgument(where + ": " + std::string(message));
}

Status JsonPath::ExpectObject() const {
  if (!j_->is_object()) return Error(std::string("expected an object, got ") + j_->type_name());
  return Status::Ok();
}

Status JsonPath::ExpectArray() const {
  if (!j_->is_array()) return Error(std::string("expected an array, got ") + j_->type_name());
  return Status::Ok();
}

Status JsonPath::CheckKeys(const std::vector<std::string_view>& allowed) const {
  RG_RETURN_IF_ERROR(ExpectObject());
  for (auto it = j_->begin(); it != j_->end(); ++it) {
    bool ok = false;
    for (auto a : allowed) ok = ok || a == it.key();
    if (!ok) {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      return FieldError(it.key(), "unknown field (allowed: " + Join(names, ", ") + ")");
    }
  }
  return Status::Ok();
}

Result<std::string> JsonPath::GetString(std::string_view key) const {
  RG_RETURN_IF_ERROR(ExpectObject());
  if (!Has(key)) return FieldError(key, "required field is missing");
  const Json& v = (*j_)[std::string(key)];
  if (!v.is_string()) return FieldError(key, std::string("expected a string, got ") + v.type_name());
  return v.get<std::string>();
}

Result<std::string> JsonPath::GetString(std::string_view key, std::string fallback) const {
  if (!Has(key)) return fallback;
  return GetString(key);
}

Result<double> JsonPath::GetNumber(std::string_view key) const {
  RG_RETURN_IF_ERROR(ExpectObject());
  if (!Has(key)) return FieldError(key, "required field is missing");
  const Json& v = (*j_)[std::string(key)];
  if (!v.is_number()) return FieldError(key, std::string("expected a number, got ") + v.type_name());
  double d = v.get<double>();
  if (!std::isfinite(d)) return FieldError(key, "must be finite");
  return d;
}

Result<double> JsonPath::GetNumber(std::string_view key, double fallback) const {
  if (!Has(key)) return fallback;
  return GetNumber(key);
}

Result<int64_t> JsonPath::GetInt(std::string_view key) const {
  RG_RETURN_IF_ERROR(ExpectObject());
  if (!Has(key)) return FieldError(key, "required field is missing");
  const Json& v = (*j_)[std::string(key)];
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return FieldError(key, JsonLine(v) + " is out of range (at most 9223372036854775807)");
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::floor(d) == d && std::fabs(d) < 9.0e15) return static_cast<int64_t>(d);
  }
  return FieldError(key, std::string("expected an integer, got ") + JsonLine(v));
}

Result<int64_t> JsonPath::GetInt(std::string_view key, int64_t fallback) const {
  if (!Has(key)) return fallback;
  return GetInt(key);
}

Result<bool> JsonPath::GetBool(std::string_view key, bool fallback) const {
  RG_RETURN_IF_ERROR(ExpectObject());
  if (!Has(key)) return fallback;
  const Json& v = (*j_)[std::string(key)];
  if (!v.is_boolean()) return FieldError(key, std::string("expected true or false, got ") + JsonLine(v));
  return v.get<bool>();
}

Result<std::string> JsonPath::GetName(std::string_view key) const {
  RG_ASSIGN_OR_RETURN(std::string name, GetString(key));
  if (auto why = NameProblem(name)) return FieldError(key, *why);
  return name;
}

Result<std::vector<std::string>> JsonPath::GetStringList(std::string_view key) const {
  std::vector<std::string> out;
  if (!Has(key)) return out;
  const Json& v = (*j_)[std::string(key)];
  if (!v.is_array()) return FieldError(key, "expected an array of strings");
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) {
      return FieldError(std::string(key) + "[" + std::to_string(i) + "]", "expected a string");
    }
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

}  // namespace regrapht
