// The one parser of numbers a user types: command-line options (cli/
// number_flags.h puts every numeric option of every command through it) and
// small settings. It refuses what strtod/strtol and CLI11 quietly take:
// junk after the digits, NaN, infinities, values that overflow the type, a
// fraction where a whole number is meant, and values outside a closed range.
// Errors say which of these it was and give the range, so that the caller
// only has to prefix the setting's name ("--samples: -1 is below the minimum
// 1 (allowed: 1 to 100000)").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "regrapht/status.h"

namespace regrapht {

// A whole number in [lo, hi], decimal digits with an optional sign (no
// fraction, exponent, hex or spaces inside; spaces around are trimmed).
Result<int64_t> ParseWholeIn(std::string_view text, int64_t lo, int64_t hi);
Result<uint64_t> ParseUnsignedIn(std::string_view text, uint64_t lo, uint64_t hi);

// A finite real number in [lo, hi] (or (lo, hi] with lo_open): decimal or
// scientific notation; "nan", "inf", hex floats and overflow are refused.
Result<double> ParseRealIn(std::string_view text, double lo, double hi, bool lo_open = false);

// "1 to 100000", "above 0 and at most 600": the range in words, for messages.
std::string RangeText(double lo, double hi, bool lo_open = false);
// The range as it is shown in --help after the type: "[1,100000]", "(0,600]".
std::string RangeTag(double lo, double hi, bool lo_open = false);

}  // namespace regrapht
