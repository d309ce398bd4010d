// Numeric command-line options, all through one parser (core/numbers.h):
// every numeric option of every command is registered with AddNumber, which
// refuses junk, NaN, infinities, overflow and values outside the option's
// range as a usage error (exit 2) naming the option and the range:
//
//   regrapht bench: --samples: -1 is below the minimum 1 (allowed: 1 to 100000)
//
// The help shows the range in the type, "--samples INT:[1,100000]=1"; the
// randomized fault test (tests/faults/fuzz_cli.py) reads it there and tries
// values outside it on every command. A plain add_option on a number is a
// bug that test finds (its type shows as INT or FLOAT without a range).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/numbers.h"

namespace regrapht::cli {

// A closed range [lo, hi], or (lo, hi] with lo_open.
template <typename T>
struct NumRange {
  T lo, hi;
  bool lo_open = false;
};

// Ranges that options of the same name share across commands.
inline constexpr NumRange<int> kBudgetRange{1, 1000000};      // --budget: generations per search
inline constexpr NumRange<int> kMaxDepthRange{1, 64};         // --max-depth: steps of a path
inline constexpr NumRange<uint64_t> kSeedRange{0, std::numeric_limits<uint64_t>::max()};
inline constexpr NumRange<float> kTemperatureRange{0.0f, 10.0f};
inline constexpr NumRange<float> kTopPRange{0.0f, 1.0f};
inline constexpr NumRange<int> kMaxTokensRange{1, 1000000};
inline constexpr NumRange<int> kJobsRange{1, 1024};           // --jobs where 0 means nothing

template <typename T>
std::string FormatNumberDefault(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
  } else {
    return std::to_string(v);
  }
}

// Parses `text` for an option of type T in `r`; the status says why not.
template <typename T>
Result<T> ParseNumberOption(const std::string& text, NumRange<T> r) {
  static_assert(std::is_arithmetic_v<T>);
  if constexpr (std::is_floating_point_v<T>) {
    RG_ASSIGN_OR_RETURN(double v, ParseRealIn(text, static_cast<double>(r.lo), static_cast<double>(r.hi), r.lo_open));
    return static_cast<T>(v);
  } else if constexpr (std::is_unsigned_v<T>) {
    RG_ASSIGN_OR_RETURN(uint64_t v, ParseUnsignedIn(text, r.lo, r.hi));
    return static_cast<T>(v);
  } else {
    RG_ASSIGN_OR_RETURN(int64_t v, ParseWholeIn(text, r.lo, r.hi));
    return static_cast<T>(v);
  }
}

// The type shown in --help: INT:[lo,hi] for whole numbers, NUM:[lo,hi] else.
template <typename T>
std::string NumberTypeName(NumRange<T> r) {
  return std::string(std::is_floating_point_v<T> ? "NUM:" : "INT:") +
         (std::is_unsigned_v<T> && r.hi == std::numeric_limits<T>::max()
              ? "[" + std::to_string(r.lo) + "," + std::to_string(r.hi) + "]"
              : RangeTag(static_cast<double>(r.lo), static_cast<double>(r.hi), r.lo_open));
}

// Adds the option `names` ("--samples", "-j,--jobs") writing `*target`, which
// holds the default (shown in --help).
template <typename T>
CLI::Option* AddNumber(CLI::App* sub, const std::string& names, T* target, NumRange<T> range,
                       const std::string& help) {
  // The check runs before the callback (CLI11 validates, then stores): a
  // refused value never reaches `*target`.
  CLI::Option* opt = sub->add_option_function<std::string>(
      names, [target, range](const std::string& v) { *target = *ParseNumberOption(v, range); }, help);
  opt->check(CLI::Validator(
      [range](std::string& v) -> std::string {
        auto r = ParseNumberOption(v, range);
        return r.ok() ? std::string() : r.status().message();
      },
      ""));
  opt->type_name(NumberTypeName(range));
  opt->default_str(FormatNumberDefault(*target));
  return opt;
}

// A repeatable or comma-separated list of numbers, each in `range`.
template <typename T>
CLI::Option* AddNumbers(CLI::App* sub, const std::string& names, std::vector<T>* target, NumRange<T> range,
                        const std::string& help) {
  std::string shown_default;
  for (T v : *target) shown_default += (shown_default.empty() ? "" : ",") + FormatNumberDefault(v);
  CLI::Option* opt = sub->add_option_function<std::vector<std::string>>(
      names,
      [target, range](const std::vector<std::string>& vs) {
        target->clear();
        for (const auto& v : vs) target->push_back(*ParseNumberOption(v, range));
      },
      help);
  opt->check(CLI::Validator(
      [range](std::string& v) -> std::string {
        auto r = ParseNumberOption(v, range);
        return r.ok() ? std::string() : r.status().message();
      },
      ""));
  opt->delimiter(',');
  opt->type_name(NumberTypeName(range));
  opt->default_str(shown_default);
  return opt;
}

}  // namespace regrapht::cli
