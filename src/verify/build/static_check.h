// Static checks on a candidate's source, before anything is compiled or run.
//
// They enforce the contract (defines the function, has a __global__ kernel it
// launches) and keep candidates away from the harness and the machine:
// no host threads, processes, sockets, file I/O, environment, signal or
// exit hooks, device resets, token pasting (which would hide banned names),
// quoted includes, and no library calls unless the problem allows them.
// The source is read with core/scanner.h: comments and string literals are
// ignored, a source it cannot lex (rule "well-formed": an unterminated
// comment or literal, unbalanced brackets) is refused, and "defines the
// function" means a definition (a head, the name, parameters, a body: not a
// call, not a prototype). Each finding names its rule.
//
// These checks are a first line; the sandbox and the runtime checks are the
// others. A determined adversary can write code these rules do not see.
#pragma once

#include <string>
#include <vector>

namespace regrapht::verify {

struct StaticFinding {
  std::string rule;    // "no-file-io", "defines-function", ...
  int line = 0;        // 1-based; 0 when not tied to a line
  std::string detail;

  std::string ToString() const;
};

struct StaticCheckOptions {
  std::string function;                 // must be defined
  std::vector<std::string> libraries;   // allowed: cublas, cusparse, cufft, curand, thrust, cub
  bool require_kernel = true;           // false for plain C++ (harness self-tests)
  // Kernel form: `function` is a __global__ kernel the harness launches; no
  // host function and no launch are required.
  bool kernel_only = false;
};

std::vector<StaticFinding> StaticCheck(const std::string& source, const StaticCheckOptions& options);

// Names of the __global__ functions `source` declares or defines, sorted
// and unique (core/scanner.h reads the source: comments and literals are
// no code).
std::vector<std::string> KernelNames(const std::string& source);

}  // namespace regrapht::verify
