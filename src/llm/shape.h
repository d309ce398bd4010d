// Output shaping for small models: the reply is forced into the form the
// extractor wants (docs/llm.md, "Output shaping").
//
// A CodeShape describes "one ```cuda block that defines the target
// function". MakeOutputShape turns it into an OutputShape for a request:
//   - prefill: the assistant turn starts with the opening fence, the
//     includes and the opener (the embedded backend evaluates it as part of
//     the prompt; every reply's text starts with it);
//   - grammar: GBNF for the rest of the reply: code the compiler's lexer
//     reads (brackets balanced, string and character literals and comments
//     closed on their lines, directives on lines of their own, no backtick),
//     closing what the prefill opened, then, starting a line, the function
//     defined with its exact signature, and the closing fence right after
//     its body; at most `max_group_chars` characters at any one bracket
//     level (and at the top level before the function); after the fence
//     only end-of-generation is allowed;
//   - wrap-up (with prefill and grammar): the signature, for the backend to
//     write the function's head when tokens run short (WrapUpText);
//   - close: without a grammar, generation ends after the closing fence.
// Pure functions; no model needed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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
  int max_tokens = 1024;  // the request's, to size the grammar's bound
  // Grammar: the function's body launches a kernel (`<<<` ... `>>>` at its
  // top level), as the drop-in form's static check requires.
  bool require_launch = false;
};

// The opening of the reply: "```cuda\n" + includes + opener.
std::string CodePrefill(const CodeShape& shape);

// `text` as a GBNF string literal, quotes included ("a\"b\n").
std::string GbnfLiteral(std::string_view text);

// `signature` with runs of white space made single spaces.
std::string NormalizedSignature(std::string_view signature);

// The brackets ( [ { and launches <<< that `code` leaves open, outermost
// first, a launch as '<' ("(" for "__global__ void k("); brackets in
// directives do not count.
std::string OpenBrackets(std::string_view code);

// The wrap-up's stages (OutputShape::wrap_up), in order.
enum class WrapUpStage { kNone, kHead, kLaunch, kClose };

// What the wrap-up may write after `text`, a shaped reply so far (its
// prefill included), at `stage`, the best first (the backend writes the
// first its grammar takes whole). Each starts with the closer of a literal,
// comment or directive left open; then
//   - kHead, if `text` has not begun defining the function `signature`
//     names: the closers of the open brackets, a ";" ending a declaration
//     left open at the top level (the first text only), a new line and the
//     signature with " {\n";
//   - kLaunch, inside the function's body when it launches nothing yet and
//     `launch` is set: the closers of the brackets open inside the body, a
//     new line and `launch` ("k<<<");
//   - kClose, inside the function's body: the closers, a new line and the
//     closing fence.
// None otherwise.
std::vector<std::string> WrapUpTexts(std::string_view signature, std::string_view launch, std::string_view text,
                                     WrapUpStage stage);

// Whether `text`, a shaped reply so far, ends with the "}" that closes a
// top-level definition of the function `signature` names: the wrap-up then
// writes the closing fence (the grammar allows nothing else after the
// definition; without this a model could go on as if it were any code).
bool EndsDefinition(std::string_view signature, std::string_view text);

// What the wrap-up writes instead of a token that would close the body of
// the function `signature` names, when `text` (a shaped reply so far) is in
// that body with nothing else open: "}\n```" (the function and the block
// end together: a token such as "};" or "}\n\n" would otherwise leave the
// grammar only its reading of the function as any code), or, when `launch`
// is set and the body launches nothing yet, "\n  " + launch. "" elsewhere.
std::string BodyCloser(std::string_view signature, std::string_view launch, std::string_view text);

// The GBNF (rule "root") of the block's remainder. With `with_prefill`
// false the grammar also covers the prefill (for servers that cannot
// prefill but take a grammar). Every text it accepts lexes without a
// problem (scan::ScannedSource) and defines the function.
std::string CodeGrammar(const CodeShape& shape, const ShapeOptions& options, bool with_prefill);

// The shape to put on a request, as the options say.
OutputShape MakeOutputShape(const CodeShape& shape, const ShapeOptions& options);

}  // namespace regrapht::llm
