#include "graph/json_fast.h"

#include <charconv>
#include <cstdlib>
#include <string>

#include "graph/trajectory.h"  // IsValidUtf8

namespace regrapht {
namespace {

class FastParser {
 public:
  explicit FastParser(std::string_view text) : s_(text) {}

  // False on any syntax error (the caller re-parses for the message).
  bool ParseDocument(Json* out) {
    if (!Value(out, 0)) return false;
    SkipSpace();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = kMaxJsonDepth - 1;  // deeper: the nlohmann path refuses it

  void SkipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) {
      ++i_;
    }
  }

  bool Literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool Value(Json* out, int depth) {
    SkipSpace();
    if (i_ >= s_.size() || depth > kMaxDepth) return false;
    switch (s_[i_]) {
      case '{':
        return Object(out, depth);
      case '[':
        return Array(out, depth);
      case '"': {
        std::string str;
        if (!String(&str)) return false;
        *out = std::move(str);
        return true;
      }
      case 't':
        *out = true;
        return Literal("true");
      case 'f':
        *out = false;
        return Literal("false");
      case 'n':
        *out = nullptr;
        return Literal("null");
      default:
        return Number(out);
    }
  }

  bool Object(Json* out, int depth) {
    ++i_;  // '{'
    *out = Json::object();
    auto& obj = out->get_ref<Json::object_t&>();
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return true;
    }
    while (true) {
      SkipSpace();
      if (i_ >= s_.size() || s_[i_] != '"') return false;
      std::string key;
      if (!String(&key)) return false;
      SkipSpace();
      if (i_ >= s_.size() || s_[i_] != ':') return false;
      ++i_;
      Json value;
      if (!Value(&value, depth + 1)) return false;
      // A duplicate key: the nlohmann path refuses it with its message.
      if (!obj.emplace(std::move(key), std::move(value)).second) return false;
      SkipSpace();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == '}') {
        ++i_;
        return true;
      }
      if (s_[i_] != ',') return false;
      ++i_;
    }
  }

  bool Array(Json* out, int depth) {
    ++i_;  // '['
    *out = Json::array();
    auto& arr = out->get_ref<Json::array_t&>();
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return true;
    }
    while (true) {
      Json value;
      if (!Value(&value, depth + 1)) return false;
      arr.push_back(std::move(value));
      SkipSpace();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == ']') {
        ++i_;
        return true;
      }
      if (s_[i_] != ',') return false;
      ++i_;
    }
  }

  static int Hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool Hex4(unsigned* v) {
    if (i_ + 4 > s_.size()) return false;
    *v = 0;
    for (int k = 0; k < 4; ++k) {
      int h = Hex(s_[i_ + k]);
      if (h < 0) return false;
      *v = *v * 16 + static_cast<unsigned>(h);
    }
    i_ += 4;
    return true;
  }

  static void AppendUtf8(std::string* out, unsigned cp) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool String(std::string* out) {
    ++i_;  // opening quote
    while (true) {
      // Copy the run up to the next quote, backslash or control character.
      size_t start = i_;
      while (i_ < s_.size()) {
        unsigned char c = static_cast<unsigned char>(s_[i_]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++i_;
      }
      out->append(s_.data() + start, i_ - start);
      if (i_ >= s_.size()) return false;
      char c = s_[i_++];
      if (c == '"') return true;
      if (c != '\\') return false;  // raw control character
      if (i_ >= s_.size()) return false;
      char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          *out += e;
          break;
        case 'b':
          *out += '\b';
          break;
        case 'f':
          *out += '\f';
          break;
        case 'n':
          *out += '\n';
          break;
        case 'r':
          *out += '\r';
          break;
        case 't':
          *out += '\t';
          break;
        case 'u': {
          unsigned cp;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // high surrogate: a low one must follow
            unsigned low;
            if (!Literal("\\u") || !Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return false;
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          return false;
      }
    }
  }

  bool Digits() {
    size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > start;
  }

  bool Number(Json* out) {
    size_t start = i_;
    bool negative = false;
    if (s_[i_] == '-') {
      negative = true;
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    if (s_[i_] == '0') {
      ++i_;
    } else if (!Digits()) {
      return false;
    }
    bool integer = true;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      integer = false;
      if (!Digits()) return false;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      integer = false;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!Digits()) return false;
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + i_;
    // Like nlohmann: non-negative integers are unsigned, negative ones
    // signed, and integers that do not fit become floating point.
    if (integer && negative) {
      int64_t v;
      auto [p, ec] = std::from_chars(first, last, v);
      if (ec == std::errc() && p == last) {
        *out = v;
        return true;
      }
    } else if (integer) {
      uint64_t v;
      auto [p, ec] = std::from_chars(first, last, v);
      if (ec == std::errc() && p == last) {
        *out = v;
        return true;
      }
    }
    std::string token(first, last);
    *out = std::strtod(token.c_str(), nullptr);
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::optional<Json> TryParseJsonFast(std::string_view text) {
  if (!IsValidUtf8(text)) return std::nullopt;
  Json j;
  FastParser parser(text);
  if (!parser.ParseDocument(&j)) return std::nullopt;
  return j;
}

Result<Json> ParseJsonFast(std::string_view text, std::string_view source) {
  if (auto j = TryParseJsonFast(text)) return std::move(*j);
  return ParseJson(text, source);
}

}  // namespace regrapht
