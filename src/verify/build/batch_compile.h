// Sharing one nvcc invocation between device-only compile checks.
//
// Most of nvcc's time on a small source is a fixed cost per translation
// unit (preprocessing and parsing the CUDA headers once per architecture;
// the numbers are in docs/performance.md "Compile checks"), so checking that
// many small sources compile (the trajectory gate) is mostly that fixed
// cost. Several sources can share a translation unit when putting
// them side by side cannot change whether any of them compiles:
//
//   - the includes come before any code or other directive, and sources of
//     a batch have the same includes, in order (each sees its own headers);
//   - other directives are `#pragma unroll`, `#define`, `#undef` of a macro
//     the source defined, and balanced conditionals; each source's macros are
//     undefined after it (so none reaches the next), count as names it
//     declares, and are never used at namespace scope (where a macro could
//     declare names unseen);
//   - no source uses a name another declares at namespace scope (so no
//     source borrows a function, type or global of another), which also
//     keeps two declarations of one name apart; the one exception is a
//     macro that both define before mentioning it (CUDA_CHECK): each source
//     sees only its own definition;
//   - nothing that changes lookup for the code after it: no `operator`
//     declared at namespace scope, no unscoped `enum`, no `using` other than
//     an alias, no explicit specialisation (`template <>`);
//   - each source ends in a complete declaration (`;`, or the `}` of a
//     function, namespace or linkage block), so no token of one continues a
//     declaration of the previous.
//
// Names are compared as identifiers (an over-approximation: two sources
// that merely mention the same name are kept apart). A batch that compiles
// proves that each of its sources compiles alone; one that fails proves
// nothing, and its sources are compiled one at a time (Verifier::
// CompileOnlyMany), so a failing source's verdict and log are always its own.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace regrapht::verify {

// A source that may share a translation unit (see the rules above).
struct BatchUnit {
  std::vector<std::string> includes;  // the include lines, in order
  std::string body;                   // the source with those lines blanked (line numbers kept)
  std::set<std::string> macros;       // macros it defines
  std::set<std::string> own_macros;   // of those, the ones first mentioned by their #define
  std::set<std::string> declared;     // names declared at namespace scope, macros included
  std::set<std::string> identifiers;  // every identifier it uses or declares, in directives too
};

// The unit of `source`, or nullopt (with the reason in *why when given) when
// the source must be compiled alone.
std::optional<BatchUnit> BatchUnitOf(std::string_view source, std::string* why = nullptr);

// Groups of indices into `units` (nullopt entries are never grouped) of at
// most `max_size` units each, every group sharing its include lines and no
// unit of a group using a name another declares. Greedy, first fit, in
// input order. Units in no group of two or more are left out.
std::vector<std::vector<size_t>> PlanBatches(const std::vector<std::optional<BatchUnit>>& units,
                                             size_t max_size);

// The translation unit of a group: the shared includes, then each unit's body
// under `#line 1 "<names[i]>"` (diagnostics name the source), followed by an
// `#undef` of each of its macros.
std::string BatchSource(const std::vector<const BatchUnit*>& units,
                        const std::vector<std::string>& names);

}  // namespace regrapht::verify
