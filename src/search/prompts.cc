#include "search/prompts.h"

namespace regrapht {
namespace prompts_embedded {
struct EmbeddedFile {
  const char* name;
  const char* text;
};
extern const EmbeddedFile kPromptFiles[];
}  // namespace prompts_embedded

PromptLibrary::PromptLibrary() {
  for (const auto* f = prompts_embedded::kPromptFiles; f->name; ++f) templates_[f->name] = f->text;
}

Status PromptLibrary::LoadOverrides(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::NotFound(dir.string() + ": not a folder");
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".txt") continue;
    std::string name = e.path().filename().string();
    if (!templates_.count(name)) {
      return Status::InvalidArgument(e.path().string() + ": not a known prompt template");
    }
    RG_ASSIGN_OR_RETURN(templates_[name], ReadFile(e.path()));
  }
  return Status::Ok();
}

Result<std::string> PromptLibrary::Render(const std::string& name,
                                          const std::map<std::string, std::string>& vars) const {
  auto it = templates_.find(name);
  if (it == templates_.end()) return Status::NotFound("prompt template " + name);
  return RenderTemplate(it->second, vars, name);
}

}  // namespace regrapht
