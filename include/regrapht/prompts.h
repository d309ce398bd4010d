// Prompt templates: files with {{name}} placeholders. The defaults
// (data/prompts/*.txt) are compiled into the library; a folder of files
// (--prompts) overrides any of them by file name.
//
//   PromptLibrary prompts;                       // the built-in templates
//   Status s = prompts.LoadOverrides("my-prompts/");
//
// Rendering fails on a placeholder without a value, so a template edit that
// asks for something the code does not provide is caught at once.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "regrapht/status.h"

namespace regrapht {

class PromptLibrary {
 public:
  // The compiled-in defaults.
  PromptLibrary();
  // Overrides templates with the files in `dir` (only *.txt). Unknown file
  // names are an error, so a typo does not silently fall back.
  Status LoadOverrides(const std::filesystem::path& dir);

  // Renders template `name` ("step.txt") with `vars`.
  Result<std::string> Render(const std::string& name,
                             const std::map<std::string, std::string>& vars) const;
  bool Has(const std::string& name) const { return templates_.count(name) != 0; }
  const std::map<std::string, std::string>& templates() const { return templates_; }

 private:
  std::map<std::string, std::string> templates_;
};

}  // namespace regrapht
