// Text normalisation for technique labels: shared by the taxonomy's
// validation (no two techniques may claim the same phrase) and the
// deterministic relabeler, so both agree on what "the same phrase" means.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace regrapht {

// Lowercase ASCII; each run of characters other than [a-z0-9] becomes one
// space; trimmed. "Shared-Memory  Tiling!" -> "shared memory tiling".
std::string NormalizeLabel(std::string_view text);

// A content token of a label, with the weight it carries in a query.
struct LabelToken {
  std::string stem;
  double weight = 1.0;  // 0.5 inside a purpose clause ("... to reduce traffic")
};

// The label's content words: NormalizeLabel's words without stop words
// ("use", "optimization", "cuda", ...) or bare numbers, each stemmed
// (StemWord), first occurrence kept. Words after "for" or "to" name the goal
// rather than the method and get weight 0.5.
std::vector<LabelToken> LabelTokens(std::string_view text);

// The sorted, space-joined stems of LabelTokens: two phrases with the same
// key use the same content words. "" if the label has none.
std::string StemKey(std::string_view text);

// A light suffix stripper (not Porter): "coalesced", "coalescing" and
// "coalesce" all give "coalesc"; "parallelization", "parallelize" and
// "parallelism" give "parallel". Words under 4 letters or with digits are
// kept as they are.
std::string StemWord(std::string_view word);

bool IsLabelStopWord(std::string_view word);

}  // namespace regrapht
