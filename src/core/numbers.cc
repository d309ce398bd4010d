#include "core/numbers.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "core/strings.h"

namespace regrapht {
namespace {

std::string NumText(double v) {
  char buf[64];
  // Whole numbers as integers (2^53 and more in %g form).
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%g", v);
  }
  return buf;
}

// What the user typed, shortened and with control bytes shown, for messages.
std::string NumShown(std::string_view text) {
  std::string s;
  for (char c : text.substr(0, 40)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      s += buf;
    } else {
      s += c;
    }
  }
  if (text.size() > 40) s += "...";
  return "'" + s + "'";
}

bool NumLooksNonFinite(std::string_view t) {
  std::string lower;
  for (char c : t) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos;
}

Status NumOutOfRange(std::string_view text, bool below, double bound, double lo, double hi, bool lo_open) {
  return Status::InvalidArgument(std::string(Trim(text)) + " is " +
                                 (below ? (lo_open ? "not above " : "below the minimum ")
                                        : "above the maximum ") +
                                 NumText(bound) + " (allowed: " + RangeText(lo, hi, lo_open) + ")");
}

// The digits of a whole number: an optional sign, then 0-9 only.
Status NumCheckWholeSyntax(std::string_view t, std::string_view text, const std::string& range) {
  if (t.empty()) return Status::InvalidArgument("an empty value is not a number (allowed: " + range + ")");
  size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
  bool digits = i < t.size();
  for (size_t k = i; k < t.size(); ++k) digits = digits && t[k] >= '0' && t[k] <= '9';
  if (digits) return Status::Ok();
  if (NumLooksNonFinite(t)) {
    return Status::InvalidArgument(NumShown(text) + " is not a finite number (allowed: whole numbers, " + range + ")");
  }
  const bool decimal = t.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
  if (decimal && ParseDouble(t)) {
    return Status::InvalidArgument(NumShown(text) + " is not a whole number (allowed: " + range + ")");
  }
  return Status::InvalidArgument(NumShown(text) + " is not a number (allowed: whole numbers, " + range + ")");
}

}  // namespace

std::string RangeText(double lo, double hi, bool lo_open) {
  if (lo_open) return "above " + NumText(lo) + " and at most " + NumText(hi);
  return NumText(lo) + " to " + NumText(hi);
}

std::string RangeTag(double lo, double hi, bool lo_open) {
  return std::string(lo_open ? "(" : "[") + NumText(lo) + "," + NumText(hi) + "]";
}

Result<int64_t> ParseWholeIn(std::string_view text, int64_t lo, int64_t hi) {
  const std::string range = RangeText(static_cast<double>(lo), static_cast<double>(hi));
  std::string_view t = Trim(text);
  RG_RETURN_IF_ERROR(NumCheckWholeSyntax(t, text, range));
  const bool negative = t[0] == '-';
  std::string_view digits = t.substr(t[0] == '+' ? 1 : 0);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range || p != digits.data() + digits.size()) {
    return NumOutOfRange(text, negative, negative ? static_cast<double>(lo) : static_cast<double>(hi),
                      static_cast<double>(lo), static_cast<double>(hi), false);
  }
  if (v < lo) return NumOutOfRange(text, true, static_cast<double>(lo), static_cast<double>(lo), static_cast<double>(hi), false);
  if (v > hi) return NumOutOfRange(text, false, static_cast<double>(hi), static_cast<double>(lo), static_cast<double>(hi), false);
  return v;
}

Result<uint64_t> ParseUnsignedIn(std::string_view text, uint64_t lo, uint64_t hi) {
  const std::string range = NumText(static_cast<double>(lo)) + " to " + std::to_string(hi);
  std::string_view t = Trim(text);
  RG_RETURN_IF_ERROR(NumCheckWholeSyntax(t, text, range));
  if (t[0] == '-') {
    // "-0" is 0; any other negative is below every unsigned range.
    if (t.find_first_not_of("0", 1) != std::string_view::npos)
      return Status::InvalidArgument(std::string(t) + " is below the minimum " + std::to_string(lo) +
                                     " (allowed: " + range + ")");
    t = "0";
  }
  std::string_view digits = t.substr(t[0] == '+' ? 1 : 0);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range || p != digits.data() + digits.size() || v > hi) {
    return Status::InvalidArgument(std::string(t) + " is above the maximum " + std::to_string(hi) +
                                   " (allowed: " + range + ")");
  }
  if (v < lo) {
    return Status::InvalidArgument(std::string(t) + " is below the minimum " + std::to_string(lo) +
                                   " (allowed: " + range + ")");
  }
  return v;
}

Result<double> ParseRealIn(std::string_view text, double lo, double hi, bool lo_open) {
  const std::string range = RangeText(lo, hi, lo_open);
  std::string_view t = Trim(text);
  if (t.empty()) return Status::InvalidArgument("an empty value is not a number (allowed: " + range + ")");
  // Decimal or scientific only: strtod would also take "nan", "inf",
  // "infinity" and hex floats.
  for (char c : t) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      if (NumLooksNonFinite(t)) return Status::InvalidArgument(NumShown(text) + " is not a finite number (allowed: " + range + ")");
      return Status::InvalidArgument(NumShown(text) + " is not a number (allowed: " + range + ")");
    }
  }
  std::string s(t);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || s == "." || s.find_first_of("0123456789") == std::string::npos) {
    return Status::InvalidArgument(NumShown(text) + " is not a number (allowed: " + range + ")");
  }
  if (errno == ERANGE && std::isinf(v)) {
    return Status::InvalidArgument(s + " overflows a double (allowed: " + range + ")");
  }
  if (errno == ERANGE) v = 0;  // underflow: as good as zero
  if (v < lo || (lo_open && v <= lo)) return NumOutOfRange(text, true, lo, lo, hi, lo_open);
  if (v > hi) return NumOutOfRange(text, false, hi, lo, hi, lo_open);
  return v;
}

}  // namespace regrapht
