// Text templates with {{name}} placeholders (the prompt files in
// data/prompts/). Rendering fails on a placeholder without a value, so a
// template edit that asks for something the code does not provide is caught
// at once rather than sent to a model.
#pragma once

#include <map>
#include <string>

#include "regrapht/status.h"

namespace regrapht {

// Substitutes every {{name}} in `text` with vars[name]. Fails
// (InvalidArgument, prefixed with `source`) on the first unknown placeholder
// or an unterminated "{{".
Result<std::string> RenderTemplate(const std::string& text,
                                   const std::map<std::string, std::string>& vars,
                                   const std::string& source);

}  // namespace regrapht
