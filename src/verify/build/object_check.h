// Checks on what the compiler made of a candidate, not on how its source is
// spelled (docs/trust.md). The source lint (static_check.h) runs first and
// is fast; these decide:
//
//  - ObjectCheck reads the host object nvcc produced (ELF64 relocatable) and
//    rejects: any undefined symbol outside an allow-list (CUDA runtime,
//    math, allocation, formatted output, the C++ runtime minus threads,
//    clocks, files and standard input, and the libraries the problem
//    allows); any global definition that would interpose a symbol the
//    driver or a runtime library provides (C-linkage names other than the
//    candidate's kernels, strong or non-COMDAT definitions in namespace std,
//    anything the driver object itself leaves undefined except the function
//    under test); start-up and exit hooks other than nvcc's registration
//    and C++ dynamic initialisation (.init_array entries, .fini_array,
//    .preinit_array, .ctors, .dtors).
//  - HostAsmFindings reads the host translation unit after nvcc's front end
//    (device code removed, macros expanded) and rejects inline assembly on
//    any line that came from the candidate's file.
//
// Each finding names the rule and the symbol, section or line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/build/static_check.h"

namespace regrapht::verify {

struct ObjectCheckOptions {
  std::string function;                // the function under test (unmangled name)
  std::vector<std::string> libraries;  // allowed: cublas, cusparse, cufft, curand, thrust, cub
  std::vector<std::string> kernels;    // names of the candidate's __global__ functions
  // The emulator's build of a candidate carries the emulated runtime (its own
  // definitions and system calls): there only the start-up/exit hooks are
  // checked; the nvcc object of the same source has had the full check.
  bool hooks_only = false;
  // Undefined symbols of the other harness objects linked with the candidate
  // (the kernel form's adapter): the candidate must not define these either.
  std::vector<std::string> harness_needs;
};

// The undefined symbols of an ELF64 relocatable object (empty if malformed).
std::vector<std::string> UndefinedSymbols(std::string_view object);

// `object`: the candidate's host object file; `driver_object`: the driver's
// (its undefined symbols are what the candidate must not define). A file
// that is not a well-formed ELF64 relocatable object is itself a finding.
std::vector<StaticFinding> ObjectCheck(std::string_view object, std::string_view driver_object,
                                       const ObjectCheckOptions& options);

// `translation_unit`: preprocessed host code with # line markers; lines
// attributed to a file whose name ends in `source_name` are the candidate's.
std::vector<StaticFinding> HostAsmFindings(std::string_view translation_unit, std::string_view source_name);

// Whether `symbol` may be left undefined by a candidate (exposed for tests).
bool UndefinedSymbolAllowed(const std::string& symbol, const std::vector<std::string>& libraries);

}  // namespace regrapht::verify
