// Output shaping for small models: the reply is forced into the form the
// extractor wants (docs/llm.md, "Output shaping").
//
// A CodeShape describes "one ```cuda block that defines the target
// function". MakeOutputShape turns it into an OutputShape for a request:
//   - prefill: the assistant turn starts with the opening fence, the
//     includes and the opener (the embedded backend evaluates it as part of
//     the prompt; every reply's text starts with it);
//   - grammar: GBNF for the rest of the reply: at most `max_lines` lines
//     before and after a line holding the function's head (its return type
//     and name up to the opening parenthesis), lines of at most
//     `max_line_chars` characters without backticks, then the closing fence;
//     after it only end-of-generation is allowed;
//   - close: without a grammar, generation ends after the closing fence.
// Pure functions; no model needed.
#pragma once

#include <string>
#include <string_view>

#include "regrapht/llm.h"

namespace regrapht::llm {

struct CodeShape {
  std::string signature;  // e.g. "void saxpy(int n, float a, const float* x, float* y)"
  std::string language = "cuda";
  std::string includes = "#include <cuda_runtime.h>\n";
  // Text the prefill ends with after the includes, e.g. "\n__global__ void
  // saxpy_kernel(" so that a drop-in reply starts with its kernel (empty in
  // the kernel form, where the kernel is the head itself).
  std::string opener;
  int max_tokens = 1024;  // the request's, to size max_lines
};

// The opening of the reply: "```cuda\n" + includes + opener.
std::string CodePrefill(const CodeShape& shape);

// The function's head: the signature up to and including its "(", with
// runs of white space made single spaces, e.g. "void saxpy(".
std::string FunctionHead(std::string_view signature);

// `text` as a GBNF string literal, quotes included ("a\"b\n").
std::string GbnfLiteral(std::string_view text);

// The GBNF (rule "root") of the block's remainder. With `with_prefill`
// false the grammar also covers the prefill (for servers that cannot
// prefill but take a grammar).
std::string CodeGrammar(const CodeShape& shape, const ShapeOptions& options, bool with_prefill);

// The shape to put on a request, as the options say.
OutputShape MakeOutputShape(const CodeShape& shape, const ShapeOptions& options);

}  // namespace regrapht::llm
