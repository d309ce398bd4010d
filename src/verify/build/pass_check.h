// Does the code the emulator compiles equal the code nvcc compiles?
//
// nvcc preprocesses a .cu file more than once: a host pass (__CUDACC__, no
// __CUDA_ARCH__) and a device pass per architecture (__CUDA_ARCH__ = 800,
// 900, ...); the emulator compiles one program for both sides with the host
// compiler. A candidate whose conditional directives select different lines
// in those passes (`#ifdef __CUDA_ARCH__`, a macro only the emulator's
// compiler defines, `#if` on a pasted macro name) would have the emulator
// check code the GPU never runs. So, for a source with a conditional
// directive, the lines that survive preprocessing in each pass are compared
// (docs/emulator.md, "One program for both passes"): any difference makes
// the candidate not emulable.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace regrapht::verify {

// Whether `source` has a conditional preprocessing directive (#if, #ifdef,
// #ifndef, #elif, #elifdef, #elifndef; also spelled with %:, with comments
// or line splices between): only such a source can differ between passes.
bool HasConditionalDirective(std::string_view source);

// The line numbers of `file` (compared by base name) that leave non-blank
// text in the preprocessed translation unit `ii` (GCC's line markers).
std::set<int> SurvivingLines(std::string_view ii, std::string_view file);

struct PassView {
  std::string name;  // "nvcc's host pass", "nvcc's device pass for compute_90", "the emulator"
  std::set<int> lines;
};

// "" when every view has the same lines; else a sentence naming the first
// line on which two of them disagree.
std::string FirstPassDifference(const std::vector<PassView>& views);

// A PassView list as text (one "name<TAB>line line ..." per view) and back:
// how the views of an nvcc compile are kept in the build cache.
std::string FormatPassViews(const std::vector<PassView>& views);
std::vector<PassView> ParsePassViews(std::string_view text);

}  // namespace regrapht::verify
