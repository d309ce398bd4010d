// Small string helpers shared by every module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace regrapht {

std::string_view Trim(std::string_view s);
std::vector<std::string> Split(std::string_view s, char sep);
std::vector<std::string> SplitLines(std::string_view s);
std::string Join(const std::vector<std::string>& parts, std::string_view sep);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string ToLower(std::string_view s);
std::string ReplaceAll(std::string s, std::string_view from, std::string_view to);

// The first line of `s` (without its line break), cut to `max_bytes` with
// "..." as its last three bytes when longer. REQUIRES: max_bytes >= 3.
std::string FirstLine(std::string_view s, size_t max_bytes);

// Keeps at most `max_bytes` of `s`: the head and the tail, with a marker
// saying how many bytes were cut from the middle.
std::string TruncateMiddle(std::string_view s, size_t max_bytes);

// `s` between double quotes, as error messages name a value: "name".
std::string Quoted(std::string_view s);

// Parses a whole decimal integer; nullopt on any junk.
std::optional<int64_t> ParseInt(std::string_view s);
std::optional<double> ParseDouble(std::string_view s);

// 1-based line number of byte `offset` in `text`.
int LineOfOffset(std::string_view text, size_t offset);

// "1 generation", "0 generations", "3 generations": `n` and `noun`, with an
// "s" unless n is 1.
std::string Plural(int64_t n, std::string_view noun);

// Quotes for a POSIX shell (for logs and reproducible command lines).
std::string ShellQuote(std::string_view arg);
std::string ShellJoin(const std::vector<std::string>& argv);

}  // namespace regrapht
